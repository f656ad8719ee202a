#pragma once
// Big arrays that a reader fills once, front to back (the links and joints of a 20 000-link
// model, some 10 MB each), in transparent huge pages where the kernel gives them to memory that
// asks (Linux, `madvise` mode, the default of most distributions): filling one costs one page
// fault per 2 MiB instead of 512, and each fault is a trip into the kernel that zeroes a page.
// Only the 2 MiB pages wholly inside an array ask, so an array that is filled holds no more memory
// than without the advice. Elsewhere these do nothing.
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace interlink {

/// Asks for huge pages for the whole 2 MiB pages inside `bytes` at `begin`, memory the caller owns
/// and has not written yet and fills whole afterwards (a huge page is resident whole once touched).
/// Below a huge page, or where the kernel gives none, it does nothing.
inline void adviseHugePages([[maybe_unused]] const void* begin, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  if (bytes < kHugePage) return;
  const auto from = reinterpret_cast<std::uintptr_t>(begin);
  const std::uintptr_t first = (from + kHugePage - 1) & ~(kHugePage - 1);  // whole huge pages only
  const std::uintptr_t last = (from + bytes) & ~(kHugePage - 1);
  // Advice only: where the kernel has no transparent huge pages this fails and changes nothing.
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

/// `vector.reserve(count)`, and when that made a new buffer, huge pages for it: for an array that
/// is then filled to `count` elements (a model's links, counted before they are read).
template <class T, class Allocator>
void reserveToFill(std::vector<T, Allocator>& vector, std::size_t count) {
  if (count <= vector.capacity()) return;
  vector.reserve(count);
  adviseHugePages(vector.data() + vector.size(), (vector.capacity() - vector.size()) * sizeof(T));
}

}  // namespace interlink
