#include "MeasureCache.hpp"

#include <tuple>

namespace interlink::mesh::detail {

bool MeasureKey::operator<(const MeasureKey& o) const {
  return std::tie(content, how, path, limits.maxFiles, limits.maxFileBytes,
                  limits.maxDecodedBytesPerMesh, limits.maxDecodedBytesPerLoad, limits.maxNodeDepth) <
         std::tie(o.content, o.how, o.path, o.limits.maxFiles, o.limits.maxFileBytes,
                  o.limits.maxDecodedBytesPerMesh, o.limits.maxDecodedBytesPerLoad, o.limits.maxNodeDepth);
}

std::optional<MeasureKey> measureKey(const std::string& path, MeshFormat format, std::string_view bytes,
                                     MeshMeasure how, const MeshLimits& limits) {
  // A glTF's buffers (and a .glb's, when it names some) are other files.
  if (format == MeshFormat::Gltf || format == MeshFormat::GltfBinary) return std::nullopt;
  MeasureKey key;
  key.path = normalisedPath(path);
  key.content = io::fingerprintOf(bytes);
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
