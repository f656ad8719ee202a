// A format plugin whose library constructor does something a host must not suffer during plugin
// discovery: CONSTRUCTOR_MARKS writes a file named after the process it runs in (into
// $INTERLINK_TEST_MARKER_DIR), CONSTRUCTOR_ABORTS aborts, CONSTRUCTOR_CRASHES raises SIGSEGV,
// CONSTRUCTOR_EXITS calls exit(0). Discovery must examine it in the plugin scanner's process only.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <errno.h>  // program_invocation_short_name

#include "interlink/plugin/Register.hpp"

namespace {

__attribute__((constructor)) void whenLoaded() {
#if defined(CONSTRUCTOR_MARKS)
  if (const char* dir = std::getenv("INTERLINK_TEST_MARKER_DIR")) {
    const std::string marker = std::string(dir) + "/ran-in-" + program_invocation_short_name;
    if (std::FILE* file = std::fopen(marker.c_str(), "w")) std::fclose(file);
  }
#elif defined(CONSTRUCTOR_ABORTS)
  std::abort();
#elif defined(CONSTRUCTOR_CRASHES)
  std::raise(SIGSEGV);
#elif defined(CONSTRUCTOR_EXITS)
  std::exit(0);
#endif
}

void loadNothing(const interlink::plugin::LoadRequest&, interlink::Document&, interlink::Diagnostics&) {}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN(CONSTRUCTOR_PLUGIN_NAME, "0.1", loadNothing, nullptr, CONSTRUCTOR_PLUGIN_EXTENSION)
