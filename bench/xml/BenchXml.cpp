// bench_xml: interlink::xml::parse (tree built and destroyed) against expat's own scanning of
// the same generated SDFormat chain with an empty handler.
#include <benchmark/benchmark.h>

#include "XmlBenchSupport.hpp"

namespace interlink::bench {
namespace {

void BM_XmlParse(benchmark::State& state) {
  const std::string content = chainSdf(static_cast<int>(state.range(0)));
  const std::string fileName = "/tmp/interlink-bench/generated/chain.sdf";
  for (auto _ : state) benchmark::DoNotOptimize(parseAndDestroy(content, fileName));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(content.size()));
}
BENCHMARK(BM_XmlParse)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

void BM_ExpatFloor(benchmark::State& state) {
  const std::string content = chainSdf(static_cast<int>(state.range(0)));
  const std::string fileName = "/tmp/interlink-bench/generated/chain.sdf";
  for (auto _ : state) benchmark::DoNotOptimize(expatFloor(content, fileName));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(content.size()));
}
BENCHMARK(BM_ExpatFloor)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace interlink::bench

BENCHMARK_MAIN();
