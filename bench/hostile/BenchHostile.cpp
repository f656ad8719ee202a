// bench_hostile: loads of generated inputs that once took time quadratic in their size, at n to
// 8n; Google Benchmark fits the complexity (the "BigO" line of each family should read N, or
// NlgN, with a small RMS). Usage: bench_hostile [--benchmark_filter=...]
// `bench_hostile --table [CLI]` instead prints every hostile input of issue 14 with the time and
// peak memory of `interlink check` on it (HostileTable.cpp; docs/hostile-input.md).
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include "HostileInputs.hpp"
#include "HostileTable.hpp"
#include "interlink/Loader.hpp"

namespace {

namespace hostile = interlink::test::hostile;

const interlink::Loader& loader() {
  static const interlink::Loader instance;
  return instance;
}

/// Loads `make(n)` as `fileName` (parse, compose, frame graph, kinematics) once per iteration.
void loadGenerated(benchmark::State& state, const std::function<std::string(int)>& make, const std::string& fileName) {
  const int n = static_cast<int>(state.range(0));
  const std::string text = make(n);
  for (auto _ : state) {
    auto result = loader().loadString(text, fileName);
    benchmark::DoNotOptimize(result);
  }
  state.SetComplexityN(n);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}

void UrdfChain(benchmark::State& state) { loadGenerated(state, hostile::urdfChain, "/tmp/chain.urdf"); }
void ShiftMinified(benchmark::State& state) { loadGenerated(state, hostile::shiftMinified, "/tmp/minified.json"); }
void ShiftDuplicateJoints(benchmark::State& state) { loadGenerated(state, hostile::shiftDuplicateJoints, "/tmp/dup.json"); }
void SkelDuplicateSkeletons(benchmark::State& state) { loadGenerated(state, hostile::skelDuplicateSkeletons, "/tmp/dup.skel"); }
void JuiceDuplicateBodies(benchmark::State& state) { loadGenerated(state, hostile::juiceDuplicateBodies, "/tmp/dup.jm"); }
void XmlManyAttributes(benchmark::State& state) { loadGenerated(state, hostile::xmlManyAttributes, "/tmp/attributes.sdf"); }

#define HOSTILE_BENCHMARK(name, first) \
  BENCHMARK(name)->RangeMultiplier(2)->Range(first, 8 * (first))->Unit(benchmark::kMillisecond)->Complexity()

HOSTILE_BENCHMARK(UrdfChain, 2500);
HOSTILE_BENCHMARK(ShiftMinified, 1000);
HOSTILE_BENCHMARK(ShiftDuplicateJoints, 1000);
HOSTILE_BENCHMARK(SkelDuplicateSkeletons, 2500);
HOSTILE_BENCHMARK(JuiceDuplicateBodies, 4000);
HOSTILE_BENCHMARK(XmlManyAttributes, 25000);

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--table") == 0) {
    // The CLI beside this program in the build tree (bin/), unless named.
    const std::string cli = argc >= 3 ? argv[2] : (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "interlink").string();
    return interlink::bench::printHostileTable(cli);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
