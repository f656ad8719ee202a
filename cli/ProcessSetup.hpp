#pragma once

namespace interlink::cli {

/// Prepares the process for loading large models quickly: asks glibc for transparent huge pages
/// on its heap (by re-executing once with GLIBC_TUNABLES, which glibc reads only at start-up) and
/// keeps freed memory for reuse. First-touch page faults are most of a large load's time on some
/// virtual machines. Set INTERLINK_NO_REEXEC=1 to skip the re-execution.
void prepareProcess(char** argv);

}  // namespace interlink::cli
