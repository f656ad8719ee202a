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

const std::string kCorpus = INTERLINK_HRDF_CORPUS;

void loadAndMove(benchmark::State& state, const std::string& relative) {
  interlink::Loader loader;
  const std::string path = kCorpus + "/" + relative;
  {
    const auto check = loader.loadFile(path);
    if (!check.ok()) {
      state.SkipWithError(("cannot load " + path).c_str());
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
