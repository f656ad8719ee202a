#pragma once
// A one-word owning pointer to an object that counts its owners itself.
#include <atomic>
#include <cstddef>
#include <utility>

namespace interlink {

/// The count a CountedRef keeps in the object it owns.
using ReferenceCount = std::atomic<std::size_t>;

/// A share of a T that counts its owners in its member `references` (a ReferenceCount that starts
/// at 0, `mutable` when T is shared const) and is deleted with the last share. One pointer wide
/// where a std::shared_ptr takes two: the file name of every location and the arena of every list
/// of an XML tree are held this way, hundreds of thousands of times for a large file. The count is
/// atomic, as a std::shared_ptr's is: what is shared may be read, and dropped, by several threads.
template <class T>
class CountedRef {
 public:
  CountedRef() noexcept = default;
  /// A share of `object`: the first one for a new object.
  explicit CountedRef(T* object) noexcept : object_(object) { acquire(); }
  CountedRef(const CountedRef& other) noexcept : object_(other.object_) { acquire(); }
  CountedRef(CountedRef&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  CountedRef& operator=(CountedRef other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~CountedRef() {
    if (object_ && object_->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete object_;
  }

  T* get() const noexcept { return object_; }
  T* operator->() const noexcept { return object_; }
  T& operator*() const noexcept { return *object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  friend bool operator==(const CountedRef& a, const CountedRef& b) noexcept { return a.object_ == b.object_; }
  friend bool operator!=(const CountedRef& a, const CountedRef& b) noexcept { return a.object_ != b.object_; }

 private:
  void acquire() noexcept {
    if (object_) object_->references.fetch_add(1, std::memory_order_relaxed);
  }
  T* object_ = nullptr;
};

}  // namespace interlink
