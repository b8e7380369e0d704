#pragma once
// Large per-call scratch arrays (tens of millions of rows) backed by transparent huge pages where the kernel offers
// them (THP "madvise" mode, the common default): a fresh 134 MB array otherwise costs ~33,000 4 KiB page faults on
// first touch, which on a 2 GB export took longer than the pass writing it. Small arrays use the ordinary heap.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace nsys::skills {

// An allocator for std::vector: blocks of at least kHugeMin bytes are 2 MiB-aligned, rounded up to whole 2 MiB
// pages and marked MADV_HUGEPAGE; smaller ones come from operator new. Stateless, so vectors swap and move freely.
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kHugeMin = size_t{8} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugeMin) return static_cast<T*>(::operator new(bytes));
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p == nullptr) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without THP the block is ordinary pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kHugeMin) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

// An uninitialised array of a trivial type from HugePageAllocator (no zero-fill: for buffers written before read).
template <typename T>
struct HugeArrayDeleter {
  size_t size = 0;
  void operator()(T* p) const noexcept { HugePageAllocator<T>().deallocate(p, size); }
};
template <typename T>
using HugeArray = std::unique_ptr<T[], HugeArrayDeleter<T>>;
template <typename T>
HugeArray<T> MakeHugeArray(size_t size) {
  return HugeArray<T>(HugePageAllocator<T>().allocate(size), HugeArrayDeleter<T>{size});
}

}  // namespace nsys::skills
