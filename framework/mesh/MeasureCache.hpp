#pragma once
// Mesh measurements (MeshInfo) kept for the whole process. Every measurement decodes the file in a
// child forked from the host (IsolatedRun.hpp); in a large host the fork and the child's first
// writes into pages it shares with the host cost far more than the decode (an ASan test process
// that had loaded hundreds of files: about 1 s per mesh). A host that loads the same models again
// (a simulator's reset, a tool reloading a file, a test suite) now decodes each mesh once.
//
// An entry is found by what decides the result: the file's path, size and two 64-bit hashes of the
// bytes the load has just read through its own checks, how it is measured, and the load's
// MeshLimits. An edited file is therefore decoded again, and a load with other limits decodes for
// itself. Kept only: successful measurements of files whose geometry is all in their own bytes
// (not glTF, whose buffers may be other files). A hit has the decode's effects on the load: its
// decoded size counts against the budget, and the files the mesh named (an OBJ's material
// library) are read again through the load's gate, counted and checked against its path policy.
// A hit the budget cannot take, or whose named files cannot be read now, is decoded again, so that
// the outcome is the decoder's own.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "MeshFormat.hpp"
#include "MeshReader.hpp"
#include "interlink/io/ContentFingerprint.hpp"

namespace interlink::mesh::detail {

struct MeasureKey {
  std::string path;  // normalisedPath
  io::ContentFingerprint content;  // of the bytes the load read
  MeshMeasure how = MeshMeasure::JoinedVertices;
  MeshLimits limits;

  bool operator<(const MeasureKey& other) const;
};

/// The key of a measurement of `bytes` read from `path`, or nothing when `format` may take
/// geometry from other files.
std::optional<MeasureKey> measureKey(const std::string& path, MeshFormat format, std::string_view bytes,
                                     MeshMeasure how, const MeshLimits& limits);

struct KeptMeasure {
  MeshInfo info;
  std::uint64_t decodedBytes = 0;  // what the decode counted against the budget
  std::vector<std::string> parts;  // the files the mesh named (an OBJ's mtllib), read again on a hit
};

class MeasureCache {
 public:
  /// The process's cache (one per copy of this module: each plugin links it statically).
  static MeasureCache& process();

  /// The kept measurement of `key` when it fits in what the load may still decode (`allowance`).
  std::optional<KeptMeasure> find(const MeasureKey& key, std::uint64_t allowance);
  void keep(MeasureKey key, const KeptMeasure& measure);

  /// Kept measurements found for a load (the reader still decodes when the files its mesh named
  /// cannot be read again), and entries held (for tests).
  std::uint64_t hits() const;
  std::size_t size() const;

  /// Bounded: when this many are held, all are dropped before the next is kept.
  static constexpr std::size_t kMaxEntries = 4096;

 private:
  mutable std::mutex mutex_;
  std::map<MeasureKey, KeptMeasure> entries_;
  std::uint64_t hits_ = 0;
};

}  // namespace interlink::mesh::detail
