#pragma once
// Helpers of the hostile-input tests: a scratch directory per test, one shared loader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::test {

inline const Loader& hostileLoader() {
  static const Loader loader;  // the build tree's plugins, discovered once
  return loader;
}

/// A fresh directory for the running test, removed when the test ends.
class Scratch {
 public:
  Scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(::testing::TempDir()) / "interlink_hostile" /
           (std::string(info->test_suite_name()) + "." + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  std::string path(const std::string& relative) const { return (dir_ / relative).string(); }
  std::string write(const std::string& relative, std::string_view content) const {
    const auto file = dir_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return file.string();
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

/// Options of a host that loads untrusted files: includes and meshes stay in the model's tree.
inline LoadOptions confined() {
  LoadOptions options;
  options.allowPathsOutsideRoots = false;
  return options;
}

/// The first diagnostic with `code`, or null.
inline const Diagnostic* findCode(const Diagnostics& diagnostics, ErrorCode code) {
  for (const auto& d : diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

inline bool mentions(const Diagnostic* d, std::string_view text) {
  return d && d->message.find(text) != std::string::npos;
}

/// Loads `file` with `options`; succeeds when a diagnostic with `code` mentions `text`.
inline ::testing::AssertionResult loadReports(const std::string& file, const LoadOptions& options, ErrorCode code,
                                              std::string_view text) {
  const LoadResult result = hostileLoader().loadFile(file, options);
  const Diagnostic* d = findCode(result.diagnostics, code);
  if (!d) return ::testing::AssertionFailure() << "no " << codeName(code) << " in:\n" << dump(result.diagnostics);
  if (!mentions(d, text)) return ::testing::AssertionFailure() << "'" << text << "' not in: " << d->format();
  return ::testing::AssertionSuccess();
}

}  // namespace interlink::test
