#pragma once
// Helpers of the hostile-input tests: a scratch directory per test, one shared loader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::test {

inline const Loader& hostileLoader() {
  static const Loader loader;  // the build tree's plugins, discovered once
  return loader;
}


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
