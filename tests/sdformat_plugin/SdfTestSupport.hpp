#pragma once
// Helpers for the SDFormat plugin tests: a shared loader, scratch files, diagnostic lookups.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::test {

inline const Loader& sdfLoader() {
  static const Loader loader;  // discovers the build tree's plugins once
  return loader;
}

/// A fresh directory for the running test.
inline std::filesystem::path scratchDirectory() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "interlink_sdformat_plugin" /
                              (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string writeFile(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  return path.string();
}

inline LoadResult loadSdf(const std::string& path, bool resolveFrames = true) {
  LoadOptions options;
  options.resolveFrames = resolveFrames;
  return sdfLoader().loadFile(path, options);
}

/// The first diagnostic with `code`, or null.
inline const Diagnostic* findCode(const Diagnostics& diagnostics, ErrorCode code) {
  for (const auto& d : diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

inline std::size_t countCode(const Diagnostics& diagnostics, ErrorCode code) {
  std::size_t n = 0;
  for (const auto& d : diagnostics) n += d.code == code ? 1 : 0;
  return n;
}

/// Calls the SDFormat plugin directly (still the real shared library, found by the registry), so
/// that input the core refuses before any plugin sees it can be fed to the plugin too.
inline Diagnostics loadWithPluginOnly(std::string_view content, Document& document) {
  Diagnostics diagnostics;
  const PluginHandle plugin = sdfLoader().plugins().findByName("sdformat");
  EXPECT_TRUE(plugin) << "the sdformat plugin was not found in " << pluginDir();
  if (!plugin) return diagnostics;
  plugin::LoadRequest request;
  request.path = "/virtual/input.sdf";
  request.content = content;
  plugin.load(request, document, diagnostics);
  return diagnostics;
}

}  // namespace interlink::test
