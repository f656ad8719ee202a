#include "MeshFileAccess.hpp"

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "interlink/io/ModelFile.hpp"

namespace interlink::mesh::detail {
namespace {

namespace fs = std::filesystem;

std::string normalised(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::path(path).is_absolute() ? fs::path(path) : fs::absolute(path, ec);
  return absolute.lexically_normal().string();
}

/// A file held in memory, read by Assimp as if from disk.
class MemoryStream : public Assimp::IOStream {
 public:
  explicit MemoryStream(std::shared_ptr<const std::string> bytes) : bytes_(std::move(bytes)) {}
  size_t Read(void* buffer, size_t size, size_t count) override {
    if (size == 0 || count == 0) return 0;
    const size_t available = (bytes_->size() - position_) / size;
    const size_t items = std::min(count, available);
    std::memcpy(buffer, bytes_->data() + position_, items * size);
    position_ += items * size;
    return items;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    size_t target = offset;
    if (origin == aiOrigin_CUR) target = position_ + offset;
    if (origin == aiOrigin_END) {
      if (offset > bytes_->size()) return aiReturn_FAILURE;
      target = bytes_->size() - offset;
    }
    if (target > bytes_->size()) return aiReturn_FAILURE;
    position_ = target;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return position_; }
  size_t FileSize() const override { return bytes_->size(); }
  void Flush() override {}

 private:
  std::shared_ptr<const std::string> bytes_;
  size_t position_ = 0;
};

/// Assimp's only way to files: the main mesh from memory, its parts through MeshFileAccess.
class GuardedIOSystem : public Assimp::IOSystem {
 public:
  GuardedIOSystem(MeshFileAccess& access, std::string mainFile, std::shared_ptr<const std::string> mainBytes,
                  MeshFormat format, MeshError& refusal)
      : access_(access), mainFile_(normalised(mainFile)), format_(format), refusal_(refusal), main_(std::move(mainBytes)) {}

  bool Exists(const char* file) const override {
    const std::string path = normalised(file);
    if (path != mainFile_ && !mayOpenAsPart(format_, path)) return false;
    struct stat status {};
    return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
  }
  char getOsSeparator() const override { return '/'; }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (std::strpbrk(mode, "wa+") != nullptr) return nullptr;  // decoding never writes
    const std::string path = normalised(file);
    if (path == mainFile_ && main_) return new MemoryStream(main_);
    if (path != mainFile_ && !mayOpenAsPart(format_, path)) {
      refuse({ErrorCode::FILE_READ, "it names '" + path + "', which a mesh of this format may not open (only " +
                                        (format_ == MeshFormat::Obj ? std::string(".mtl") : std::string(".bin")) +
                                        " files)"});
      return nullptr;
    }
    // A part that is not there is Assimp's to handle (an OBJ without its .mtl loads without
    // materials); one that is there but refused is the mesh's error.
    struct stat status {};
    if (path != mainFile_ && ::lstat(path.c_str(), &status) != 0 && errno == ENOENT) return nullptr;
    MeshError error;
    auto bytes = access_.read(path, error);
    if (!bytes) {
      refuse(error);
      return nullptr;
    }
    auto shared = std::make_shared<const std::string>(std::move(*bytes));
    if (path == mainFile_) main_ = shared;
    return new MemoryStream(std::move(shared));
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }

 private:
  void refuse(MeshError error) {
    if (refusal_.code == ErrorCode::NONE) refusal_ = std::move(error);
  }

  MeshFileAccess& access_;
  std::string mainFile_;
  MeshFormat format_;
  MeshError& refusal_;
  std::shared_ptr<const std::string> main_;
};

}  // namespace

MeshFileAccess::MeshFileAccess(const plugin::HostServices* host)
    : host_(host),
      budget_(plugin::hostHas(host, offsetof(plugin::HostServices, meshBudget)) && host->meshBudget ? host->meshBudget
                                                                                                     : &ownBudget_) {}

std::string MeshFileAccess::pathRefusal(const std::string& path) const {
  if (!plugin::hostHas(host_, offsetof(plugin::HostServices, checkPath)) || !host_->checkPath) return {};
  return host_->checkPath(host_->context, path);
}

std::optional<std::string> MeshFileAccess::read(const std::string& requested, MeshError& error) {
  const std::string path = normalised(requested);
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

std::unique_ptr<Assimp::IOSystem> MeshFileAccess::ioSystemFor(const std::string& mainFile,
                                                              std::shared_ptr<const std::string> mainBytes,
                                                              MeshFormat format, MeshError& refusal) {
  return std::make_unique<GuardedIOSystem>(*this, mainFile, std::move(mainBytes), format, refusal);
}

std::string quotable(const std::string& text) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (out.size() >= 200) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 0xF];
    }
  }
  return out;
}

}  // namespace interlink::mesh::detail
