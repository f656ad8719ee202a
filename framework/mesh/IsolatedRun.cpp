#include "IsolatedRun.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define INTERLINK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define INTERLINK_SANITIZED 1
#endif
#endif

namespace interlink::mesh::detail {
namespace {

#ifdef INTERLINK_SANITIZED
// Under a sanitizer the child's writes fault in copies of the parent's heap, shadow and allocator
// state: in the ASan test build, decoding DART's 1.8 MB thorax.dae took 0.3 s of CPU in a small
// process but up to 2.6 s (1.6 s of it in the kernel, 71 000 page faults against 15 000) in a test
// process that had loaded hundreds of files. The bound scales with that overhead, so that the
// sanitizer build tests what the product does, not what the sanitizer costs.
constexpr unsigned kCpuScale = 4;
#else
constexpr unsigned kCpuScale = 1;
#endif

/// The address space the process has mapped now (VmSize), 0 when unknown.
std::uint64_t mappedBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::strtoull(line.c_str() + 7, nullptr, 10) * 1024;
  }
  return 0;
}

bool writeAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

[[noreturn]] void runChild(int out, const std::function<std::string()>& work, const IsolationLimits& limits,
                           std::uint64_t mapped) {
  // Only its own pipe stays open: a pipe another thread of the host was setting up when this child
  // was forked would otherwise stay open here, and that thread would wait for this child's end.
  if (out > 3) ::close_range(3, static_cast<unsigned>(out) - 1, 0);
  ::close_range(static_cast<unsigned>(out) + 1, ~0U, 0);
  // A fault in the decoder ends the child plainly: the host's crash handlers (a crash reporter,
  // Python's faulthandler, a fuzzer's) would otherwise report the host as crashed.
  for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGPIPE}) {
    ::signal(fault, SIG_DFL);
  }
  const rlimit cpu{limits.cpuSeconds, limits.cpuSeconds + 1};
  ::setrlimit(RLIMIT_CPU, &cpu);
  const rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
#ifndef INTERLINK_SANITIZED
  if (mapped > 0) {
    const rlimit space{mapped + limits.extraAddressSpace, mapped + limits.extraAddressSpace};
    ::setrlimit(RLIMIT_AS, &space);
  }
#else
  (void)mapped;
#endif
  int status = 0;
  try {
    const std::string output = work();
    status = writeAll(out, output.data(), output.size()) ? 0 : 3;
  } catch (const std::bad_alloc&) {
    status = 4;
  } catch (...) {
    status = 5;
  }
  ::close(out);
  ::_exit(status);
}

std::string signalName(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace

IsolatedOutcome runIsolated(const std::function<std::string()>& work, const IsolationLimits& requested) {
  IsolationLimits limits = requested;
  limits.cpuSeconds *= kCpuScale;
  IsolatedOutcome outcome;
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) {
    outcome.failure = {ErrorCode::FILE_READ, std::string("cannot start the mesh decoder: ") + std::strerror(errno)};
    return outcome;
  }
  const std::uint64_t mapped = mappedBytes();
  const pid_t child = ::fork();
  if (child < 0) {
    outcome.failure = {ErrorCode::FILE_READ, std::string("cannot start the mesh decoder: ") + std::strerror(errno)};
    ::close(pipe[0]);
    ::close(pipe[1]);
    return outcome;
  }
  if (child == 0) {
    ::close(pipe[0]);
    runChild(pipe[1], work, limits, mapped);
  }
  ::close(pipe[1]);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2 * limits.cpuSeconds + 1);
  bool overran = false;
  bool tooLarge = false;
  char buffer[1 << 16];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      overran = true;
      break;
    }
    pollfd wait{pipe[0], POLLIN, 0};
    const int ready = ::poll(&wait, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline check above ends the wait
    const ssize_t got = ::read(pipe[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // the child closed its end: done or dead
    if (outcome.output.size() + static_cast<std::size_t>(got) > limits.maxOutputBytes) {
      tooLarge = true;
      break;
    }
    outcome.output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe[0]);
  if (overran || tooLarge) ::kill(child, SIGKILL);
  int status = 0;
  pid_t waited;
  do {
    waited = ::waitpid(child, &status, 0);
  } while (waited < 0 && errno == EINTR);

  const std::string cpu = std::to_string(limits.cpuSeconds);
  if (overran) {
    outcome.failure = {ErrorCode::MESH_LIMIT, "decoding the mesh took longer than " + std::to_string(2 * limits.cpuSeconds + 1) +
                                                  " s; the decoder was stopped"};
  } else if (tooLarge) {
    outcome.failure = {ErrorCode::MESH_LIMIT, "the mesh decodes to more than the decoder may send back"};
  } else if (waited < 0) {
    // The host reaps children itself (SIGCHLD ignored): the output tells whether it finished.
    outcome.completed = !outcome.output.empty();
    if (!outcome.completed) outcome.failure = {ErrorCode::FILE_READ, "the mesh decoder ended without an answer"};
  } else if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGXCPU || signal == SIGKILL) {
      outcome.failure = {ErrorCode::MESH_LIMIT, "decoding the mesh took more than " + cpu + " s of CPU; the decoder was stopped"};
    } else {
      outcome.failure = {ErrorCode::FILE_READ, "Assimp failed on this file (its decoder process stopped with " +
                                                   signalName(signal) + "); the file is malformed"};
    }
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 4) {
    outcome.failure = {ErrorCode::MESH_LIMIT, "decoding the mesh needs more memory than the decoder may use"};
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    outcome.failure = {ErrorCode::FILE_READ, "Assimp failed on this file (its decoder process exited with status " +
                                                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                                 "); the file is malformed"};
  } else {
    outcome.completed = true;
  }
  return outcome;
}

}  // namespace interlink::mesh::detail
