// A format plugin that ends the process while reading a file (issue 29): exit(0) when built with
// ENDING_BY_EXIT, else a segmentation fault. The CLI must never report success without a verdict.
#include <csignal>
#include <cstdlib>

#include "interlink/plugin/Register.hpp"

namespace {

void loadAndEnd(const interlink::plugin::LoadRequest&, interlink::Document&, interlink::Diagnostics&) {
#ifdef ENDING_BY_EXIT
  std::exit(0);
#else
  std::raise(SIGSEGV);
#endif
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN(ENDING_NAME, "0.1", loadAndEnd, nullptr, ENDING_EXTENSION)
