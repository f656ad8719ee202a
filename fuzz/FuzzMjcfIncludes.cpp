// libFuzzer harness for MJCF includes (issue 29): the input is split at the first NUL byte into a
// main file and an included file ("inc.xml", which the main file may include, also from inside
// bodies, and which may include itself); both are written to a scratch directory and loaded from
// disk through the real loader and MJCF plugin, so the include service, its depth and cycle checks
// and the depth measured across files are exercised.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "FuzzScratch.hpp"
#include "interlink/Loader.hpp"

namespace {

const interlink::Loader& loader() {
  static const interlink::Loader instance;  // the build tree's plugins
  return instance;
}

const std::string& scratchDirectory() {
  static const std::string directory = interlink::fuzz::makeScratchDirectory("mjcf");
  return directory;
}

void writeFile(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(content.data(), static_cast<std::streamsize>(content.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  const std::string main = input.substr(0, split);
  const std::string included = split == std::string::npos ? std::string("<mujoco/>") : input.substr(split + 1);
  writeFile(scratchDirectory() + "/inc.xml", included);
  writeFile(scratchDirectory() + "/main.xml", main);
  interlink::LoadOptions options;
  options.maxIncludedModels = 50;
  options.format = "mjcf";
  auto result = loader().loadFile(scratchDirectory() + "/main.xml", options);
  (void)result.ok();
  return 0;
}
