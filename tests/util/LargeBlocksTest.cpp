// framework/src/util/LargeBlocks: the blocks of the big arenas (XML tree, frame graph, poses) ask
// for huge pages for their whole 2 MiB pages (a long tail is rounded up to one), and are plain
// memory below the threshold.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory_resource>
#include <sstream>
#include <string>
#include <vector>

#include "util/LargeBlocks.hpp"

namespace interlink::detail {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

/// The VmFlags of the mapping of this process that holds `address` (empty when none does).
std::string flagsOfMappingAt(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const std::string first = line.substr(0, line.find(' '));
    if (!first.empty() && first.back() == ':') {  // a field of the current mapping ("Size:", "VmFlags:")
      if (inside && first == "VmFlags:") return line.substr(first.size());
      continue;
    }
    // A mapping's first line: "from-to perms offset dev inode path".
    std::uintptr_t from = 0;
    std::uintptr_t to = 0;
    char dash = 0;
    std::istringstream range(first);
    inside = range >> std::hex >> from >> dash >> to && dash == '-' && from <= at && at < to;
  }
  return "";
}

bool hasFlag(const std::string& flags, const std::string& flag) {
  std::istringstream words(flags);
  std::string word;
  while (words >> word) {
    if (word == flag) return true;
  }
  return false;
}

bool kernelHasTransparentHugePages() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(enabled, modes) && modes.find("[never]") == std::string::npos;
}

TEST(LargeBlocks, ABlockWithAShortTailAsksForHugePagesForItsWholePagesOnly) {
  const std::size_t bytes = 4 * kMiB + 12345;  // two whole huge pages and a tail under half of one
  char* block = static_cast<char*>(allocateLargeBlock(bytes));
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % (2 * kMiB), 0u);
  std::memset(block, 0x5a, bytes);  // every byte is ours (ASan would stop a short block here)
  EXPECT_EQ(block[bytes - 1], 0x5a);
  if (kernelHasTransparentHugePages()) {
    // "hg": the range was advised MADV_HUGEPAGE. The short tail past the last whole huge page was
    // not, so a filled block holds no more memory than a plain one.
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(block), "hg")) << flagsOfMappingAt(block);
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(block + 4 * kMiB - 1), "hg"));
    EXPECT_FALSE(hasFlag(flagsOfMappingAt(block + 4 * kMiB + 4096), "hg")) << flagsOfMappingAt(block + 4 * kMiB + 4096);
  }
  releaseLargeBlock(block, bytes);
}

TEST(LargeBlocks, ABlockWithALongTailIsWholeHugePages) {
  // A tail of half a huge page or more would cost 256 to 512 small page faults: the block is
  // rounded up to whole huge pages, all of which ask for them. The same from the threshold on.
  for (const std::size_t bytes : {5 * kMiB + 12345, kLargeBlockThreshold, 2 * kMiB - 1}) {
    SCOPED_TRACE(bytes);
    char* block = static_cast<char*>(allocateLargeBlock(bytes));
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % (2 * kMiB), 0u);
    std::memset(block, 0x5a, bytes);
    EXPECT_EQ(block[bytes - 1], 0x5a);
    if (kernelHasTransparentHugePages()) {
      EXPECT_TRUE(hasFlag(flagsOfMappingAt(block), "hg")) << flagsOfMappingAt(block);
      EXPECT_TRUE(hasFlag(flagsOfMappingAt(block + bytes - 1), "hg")) << flagsOfMappingAt(block + bytes - 1);
    }
    releaseLargeBlock(block, bytes);
  }
}

TEST(LargeBlocks, AdvisingARangeMarksItsWholeHugePagesOnly) {
  // A vector's reserved buffer (malloc's memory, not aligned): the 2 MiB pages wholly inside it
  // ask for huge pages, the bytes before the first and after the last do not.
  std::vector<char> buffer;
  buffer.reserve(7 * kMiB);
  char* const begin = buffer.data();
  const std::size_t bytes = buffer.capacity();
  adviseHugePages(begin, bytes);
  const auto at = reinterpret_cast<std::uintptr_t>(begin);
  char* const firstWhole = begin + ((2 * kMiB - at % (2 * kMiB)) % (2 * kMiB));
  buffer.resize(bytes, 'x');  // the buffer stays usable as it was
  EXPECT_EQ(buffer.back(), 'x');
  if (kernelHasTransparentHugePages()) {
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(firstWhole), "hg")) << flagsOfMappingAt(firstWhole);
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(firstWhole + 4 * kMiB - 1), "hg"));
    if (firstWhole != begin) {
      EXPECT_FALSE(hasFlag(flagsOfMappingAt(firstWhole - 1), "hg")) << flagsOfMappingAt(firstWhole - 1);
    }
  }
  // Below one huge page nothing is advised.
  std::vector<char> small(kMiB, 'y');
  adviseHugePages(small.data(), small.size());
  EXPECT_FALSE(hasFlag(flagsOfMappingAt(small.data()), "hg")) << flagsOfMappingAt(small.data());
}

TEST(LargeBlocks, ReserveToFillAdvisesTheBufferItMakes) {
  // What a plugin does with a model's links (interlink/HugePages.hpp): the new buffer's whole
  // huge pages ask for them; a reserve that needs no new buffer changes nothing.
  struct Element {
    char bytes[512];
  };
  std::vector<Element> elements;
  reserveToFill(elements, 16384);  // 8 MiB
  ASSERT_GE(elements.capacity(), 16384u);
  const char* const begin = reinterpret_cast<const char*>(elements.data());
  const auto at = reinterpret_cast<std::uintptr_t>(begin);
  const char* const firstWhole = begin + ((2 * kMiB - at % (2 * kMiB)) % (2 * kMiB));
  if (kernelHasTransparentHugePages()) {
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(firstWhole), "hg")) << flagsOfMappingAt(firstWhole);
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(firstWhole + 4 * kMiB - 1), "hg"));
  }
  const Element* const before = elements.data();
  reserveToFill(elements, 100);
  EXPECT_EQ(elements.data(), before);
  elements.resize(16384);  // filled as reserved
  EXPECT_EQ(elements.size(), 16384u);
}

TEST(LargeBlocks, ASmallBlockIsPlainHeapMemory) {
  const std::size_t bytes = kLargeBlockThreshold - 1;
  char* block = static_cast<char*>(allocateLargeBlock(bytes));
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  EXPECT_FALSE(hasFlag(flagsOfMappingAt(block), "hg")) << flagsOfMappingAt(block);
  releaseLargeBlock(block, bytes);
  releaseLargeBlock(nullptr, 0);  // nothing to give back
}

TEST(LargeBlocks, AllocatorsAndTheArenaResourceHoldWhatTheyAreGiven) {
  const std::string text(3 * kMiB, 'x');
  std::vector<char, LargeBlockAllocator<char>> copy(text.begin(), text.end());  // the fast XML reader's copy
  EXPECT_EQ(copy.size(), 3 * kMiB);
  EXPECT_EQ(copy[3 * kMiB - 1], 'x');
  if (kernelHasTransparentHugePages()) {
    EXPECT_TRUE(hasFlag(flagsOfMappingAt(copy.data()), "hg"));
  }

  std::vector<double, LargeBlockAllocator<double>> values;
  for (int i = 0; i < 600000; ++i) values.push_back(i);  // grows through small and large blocks
  EXPECT_EQ(values[599999], 599999.0);
  EXPECT_THROW(values.get_allocator().allocate(static_cast<std::size_t>(-1) / 4), std::bad_alloc);

  std::pmr::monotonic_buffer_resource arena(4 * kMiB, largeBlockResource());
  std::pmr::vector<int> numbers(&arena);
  numbers.assign(2000000, 3);
  EXPECT_EQ(numbers.back(), 3);
  EXPECT_TRUE(largeBlockResource()->is_equal(*largeBlockResource()));
}

}  // namespace
}  // namespace interlink::detail
