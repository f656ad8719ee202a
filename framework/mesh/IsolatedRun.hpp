#pragma once
// Third-party decoding in a process of its own. Assimp 5.2 trusts the files it reads: fuzzing finds
// inputs of a few hundred bytes that make it abort, dereference null, reserve gigabytes or loop,
// faster than checks in front of it can be written. The decoder therefore runs in a forked child
// bounded in CPU time and (outside sanitizer builds) address space; the host only reads the bytes
// the child sends back. A child that dies, overruns or sends nothing becomes the mesh's error, never
// the host's crash.
#include <cstdint>
#include <functional>
#include <string>

#include "MeshReader.hpp"

namespace interlink::mesh::detail {

/// What a child run gave: its output when it ended normally, else why not.
struct IsolatedOutcome {
  bool completed = false;
  std::string output;
  MeshError failure;
};

/// The bounds of one child run.
struct IsolationLimits {
  /// CPU seconds the child may use; wall-clock time is bounded at twice this plus a second.
  unsigned cpuSeconds = 2;
  /// Address space the child may add to what it inherits (not applied under sanitizers, whose
  /// shadow memory needs reservations of their own).
  std::uint64_t extraAddressSpace = std::uint64_t{2} << 30;
  /// The most bytes the child may send back.
  std::uint64_t maxOutputBytes = std::uint64_t{1} << 30;
};

/// Runs `work` in a forked child and returns what it produced. `work` runs only in the child, must
/// not return to the caller's code paths (it ends in _exit) and must not rely on other threads of
/// the parent, which do not exist there.
IsolatedOutcome runIsolated(const std::function<std::string()>& work, const IsolationLimits& limits);

}  // namespace interlink::mesh::detail
