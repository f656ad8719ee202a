// bench_sdformat: load + all frame-graph phases + every frame's pose on generated SDFormat inputs
// (issue 2, item 8), composition of 500 non-SDFormat includes and plugin discovery (issue 3,
// item 10), and libsdformat 12.3's sdf::Root::Load on the same files when it is available.
//
// Times come from Google Benchmark (Interlink: in-process, repeated; libsdformat: one run in a
// fresh child process, reported as manual time). Peak memory is always measured in a fresh child
// process (this executable re-run with --measure-child) with getrusage(RUSAGE_SELF).ru_maxrss, so
// one case's memory never inflates another's. A summary table with the ratios ends the output.
//
// Usage: bench_sdformat [--full] [--no-libsdformat] [--keep-inputs] [Google Benchmark flags]
//   --full            run libsdformat at every size up to the (chain 4000, world 2000);
//                     takes several minutes and ~8 GB. By default: chain 1000 and world 500 only.
//   --no-libsdformat  Interlink only.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "BenchInputs.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PluginRegistry.hpp"

#ifdef INTERLINK_BENCH_HAVE_SDFORMAT
#include <sdf/Console.hh>
#include <sdf/Root.hh>
#endif

namespace interlink::bench {
namespace {

const std::vector<int> kChainSizes = {1000, 2000, 4000, 8000};
const std::vector<int> kWorldSizes = {500, 1000, 2000, 4000};
const std::vector<int> kReferenceChainSizesDefault = {1000};
const std::vector<int> kReferenceWorldSizesDefault = {500};
// libsdformat at chain 8000 / world 4000 would need about 11 GB and 15 GB (1.4 GB per 1000 links,
// 1.8 GB per 500 models) and minutes each on a shared 23 GB machine: never run.
const std::vector<int> kReferenceChainSizesFull = {1000, 2000, 4000};
const std::vector<int> kReferenceWorldSizesFull = {500, 1000, 2000};
constexpr int kCompositionIncludes = 500;
// Enough repetitions for a stable mean while keeping the default run well under two minutes.
constexpr double kMinSeconds = 0.2;

long maxRssKb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// Touches every resolved pose so that nothing of the result can be optimised away.
double sumOfFramePositions(const LoadResult& result) {
  double sum = 0;
  for (const auto& frame : result.graph.frames()) sum += frame.pose.translation().sum();
  return sum;
}

LoadOptions benchLoadOptions(bool resolveFrames = true) {
  LoadOptions options;
  options.resolveFrames = resolveFrames;
  return options;
}

// ---------------------------------------------------------------------------------------------
// Child process: one measurement, printed as "ok=1 ms=12.3 start_kb=1000 peak_kb=20000 note=...".

int childMain(const std::string& mode, const std::string& path) {
  bool ok = false;
  double ms = 0;
  long startKb = 0;
  std::string note;
  if (mode == "interlink") {
    const Loader loader;
    startKb = maxRssKb();
    const auto start = std::chrono::steady_clock::now();
    const LoadResult result = loader.loadFile(path, benchLoadOptions());
    const double sum = sumOfFramePositions(result);
    ms = millisecondsSince(start);
    ok = result.ok();
    note = std::to_string(result.graph.frames().size()) + "_frames";
    if (sum != sum) note += "_nan";
  } else if (mode == "discover") {
    startKb = maxRssKb();
    const auto start = std::chrono::steady_clock::now();
    PluginRegistry registry;
    registry.discover();
    ms = millisecondsSince(start);
    ok = !registry.plugins().empty();
    note = std::to_string(registry.plugins().size()) + "_plugins";
#ifdef INTERLINK_BENCH_HAVE_SDFORMAT
  } else if (mode == "libsdformat") {
    sdf::Console::Instance()->SetQuiet(true);
    startKb = maxRssKb();
    const auto start = std::chrono::steady_clock::now();
    sdf::Root root;
    const sdf::Errors errors = root.Load(path);
    ms = millisecondsSince(start);
    ok = errors.empty();
    note = std::to_string(errors.size()) + "_errors";
#endif
  } else {
    std::fprintf(stderr, "unknown measurement '%s'\n", mode.c_str());
    return 2;
  }
  std::printf("ok=%d ms=%.6f start_kb=%ld peak_kb=%ld note=%s\n", ok ? 1 : 0, ms, startKb, maxRssKb(), note.c_str());
  return 0;
}

struct ChildMeasurement {
  bool valid = false;  // the child ran and printed a result
  bool ok = false;     // the load succeeded
  double ms = 0;
  long startKb = 0;
  long peakKb = 0;
  std::string note;
};

std::string selfPath() {
  std::array<char, 4096> buffer{};
  const ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  return n > 0 ? std::string(buffer.data(), static_cast<std::size_t>(n)) : std::string();
}

ChildMeasurement measureInChild(const std::string& mode, const std::string& path) {
  ChildMeasurement m;
  const std::string command = "'" + selfPath() + "' --measure-child " + mode + " '" + path + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return m;
  std::array<char, 512> line{};
  std::array<char, 128> note{};
  int ok = 0;
  if (std::fgets(line.data(), static_cast<int>(line.size()), pipe) &&
      std::sscanf(line.data(), "ok=%d ms=%lf start_kb=%ld peak_kb=%ld note=%127s", &ok, &m.ms, &m.startKb, &m.peakKb,
                  note.data()) == 5) {
    m.valid = true;
    m.ok = ok == 1;
    m.note = note.data();
  }
  pclose(pipe);
  return m;
}

// ---------------------------------------------------------------------------------------------
// Inputs and results shared by the benchmark functions and the summary.

struct Inputs {
  std::string directory;
  std::map<std::string, std::string> files;  // "chain/1000" -> path
  std::map<std::string, double> megabytes;
  std::string compositionFile;
  std::string compositionFormat;  // "jm", or "sdf" when no non-SDFormat plugin is built
};

Inputs& inputs() {
  static Inputs instance;
  return instance;
}

struct CaseFigures {
  double ms = -1;
  double cpuMs = -1;
  double peakMb = -1;
  double startMb = -1;
  double coldMs = -1;
};

/// Figures per case ("interlink/chain/1000", "libsdformat/chain/1000", ...).
std::map<std::string, CaseFigures>& figures() {
  static std::map<std::string, CaseFigures> instance;
  return instance;
}

void recordChild(benchmark::State& state, const std::string& key, const ChildMeasurement& m) {
  if (!m.valid) {
    state.SkipWithError("the measuring child process failed");
    return;
  }
  auto& f = figures()[key];
  f.peakMb = static_cast<double>(m.peakKb) / 1024.0;
  f.startMb = static_cast<double>(m.startKb) / 1024.0;
  f.coldMs = m.ms;
  state.counters["peak_MB"] = f.peakMb;
}

/// `resolveFrames` false measures parsing and composition alone (no frame graph, no kinematics),
/// to show where the time of the full load goes.
/// `expectedFrames` (0: unchecked) guards against measuring a load that silently lost frames.
void interlinkLoad(benchmark::State& state, const std::string& key, const std::string& path,
                   bool resolveFrames, std::size_t expectedFrames) {
  const Loader loader;
  const LoadResult first = loader.loadFile(path, benchLoadOptions(resolveFrames));
  if (!first.ok()) {
    const std::string message = first.diagnostics.empty() ? "load failed" : first.diagnostics.items().front().format();
    state.SkipWithError(message.c_str());
    return;
  }
  const std::size_t frameCount = first.graph.frames().size();
  if (resolveFrames && expectedFrames != 0 && frameCount != expectedFrames) {
    const std::string message =
        std::to_string(frameCount) + " frames resolved, expected " + std::to_string(expectedFrames);
    state.SkipWithError(message.c_str());
    return;
  }
  for (auto _ : state) {
    const LoadResult result = loader.loadFile(path, benchLoadOptions(resolveFrames));
    benchmark::DoNotOptimize(sumOfFramePositions(result));
    benchmark::DoNotOptimize(result.document);
  }
  state.counters["frames"] = static_cast<double>(frameCount);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(std::filesystem::file_size(path)));
  if (!resolveFrames) return;  // peak memory only for the full load
  if (figures()[key].peakMb < 0) recordChild(state, key, measureInChild("interlink", path));
  else state.counters["peak_MB"] = figures()[key].peakMb;
}

void referenceLoad(benchmark::State& state, const std::string& key, const std::string& path) {
  for (auto _ : state) {
    const ChildMeasurement m = measureInChild("libsdformat", path);
    if (!m.valid || !m.ok) {
      state.SkipWithError(("libsdformat failed: " + m.note).c_str());
      return;
    }
    state.SetIterationTime(m.ms / 1000.0);
    recordChild(state, key, m);
  }
}

void pluginDiscovery(benchmark::State& state) {
  std::size_t count = 0;
  for (auto _ : state) {
    PluginRegistry registry;
    registry.discover();
    count = registry.plugins().size();
    benchmark::DoNotOptimize(count);
  }
  state.counters["plugins"] = static_cast<double>(count);
  const ChildMeasurement cold = measureInChild("discover", "-");
  recordChild(state, "interlink/discover_plugins", cold);
  state.counters["cold_ms"] = cold.ms;
}

/// Keeps the figures of every finished run for the summary, and prints as usual.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  // Plain tabular text: the output is meant to be read in logs and pasted into docs.
  SummaryReporter() : ConsoleReporter(OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& run : runs) {
      if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
      std::string name = run.benchmark_name();
      name = name.substr(0, name.find("/iterations:"));
      name = name.substr(0, name.find("/manual_time"));
      name = name.substr(0, name.find("/min_time:"));
      figures()[name].ms = run.GetAdjustedRealTime() * multiplierToMs(run.time_unit);
      if (name.rfind("libsdformat/", 0) != 0) figures()[name].cpuMs = run.GetAdjustedCPUTime() * multiplierToMs(run.time_unit);
    }
  }

 private:
  static double multiplierToMs(benchmark::TimeUnit unit) {
    switch (unit) {
      case benchmark::kNanosecond: return 1e-6;
      case benchmark::kMicrosecond: return 1e-3;
      case benchmark::kMillisecond: return 1.0;
      case benchmark::kSecond: return 1e3;
    }
    return 1.0;
  }
};

// ---------------------------------------------------------------------------------------------
// Summary

std::string fixed(double value, int decimals) {
  if (value < 0) return "-";
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
  return buffer.data();
}

const CaseFigures* findFigures(const std::string& key) {
  const auto it = figures().find(key);
  return it == figures().end() || it->second.ms < 0 ? nullptr : &it->second;
}

void printSizeRows(const std::string& input, const std::vector<int>& sizes, const char* unit) {
  for (int n : sizes) {
    const std::string suffix = input + "/" + std::to_string(n);
    const CaseFigures* ours = findFigures("interlink/" + suffix);
    const CaseFigures* theirs = findFigures("libsdformat/" + suffix);
    const CaseFigures* parseOnly = findFigures("interlink-parse-only/" + suffix);
    if (!ours) continue;
    std::string line = "  " + input + " " + unit + "=" + std::to_string(n);
    line.resize(22, ' ');
    line += fixed(inputs().megabytes[suffix], 2) + " MB  ";
    line += "Interlink " + fixed(ours->ms, 2) + " ms (cpu " + fixed(ours->cpuMs, 2) + ", parse+compose " +
            (parseOnly ? fixed(parseOnly->ms, 2) : std::string("-")) + "), peak " + fixed(ours->peakMb, 1) + " MB";
    if (theirs) {
      line += "  | libsdformat " + fixed(theirs->ms, 0) + " ms, peak " + fixed(theirs->peakMb, 0) + " MB";
      line += "  | ratio: time " + fixed(theirs->ms / ours->ms, 0) + "x, memory " +
              fixed(theirs->peakMb / ours->peakMb, 1) + "x";
    } else {
      line += "  | libsdformat not run at this size";
    }
    std::printf("%s\n", line.c_str());
  }
}

void printScaling(const std::string& input, const std::vector<int>& sizes, const char* perWhat) {
  std::string line = "  " + input + ": ";
  const CaseFigures* smallest = findFigures("interlink/" + input + "/" + std::to_string(sizes.front()));
  const CaseFigures* largest = findFigures("interlink/" + input + "/" + std::to_string(sizes.back()));
  for (int n : sizes) {
    if (const CaseFigures* f = findFigures("interlink/" + input + "/" + std::to_string(n))) {
      line += std::to_string(n) + " -> " + fixed(f->ms * 1000.0 / n, 2) + " us/" + perWhat + "; ";
    }
  }
  if (smallest && largest) {
    line += "t(" + std::to_string(sizes.back()) + ")/t(" + std::to_string(sizes.front()) +
            ") = " + fixed(largest->ms / smallest->ms, 2) + " (linear: " +
            fixed(static_cast<double>(sizes.back()) / sizes.front(), 0) + ")";
  }
  std::printf("%s\n", line.c_str());
}

void printTarget(const std::string& what, const CaseFigures* f, double maxMs, double maxMb) {
  if (!f) {
    std::printf("  %-44s not measured\n", what.c_str());
    return;
  }
  const bool timeOk = f->ms <= maxMs;
  const bool memoryOk = maxMb <= 0 || (f->peakMb >= 0 && f->peakMb <= maxMb);
  std::string limits = "<= " + fixed(maxMs, 0) + " ms" + (maxMb > 0 ? ", <= " + fixed(maxMb, 0) + " MB" : "");
  std::string got = fixed(f->ms, 2) + " ms" + (maxMb > 0 ? ", " + fixed(f->peakMb, 1) + " MB" : "");
  std::printf("  %-44s %-22s %-24s %s\n", what.c_str(), limits.c_str(), got.c_str(),
              timeOk && memoryOk ? "MET" : "MISSED");
}

void printSummary() {
  std::printf("\n== Summary ==\n");
  std::printf("Interlink: Loader::loadFile with every phase and every frame's pose (in-process mean).\n");
  std::printf("libsdformat 12.3: sdf::Root::Load (one run in a fresh process). Peak = ru_maxrss of a fresh process.\n");
  printSizeRows("chain", kChainSizes, "N");
  printSizeRows("world", kWorldSizes, "M");
  std::printf("Scaling (Interlink, must be linear):\n");
  printScaling("chain", kChainSizes, "link");
  printScaling("world", kWorldSizes, "model");
  const CaseFigures* compose = findFigures("interlink/compose/" + std::to_string(kCompositionIncludes));
  const CaseFigures* discover = findFigures("interlink/discover_plugins");
  if (compose) {
    std::printf("Composition: a model including %d generated .%s files: %s ms, peak %s MB%s\n", kCompositionIncludes,
                inputs().compositionFormat.c_str(), fixed(compose->ms, 2).c_str(), fixed(compose->peakMb, 1).c_str(),
                inputs().compositionFormat == "jm" ? "" : "  (FALLBACK: no non-SDFormat plugin claims .jm)");
  }
  if (discover) {
    std::printf("Plugin discovery: %s ms in-process (repeated), %s ms cold in a fresh process\n",
                fixed(discover->ms, 3).c_str(), fixed(discover->coldMs, 3).c_str());
  }
  std::printf("Targets:\n");
  printTarget("chain N=4000 (issue 2 item 8)", findFigures("interlink/chain/4000"), 50, 64);
  printTarget("world M=2000 (issue 2 item 8)", findFigures("interlink/world/2000"), 50, 64);
  printTarget("compose 500 non-SDFormat includes (issue 3)", compose, 200, 0);
  if (discover) {
    CaseFigures cold = *discover;
    cold.ms = std::max(discover->ms, discover->coldMs);
    printTarget("discover + load all plugins (issue 3, worst)", &cold, 20, 0);
  } else {
    printTarget("discover + load all plugins (issue 3)", nullptr, 20, 0);
  }
}

// ---------------------------------------------------------------------------------------------

bool prepareInputs(bool juiceAvailable) {
  std::string pattern = (std::filesystem::temp_directory_path() / "interlink-bench-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return false;
  Inputs& in = inputs();
  in.directory = pattern;
  auto add = [&](const std::string& key, const std::string& text) {
    const std::string path = in.directory + "/" + key.substr(0, key.find('/')) + "_" + key.substr(key.find('/') + 1) + ".sdf";
    in.files[key] = path;
    in.megabytes[key] = static_cast<double>(text.size()) / 1e6;
    return writeFile(path, text);
  };
  for (int n : kChainSizes) {
    if (!add("chain/" + std::to_string(n), serialChainSdf(n))) return false;
  }
  for (int n : kWorldSizes) {
    if (!add("world/" + std::to_string(n), worldOfModelsSdf(n))) return false;
  }
  in.compositionFormat = juiceAvailable ? "jm" : "sdf";
  in.compositionFile = writeComposition(in.directory + "/composition", kCompositionIncludes, in.compositionFormat);
  return !in.compositionFile.empty();
}

void registerBenchmarks(bool runReference, bool full) {
  Inputs& in = inputs();
  // Grouped so that rows with the same counters print under one table header.
  for (bool resolveFrames : {true, false}) {
    const std::string prefix = resolveFrames ? "interlink/" : "interlink-parse-only/";
    for (const char* input : {"chain", "world"}) {
      for (int n : std::string(input) == "chain" ? kChainSizes : kWorldSizes) {
        const std::string key = prefix + input + "/" + std::to_string(n);
        const std::string path = in.files[std::string(input) + "/" + std::to_string(n)];
        // The root, then per chain link: link, frame, joint; per world model: model, 2 links, joint, frame.
        const std::size_t expected = 1 + static_cast<std::size_t>(n) * (std::string(input) == "chain" ? 3 : 5);
        benchmark::RegisterBenchmark(key.c_str(), [key, path, resolveFrames, expected](benchmark::State& state) {
          interlinkLoad(state, key, path, resolveFrames, expected);
        })->Unit(benchmark::kMillisecond)->MinTime(kMinSeconds);
      }
    }
    if (resolveFrames) {
      const std::string composeKey = "interlink/compose/" + std::to_string(kCompositionIncludes);
      const std::string composeFile = in.compositionFile;
      benchmark::RegisterBenchmark(composeKey.c_str(), [composeKey, composeFile](benchmark::State& state) {
        // The root and its base link, then per part: the model, 2 links and a joint (a .jm part
        // has no explicit frame; the SDFormat fallback part has one more).
        const std::size_t perPart = inputs().compositionFormat == "jm" ? 4 : 5;
        interlinkLoad(state, composeKey, composeFile, true, 2 + perPart * kCompositionIncludes);
      })->Unit(benchmark::kMillisecond)->MinTime(kMinSeconds);
    }
  }
  benchmark::RegisterBenchmark("interlink/discover_plugins", pluginDiscovery)
      ->Unit(benchmark::kMillisecond)
      ->MinTime(kMinSeconds);

  if (!runReference) return;
  const auto& chainSizes = full ? kReferenceChainSizesFull : kReferenceChainSizesDefault;
  const auto& worldSizes = full ? kReferenceWorldSizesFull : kReferenceWorldSizesDefault;
  for (const char* input : {"chain", "world"}) {
    for (int n : std::string(input) == "chain" ? chainSizes : worldSizes) {
      const std::string key = std::string(input) + "/" + std::to_string(n);
      const std::string path = in.files[key];
      benchmark::RegisterBenchmark(("libsdformat/" + key).c_str(), [key, path](benchmark::State& state) {
        referenceLoad(state, "libsdformat/" + key, path);
      })->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(1);
    }
  }
}

}  // namespace
}  // namespace interlink::bench

int main(int argc, char** argv) {
  using namespace interlink::bench;
  if (argc == 4 && std::strcmp(argv[1], "--measure-child") == 0) return childMain(argv[2], argv[3]);

  bool full = false;
  bool runReference = true;
  bool keepInputs = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) full = true;
    else if (std::strcmp(argv[i], "--no-libsdformat") == 0) runReference = false;
    else if (std::strcmp(argv[i], "--keep-inputs") == 0) keepInputs = true;
    else rest.push_back(argv[i]);
  }
#ifndef INTERLINK_BENCH_HAVE_SDFORMAT
  if (runReference) std::printf("libsdformat (sdformat12) was not found at configure time: Interlink only.\n");
  runReference = false;
#endif
  int restCount = static_cast<int>(rest.size());
  benchmark::Initialize(&restCount, rest.data());
  if (benchmark::ReportUnrecognizedArguments(restCount, rest.data())) return 2;

  bool juiceAvailable = false;
  {
    const interlink::Loader loader;
    juiceAvailable = static_cast<bool>(loader.plugins().formatFor("part.jm"));
  }
  if (!prepareInputs(juiceAvailable)) {
    std::fprintf(stderr, "could not write the generated inputs\n");
    return 2;
  }
  std::printf("Generated inputs in %s\n", inputs().directory.c_str());
  registerBenchmarks(runReference, full);
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  printSummary();
  if (!keepInputs) {
    std::error_code error;
    std::filesystem::remove_all(inputs().directory, error);
  }
  return 0;
}
