#pragma once
// Helpers for the HRDF tests: temporary files, loading through the real loader, frame lookups.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "interlink/Loader.hpp"
#include "interlink/hrdf/FrameLists.hpp"

namespace interlink::test {

/// A fresh temporary directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "interlink_hrdf_XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string write(const std::string& relative, const std::string& content) const {
    const auto full = std::filesystem::path(path_) / relative;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << content;
    return full.string();
  }

 private:
  std::string path_;
};

/// HEBI's frame lists of a loaded HRDF model (empty lists when the record is missing, which the
/// callers' size checks catch).
inline hrdf::FrameLists frameLists(const Model& model) {
  const auto* lists = model.extensions.find<hrdf::FrameLists>();
  return lists ? *lists : hrdf::FrameLists{};
}

/// Poses of named frames at q, from the loader's kinematics.
struct Posed {
  const LoadResult& result;
  std::vector<Pose> poses;
  Pose of(const std::string& name) const {
    auto index = result.graph.find(name);
    return index && *index < poses.size() ? poses[*index] : Pose(Eigen::Matrix4d::Constant(std::nan("")));
  }
};

}  // namespace interlink::test
