// The cost of xacro: loading a description from its .urdf.xacro (expansion, then the URDF plugin,
// frame graph and kinematics) against loading the URDF that expansion produced (the same work
// without the expansion). The difference is the expansion; the issue asks it be well under the
// URDF load. Franka FR3 (with hand) and Universal Robots UR5e (xacro.load_yaml of four files).
// The program prints the ratio expansion / URDF load for each and exits non-zero when one is not
// under kTargetRatio (the fastest repetition of each counts: the machine may be shared).
// The xacro plugin keeps the files it parsed for the process (by path and text), so the repeated
// loads of the benchmark find them parsed; the first load of each description in the process
// (what one `interlink check` pays) is timed apart, once, before the benchmarks, and counts too.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "interlink/Loader.hpp"

namespace {

struct Description {
  const char* name;
  const char* file;
  std::vector<std::pair<std::string, std::string>> arguments;
};

const Description kDescriptions[] = {
    {"franka_fr3", "franka_description/robots/fr3/fr3.urdf.xacro", {}},
    {"ur5e", "ur_description/urdf/ur.urdf.xacro", {{"ur_type", "ur5e"}, {"name", "ur5e"}}},
};

/// "Well under the URDF load": the expansion costs less than half of reading what it produced.
constexpr double kTargetRatio = 0.5;

/// Keeps the fastest CPU time of every benchmark while printing as usual.
class FastestTimes : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
      const double cpu = run.GetAdjustedCPUTime();
      auto [entry, added] = fastest.emplace(run.run_name.function_name, cpu);
      if (!added) entry->second = std::min(entry->second, cpu);
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> fastest;  // microseconds
};

const interlink::Loader& loader() {
  static const interlink::Loader instance;
  return instance;
}

interlink::LoadOptions options(const Description& d) {
  interlink::LoadOptions o;
  o.resourcePaths = {INTERLINK_TEST_DATA};
  o.arguments = d.arguments;
  return o;
}

void loadXacro(benchmark::State& state, const Description& d) {
  const std::string path = std::string(INTERLINK_TEST_DATA) + "/" + d.file;
  for (auto _ : state) {
    interlink::LoadResult r = loader().loadFile(path, options(d));
    if (!r.ok()) {
      state.SkipWithError("the xacro file did not load");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
}

void loadExpandedUrdf(benchmark::State& state, const Description& d) {
  const std::string path = std::string(INTERLINK_TEST_DATA) + "/" + d.file;
  interlink::LoadOptions keepText = options(d);
  keepText.keepExpandedText = true;
  const interlink::LoadResult expanded = loader().loadFile(path, keepText);
  const std::string urdf = expanded.expandedText;
  if (urdf.empty()) {
    state.SkipWithError("the xacro file gave no expanded text");
    return;
  }
  const std::string name = path.substr(0, path.size() - 6);  // beside the xacro file, as .urdf
  for (auto _ : state) {
    interlink::LoadResult r = loader().loadString(urdf, name, options(d));
    if (!r.ok()) {
      state.SkipWithError("the expanded URDF did not load");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
}

double threadCpuMicroseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

/// CPU time of the first load of each description in this process (the URDF and xacro plugins
/// opened before, so that opening them is not counted as expansion).
std::map<std::string, double> firstLoads() {
  static const char* const kOpenPlugins =
      "<robot name='r' xmlns:xacro='http://www.ros.org/wiki/xacro'><link name='l'/></robot>";
  (void)loader().loadString(kOpenPlugins, "open.urdf", {});
  (void)loader().loadString(kOpenPlugins, "open.urdf.xacro", {});
  std::map<std::string, double> times;
  for (const Description& d : kDescriptions) {
    const std::string path = std::string(INTERLINK_TEST_DATA) + "/" + d.file;
    const double start = threadCpuMicroseconds();
    const interlink::LoadResult r = loader().loadFile(path, options(d));
    times[d.name] = r.ok() ? threadCpuMicroseconds() - start : -1;
  }
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  for (const Description& d : kDescriptions) {
    benchmark::RegisterBenchmark((std::string("xacro/") + d.name).c_str(), loadXacro, d)
        ->Unit(benchmark::kMicrosecond)
        ->Repetitions(3);
    benchmark::RegisterBenchmark((std::string("urdf_of_expansion/") + d.name).c_str(), loadExpandedUrdf, d)
        ->Unit(benchmark::kMicrosecond)
        ->Repetitions(3);
  }
  benchmark::Initialize(&argc, argv);
  const std::map<std::string, double> first = firstLoads();
  FastestTimes times;
  benchmark::RunSpecifiedBenchmarks(&times);
  int status = 0;
  for (const Description& d : kDescriptions) {
    auto xacro = times.fastest.find(std::string("xacro/") + d.name);
    auto urdf = times.fastest.find(std::string("urdf_of_expansion/") + d.name);
    if (xacro == times.fastest.end() || urdf == times.fastest.end()) continue;  // filtered out
    const double expansion = xacro->second - urdf->second;
    const double ratio = expansion / urdf->second;
    const bool met = ratio < kTargetRatio;
    std::printf("%s: expansion %.0f us, URDF load %.0f us, ratio %.2f (target < %.2f): %s\n", d.name, expansion,
                urdf->second, ratio, kTargetRatio, met ? "met" : "MISSED");
    if (!met) status = 1;
    const double firstLoad = first.at(d.name);
    if (firstLoad < 0) continue;
    const double firstRatio = (firstLoad - urdf->second) / urdf->second;
    const bool firstMet = firstRatio < kTargetRatio;
    std::printf("%s, first load in the process: expansion %.0f us, ratio %.2f (target < %.2f): %s\n", d.name,
                firstLoad - urdf->second, firstRatio, kTargetRatio, firstMet ? "met" : "MISSED");
    if (!firstMet) status = 1;
  }
  return status;
}
