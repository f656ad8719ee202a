#pragma once
// Helpers of the hostile-input tests: a scratch directory per test, one shared loader, the CLI
// run with bounds on its CPU and wall time.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::test {

inline const Loader& hostileLoader() {
  static const Loader loader;  // the build tree's plugins, discovered once
  return loader;
}

/// Exit code of a bounded CLI run that one of its bounds stopped.
constexpr int kStoppedByBound = 124;

/// How much slower a program instrumented by AddressSanitizer runs (about 2-4x here): the factor
/// by which the CPU bounds of linear-time checks grow in the sanitizer build, so that a bound
/// tells a quadratic step from a linear one in both builds.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kSanitizerSlowdown = 5;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr int kSanitizerSlowdown = 5;
#else
constexpr int kSanitizerSlowdown = 1;
#endif
#else
constexpr int kSanitizerSlowdown = 1;
#endif

/// `sh -c COMMAND` in its own process group with two bounds, so that a runaway input fails the
/// test instead of hanging it:
///  - `cpuSeconds` of CPU time (RLIMIT_CPU, inherited by what the shell starts) for work that
///    does not end. CPU time, not wall time: a loaded machine (CI running many sanitizer tests on
///    two cores) stretches the wall time of a correct run several times, but not its CPU time;
///  - `wallSeconds` of wall time for a process that blocks without computing (a FIFO), after
///    which the group is killed.
/// Either bound gives exit code kStoppedByBound, with the reason appended to the output; a
/// process killed otherwise (another signal, or SIGKILL before its CPU time was spent) gives -1.
inline CommandResult runBounded(const std::string& command, int cpuSeconds, int wallSeconds = 120) {
  CommandResult result;
  int pipeEnds[2];
  if (::pipe2(pipeEnds, O_CLOEXEC) != 0) return result;
  const pid_t child = ::fork();
  if (child < 0) return result;
  if (child == 0) {
    ::setpgid(0, 0);
    // The soft limit sends SIGXCPU; the hard one, a second later, SIGKILL if that is caught.
    const rlimit cpu{static_cast<rlim_t>(cpuSeconds), static_cast<rlim_t>(cpuSeconds + 1)};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::dup2(pipeEnds[1], 1);
    ::dup2(pipeEnds[1], 2);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pipeEnds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wallSeconds);
  bool blocked = false;
  for (std::array<char, 4096> buffer{};;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd readable{pipeEnds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? ::poll(&readable, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {  // the wall bound: stop the whole group, the shell and what it started
      blocked = true;
      ::kill(-child, SIGKILL);
      break;
    }
    const ssize_t bytes = ::read(pipeEnds[0], buffer.data(), buffer.size());
    if (bytes < 0 && errno == EINTR) continue;
    if (bytes <= 0) break;
    result.output.append(buffer.data(), static_cast<std::size_t>(bytes));
  }
  ::close(pipeEnds[0]);
  int status = 0;
  rusage usage{};  // the shell's, with what it started and waited for
  while (::wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  // The shell may run the command as a child (exit 128 + signal) or replace itself with it.
  const int signal = WIFSIGNALED(status) ? WTERMSIG(status)
                     : WIFEXITED(status) && WEXITSTATUS(status) > 128 ? WEXITSTATUS(status) - 128
                                                                       : 0;
  // SIGKILL is the hard CPU limit only when the CPU time was spent; otherwise it came from
  // outside (the OOM killer), which must not read as a runaway input.
  const bool cpuSpent = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec >= cpuSeconds;
  if (blocked) {
    result.exitCode = kStoppedByBound;
    result.output += "\n[stopped after " + std::to_string(wallSeconds) + " s of wall time: blocked]";
  } else if (signal == SIGXCPU || (signal == SIGKILL && cpuSpent)) {
    result.exitCode = kStoppedByBound;
    result.output += "\n[stopped after " + std::to_string(cpuSeconds) + " s of CPU time]";
  } else {
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return result;
}

/// `interlink ARGUMENTS` (a shell word list) run by runBounded.
inline CommandResult boundedCli(const std::string& arguments, int cpuSeconds = 20) {
  return runBounded(cliPath() + " " + arguments, cpuSeconds);
}

/// Options of a host that loads untrusted files: includes and meshes stay in the model's tree.
inline LoadOptions confined() {
  LoadOptions options;
  options.confineToRoots = true;
  return options;
}

/// The first diagnostic with `code`, or null.
inline const Diagnostic* findCode(const Diagnostics& diagnostics, ErrorCode code) {
  for (const auto& d : diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

inline bool mentions(const Diagnostic* d, std::string_view text) {
  return d && d->message.find(text) != std::string::npos;
}

/// Loads `file` with `options`; succeeds when a diagnostic with `code` mentions `text`.
inline ::testing::AssertionResult loadReports(const std::string& file, const LoadOptions& options, ErrorCode code,
                                              std::string_view text) {
  const LoadResult result = hostileLoader().loadFile(file, options);
  const Diagnostic* d = findCode(result.diagnostics, code);
  if (!d) return ::testing::AssertionFailure() << "no " << codeName(code) << " in:\n" << dump(result.diagnostics);
  if (!mentions(d, text)) return ::testing::AssertionFailure() << "'" << text << "' not in: " << d->format();
  return ::testing::AssertionSuccess();
}

}  // namespace interlink::test
