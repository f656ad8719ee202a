// bench_load_file FILE [REPEAT] [--keep-first]: loads FILE REPEAT times with one Loader (as a
// host, and as the Python module, do) and prints the least CPU time of the loading thread for one
// load, in milliseconds (on a shared machine, wall time measures the neighbours). The C++ side of
// bench/python/bench_python_load.py. --keep-first keeps the first load's result alive while the
// others run, as bench_sdformat does (docs/dev/benchmarks.md: the heap then holds two models).
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"

namespace {

double threadCpuMilliseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_load_file FILE [REPEAT] [--keep-first]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  const bool keepFirst = argc > 3 && std::string(argv[3]) == "--keep-first";
  interlink::Loader loader;
  interlink::LoadResult kept;
  if (keepFirst) kept = loader.loadFile(path);
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    const double start = threadCpuMilliseconds();
    interlink::LoadResult result = loader.loadFile(path);
    const double stop = threadCpuMilliseconds();
    if (!result.ok()) {
      std::fprintf(stderr, "%s: load failed\n", path.c_str());
      return 1;
    }
    times.push_back(stop - start);
  }
  std::printf("%.4f\n", *std::min_element(times.begin(), times.end()));
  return 0;
}
