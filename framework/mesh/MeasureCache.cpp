#include "MeasureCache.hpp"

#include <cstring>
#include <functional>
#include <tuple>

namespace interlink::mesh::detail {
namespace {

/// A second hash of the content, independent of std::hash's: 8 bytes at a time, multiply and
/// fold, the tail byte by byte, the length mixed in.
std::uint64_t contentCheckOf(std::string_view bytes) {
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

bool MeasureKey::operator<(const MeasureKey& o) const {
  return std::tie(size, contentHash, contentCheck, how, path, limits.maxFiles, limits.maxFileBytes,
                  limits.maxDecodedBytesPerMesh, limits.maxDecodedBytesPerLoad, limits.maxNodeDepth) <
         std::tie(o.size, o.contentHash, o.contentCheck, o.how, o.path, o.limits.maxFiles, o.limits.maxFileBytes,
                  o.limits.maxDecodedBytesPerMesh, o.limits.maxDecodedBytesPerLoad, o.limits.maxNodeDepth);
}

std::optional<MeasureKey> measureKey(const std::string& path, MeshFormat format, std::string_view bytes,
                                     MeshMeasure how, const MeshLimits& limits) {
  // A glTF's buffers (and a .glb's, when it names some) are other files.
  if (format == MeshFormat::Gltf || format == MeshFormat::GltfBinary) return std::nullopt;
  MeasureKey key;
  key.path = normalisedPath(path);
  key.size = bytes.size();
  key.contentHash = std::hash<std::string_view>{}(bytes);
  key.contentCheck = contentCheckOf(bytes);
  key.how = how;
  key.limits = limits;
  return key;
}

MeasureCache& MeasureCache::process() {
  static MeasureCache cache;
  return cache;
}

std::optional<KeptMeasure> MeasureCache::find(const MeasureKey& key, std::uint64_t allowance) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = entries_.find(key);
  if (found == entries_.end() || found->second.decodedBytes > allowance) return std::nullopt;
  ++hits_;
  return found->second;
}

void MeasureCache::keep(MeasureKey key, const KeptMeasure& measure) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_.insert_or_assign(std::move(key), measure);
}

std::uint64_t MeasureCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

std::size_t MeasureCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace interlink::mesh::detail
