// bench_skel: for every .skel file of DART's corpus, Interlink's full load (parse, frame graph,
// kinematics) against DART 6.12's SkelParser::readWorld, in one run. A table of the ratios ends
// the output; the target is >= 10x on the largest file.
//
// DART crashes on four corpus files (see tests/skel/SkelTest.cpp); those are timed for Interlink
// only. Usage: bench_skel [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dart/utils/SkelParser.hpp>
#include <dart/simulation/World.hpp>

#include "interlink/Loader.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kCorpus = DART_SKEL_CORPUS;
const std::set<std::string> kDartCrashes = {"kima/kima_human_left_leg.skel", "test/test_single_body.skel",
                                            "test/test_single_pendulum.skel", "test/test_double_pendulum.skel"};

struct Input {
  std::string relative;
  std::string path;
  std::uintmax_t bytes = 0;
};

std::vector<Input> corpus() {
  std::vector<Input> inputs;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(kCorpus, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".skel") {
      inputs.push_back({it->path().lexically_relative(kCorpus).string(), it->path().string(), it->file_size()});
    }
  }
  std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.relative < b.relative; });
  return inputs;
}

const interlink::Loader& loader() {
  static const interlink::Loader instance;
  return instance;
}

/// Silences DART's console warnings while it loads.
class QuietStderr {
 public:
  QuietStderr() : saved_(std::cerr.rdbuf(sink_.rdbuf())) {}
  ~QuietStderr() { std::cerr.rdbuf(saved_); }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  std::ostringstream sink_;
  std::streambuf* saved_;
};

void loadInterlink(benchmark::State& state, const Input& input) {
  for (auto _ : state) {
    auto result = loader().loadFile(input.path);
    benchmark::DoNotOptimize(result);
    if (result.document.worlds.empty()) state.SkipWithError("Interlink produced no world");
  }
}

void loadDart(benchmark::State& state, const Input& input) {
  QuietStderr quiet;
  const auto uri = dart::common::Uri::createFromPath(input.path);
  for (auto _ : state) {
    auto world = dart::utils::SkelParser::readWorld(uri);
    benchmark::DoNotOptimize(world);
    if (!world) state.SkipWithError("DART returned no world");
  }
}

/// Keeps every run's time per iteration for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (!run.error_occurred && run.iterations > 0) {
        seconds_[run.benchmark_name()] = run.GetAdjustedCPUTime() * 1e-9;  // ns; CPU time: the machine is shared
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  double seconds(const std::string& name) const {
    const auto found = seconds_.find(name);
    return found == seconds_.end() ? 0.0 : found->second;
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto inputs = corpus();
  if (inputs.empty()) {
    std::fprintf(stderr, "no .skel files under %s (Debian package dart-doc)\n", kCorpus.c_str());
    return 1;
  }
  for (const auto& input : inputs) {
    benchmark::RegisterBenchmark(("interlink/" + input.relative).c_str(), loadInterlink, input)
        ->Unit(benchmark::kNanosecond);
    if (kDartCrashes.count(input.relative) == 0) {
      benchmark::RegisterBenchmark(("dart/" + input.relative).c_str(), loadDart, input)->Unit(benchmark::kNanosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);

  const auto largest = *std::max_element(inputs.begin(), inputs.end(),
                                         [](const Input& a, const Input& b) { return a.bytes < b.bytes; });
  std::printf("\n%-50s %9s %12s %12s %8s\n", "file", "bytes", "interlink us", "DART us", "ratio");
  for (const auto& input : inputs) {
    const double ours = reporter.seconds("interlink/" + input.relative);
    const double dart = reporter.seconds("dart/" + input.relative);
    if (ours <= 0) continue;
    if (dart > 0) {
      std::printf("%-50s %9ju %12.1f %12.1f %7.1fx\n", input.relative.c_str(), input.bytes, ours * 1e6, dart * 1e6,
                  dart / ours);
    } else {
      std::printf("%-50s %9ju %12.1f %12s %8s\n", input.relative.c_str(), input.bytes, ours * 1e6,
                  kDartCrashes.count(input.relative) ? "crashes" : "-", "-");
    }
  }
  const double ours = reporter.seconds("interlink/" + largest.relative);
  const double dart = reporter.seconds("dart/" + largest.relative);
  if (ours > 0 && dart > 0) {
    std::printf("\nlargest file %s (%ju bytes): Interlink %.1f us, DART %.1f us, %.1fx faster (target >= 10x)\n",
                largest.relative.c_str(), largest.bytes, ours * 1e6, dart * 1e6, dart / ours);
  }
  benchmark::Shutdown();
  return 0;
}
