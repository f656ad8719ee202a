#pragma once
// Loading xacro text through the real loader and plugins (xacro, then URDF), for the feature tests.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "Scratch.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::test {

using Arguments = std::vector<std::pair<std::string, std::string>>;

/// A robot document around `body`, with the xacro namespace and one link so that URDF accepts it.
inline std::string robot(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
         "  <link name=\"base\"/>\n" +
         body + "\n</robot>\n";
}

/// Writes `text` as `name` into the test's scratch directory and loads it, with the expanded text
/// kept (LoadResult::expandedText). It is loaded a second time without the text, the expansion
/// handed to the URDF plugin as a tree: both loads must give the same diagnostics (locations and
/// macro chains included) and the same model.
inline LoadResult loadXacro(const Scratch& scratch, const std::string& text, const Arguments& arguments = {},
                            const std::string& name = "robot.urdf.xacro", LoadOptions options = {}) {
  const std::string path = scratch.write(name, text);
  options.arguments = arguments;
  Loader loader;
  options.keepExpandedText = false;
  const LoadResult asTree = loader.loadFile(path, options);
  options.keepExpandedText = true;
  LoadResult asText = loader.loadFile(path, options);
  EXPECT_TRUE(asTree.expandedText.empty());
  EXPECT_EQ(dump(asTree.diagnostics), dump(asText.diagnostics)) << "the expansion as a tree and as text";
  EXPECT_EQ(convert::writeJson(asTree), convert::writeJson(asText)) << "the expansion as a tree and as text";
  return asText;
}

/// The diagnostics that are errors or notes, as text.
inline bool hasMessage(const Diagnostics& diagnostics, const std::string& part) {
  for (const Diagnostic& d : diagnostics) {
    if (d.format().find(part) != std::string::npos) return true;
  }
  return false;
}

inline const Link* linkNamed(const LoadResult& result, const std::string& name) {
  if (!result.document.model) return nullptr;
  for (const Link& link : result.document.model->links) {
    if (link.name == name) return &link;
  }
  return nullptr;
}

inline const Joint* jointNamed(const LoadResult& result, const std::string& name) {
  if (!result.document.model) return nullptr;
  for (const Joint& joint : result.document.model->joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

}  // namespace interlink::test
