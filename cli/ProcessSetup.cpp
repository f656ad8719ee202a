#include "ProcessSetup.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "interlink/MemoryTuning.hpp"

namespace interlink::cli {

void prepareProcess(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  static const char kTunable[] = "glibc.malloc.hugetlb=1";
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (std::getenv("INTERLINK_NO_REEXEC") || (current && std::strstr(current, "glibc.malloc.hugetlb"))) {
    keepAllocatorMemoryForReuse();  // in the process image that will do the work
    return;
  }
  std::string tunables = current && *current ? std::string(current) + ":" + kTunable : std::string(kTunable);
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  setenv("INTERLINK_NO_REEXEC", "1", 1);  // one re-execution at most, whatever glibc makes of it
  execv("/proc/self/exe", argv);
  // Still here: the re-execution failed; go on without huge pages.
  unsetenv("INTERLINK_NO_REEXEC");
  keepAllocatorMemoryForReuse();
#else
  (void)argv;
  keepAllocatorMemoryForReuse();
#endif
}

}  // namespace interlink::cli
