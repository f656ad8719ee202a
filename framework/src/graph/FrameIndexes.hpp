#pragma once
// The frame graph's two look-up tables (internal): frames by scoped name, and the frame of each
// element of the document by the element's address. Both are open-addressing tables of small
// slots in one array. They replace two node-based hash maps whose nodes and buckets took about
// 130 bytes per frame (a 16 000-link chain has 48 000 frames: 6.3 MB at the peak of the load,
// one tenth of it); these take 12 to 24 bytes per slot, at most 4 slots for 3 frames.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "util/LargeBlocks.hpp"

namespace interlink::detail {

/// The slots of both tables: a power of two that keeps `n` of them at most three quarters full.
inline std::size_t indexCapacityFor(std::size_t n) {
  std::size_t capacity = 16;
  while (n * 4 > capacity * 3) capacity *= 2;
  return capacity;
}

/// Frames by scoped name. A slot holds a frame's index and 32 bits of its name's hash, never the
/// name: keys are read from the frame list given to each call, so the table stays valid when that
/// list grows and moves its names. `Frames` is any random-access list whose elements have a
/// `name` convertible to std::string_view (FrameInfo). The first frame inserted under a name keeps
/// it.
class FrameNameIndex {
 public:
  void clear() {
    slots_.assign(slots_.size(), Slot{});
    size_ = 0;
  }
  /// Room for `n` names without growing.
  void reserve(std::size_t n) {
    if (n > size_) rehash(indexCapacityFor(n));
  }
  std::size_t size() const { return size_; }

  /// Adds frame `index` under `frames[index].name`. Returns the frame holding that name and
  /// whether it is `index` (false: another frame had the name already, and keeps it).
  template <class Frames>
  std::pair<std::size_t, bool> insert(std::size_t index, const Frames& frames) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(indexCapacityFor(size_ + 1));
    const std::string_view name = frames[index].name;
    const std::uint32_t hash = hashOf(name);
    Slot& slot = slots_[positionOf(name, hash, frames)];
    if (slot.frame != kEmpty) return {slot.frame, false};
    slot = Slot{static_cast<std::uint32_t>(index), hash};
    ++size_;
    return {index, true};
  }

  template <class Frames>
  std::optional<std::size_t> find(std::string_view name, const Frames& frames) const {
    if (size_ == 0) return std::nullopt;
    const Slot& slot = slots_[positionOf(name, hashOf(name), frames)];
    if (slot.frame == kEmpty) return std::nullopt;
    return slot.frame;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    std::uint32_t frame = kEmpty;
    std::uint32_t hash = 0;
  };
  static std::uint32_t hashOf(std::string_view name) {
    const std::size_t h = std::hash<std::string_view>{}(name);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
  /// The slot holding `name`, or the empty one where it would go (a table is never full).
  template <class Frames>
  std::size_t positionOf(std::string_view name, std::uint32_t hash, const Frames& frames) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
      const Slot& slot = slots_[at];
      if (slot.frame == kEmpty || (slot.hash == hash && std::string_view(frames[slot.frame].name) == name)) return at;
    }
  }
  /// The stored hashes place every slot again: no name is read.
  void rehash(std::size_t capacity) {
    if (capacity <= slots_.size()) return;
    Slots old(capacity);
    old.swap(slots_);
    const std::size_t mask = capacity - 1;
    for (const Slot& slot : old) {
      if (slot.frame == kEmpty) continue;
      std::size_t at = slot.hash & mask;
      while (slots_[at].frame != kEmpty) at = (at + 1) & mask;
      slots_[at] = slot;
    }
  }

  using Slots = std::vector<Slot, LargeBlockAllocator<Slot>>;  // a big model's in huge pages
  Slots slots_;
  std::size_t size_ = 0;
};

/// The frame of each element (link, joint, frame, model) of the built document, by address.
class ElementFrameIndex {
 public:
  void reserve(std::size_t n) {
    if (n > size_) rehash(indexCapacityFor(n));
  }
  std::size_t size() const { return size_; }

  /// `element`'s frame is `frame` (replacing what it was).
  void assign(const void* element, std::size_t frame) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(indexCapacityFor(size_ + 1));
    Slot& slot = slotOf(element);
    if (!slot.element) {
      slot.element = element;
      ++size_;
    }
    slot.frame = frame;
  }

  std::optional<std::size_t> find(const void* element) const {
    if (size_ == 0 || !element) return std::nullopt;
    const Slot& slot = slots_[slotIndex(element)];
    if (!slot.element) return std::nullopt;
    return slot.frame;
  }

  /// How far elements sit from the slot their hash names (the slots a find searches past): the
  /// mean and the longest, for tests of the hash's spread.
  struct Displacement {
    double mean = 0;
    std::size_t longest = 0;
  };
  Displacement displacement() const {
    Displacement d;
    if (size_ == 0) return d;
    const std::size_t mask = slots_.size() - 1;
    std::size_t total = 0;
    for (std::size_t at = 0; at < slots_.size(); ++at) {
      if (!slots_[at].element) continue;
      const std::size_t distance = (at - positionOf(slots_[at].element, mask)) & mask;
      total += distance;
      d.longest = std::max(d.longest, distance);
    }
    d.mean = static_cast<double>(total) / static_cast<double>(size_);
    return d;
  }

  /// Every element's frame through `renumber` (old frame -> new frame, or nothing: then the element
  /// has no frame any more).
  template <class Renumber>
  void renumber(const Renumber& renumberFrame) {
    Slots old(slots_.size());
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old) {
      if (!slot.element) continue;
      if (const std::optional<std::size_t> frame = renumberFrame(slot.frame)) assign(slot.element, *frame);
    }
  }

 private:
  struct Slot {
    const void* element = nullptr;
    std::size_t frame = 0;
  };
  static std::size_t positionOf(const void* element, std::size_t mask) {
    // Fibonacci hashing of the address (its low bits are alignment, always the same): the slot is
    // the product's top bits, which every bit of the address reaches. Its bits 32 and up, masked,
    // put the elements of a vector (addresses a fixed stride apart) in long runs of neighbouring
    // slots: with 48 000 elements, a find searched 54 slots on average, not 2.6.
    const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(element));
    const int indexBits = __builtin_ctzll(static_cast<unsigned long long>(mask) + 1);  // capacity: a power of 2, >= 16
    return static_cast<std::size_t>(((bits >> 3) * 0x9E3779B97F4A7C15ull) >> (64 - indexBits));
  }
  /// The slot holding `element`, or the empty one where it would go (a table is never full).
  std::size_t slotIndex(const void* element) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = positionOf(element, mask);; at = (at + 1) & mask) {
      if (slots_[at].element == element || !slots_[at].element) return at;
    }
  }
  Slot& slotOf(const void* element) { return slots_[slotIndex(element)]; }
  void rehash(std::size_t capacity) {
    if (capacity <= slots_.size()) return;
    Slots old(capacity);
    old.swap(slots_);
    for (const Slot& slot : old) {
      if (slot.element) slotOf(slot.element) = slot;
    }
  }

  using Slots = std::vector<Slot, LargeBlockAllocator<Slot>>;  // a big model's in huge pages
  Slots slots_;
  std::size_t size_ = 0;
};

}  // namespace interlink::detail
