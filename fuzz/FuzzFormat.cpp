// libFuzzer harness: the bytes as a file of one format (INTERLINK_FUZZ_PLUGIN names the plugin,
// INTERLINK_FUZZ_EXTENSION gives the file name its extension), through Loader::loadString with every phase. Any crash, sanitizer report, leak or
// timeout is a finding; diagnostics are the expected outcome for bad input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlink/Loader.hpp"

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
  return 0;
}
