#include "interlink/convert/WriterRegistry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "interlink/TextNumbers.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::convert {

namespace fs = std::filesystem;

std::optional<MeshUriStyle> meshUriStyleNamed(std::string_view name) {
  if (name == "portable") return MeshUriStyle::Portable;
  if (name == "absolute") return MeshUriStyle::Absolute;
  if (name == "relative") return MeshUriStyle::Relative;
  if (name == "as-written") return MeshUriStyle::AsWritten;
  return std::nullopt;
}

const WriterRegistry& WriterRegistry::builtIn() {
  static const WriterRegistry registry = [] {
    WriterRegistry r;
    r.add({"sdformat", {".sdf"}, "SDFormat 1.9: nested models and frames kept, every pose written relative_to",
           "sdformat", [](const LoadResult& l, const WriteOptions& o, Diagnostics& d) { return writeSdformat(l, o, d); }});
    r.add({"urdf", {".urdf"}, "URDF: nested models flattened (\"::\" becomes \"__\"), frames as fixed joints",
           "urdf", [](const LoadResult& l, const WriteOptions& o, Diagnostics& d) { return writeUrdf(l, o, d); }});
    r.add({"mjcf", {".mjcf", ".xml"}, "MJCF for MuJoCo 2.2.2 (docs/mjcf.md)",
           "mjcf", [](const LoadResult& l, const WriteOptions& o, Diagnostics& d) { return writeMjcf(l, o, d); }});
    r.add({"json", {".json"}, "the complete core model and its resolved frames (docs/convert.md)", "interlink_model",
           [](const LoadResult& l, const WriteOptions&, Diagnostics&) -> std::optional<std::string> { return writeJson(l); }});
    r.add({"dot", {".dot", ".gv"}, "Graphviz DOT of the frame graph (not read back)", "",
           [](const LoadResult& l, const WriteOptions&, Diagnostics& d) -> std::optional<std::string> {
             if (!l.ok()) {
               d.error(ErrorCode::ELEMENT_ERROR, "the model has errors; nothing to draw");
               return std::nullopt;
             }
             return writeDot(l);
           }});
    return r;
  }();
  return registry;
}

void WriterRegistry::add(Writer writer) {
  for (Writer& existing : writers_) {
    if (existing.name == writer.name) {
      existing = std::move(writer);
      return;
    }
  }
  writers_.push_back(std::move(writer));
}

const WriterRegistry::Writer* WriterRegistry::find(std::string_view nameOrExtension) const {
  const std::string wanted = toLower(nameOrExtension);
  if (wanted.empty()) return nullptr;
  const std::string dotted = wanted.front() == '.' ? wanted : "." + wanted;
  for (const Writer& w : writers_) {
    if (w.name == wanted) return &w;
    for (const std::string& extension : w.extensions) {
      if (extension == dotted) return &w;
    }
  }
  return nullptr;
}

const WriterRegistry::Writer* WriterRegistry::forPath(std::string_view path) const {
  const std::string fileName = toLower(fs::path(std::string(path)).filename().string());
  for (const Writer& w : writers_) {
    for (const std::string& extension : w.extensions) {
      if (fileName.size() > extension.size() &&
          fileName.compare(fileName.size() - extension.size(), extension.size(), extension) == 0) {
        return &w;
      }
    }
  }
  return nullptr;
}

std::vector<std::string> WriterRegistry::names() const {
  std::vector<std::string> out;
  for (const Writer& w : writers_) out.push_back(w.name);
  return out;
}

std::string WriterRegistry::describe() const {
  std::string out;
  for (const Writer& w : writers_) {
    out += (out.empty() ? "" : ", ") + w.name + " (";
    for (std::size_t i = 0; i < w.extensions.size(); ++i) out += (i ? ", " : "") + w.extensions[i];
    out += ")";
  }
  return out;
}

bool WriterRegistry::readBack(const Writer& writer, const LoadResult& loaded, const std::string& text,
                              const std::string& path, const Loader& loader, const LoadOptions& readBackOptions,
                              Diagnostics& diagnostics) const {
  if (writer.readerPlugin.empty()) return true;
  LoadOptions options = readBackOptions;
  options.format = writer.readerPlugin;
  const std::string& source = loaded.document.sourceFile;
  if (!source.empty() && fs::path(source).has_parent_path()) {
    options.resourcePaths.push_back(fs::path(source).parent_path().string());
  }
  const LoadResult again = loader.loadString(text, path, options);
  if (again.ok()) return true;
  for (const Diagnostic& d : again.diagnostics) {
    if (!d.isError()) continue;
    Diagnostic reported = d;
    reported.message = "the " + writer.name + " written does not read back: " + d.message;
    diagnostics.add(std::move(reported));
  }
  return false;
}

namespace {

/// Opens a new file beside `path` (same directory, so that the rename is atomic and relative
/// URIs resolve alike); returns its name and descriptor, or -1.
std::pair<std::string, int> openTemporaryBeside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const fs::path target(path);
  const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = (directory / ("." + target.filename().string() + ".interlink-" +
                                           std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                                 .string();
    // 0666 less the umask: the permissions an ordinary write would give.
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {name, fd};
    if (errno != EEXIST) break;
  }
  return {std::string(), -1};
}

bool writeAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool WriterRegistry::writeFile(const Writer& writer, const LoadResult& loaded, const std::string& path,
                               WriteOptions options, const Loader& loader, const LoadOptions& readBackOptions,
                               Diagnostics& diagnostics) const {
  options.outputPath = path;
  const std::optional<std::string> text = writer.write(loaded, options, diagnostics);
  if (!text) return false;
  const std::pair<std::string, int> opened = openTemporaryBeside(path);
  const std::string& temporary = opened.first;
  const int fd = opened.second;
  if (fd < 0) {
    diagnostics.error(ErrorCode::FILE_READ, "cannot create a file beside '" + path + "': " + std::strerror(errno));
    return false;
  }
  const bool written = writeAll(fd, *text);
  const int writeErrno = errno;
  const bool closed = ::close(fd) == 0;
  auto discard = [&](const std::string& why) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    if (!why.empty()) diagnostics.error(ErrorCode::FILE_READ, why);
    return false;
  };
  if (!written || !closed) return discard("cannot write '" + path + "': " + std::strerror(writeErrno));
  // Read what is on disk, not what was meant to be written.
  std::ifstream in(temporary, std::ios::binary);
  const std::string onDisk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return discard("cannot read back '" + temporary + "'");
  if (!readBack(writer, loaded, onDisk, path, loader, readBackOptions, diagnostics)) return discard("");
  std::error_code renamed;
  fs::rename(temporary, path, renamed);
  if (renamed) return discard("cannot write '" + path + "': " + renamed.message());
  return true;
}

}  // namespace interlink::convert
