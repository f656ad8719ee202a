#pragma once
// Allocator settings for a process that loads large models, opt-in.
//
// Loading a model allocates tens of megabytes in many blocks and frees them at the end. With
// glibc's defaults, blocks above a (dynamic) threshold are mmap'ed and returned to the system when
// freed, and the heap top is trimmed, so the next load page-faults all of that memory again. On
// virtual machines where a first-touch page fault costs ~10 µs, that doubles the time of a
// 4000-link load. Interlink's CLI and benchmarks call this; a host that loads models repeatedly
// may call it early in main(). It changes process-wide allocator policy, so the library never
// calls it on its own.
#include "interlink/Export.hpp"

namespace interlink {

/// Keeps freed memory for reuse (mmap threshold 32 MiB, trim threshold 256 MiB). Returns false when
/// the C library offers no such control (the call is then a no-op).
INTERLINK_API bool keepAllocatorMemoryForReuse();

}  // namespace interlink
