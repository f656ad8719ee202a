#include "MeshFileAccess.hpp"

#include "interlink/io/ModelFile.hpp"

namespace interlink::mesh::detail {

MeshFileAccess::MeshFileAccess(const plugin::HostServices* host)
    : host_(host),
      budget_(plugin::hostHas(host, offsetof(plugin::HostServices, meshBudget)) && host->meshBudget ? host->meshBudget
                                                                                                     : &ownBudget_) {}

std::string MeshFileAccess::pathRefusal(const std::string& path) const {
  if (!plugin::hostHas(host_, offsetof(plugin::HostServices, checkPath)) || !host_->checkPath) return {};
  return host_->checkPath(host_->context, path);
}

std::optional<std::string> MeshFileAccess::read(const std::string& requested, MeshError& error) {
  const std::string path = normalisedPath(requested);
  if (std::string reason = pathRefusal(path); !reason.empty()) {
    error = {ErrorCode::PATH_OUTSIDE_ROOTS, reason};
    return std::nullopt;
  }
  if (opened_.insert(path).second && ++budget_->filesOpened > budget_->limits.maxFiles) {
    error = {ErrorCode::MESH_LIMIT, "more than " + std::to_string(budget_->limits.maxFiles) +
                                        " mesh files in one load (LoadOptions::meshLimits.maxFiles)"};
    return std::nullopt;
  }
  Diagnostics diagnostics;
  auto bytes = io::readRegularFile(path, budget_->limits.maxFileBytes, SourceLocation{path, 0, 0}, diagnostics);
  if (!bytes) {
    error = {ErrorCode::FILE_READ, diagnostics.size() > 0 ? diagnostics.begin()->message : "cannot read '" + path + "'"};
    return std::nullopt;
  }
  return bytes;
}

}  // namespace interlink::mesh::detail
