// bench_sdformat_generate: writes the benchmark inputs to disk, so that the CLI can be timed on
// exactly what bench_sdformat measures, e.g.
//   bench_sdformat_generate chain 4000 /tmp/chain.sdf && time interlink check /tmp/chain.sdf
#include <cstdio>
#include <cstdlib>
#include <string>

#include "BenchInputs.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: bench_sdformat_generate chain N FILE        serial chain of N links (frame + revolute joint each)\n"
               "       bench_sdformat_generate world M FILE        world of M models (2 links, 1 joint, 1 frame each)\n"
               "       bench_sdformat_generate urdf-chain N FILE   URDF serial chain of N links (revolute joints)\n"
               "       bench_sdformat_generate composition K DIR [jm|sdf]\n"
               "                                                   DIR/model.sdf including K generated parts\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace interlink::bench;
  if (argc < 4) return usage();
  const std::string what = argv[1];
  char* end = nullptr;
  const long count = std::strtol(argv[2], &end, 10);
  if (*end != '\0' || count <= 0 || count > 10000000) return usage();
  const int n = static_cast<int>(count);
  const std::string target = argv[3];
  if (what == "chain" || what == "world" || what == "urdf-chain") {
    const std::string text = what == "chain"        ? serialChainSdf(n)
                             : what == "world"      ? worldOfModelsSdf(n)
                                                    : serialChainUrdf(n);
    if (!writeFile(target, text)) {
      std::fprintf(stderr, "cannot write %s\n", target.c_str());
      return 2;
    }
    std::printf("%s: %zu bytes\n", target.c_str(), text.size());
    return 0;
  }
  if (what == "composition") {
    const std::string extension = argc > 4 ? argv[4] : "jm";
    if (extension != "jm" && extension != "sdf") return usage();
    const std::string model = writeComposition(target, n, extension);
    if (model.empty()) {
      std::fprintf(stderr, "cannot write into %s\n", target.c_str());
      return 2;
    }
    std::printf("%s: includes %d .%s parts\n", model.c_str(), n, extension.c_str());
    return 0;
  }
  return usage();
}
