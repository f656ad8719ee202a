#pragma once
// What tells the same bytes again without keeping them: their size and two independent 64-bit
// hashes. Caches that keep what they made of a file for the process (a mesh's measurement, a
// parsed xacro file) compare it to know the file has not changed, rather than a copy of the file.
#include <cstdint>
#include <string_view>
#include <tuple>

#include "interlink/Export.hpp"

namespace interlink::io {

struct ContentFingerprint {
  std::uint64_t size = 0;
  std::uint64_t hash = 0;   // std::hash of the bytes
  std::uint64_t check = 0;  // an independent hash (8-byte words multiplied and folded)

  bool operator==(const ContentFingerprint& o) const { return size == o.size && hash == o.hash && check == o.check; }
  bool operator!=(const ContentFingerprint& o) const { return !(*this == o); }
  bool operator<(const ContentFingerprint& o) const {
    return std::tie(size, hash, check) < std::tie(o.size, o.hash, o.check);
  }
};

INTERLINK_API ContentFingerprint fingerprintOf(std::string_view bytes);

}  // namespace interlink::io
