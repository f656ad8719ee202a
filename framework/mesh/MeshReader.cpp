#include "MeshReader.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "AssimpDecode.hpp"
#include "MeasureCache.hpp"
#include "MeshFileAccess.hpp"
#include "MeshPrecheck.hpp"
#include "PolygonReaders.hpp"

namespace interlink::mesh {

struct MeshReader::Impl {
  explicit Impl(const plugin::HostServices* host) : access(host) {}

  detail::MeshFileAccess access;
  std::map<std::string, std::pair<std::shared_ptr<const MeshPolygons>, MeshError>> polygons;
  std::map<std::pair<std::string, MeshMeasure>, std::pair<std::optional<MeshInfo>, MeshError>> measures;

  const MeshLimits& limits() { return access.budget().limits; }

  /// What one more mesh may still decode: its own limit or what the load has left.
  std::uint64_t allowance() {
    const MeshBudget& budget = access.budget();
    const std::uint64_t left =
        budget.decodedBytes >= budget.limits.maxDecodedBytesPerLoad ? 0 : budget.limits.maxDecodedBytesPerLoad - budget.decodedBytes;
    return std::min(budget.limits.maxDecodedBytesPerMesh, left);
  }

  MeshError limitError(std::uint64_t decoded) {
    const MeshBudget& budget = access.budget();
    if (decoded > budget.limits.maxDecodedBytesPerMesh) {
      return {ErrorCode::MESH_LIMIT, "the mesh decodes to more than " + std::to_string(budget.limits.maxDecodedBytesPerMesh) +
                                         " bytes (LoadOptions::meshLimits.maxDecodedBytesPerMesh)"};
    }
    return {ErrorCode::MESH_LIMIT, "the meshes of this load decode to more than " +
                                       std::to_string(budget.limits.maxDecodedBytesPerLoad) +
                                       " bytes (LoadOptions::meshLimits.maxDecodedBytesPerLoad)"};
  }

  /// Reads the files a kept measurement's mesh named, as its decode did; false when one cannot be.
  bool readParts(const std::vector<std::string>& parts) {
    for (const std::string& part : parts) {
      MeshError refusal;
      if (!access.read(part, refusal)) return false;
    }
    return true;
  }

  /// The format of a file that may be decoded, with its bytes read and prechecked.
  std::optional<std::pair<detail::MeshFormat, std::shared_ptr<const std::string>>> open(const std::string& path,
                                                                                       MeshError& error) {
    const auto format = detail::formatOf(path);
    if (!format) {
      error = {ErrorCode::FILE_READ, "'" + std::filesystem::path(path).filename().string() +
                                         "' is not a mesh format Interlink reads (" + detail::supportedFormats() + ")"};
      return std::nullopt;
    }
    auto bytes = access.read(path, error);
    if (!bytes) return std::nullopt;
    if (!detail::precheckMesh(*format, path, *bytes, limits(), error)) return std::nullopt;
    return std::make_pair(*format, std::make_shared<const std::string>(std::move(*bytes)));
  }

  std::shared_ptr<const MeshPolygons> decodePolygons(const std::string& path, MeshError& error) {
    auto opened = open(path, error);
    if (!opened) return nullptr;
    const auto& [format, bytes] = *opened;
    const std::uint64_t allowed = allowance();
    std::optional<MeshPolygons> result;
    if (format == detail::MeshFormat::Obj) {
      result = detail::readObj(*bytes, allowed, error);
    } else if (format == detail::MeshFormat::Stl) {
      result = detail::readBinaryStl(*bytes, allowed, error);
      if (!result && error.code == ErrorCode::NONE) result = detail::assimpPolygons(access, path, format, bytes, allowed, error);
    } else {
      result = detail::assimpPolygons(access, path, format, bytes, allowed, error);
    }
    if (!result) {
      if (error.code == ErrorCode::MESH_LIMIT && error.message.find("decodes to more") != std::string::npos) {
        error = limitError(allowed + 1 > limits().maxDecodedBytesPerMesh ? allowed + 1 : allowed);
      }
      return nullptr;
    }
    access.budget().decodedBytes += result->decodedBytes();
    return std::make_shared<const MeshPolygons>(std::move(*result));
  }
};

MeshReader::MeshReader(const plugin::HostServices* host) : impl_(std::make_unique<Impl>(host)) {}
MeshReader::~MeshReader() = default;

std::optional<std::string> MeshReader::readBytes(const std::string& path, MeshError& error) {
  return impl_->access.read(path, error);
}

std::shared_ptr<const MeshPolygons> MeshReader::polygons(const std::string& path, MeshError& error) {
  auto found = impl_->polygons.find(path);
  if (found == impl_->polygons.end()) {
    MeshError problem;
    auto result = impl_->decodePolygons(path, problem);
    found = impl_->polygons.emplace(path, std::make_pair(std::move(result), std::move(problem))).first;
  }
  if (!found->second.first) error = found->second.second;
  return found->second.first;
}

std::optional<MeshInfo> MeshReader::measure(const std::string& path, MeshMeasure how, MeshError& error) {
  const auto key = std::make_pair(path, how);
  auto found = impl_->measures.find(key);
  if (found == impl_->measures.end()) {
    MeshError problem;
    std::optional<MeshInfo> info;
    if (auto opened = impl_->open(path, problem)) {
      const std::uint64_t allowed = impl_->allowance();
      std::uint64_t decoded = 0;
      // Measured before in this process (MeasureCache.hpp): the same bytes, limits and steps.
      auto& kept = detail::MeasureCache::process();
      auto keptKey = detail::measureKey(path, opened->first, *opened->second, how, impl_->limits());
      const auto before = keptKey ? kept.find(*keptKey, allowed) : std::nullopt;
      if (before && impl_->readParts(before->parts)) {
        info = before->info;
        decoded = before->decodedBytes;
      } else {
        detail::RecordingSource parts(impl_->access);
        info = detail::assimpMeasure(parts, path, opened->first, opened->second, how, allowed, decoded, problem);
        if (info && keptKey) kept.keep(std::move(*keptKey), {*info, decoded, std::move(parts.paths)});
      }
      if (!info && problem.code == ErrorCode::MESH_LIMIT && problem.message.find("decodes to more") != std::string::npos) {
        problem = impl_->limitError(allowed + 1 > impl_->limits().maxDecodedBytesPerMesh ? allowed + 1 : allowed);
      }
      impl_->access.budget().decodedBytes += decoded;
    }
    found = impl_->measures.emplace(key, std::make_pair(std::move(info), std::move(problem))).first;
  }
  if (!found->second.first) error = found->second.second;
  return found->second.first;
}

std::optional<std::string> MeshReader::displayGlb(const std::string& path, MeshError& error) {
  auto opened = impl_->open(path, error);
  if (!opened) return std::nullopt;
  const std::uint64_t allowed = impl_->allowance();
  auto glb = detail::assimpDisplayGlb(impl_->access, path, opened->first, opened->second, allowed, error);
  if (!glb && error.code == ErrorCode::MESH_LIMIT && error.message.find("decodes to more") != std::string::npos) {
    error = impl_->limitError(allowed + 1 > impl_->limits().maxDecodedBytesPerMesh ? allowed + 1 : allowed);
  }
  if (glb) impl_->access.budget().decodedBytes += glb->size();
  return glb;
}

}  // namespace interlink::mesh
