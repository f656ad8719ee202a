#include "interlink/io/ContentFingerprint.hpp"

#include <cstring>
#include <functional>

namespace interlink::io {

namespace {

/// A second hash, independent of std::hash's: 8 bytes at a time, multiply and fold, the tail byte
/// by byte, the length mixed in.
std::uint64_t checkOf(std::string_view bytes) {
  constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::uint64_t h = 0xcbf29ce484222325ULL ^ bytes.size();
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = (h ^ word) * kPrime;
    h ^= h >> 29;
  }
  for (; i < bytes.size(); ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * kPrime;
  return h ^ (h >> 32);
}

}  // namespace

ContentFingerprint fingerprintOf(std::string_view bytes) {
  return ContentFingerprint{bytes.size(), std::hash<std::string_view>{}(bytes), checkOf(bytes)};
}

}  // namespace interlink::io
