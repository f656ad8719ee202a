// The host's side of the plugin scanner: see PluginScanner.hpp.
#include "plugin/PluginScanner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include <boost/dll/runtime_symbol_info.hpp>

#include "plugin/PluginLibrary.hpp"

extern char** environ;

namespace interlink::detail {

namespace {

namespace fs = std::filesystem;

LibraryVerdict refusal(ErrorCode code, std::string reason) {
  LibraryVerdict verdict;
  verdict.refusal = code;
  verdict.reason = std::move(reason);
  return verdict;
}

/// A started scanner: its process and the read end of its answers.
struct ScannerProcess {
  pid_t pid = -1;
  int answers = -1;
};

/// Starts the scanner on paths[from...]; empty on success, else why not.
std::string start(const std::string& scanner, const std::vector<std::string>& paths, std::size_t from,
                  ScannerProcess& process) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return std::string("cannot create a pipe: ") + std::strerror(errno);
  constexpr int kAnswerFd = 3;
  int writeEnd = ends[1];
  if (writeEnd == kAnswerFd) {
    // dup2 onto itself would keep close-on-exec: the scanner would find no channel.
    writeEnd = ::fcntl(ends[1], F_DUPFD_CLOEXEC, kAnswerFd + 1);
    ::close(ends[1]);
  }
  std::vector<std::string> arguments{scanner, "--output-fd", std::to_string(kAnswerFd)};
  arguments.insert(arguments.end(), paths.begin() + static_cast<std::ptrdiff_t>(from), paths.end());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);

  // Nothing a library prints reaches the host's output; only the answers' pipe is inherited.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, writeEnd, kAnswerFd);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&actions, kAnswerFd + 1);
#endif
  const int failed = ::posix_spawn(&process.pid, scanner.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(writeEnd);
  if (failed != 0) {
    ::close(ends[0]);
    return "cannot start the plugin scanner '" + scanner + "': " + std::strerror(failed);
  }
  process.answers = ends[0];
  return {};
}

/// Waits for the scanner to end, at most `seconds`, then kills it; its wait status, or -1.
int reap(pid_t pid, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return -1;  // e.g. the host ignores SIGCHLD
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

void stop(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

std::string describeEnd(int status) {
  if (status >= 0 && WIFSIGNALED(status)) {
    const int signalNumber = WTERMSIG(status);
    const char* name = ::strsignal(signalNumber);
    return "the plugin scanner was killed by signal " + std::to_string(signalNumber) + " (" + (name ? name : "?") +
           ") while opening the library: its initialisation code crashed or aborted";
  }
  if (status >= 0 && WIFEXITED(status)) {
    return "the plugin scanner ended (exit status " + std::to_string(WEXITSTATUS(status)) +
           ") while opening the library, before reporting on it: its initialisation code ended the process";
  }
  return "the plugin scanner ended while opening the library, before reporting on it";
}

}  // namespace

std::string pluginScannerPath() {
  std::error_code ec;
  const fs::path core = boost::dll::this_line_location(ec);
  if (ec) return {};
  return (core.parent_path() / INTERLINK_PLUGIN_SCANNER_RELATIVE).lexically_normal().string();
}

std::vector<ScannedLibrary> scanLibraries(const std::vector<std::string>& paths, int secondsPerLibrary) {
  std::vector<ScannedLibrary> results(paths.size());
  const std::string scanner = pluginScannerPath();
  auto refuseTheRest = [&](std::size_t from, const std::string& why) {
    for (std::size_t i = from; i < paths.size(); ++i) results[i] = {refusal(ErrorCode::PLUGIN_LOAD, why), false};
  };
  if (paths.empty()) return results;
  if (scanner.empty() || ::access(scanner.c_str(), X_OK) != 0) {
    refuseTheRest(0, "not examined: the plugin scanner '" + scanner +
                         "' is missing (it is installed beside the core library; plugins are never opened in the host "
                         "before they are examined)");
    return results;
  }
  if (std::string why = writableByOthers(scanner, "plugin scanner"); !why.empty()) {
    refuseTheRest(0, "not examined: " + why);
    return results;
  }

  std::size_t next = 0;
  while (next < paths.size()) {
    ScannerProcess process;
    if (std::string why = start(scanner, paths, next, process); !why.empty()) {
      refuseTheRest(next, "not examined: " + why);
      break;
    }
    std::string buffer;
    bool ended = false;
    bool timedOut = false;
    bool garbled = false;
    while (next < paths.size()) {
      // Every complete answer, in order; each must name the library it is about.
      for (std::size_t newline = buffer.find('\n'); newline != std::string::npos && next < paths.size();
           newline = buffer.find('\n')) {
        const std::vector<std::string> fields = splitFields(buffer.substr(0, newline), '\t');
        buffer.erase(0, newline + 1);
        LibraryVerdict verdict;
        if (fields.empty() || unescapeField(fields[0]) != paths[next] || !parseVerdictFields(fields, 1, verdict)) {
          garbled = true;
          break;
        }
        if (verdict.accepted) verdict.info.path = paths[next];
        results[next++] = {std::move(verdict), true};
      }
      if (garbled || next >= paths.size()) break;
      pollfd waiting{process.answers, POLLIN, 0};
      const int ready = ::poll(&waiting, 1, secondsPerLibrary * 1000);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        timedOut = true;
        break;
      }
      char chunk[4096];
      const ssize_t got = ready < 0 ? -1 : ::read(process.answers, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        ended = true;
        break;
      }
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    ::close(process.answers);
    if (timedOut) {
      stop(process.pid);
      results[next++] = {refusal(ErrorCode::PLUGIN_LOAD, "the plugin scanner did not finish opening the library within " +
                                                             std::to_string(secondsPerLibrary) +
                                                             " s: its initialisation code hangs, or the machine is overloaded"),
                         false};
    } else if (garbled) {
      stop(process.pid);
      results[next++] = {refusal(ErrorCode::PLUGIN_LOAD,
                                 "the plugin scanner's answer about the library is unreadable (the library wrote to the "
                                 "scanner's channel while opened)"),
                         true};
    } else if (ended && next < paths.size()) {
      results[next++] = {refusal(ErrorCode::PLUGIN_LOAD, describeEnd(reap(process.pid, secondsPerLibrary))), true};
    } else {
      stop(process.pid);  // every answer is in; it ends by itself, or now
    }
  }
  return results;
}

}  // namespace interlink::detail
