// The public-collection differential (issue 12): every SDFormat file of Gazebo's own worlds and
// models (gz-sim's examples, test worlds and tutorials; osrf/gazebo_models: the gazebo/ part of the
// external corpus, INTERLINK_TEST_CORPUS, docs/dev/ci.md; skipped without it)
// is loaded by libsdformat 12.3 and by Interlink, each with the collection's search path
// (resources.txt) as a Gazebo user sets it. Every file libsdformat loads, Interlink loads with the
// same frames (all of them, to 1e-9); every file libsdformat refuses, Interlink refuses. The
// disagreements that remain are listed in gazebo_exceptions.tsv with their reason; an unlisted
// disagreement fails, and so does a listed file that now agrees, so the list stays honest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "InterlinkSide.hpp"
#include "ReferenceSdformat.hpp"
#include "TestSupport.hpp"

namespace interlink::conformance {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kCollections = {"gz-sim", "gazebo_models"};

std::string gazeboCorpus() { return test::externalCorpus() + "/gazebo"; }

std::string exceptionsFile() { return test::sourceDir() + "/tests/sdformat_conformance/gazebo_exceptions.tsv"; }

/// The search path of a collection: resources.txt lists directories relative to it, one a line.
std::vector<std::string> searchPathOf(const std::string& collection) {
  const fs::path root = fs::path(gazeboCorpus()) / collection;
  std::vector<std::string> directories;
  std::ifstream in(root / "resources.txt");
  for (std::string line; std::getline(in, line);) {
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty() || line[0] == '#') continue;
    directories.push_back((root / line).lexically_normal().string());
  }
  return directories;
}

/// Every .sdf and .world file of the collections, as paths relative to the corpus, sorted.
std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const auto& collection : kCollections) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(fs::path(gazeboCorpus()) / collection, error), end; !error && it != end;
         it.increment(error)) {
      const std::string ext = it->path().extension().string();
      if (it->is_regular_file() && (ext == ".sdf" || ext == ".world")) {
        files.push_back(fs::relative(it->path(), gazeboCorpus()).string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct ListedException {
  std::string reason;
  int line = 0;
};

/// gazebo_exceptions.tsv: "relative/path<TAB>reason" a line; '#' starts a comment line.
std::map<std::string, ListedException> listedExceptions(std::vector<std::string>& problems) {
  std::map<std::string, ListedException> listed;
  std::ifstream in(exceptionsFile());
  if (!in) problems.push_back("cannot read " + exceptionsFile());
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    const std::string file = line.substr(0, tab);
    const std::string reason = tab == std::string::npos ? std::string() : line.substr(tab + 1);
    const std::string where = "gazebo_exceptions.tsv:" + std::to_string(number) + ": ";
    if (reason.size() < 20) problems.push_back(where + file + " needs a reason");
    if (!listed.emplace(file, ListedException{reason, number}).second) problems.push_back(where + file + " is listed twice");
  }
  return listed;
}

/// What one file gave on both sides, and why they disagree (empty when they agree).
struct FileOutcome {
  bool theirsValid = false;
  bool oursValid = false;
  std::size_t theirFrames = 0;
  std::size_t equalFrames = 0;
  std::string disagreement;
};

FileOutcome compareFile(const std::string& relative) {
  const std::string path = gazeboCorpus() + "/" + relative;
  const std::string collection = relative.substr(0, relative.find('/'));
  const std::vector<std::string> searchPath = searchPathOf(collection);
  const ReferenceResult theirs = loadWithLibsdformat(path, searchPath);
  const OursResult ours = loadWithInterlink(path, searchPath);

  FileOutcome outcome;
  outcome.theirsValid = theirs.valid;
  outcome.oursValid = ours.valid;
  std::ostringstream why;
  if (ours.valid != theirs.valid) {
    why << "verdicts differ: Interlink " << (ours.valid ? "loads" : "refuses") << ", libsdformat "
        << (theirs.valid ? "loads" : "refuses") << "\n  Interlink:\n"
        << (ours.diagnostics.empty() ? "  (none)\n" : ours.diagnostics) << "  libsdformat:\n";
    for (std::size_t i = 0; i < theirs.messages.size() && i < 8; ++i) why << "  " << theirs.messages[i] << "\n";
  } else if (theirs.valid) {
    const FrameComparison frames = compareFrames(ours.frames, theirs.frames);
    outcome.theirFrames = frames.theirCount;
    outcome.equalFrames = frames.equalCount;
    if (!theirs.resolveErrors.empty()) why << "libsdformat could not resolve " << theirs.resolveErrors.front() << "\n";
    if (!ours.inconsistencies.empty()) why << "Interlink's frame graph is inconsistent: " << ours.inconsistencies.front() << "\n";
    if (!frames.agree()) {
      why << frames.differenceCount << " of " << frames.theirCount << " frames differ\n" << frames.differences;
      for (const auto& d : frames.duplicates) why << "  listed twice: " << d << "\n";
    }
  }
  outcome.disagreement = why.str();
  return outcome;
}

TEST(GazeboCorpusDifferential, EveryFileAgreesWithLibsdformatOrIsAListedException) {
  INTERLINK_SKIP_WITHOUT_CORPUS("gazebo");
  ASSERT_TRUE(sharedLoader().plugins().formatFor("model.sdf")) << "the SDFormat plugin is not loaded";
  const std::vector<std::string> files = corpusFiles();
  ASSERT_GE(files.size(), 600u) << "the corpus at " << gazeboCorpus() << " looks incomplete";
  std::vector<std::string> problems;
  const auto listed = listedExceptions(problems);
  for (const auto& [file, entry] : listed) {
    if (std::getenv("INTERLINK_GAZEBO_FILTER")) break;
    if (!std::binary_search(files.begin(), files.end(), file)) {
      problems.push_back("gazebo_exceptions.tsv:" + std::to_string(entry.line) + ": " + file + " is not in the corpus");
    }
  }

  std::size_t theirsValid = 0, theirsRefused = 0, agreeValid = 0, agreeRefused = 0;
  std::size_t framesCompared = 0, framesEqual = 0;
  std::map<std::string, std::size_t> exceptionsByReason;
  // INTERLINK_GAZEBO_FILTER=TEXT compares only the files whose path holds TEXT, each verdict shown
  // (for looking into one file; the full run is what CI checks).
  const char* filter = std::getenv("INTERLINK_GAZEBO_FILTER");
  for (const auto& file : files) {
    if (filter && file.find(filter) == std::string::npos) continue;
    const FileOutcome outcome = compareFile(file);
    if (filter) {
      std::cout << file << ": libsdformat " << (outcome.theirsValid ? "loads" : "refuses") << ", Interlink "
                << (outcome.oursValid ? "loads" : "refuses") << "\n" << outcome.disagreement;
    }
    (outcome.theirsValid ? theirsValid : theirsRefused)++;
    framesCompared += outcome.theirFrames;
    framesEqual += outcome.equalFrames;
    const bool agrees = outcome.disagreement.empty();
    if (agrees) (outcome.theirsValid ? agreeValid : agreeRefused)++;
    const auto entry = listed.find(file);
    if (entry == listed.end()) {
      if (!agrees) problems.push_back(file + ": unlisted disagreement: " + outcome.disagreement);
    } else if (agrees) {
      problems.push_back(file + ": listed as an exception (" + entry->second.reason +
                         ") but now agrees with libsdformat: remove it from gazebo_exceptions.tsv");
    } else {
      ++exceptionsByReason[entry->second.reason.substr(0, entry->second.reason.find(':'))];
    }
  }

  std::ostringstream summary;
  summary << "Gazebo corpus vs libsdformat 12.3: " << files.size() << " files (libsdformat loads " << theirsValid
          << ", refuses " << theirsRefused << "); agreement on " << agreeValid + agreeRefused << " files (" << agreeValid
          << " loaded with the same frames, " << agreeRefused << " refused by both); frames " << framesEqual << " of "
          << framesCompared << " equal to 1e-9; listed exceptions " << listed.size() << "\n";
  for (const auto& [reason, count] : exceptionsByReason) summary << "  " << count << " x " << reason << "\n";
  std::cout << summary.str();
  RecordProperty("summary", summary.str());

  std::string report;
  for (const auto& problem : problems) report += problem + "\n";
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems:\n" << report;
}

}  // namespace
}  // namespace interlink::conformance
