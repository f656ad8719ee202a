// interlink-plugin-scanner: opens plugin libraries that plugin discovery does not know yet, in a
// process of its own, and reports what each one is (PluginRecord.hpp), so that no library's code
// runs in the host's process before a file needs that plugin (GStreamer's gst-plugin-scanner does
// the same for its registry). A library that crashes, aborts, hangs or ends the process while
// opened takes only this process down; the host refuses that library and goes on.
//
//   interlink-plugin-scanner --output-fd FD LIBRARY...
//
// One line per library, in order, written to FD as soon as the library is judged:
//   escaped-path \t accepted|refused ...
// The host runs it by its full path beside the core library, never through PATH.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "plugin/PluginLibrary.hpp"
#include "plugin/PluginRecord.hpp"

namespace {

bool writeAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    done += static_cast<std::size_t>(written);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace interlink::detail;
  if (argc < 3 || std::strcmp(argv[1], "--output-fd") != 0) {
    const char usage[] = "usage: interlink-plugin-scanner --output-fd FD LIBRARY...\n";
    (void)!::write(2, usage, sizeof usage - 1);
    return 2;
  }
  const int output = std::atoi(argv[2]);
  // Libraries stay open until the end: a library's destructors run at dlclose, and a crash there
  // would be blamed on the next library.
  std::vector<OpenedLibrary> opened;
  for (int i = 3; i < argc; ++i) {
    const std::string path = argv[i];
    OpenedLibrary library = openPluginLibrary(path);
    LibraryVerdict verdict;
    verdict.accepted = library.plugin != nullptr;
    if (library.plugin) verdict.info = library.plugin->info;
    verdict.refusal = library.code;
    verdict.reason = library.reason;
    if (!writeAll(output, escapeField(path) + "\t" + verdictFields(verdict) + "\n")) return 3;
    opened.push_back(std::move(library));
  }
  // Without running exit handlers or the libraries' destructors: every answer is given, and
  // nothing a library does on unloading may change it.
  ::_exit(0);
}
