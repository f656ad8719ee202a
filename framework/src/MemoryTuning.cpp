#include "interlink/MemoryTuning.hpp"

#include <cstdlib>  // defines __GLIBC__ (through <features.h>) when the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace interlink {

bool keepAllocatorMemoryForReuse() {
#if defined(__GLIBC__)
  // 32 MiB is the largest mmap threshold mallopt accepts on 64-bit glibc (HEAP_MAX_SIZE / 2).
  const bool mmapSet = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
  const bool trimSet = mallopt(M_TRIM_THRESHOLD, 256 << 20) == 1;
  return mmapSet && trimSet;
#else
  return false;
#endif
}

}  // namespace interlink
