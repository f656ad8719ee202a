// The user documentation (docs/*.md and README.md, installed with the package) holds what a user
// needs and no development log: no dates of runs, issue numbers of this project or remarks on the
// machine's load (those belong in docs/dev/, which is not installed).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> userDocs() {
  std::vector<fs::path> out{fs::path(test::sourceDir()) / "README.md"};
  for (const auto& entry : fs::directory_iterator(fs::path(test::sourceDir()) / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") out.push_back(entry.path());
  }
  return out;
}

TEST(UserDocs, HoldNoDevelopmentLog) {
  // An upstream project's issue ("libsdformat issue #852") is a reference, not a log.
  const std::vector<std::pair<std::string, std::regex>> patterns = {
      {"a date", std::regex("\\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\\b")},
      {"a time of day", std::regex("\\b[0-2][0-9]:[0-5][0-9] UTC\\b")},
      {"an issue number of this project", std::regex("\\b[Ii]ssues? #?[0-9]+|(^|\\s|\\()#[0-9]+\\b")},
      {"the machine's load", std::regex("load average|machine load|under load|shared 2-core|other engineers")},
  };
  std::size_t read = 0;
  for (const fs::path& doc : userDocs()) {
    const std::string text = test::readFile(doc.string());
    ASSERT_FALSE(text.empty()) << doc;
    ++read;
    std::size_t line = 1;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string content = text.substr(start, end - start);
      const bool upstream = content.find("libsdformat") != std::string::npos || content.find("upstream") != std::string::npos;
      for (const auto& [what, pattern] : patterns) {
        if (upstream && what == "an issue number of this project") continue;
        EXPECT_FALSE(std::regex_search(content, pattern)) << doc.filename() << ":" << line << ": " << what << ": " << content;
      }
      start = end + 1;
      ++line;
    }
  }
  EXPECT_GT(read, 10u);
}

TEST(UserDocs, TheGuidesAUserNeedsExistAndAreLinkedFromTheReadme) {
  const std::string readme = test::readFile(test::sourceDir() + "/README.md");
  for (const char* page : {"getting-started.md", "host-guide.md", "plugin-guide.md", "hardware-vendor-guide.md",
                           "formats.md", "thread-safety.md", "versioning.md", "cli.md"}) {
    const std::string text = test::readFile(test::sourceDir() + "/docs/" + page);
    EXPECT_GT(text.size(), 500u) << page;
    EXPECT_NE(readme.find(std::string("docs/") + page), std::string::npos) << page << " is not linked from README.md";
  }
  // The format matrix names every format plugin in plugins/ with what it reads and writes.
  const std::string formats = test::readFile(test::sourceDir() + "/docs/formats.md");
  for (const auto& entry : fs::directory_iterator(fs::path(test::sourceDir()) / "plugins")) {
    if (!fs::exists(entry.path() / "CMakeLists.txt")) continue;
    const std::string folder = entry.path().filename().string();
    const std::string plugin = folder == "core_model" ? "interlink_model" : folder;
    EXPECT_NE(formats.find("| `" + plugin + "` |"), std::string::npos) << plugin << " is missing from docs/formats.md";
  }
}

}  // namespace
}  // namespace interlink
