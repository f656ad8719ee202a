// bench_load_file FILE [REPEAT]: loads FILE REPEAT times with one Loader (as a host, and as the
// Python module, do) and prints the median wall time of one load in milliseconds. The C++ side
// of bench/python/bench_python_load.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_load_file FILE [REPEAT]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  interlink::Loader loader;
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    interlink::LoadResult result = loader.loadFile(path);
    const auto stop = std::chrono::steady_clock::now();
    if (!result.ok()) {
      std::fprintf(stderr, "%s: load failed\n", path.c_str());
      return 1;
    }
    times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
  std::printf("%.4f\n", times[times.size() / 2]);
  return 0;
}
