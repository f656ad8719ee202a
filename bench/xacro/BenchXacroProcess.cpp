// The cost of xacro as a user pays it: one whole `interlink check` process of a .urdf.xacro
// (start-up, plugin discovery, expansion, URDF load, all phases, exit) against one of the URDF it
// expands to (the same process without the expansion). CPU time (user + system, the task-clock
// `perf stat` reports) of every child from wait4's rusage; the runs alternate xacro and URDF so
// that a change of the machine's load touches both sides alike; the median of each side counts.
// Prints (xacro - URDF) / URDF per description and exits 1 when one is not under kTargetRatio.
//
// usage: bench_xacro_process [RUNS=40] [CLI=this build's interlink]   (RUNS processes of each
// side per description; another CLI, e.g. a copy of an older build, for an A/B comparison)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Description {
  const char* name;
  const char* file;
  std::vector<std::string> arguments;  // --arg NAME:=VALUE
};

const Description kDescriptions[] = {
    {"franka_fr3", "franka_description/robots/fr3/fr3.urdf.xacro", {}},
    {"ur5e", "ur_description/urdf/ur.urdf.xacro", {"ur_type:=ur5e", "name:=ur5e"}},
};

/// "Well under the URDF load" (issue 33), as bench_xacro holds the in-process loads to it.
constexpr double kTargetRatio = 0.5;

/// Runs `argv` with its output thrown away; its CPU time in milliseconds, or -1 when it failed.
double cpuMilliseconds(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);  // the child must not write this process's buffered output again
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    if (std::freopen("/dev/null", "w", stdout) == nullptr || std::freopen("/dev/null", "w", stderr) == nullptr) _exit(126);
    ::execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (::wait4(child, &status, 0, &usage) != child) return -1;
  // `check` exits 0, or 1 with warnings/errors only under --werror; anything else is a failure.
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) return -1;
  const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 40;
  const std::string cli = argc > 2 ? argv[2] : INTERLINK_CLI;
  const std::string data = INTERLINK_TEST_DATA;
  char directory[] = "/tmp/bench_xacro_process.XXXXXX";
  if (!::mkdtemp(directory)) {
    std::perror("mkdtemp");
    return 2;
  }
  bool allMet = true;
  for (const Description& d : kDescriptions) {
    std::vector<std::string> xacro{cli, "check", data + "/" + d.file, "-I", data};
    for (const std::string& a : d.arguments) {
      xacro.push_back("--arg");
      xacro.push_back(a);
    }
    // The URDF side reads what this build's expansion writes (byte for byte what `check` loads).
    const std::string urdfFile = std::string(directory) + "/" + d.name + ".urdf";
    std::vector<std::string> convert = xacro;
    convert[1] = "convert";
    convert.push_back("-o");
    convert.push_back(urdfFile);
    if (cpuMilliseconds(convert) < 0) {
      std::fprintf(stderr, "%s: could not expand %s\n", d.name, d.file);
      return 2;
    }
    // With the same resource paths: the meshes' package:// look-ups then cost both sides alike
    // (without them the URDF side gave up on the unknown package at once, and the look-ups of the
    // xacro side counted as expansion).
    const std::vector<std::string> urdf{cli, "check", urdfFile, "-I", data};
    std::vector<double> xacroTimes, urdfTimes;
    cpuMilliseconds(xacro);  // page cache and ccache of the files: not counted
    cpuMilliseconds(urdf);
    for (int i = 0; i < runs; ++i) {
      const double x = cpuMilliseconds(xacro);
      const double u = cpuMilliseconds(urdf);
      if (x < 0 || u < 0) {
        std::fprintf(stderr, "%s: a run failed\n", d.name);
        return 2;
      }
      xacroTimes.push_back(x);
      urdfTimes.push_back(u);
    }
    const double x = median(xacroTimes);
    const double u = median(urdfTimes);
    const double ratio = (x - u) / u;
    const bool met = ratio < kTargetRatio;
    allMet = allMet && met;
    std::printf("%s: whole process, median CPU time of %d: xacro %.2f ms, URDF %.2f ms, expansion %.2f ms, "
                "ratio %.2f (target < %.2f): %s\n",
                d.name, runs, x, u, x - u, ratio, kTargetRatio, met ? "met" : "MISSED");
    std::remove(urdfFile.c_str());
  }
  ::rmdir(directory);
  return allMet ? 0 : 1;
}
