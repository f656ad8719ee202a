// bench_hrdf: parse + build (frame graph, kinematics) + forward kinematics of HRDF files through
// the real loader and plugins. The target: <= 1 ms for the largest corpus HRDF
// (Daisy.hrdf, a hexapod that includes its leg six times).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"

namespace {

/// HEBI's HRDF files: the hrdf/ folder of the external corpus named by INTERLINK_TEST_CORPUS
/// (docs/dev/ci.md) when it is set, else the copies the repository vendors in tests/data/hrdf.
std::string hrdfRoot() {
  const char* corpus = std::getenv("INTERLINK_TEST_CORPUS");
  return corpus && *corpus ? std::string(corpus) + "/hrdf" : std::string(INTERLINK_HRDF_DATA);
}

const std::string kCorpus = hrdfRoot();

void loadAndMove(benchmark::State& state, const std::string& relative) {
  interlink::Loader loader;
  const std::string path = kCorpus + "/" + relative;
  {
    const auto check = loader.loadFile(path);
    if (!check.ok()) {
      // The corpus variable, when set, must name a directory with HEBI's files under hrdf/.
      state.SkipWithError(("cannot load " + path + " (INTERLINK_TEST_CORPUS: see docs/dev/ci.md)").c_str());
      return;
    }
  }
  for (auto _ : state) {
    auto result = loader.loadFile(path);
    std::vector<double> q(result.kinematics.dofs().size());
    for (std::size_t k = 0; k < q.size(); ++k) q[k] = 0.1 * static_cast<double>(k + 1);
    interlink::Diagnostics diagnostics;
    auto poses = result.kinematics.framePoses(q, diagnostics);
    benchmark::DoNotOptimize(poses);
  }
}

void forwardKinematicsOnly(benchmark::State& state, const std::string& relative) {
  interlink::Loader loader;
  const auto result = loader.loadFile(kCorpus + "/" + relative);
  std::vector<double> q(result.kinematics.dofs().size(), 0.3);
  for (auto _ : state) {
    interlink::Diagnostics diagnostics;
    auto poses = result.kinematics.framePoses(q, diagnostics);
    benchmark::DoNotOptimize(poses);
  }
}

}  // namespace

BENCHMARK_CAPTURE(loadAndMove, Daisy_largest, std::string("hebi_description/config/daisy/hrdf/Daisy.hrdf"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(loadAndMove, A_2303_01G_7dof_arm, std::string("hebi_description/config/arms/hrdf/A-2303-01G.hrdf"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(forwardKinematicsOnly, Daisy_largest, std::string("hebi_description/config/daisy/hrdf/Daisy.hrdf"))
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
