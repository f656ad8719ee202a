#pragma once
// A small read-only XML tree that remembers where every element and attribute was written.
// Built by interlink::xml::parse (expat underneath); shared by every XML-based plugin.
#include <cstddef>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlink/CountedRef.hpp"
#include "interlink/Export.hpp"
#include "interlink/SourceLocation.hpp"

// Under AddressSanitizer the arena poisons what it has not handed out and what is given back,
// with a gap after every list, so that overruns and uses after release inside one block are
// reported as they would be for separate heap blocks.
#if defined(__SANITIZE_ADDRESS__)
#define INTERLINK_TREE_ARENA_POISONS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INTERLINK_TREE_ARENA_POISONS 1
#endif
#endif
#ifdef INTERLINK_TREE_ARENA_POISONS
#include <sanitizer/asan_interface.h>
#endif

namespace interlink::xml {

namespace detail {

class TreeArena;
/// A counted reference to a TreeArena, one pointer wide: every list of a tree holds one, so a
/// reference half the size of a std::shared_ptr saves 16 bytes per element (two lists).
using TreeArenaRef = CountedRef<TreeArena>;

/// The memory of one parsed tree's element and attribute lists: handed out in order from large
/// blocks and released all at once when the last list using it is destroyed. A 4000-link
/// SDFormat model has some 50 000 elements: one block sized by the pre-parse scan replaces one
/// heap allocation per list, keeps the tree contiguous, and is returned in one piece. Not
/// synchronised: a tree is built and changed by one thread (reading it needs no allocation).
class INTERLINK_API TreeArena {
 public:
  /// A new arena whose first block holds `firstBlockBytes` (capped: see the constructor); it lives
  /// as long as a reference to it does.
  static TreeArenaRef create(std::size_t firstBlockBytes);
  ~TreeArena();
  TreeArena(const TreeArena&) = delete;
  TreeArena& operator=(const TreeArena&) = delete;

  void* allocate(std::size_t bytes, std::size_t alignment) {
#ifdef INTERLINK_TREE_ARENA_POISONS
    void* p = take(bytes + kRedZone, alignment);
    ASAN_UNPOISON_MEMORY_REGION(p, bytes);
    return p;
#else
    return take(bytes, alignment);
#endif
  }
  /// Memory a list gives back stays in the block until the arena goes.
  void release([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#ifdef INTERLINK_TREE_ARENA_POISONS
    ASAN_POISON_MEMORY_REGION(p, bytes);
#endif
  }

 private:
  friend class CountedRef<TreeArena>;
  explicit TreeArena(std::size_t firstBlockBytes);

  void* take(std::size_t bytes, std::size_t alignment) {
    const std::size_t at = (used_ + alignment - 1) & ~(alignment - 1);
    if (at + bytes <= capacity_) {
      used_ = at + bytes;
      return current_ + at;
    }
    return allocateInNewBlock(bytes, alignment);
  }
  void* allocateInNewBlock(std::size_t bytes, std::size_t alignment);
#ifdef INTERLINK_TREE_ARENA_POISONS
  static constexpr std::size_t kRedZone = 16;
#endif
  void addBlock(std::size_t usableBytes);
  static constexpr std::size_t kMaxFirstBlockBytes = std::size_t{32} << 20;

  struct Block;
  static const std::size_t kHeaderBytes;
  Block* blocks_ = nullptr;  // the blocks, newest first
  char* current_ = nullptr;  // the usable bytes of the newest block
  std::size_t used_ = 0;
  std::size_t capacity_ = 0;
  ReferenceCount references{0};  // the TreeArenaRefs to this arena
};

inline TreeArenaRef TreeArena::create(std::size_t firstBlockBytes) {
  return TreeArenaRef(new TreeArena(firstBlockBytes));
}

/// The allocator of XmlElement's lists: from a TreeArena while the parser builds the tree, from
/// the heap otherwise (elements a reader makes itself, and every copy: copying a list never
/// shares an arena). Each list holds a reference on its arena, so lists moved out of a tree stay
/// valid after the tree is gone.
template <class T>
class TreeAllocator {
 public:
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using propagate_on_container_copy_assignment = std::false_type;
  using is_always_equal = std::false_type;

  TreeAllocator() noexcept = default;
  explicit TreeAllocator(TreeArenaRef arena) noexcept : arena_(std::move(arena)) {}
  template <class U>
  TreeAllocator(const TreeAllocator<U>& other) noexcept : arena_(other.arena()) {}

  T* allocate(std::size_t n) {
    if (arena_) return static_cast<T*>(arena_->allocate(n * sizeof(T), alignof(T)));
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (arena_) {
      arena_->release(p, n * sizeof(T));  // arena memory goes back with the arena
    } else {
      ::operator delete(p);
    }
  }
  TreeAllocator select_on_container_copy_construction() const noexcept { return TreeAllocator(); }

  const TreeArenaRef& arena() const noexcept { return arena_; }

  template <class U>
  friend bool operator==(const TreeAllocator& a, const TreeAllocator<U>& b) noexcept {
    return a.arena_ == b.arena();
  }
  template <class U>
  friend bool operator!=(const TreeAllocator& a, const TreeAllocator<U>& b) noexcept {
    return !(a == b);
  }

 private:
  TreeArenaRef arena_;
};

}  // namespace detail

struct Attribute {
  std::string name;   // qualified, as written ("xmlns:foo", "name")
  std::string value;
  SourceLocation where;
};

class INTERLINK_API XmlElement {
 public:
  /// Vectors in every respect but their allocator (see detail::TreeAllocator).
  using Attributes = std::vector<Attribute, detail::TreeAllocator<Attribute>>;
  using Children = std::vector<XmlElement, detail::TreeAllocator<XmlElement>>;

  std::string name;  // qualified, as written ("link", "ignition:foo")
  Attributes attributes;
  Children children;
  std::string text;  // character data directly inside this element, concatenated, untrimmed
  SourceLocation where;

  const Attribute* attribute(std::string_view attributeName) const;
  /// Attribute value or `fallback` when absent.
  std::string attributeOr(std::string_view attributeName, std::string_view fallback) const;
  /// First child with that name, or null.
  const XmlElement* child(std::string_view childName) const;
  std::vector<const XmlElement*> childrenNamed(std::string_view childName) const;
  /// `text` without leading and trailing white space.
  std::string trimmedText() const;
  /// True when the name has a namespace prefix ("prefix:local").
  bool isNamespaced() const;
  /// The element re-serialised as XML (for elements kept but not interpreted).
  std::string toXml() const;
};

}  // namespace interlink::xml
