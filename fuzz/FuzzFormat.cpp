// libFuzzer harness: the bytes as a file of one format (INTERLINK_FUZZ_PLUGIN names the plugin,
// INTERLINK_FUZZ_EXTENSION gives the file name its extension), through Loader::loadString with every phase. Any crash, sanitizer report, leak or
// timeout is a finding; diagnostics are the expected outcome for bad input.
// With INTERLINK_FUZZ_TREE_AGAINST_TEXT (xacro), every input is loaded a second time with the
// expansion written as text and parsed: the diagnostics and the model must be the same as with the
// expansion handed over as a tree, or the harness aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "interlink/Loader.hpp"
#ifdef INTERLINK_FUZZ_TREE_AGAINST_TEXT
#include <cstdio>

#include "interlink/convert/Writers.hpp"
#endif

namespace {

const interlink::Loader& loader() {
  static const interlink::Loader instance;  // the build tree's plugins
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  interlink::LoadOptions options;
  options.maxIncludedModels = 50;  // fuzz inputs name only files of the seed corpus, if any
  // An input may name any file of the machine (an absolute include, a xacro glob over a system
  // directory): big ones are refused by size rather than read through, unit after unit.
  options.maxFileBytes = std::uint64_t{1} << 20;
  options.format = INTERLINK_FUZZ_PLUGIN;
  auto result = loader().loadString(content, "/nonexistent/fuzz/input" INTERLINK_FUZZ_EXTENSION, options);
  (void)result.ok();
#ifdef INTERLINK_FUZZ_TREE_AGAINST_TEXT
  options.keepExpandedText = true;
  const auto asText = loader().loadString(content, "/nonexistent/fuzz/input" INTERLINK_FUZZ_EXTENSION, options);
  std::string treeSaid, textSaid;
  for (const auto& d : result.diagnostics) treeSaid += d.format() + "\n";
  for (const auto& d : asText.diagnostics) textSaid += d.format() + "\n";
  if (treeSaid != textSaid || interlink::convert::writeJson(result) != interlink::convert::writeJson(asText)) {
    std::fprintf(stderr, "the expansion as a tree and as text differ\ntree:\n%s\ntext:\n%s\n", treeSaid.c_str(),
                 textSaid.c_str());
    std::abort();
  }
#endif
  return 0;
}
