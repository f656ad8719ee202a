// `bench_hostile --table`: every hostile input of issues 14 and 29 (the second round: HostileRoundTwo.cpp), generated in a scratch directory and
// checked by the real CLI (`interlink check`) in its own process, one row each with the wall
// time, the peak resident memory of that process (getrusage of the child), the exit status and
// the first diagnostic. The closing note of the issue and docs/hostile-input.md quote it.
#include "HostileTable.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "HostileInputs.hpp"

extern char** environ;

namespace interlink::bench {
namespace {

namespace fs = std::filesystem;
namespace hostile = interlink::test::hostile;

constexpr double kKillAfterSeconds = 60;

std::string write(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  return file.string();
}

std::string writeAll(const fs::path& dir, const hostile::FileSet& files) {
  for (const auto& [name, text] : files) write(dir / name, text);
  return (dir / files.front().first).string();
}

const std::string kModel = "<sdf version=\"1.9\">\n  <model name=\"m\"><link name=\"l\"/></model>\n</sdf>\n";

std::string includeOf(const std::string& uri) {
  return "<sdf version=\"1.9\">\n<world name=\"w\">\n  <include><uri>" + uri + "</uri></include>\n</world>\n</sdf>\n";
}

std::string symlinkTo(const fs::path& target, const fs::path& link) {
  fs::create_symlink(target, link);
  return link.string();
}

std::string utf16le(const std::string& ascii) {
  std::string out("\xFF\xFE", 2);
  for (char c : ascii) out += std::string{c, '\0'};
  return out;
}

/// A copy of a real plugin of the build, cut to half its size, alone in `dir`.
std::string truncatedPlugin(const fs::path& pluginDir, const fs::path& dir) {
  const fs::path original = pluginDir / "libinterlink_plugin_urdf.so";
  std::ifstream in(original, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return write(dir / "libtruncated_plugin.so", bytes.substr(0, bytes.size() / 2));
}

std::vector<HostileCase> cases(const fs::path& pluginDir) {
  std::vector<HostileCase> list = {
      {"baseline: a valid one-link SDFormat model", [](const fs::path& d) { return write(d / "m.sdf", kModel); }, ""},
      {"FIFO as the model file",
       [](const fs::path& d) {
         const std::string fifo = (d / "pipe.sdf").string();
         ::mkfifo(fifo.c_str(), 0600);
         return fifo;
       }, "FILE_READ"},
      {"symlink to /dev/zero as the model", [](const fs::path& d) { return symlinkTo("/dev/zero", d / "zero.sdf"); }, "FILE_READ"},
      {"symlink to /dev/urandom as the model", [](const fs::path& d) { return symlinkTo("/dev/urandom", d / "random.urdf"); }, "FILE_READ"},
      {"SDFormat include of a symlink to /dev/zero, --confine",
       [](const fs::path& d) {
         symlinkTo("/dev/zero", d / "zero.sdf");
         return write(d / "world.sdf", includeOf("zero.sdf"));
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"SDFormat include of a symlink to /dev/zero",
       [](const fs::path& d) {
         symlinkTo("/dev/zero", d / "zero.sdf");
         return write(d / "world.sdf", includeOf("zero.sdf"));
       }, "FILE_READ"},
      {"symlink loop",
       [](const fs::path& d) {
         symlinkTo(d / "b.sdf", d / "a.sdf");
         symlinkTo(d / "a.sdf", d / "b.sdf");
         return (d / "a.sdf").string();
       }, "FILE_READ"},
      {"HRDF include of a directory",
       [](const fs::path& d) {
         fs::create_directories(d / "dir.hrdf");
         return write(d / "r.hrdf", "<robot version=\"1.6.0\">\n  <include path=\"dir.hrdf\"/>\n</robot>\n");
       }, "FILE_READ"},
      {"SDFormat include bomb: 30 files, each includes the next twice",
       [](const fs::path& d) { return writeAll(d, hostile::sdformatIncludeBomb(30)); }, "INCLUDE_LIMIT"},
      {"HRDF include bomb: 30 files, each includes the next twice",
       [](const fs::path& d) { return writeAll(d, hostile::hrdfIncludeBomb(30)); }, "INCLUDE_LIMIT"},
      {"URDF chain of 20 000 links", [](const fs::path& d) { return write(d / "chain.urdf", hostile::urdfChain(20000)); }, ""},
      {"minified Shift JSON, 10 000 bodies and joints on one line",
       [](const fs::path& d) { return write(d / "minified.json", hostile::shiftMinified(10000)); }, ""},
      {"Shift, 8 000 joints with one name",
       [](const fs::path& d) { return write(d / "dup.json", hostile::shiftDuplicateJoints(8000)); }, "DUPLICATE_NAME"},
      {"SKEL, 20 000 skeletons with one name",
       [](const fs::path& d) { return write(d / "dup.skel", hostile::skelDuplicateSkeletons(20000)); }, ""},
      {"Juice, 8 000 bodies with one name and ID",
       [](const fs::path& d) { return write(d / "dup.jm", hostile::juiceDuplicateBodies(8000)); }, "DUPLICATE_NAME"},
      {"200 000 attributes on one element",
       [](const fs::path& d) { return write(d / "attributes.sdf", hostile::xmlManyAttributes(200000)); }, "XML_SYNTAX"},
      {"HRDF include of ../../../../etc/passwd, --confine",
       [](const fs::path& d) {
         return write(d / "robot.hrdf", "<robot version=\"1.6.0\">\n  <include path=\"../../../../../../../../etc/passwd\"/>\n</robot>\n");
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"SDFormat include of an absolute path outside the tree, --confine",
       [](const fs::path& d) {
         write(d / "elsewhere" / "model.sdf", kModel);
         return write(d / "project" / "world.sdf", includeOf((d / "elsewhere" / "model.sdf").string()));
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"Shift mesh through include_directories [\"/\"], --confine",
       [](const fs::path& d) {
         return write(d / "robot.json", R"({"model_parameters": {"version": "0.2", "include_directories": ["/"]},
  "assemblies": [{"name": "arm", "bodies": [
    {"name": "b", "mass": 1.0, "geometry": {"type": "mesh", "filename": "etc/passwd"}}]}]})");
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"UTF-16LE with a byte-order mark", [](const fs::path& d) { return write(d / "utf16.sdf", utf16le(kModel)); }, "FILE_ENCODING"},
      {"invalid UTF-8 on line 3",
       [](const fs::path& d) {
         return write(d / "bad.sdf", "<sdf version=\"1.9\">\n  <model name=\"m\">\n    <link name=\"caf\xFF\x80\"/>\n  </model>\n</sdf>\n");
       }, "FILE_ENCODING"},
      {"NUL byte after the first 64 KiB",
       [](const fs::path& d) {
         return write(d / "nul.sdf", "<sdf version=\"1.9\">\n<!--\n" + std::string(70000, 'x') + "\n-->\n<model name=\"m\">" +
                                         std::string(1, '\0') + "<link name=\"l\"/></model>\n</sdf>\n");
       }, "FILE_BINARY"},
      {"Shift \"mass\": null",
       [](const fs::path& d) {
         return write(d / "null.json", R"({"model_parameters": {"version": "0.2"},
  "assemblies": [{"name": "arm", "bodies": [{"name": "b", "mass": null}]}]})");
       }, "ELEMENT_INCORRECT_TYPE"},
  };
  // `interlink plugins` with one damaged plugin file in INTERLINK_PLUGIN_PATH.
  list.push_back({"truncated plugin in the plugin path (interlink plugins)",
                  [pluginDir](const fs::path& d) { return truncatedPlugin(pluginDir, d / "plugins"); }, "PLUGIN_LOAD", {},
                  true});
  list.push_back({"non-ELF file named like a plugin in the plugin path (interlink plugins)",
                  [](const fs::path& d) { return write(d / "plugins" / "libnot_a_plugin.so", "this is text, not a shared library\n"); },
                  "PLUGIN_LOAD", {}, true});
  for (HostileCase& second : roundTwoCases(pluginDir)) list.push_back(std::move(second));
  return list;
}

struct Outcome {
  int exitStatus = -1;  // or 128 + signal
  double seconds = 0;
  double cpuSeconds = 0;  // user + system
  long peakKiB = 0;
  bool killed = false;
};

/// VmHWM (peak resident set) of a running process, in KiB; 0 once it has exited.
long peakResidentKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

/// Runs `argv` with stdout and stderr into `outFile`; killed after kKillAfterSeconds. The peak
/// memory is the child's VmHWM sampled every millisecond while it runs: getrusage's ru_maxrss
/// would start from this process's own peak, which the kernel carries over into the child at exec.
Outcome runChild(const std::vector<std::string>& argv, const std::vector<std::string>& extraEnv, const std::string& outFile,
                 const std::string& stdoutTo) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> envStrings(extraEnv);
  for (char** e = environ; *e; ++e) envStrings.emplace_back(*e);
  std::vector<char*> env;
  for (auto& e : envStrings) env.push_back(e.data());
  env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (stdoutTo.empty()) {
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, stdoutTo.c_str(), O_WRONLY, 0);
  }
  Outcome outcome;
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return outcome;
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, WNOHANG, &usage) == 0) {
    outcome.peakKiB = std::max(outcome.peakKiB, peakResidentKiB(pid));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > kKillAfterSeconds && !outcome.killed) {
      ::kill(pid, SIGKILL);
      outcome.killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  outcome.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return outcome;
}

/// The line of the command's output that carries `code` (else the first error), without the
/// scratch directory, shortened for a table cell; `found` tells whether `code` was there.
std::string verdictLine(const std::string& outFile, const std::string& code, const std::string& scratch, bool& found) {
  std::ifstream in(outFile);
  std::string line, verdict, firstError;
  found = false;
  while (std::getline(in, line)) {
    if (!code.empty() && line.find(code) != std::string::npos) {
      verdict = line;
      found = true;
      break;
    }
    if (firstError.empty() && line.find("error") != std::string::npos) firstError = line;
  }
  if (verdict.empty()) verdict = firstError;
  for (std::size_t at; (at = verdict.find(scratch)) != std::string::npos;) verdict.erase(at, scratch.size() + 1);
  const auto start = verdict.find_first_not_of(' ');
  verdict = start == std::string::npos ? std::string() : verdict.substr(start);
  for (char& c : verdict) {
    if (c == '|') c = '/';  // a Markdown table cell
  }
  return verdict.size() > 110 ? verdict.substr(0, 107) + "..." : verdict;
}

}  // namespace

int printHostileTable(const std::string& cli) {
  const fs::path pluginDir = fs::path(cli).parent_path().parent_path() / "lib" / "interlink" / "plugins";
  char pattern[] = "/tmp/interlink_hostile_table_XXXXXX";
  if (!::mkdtemp(pattern)) {
    std::perror("mkdtemp");
    return 2;
  }
  const fs::path root(pattern);
  std::cout << "| input | bytes | wall (s) | CPU (s) | peak RSS (MiB) | exit | verdict |\n"
               "|---|---:|---:|---:|---:|---:|---|\n";
  int failures = 0;
  int index = 0;
  for (const auto& c : cases(pluginDir)) {
    const fs::path dir = root / std::to_string(index++);
    fs::create_directories(dir);
    const std::string file = c.make(dir);
    std::error_code ec;
    const auto bytes = fs::is_regular_file(file, ec) ? fs::file_size(file, ec) : 0;
    std::vector<std::string> argv = c.program.empty() ? std::vector<std::string>{cli} : c.program;
    std::vector<std::string> env = c.environment;
    if (!c.command.empty()) {
      for (const std::string& argument : c.command) argv.push_back(argument == "{}" ? file : argument);
    } else if (c.pluginsCommand) {
      argv.push_back("plugins");
    } else {
      argv.push_back("check");
      argv.insert(argv.end(), c.options.begin(), c.options.end());
      argv.push_back(file);
    }
    std::error_code noPlugins;
    if (c.pluginsCommand || fs::is_directory(dir / "plugins", noPlugins)) {
      env.push_back("INTERLINK_PLUGIN_PATH=" + (dir / "plugins").string());
      env.push_back("INTERLINK_PLUGIN_CACHE=off");
    }
    const std::string outFile = (root / ("output" + std::to_string(index))).string();
    const Outcome o = runChild(argv, env, outFile, c.stdoutTo);
    bool found = false;
    const std::string verdict = verdictLine(outFile, c.expected, dir.string(), found);
    // Every input must end by itself within a second of CPU time (wall time depends on the
    // machine's load) with its expected verdict; crashes are exit statuses above 2.
    const bool expectedOutcome = c.expected.empty() ? o.exitStatus == 0 : found && o.exitStatus >= 0 && o.exitStatus <= 2;
    constexpr long kMemoryBoundKiB = 256 * 1024;
    const bool bad = o.killed || o.cpuSeconds >= 1.0 || o.peakKiB >= kMemoryBoundKiB || o.exitStatus > 2 || !expectedOutcome;
    failures += bad;
    char cells[160];
    std::snprintf(cells, sizeof cells, "%llu | %.3f | %.3f | %.1f | %d%s", static_cast<unsigned long long>(bytes), o.seconds,
                  o.cpuSeconds, static_cast<double>(o.peakKiB) / 1024.0, o.exitStatus, o.killed ? " (killed)" : "");
    std::cout << "| " << c.name << " | " << cells << " | " << verdict << (bad ? " **(FAILED)**" : "") << " |\n" << std::flush;
  }
  std::error_code ignored;
  fs::remove_all(root, ignored);
  return failures == 0 ? 0 : 1;
}

}  // namespace interlink::bench
