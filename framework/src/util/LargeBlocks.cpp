#include "util/LargeBlocks.hpp"

#include <cstdlib>
#include <new>

namespace interlink::detail {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// The bytes a block of `bytes` takes: whole huge pages when the tail past the last whole one is
/// at least half a huge page. Filling such a tail in small pages costs 256 to 512 page faults; one
/// huge page costs about as much as 80 of them (docs/dev/benchmarks.md), and the memory it adds is
/// less than half a huge page. A shorter tail stays in small pages.
[[maybe_unused]] std::size_t blockBytes(std::size_t bytes) {
  const std::size_t tail = bytes % kHugePage;
  return tail >= kHugePage / 2 ? bytes - tail + kHugePage : bytes;
}

}  // namespace

void* allocateLargeBlock(std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= kLargeBlockThreshold) {
    // From the heap (so that sanitizers and leak checkers see it as any other allocation),
    // aligned to 2 MiB: the kernel backs only aligned 2 MiB ranges with huge pages.
    const std::size_t taken = blockBytes(bytes);
    void* block = nullptr;
    if (taken < bytes || ::posix_memalign(&block, kHugePage, taken) != 0 || !block) throw std::bad_alloc();
    adviseHugePages(block, taken);  // aligned: every whole huge page of the block
    return block;
  }
#endif
  return ::operator new(bytes);
}

void releaseLargeBlock(void* block, std::size_t bytes) noexcept {
  if (!block) return;
#if defined(__linux__)
  if (bytes >= kLargeBlockThreshold) {
    std::free(block);
    return;
  }
#endif
  ::operator delete(block);
}

void* LargeBlockResource::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment > alignof(std::max_align_t)) throw std::bad_alloc();  // no user asks for more
  return allocateLargeBlock(bytes);
}

void LargeBlockResource::do_deallocate(void* block, std::size_t bytes, std::size_t) { releaseLargeBlock(block, bytes); }

std::pmr::memory_resource* largeBlockResource() noexcept {
  // Never destroyed: an arena released during the process's exit may still ask it.
  static LargeBlockResource* const resource = new LargeBlockResource;
  return resource;
}

}  // namespace interlink::detail
