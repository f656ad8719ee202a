#pragma once
// Memory for large, short-lived blocks: the arenas of an XML tree and of the frame graph, which a
// big model fills once, front to back, and releases at once. Internal.
//
// Such a block is aligned to 2 MiB and, where the kernel gives transparent huge pages to memory
// that asks for them (Linux, `madvise` mode, the default of most distributions), marked for them:
// filling it then costs one page fault per 2 MiB instead of one per 4 KiB. On a 20 000-link model
// that is some 20 000 faults fewer, each a trip into the kernel that zeroes a
// page (docs/dev/benchmarks.md). A tail of half a huge page or more becomes a whole one: at most
// 1 MiB more memory per block, for 256 to 512 faults fewer. Elsewhere, and for blocks below the
// threshold, it is plain heap memory. Nothing is tuned for the process: only these blocks ask.
// The price: on a host whose memory is fragmented, the kernel may compact memory to find a huge
// page (its `defrag` setting), so one fault of a big load can take longer; small loads never ask.
#include <cstddef>
#include <memory_resource>
#include <new>

#include "interlink/HugePages.hpp"

namespace interlink::detail {

/// Blocks from this size on (half a huge page) are aligned to huge pages and ask for them; smaller
/// ones are plain heap memory. A block whose tail past its last whole huge page is half a huge page
/// or more is rounded up to whole huge pages (allocateLargeBlock).
constexpr std::size_t kLargeBlockThreshold = std::size_t{1} << 20;

/// `bytes` of memory aligned for any type; throws std::bad_alloc when there is none.
void* allocateLargeBlock(std::size_t bytes);
/// Gives back a block of allocateLargeBlock; `bytes` is the size that was asked for.
void releaseLargeBlock(void* block, std::size_t bytes) noexcept;

/// For the reserved buffer of a std::vector whose element type a public interface fixes (so
/// that it cannot take LargeBlockAllocator): interlink/HugePages.hpp, which plugins use too.
using interlink::adviseHugePages;

/// A standard allocator over allocateLargeBlock, for a big internal array filled once (one pose
/// per frame, the copy of a text a parser reads in place): at a large model's size it is in huge
/// pages.
template <class T>
struct LargeBlockAllocator {
  using value_type = T;
  LargeBlockAllocator() noexcept = default;
  template <class U>
  LargeBlockAllocator(const LargeBlockAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(allocateLargeBlock(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { releaseLargeBlock(p, n * sizeof(T)); }
  template <class U>
  friend bool operator==(const LargeBlockAllocator&, const LargeBlockAllocator<U>&) noexcept { return true; }
  template <class U>
  friend bool operator!=(const LargeBlockAllocator&, const LargeBlockAllocator<U>&) noexcept { return false; }
};

/// A memory resource over allocateLargeBlock, the upstream of a monotonic arena: its big buffers
/// come in huge pages, its small first ones from the heap.
class LargeBlockResource final : public std::pmr::memory_resource {
 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* block, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

/// The one LargeBlockResource of the process (it has no state).
std::pmr::memory_resource* largeBlockResource() noexcept;

}  // namespace interlink::detail
