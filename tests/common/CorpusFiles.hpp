#pragma once
// The files the writers' round trips read, every format's: the external corpus
// (INTERLINK_TEST_CORPUS) or, without it, the files tests/data vendors in the same layout; the
// samples and the tests' own data; DART's SKEL files from Debian's dart-doc. In a stable order, with
// the options that find what those files include.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

#ifndef DART_SKEL_DATA_DIR
#define DART_SKEL_DATA_DIR "/usr/share/doc/dart/data/skel"  // Debian dart-doc
#endif

namespace interlink::test {

struct CorpusFile {
  std::string format;
  std::string path;
  std::string label;  // a test-name-safe form of the path
};

/// GoogleTest's name for a parameter: "sdformat: /path/file.sdf".
inline void PrintTo(const CorpusFile& file, std::ostream* out) { *out << file.format << ": " << file.path; }

inline std::string sanitize(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

/// Files under `root` whose extension is in `extensions`, sorted; labels start with `labelPrefix`.
inline std::vector<CorpusFile> collectCorpusFiles(const std::string& format, const std::string& root,
                                                  const std::vector<std::string>& extensions,
                                                  const std::string& labelPrefix = {}) {
  namespace fs = std::filesystem;
  std::vector<CorpusFile> files;
  std::error_code error;
  if (!fs::is_directory(root, error)) return files;
  for (fs::recursive_directory_iterator it(root, error), end; it != end && !error; it.increment(error)) {
    if (!fs::is_regular_file(it->path(), error)) continue;
    const std::string extension = it->path().extension().string();
    if (std::find(extensions.begin(), extensions.end(), extension) == extensions.end()) continue;
    const std::string path = it->path().string();
    files.push_back({format, path, labelPrefix + sanitize(path.substr(root.size()))});
  }
  std::sort(files.begin(), files.end(), [](const CorpusFile& a, const CorpusFile& b) { return a.path < b.path; });
  return files;
}

/// Every file of `format` ("sdformat", "urdf", "skel", "hrdf", "shift", "juice", "mjcf").
inline std::vector<CorpusFile> corpusFiles(const std::string& format) {
  auto joined = [](std::vector<CorpusFile> first, const std::vector<CorpusFile>& second) {
    first.insert(first.end(), second.begin(), second.end());
    return first;
  };
  if (format == "sdformat") {
    return joined(collectCorpusFiles(format, corpus("sdformat"), {".sdf", ".world"}),
                  collectCorpusFiles(format, sourceDir() + "/samples/models", {".sdf"}, "samples"));
  }
  if (format == "urdf") {
    return joined(joined(collectCorpusFiles(format, corpus("sdformat"), {".urdf"}, "sdformat"),
                         collectCorpusFiles(format, corpus("gazebo"), {".urdf"}, "gazebo")),
                  collectCorpusFiles(format, sourceDir() + "/tests/urdf/data", {".urdf"}, "tests"));
  }
  if (format == "skel") return collectCorpusFiles(format, DART_SKEL_DATA_DIR, {".skel"});
  if (format == "hrdf") return collectCorpusFiles(format, corpus("hrdf"), {".hrdf"});
  if (format == "shift") return collectCorpusFiles(format, corpus("shift"), {".json"});
  if (format == "juice") return collectCorpusFiles(format, corpus("juice"), {".jm"});
  if (format == "mjcf") return collectCorpusFiles(format, sourceDir() + "/tests/data/mujoco", {".xml"});
  return {};
}

/// Finds the models the corpus files include and the URDF test packages. The corpus trees are
/// also roots of the path policy: a file converted into a scratch directory still names its
/// meshes and includes where the corpus keeps them.
inline LoadOptions corpusOptions() {
  LoadOptions options;
  options.resourcePaths = {corpus("sdformat/test/integration/model"), sourceDir() + "/tests/urdf/data/packages",
                           corpus(""), std::string(DART_SKEL_DATA_DIR) + "/..", sourceDir() + "/tests", sourceDir() + "/samples"};
  return options;
}

}  // namespace interlink::test
