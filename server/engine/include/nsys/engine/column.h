#pragma once
// One column of the model: a contiguous array of a trivially copyable type, with the interface of std::vector
// that the engine and the skills use. Its storage is one of three:
//   - heap: malloc'ed, as a vector's; from 1 MiB an anonymous mapping that asks for huge pages (a 2 GB export's
//     tables take a million 4 KiB page faults otherwise) and grows by mremap;
//   - spill: a file in the cache directory, mapped shared (an export bigger than memory loads into these: the
//     OS writes their pages back to the file and drops them under memory pressure, as it does a swap file's);
//     like the anonymous mappings it starts on a 2 MiB boundary and asks for huge pages, so the page cache's large
//     folios are mapped whole (4 KiB mappings made the paged x5000 export's attribution 29 s instead of 18 s);
//   - view: the column's bytes inside the warm snapshot, mapped copy-on-write (a reopen under a memory budget
//     copies nothing; the OS pages the table in and out of the cache file).
// Growing a view first copies it into storage of its own; writing an element of a view only ever changes this
// process's copy of the page (MAP_PRIVATE), never the cache file.
//
// Architecture Invariant: a column is immutable once its table is loaded; only loaders grow or reorder it.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsys::engine {

// Where the large columns allocated by this thread go. Set for a load of an export larger than its memory budget
// (ScopedSpill); columns already spilled keep growing in their file on any thread.
struct SpillPolicy {
  std::string dir;                     // the cache directory the spill files live in (unlinked at creation)
  size_t min_bytes = size_t{4} << 20;  // smaller columns stay on the heap
};

// Process-wide bytes held by columns in each storage, for tests and the memory report.
struct ColumnBytes {
  int64_t heap = 0;
  int64_t spill = 0;
  int64_t view = 0;
};
ColumnBytes ColumnBytesNow();

// Whether a spill file can be made in `dir` now (it and its parent this user's, 0700; a file created and sized): a
// load decides to page only when it can, so that ProfileInfo::paged says what really happens.
bool CanSpillTo(const std::string& dir);

class ScopedSpill {
 public:
  explicit ScopedSpill(const SpillPolicy* policy);  // nullptr: no spilling in this scope
  ~ScopedSpill();
  ScopedSpill(const ScopedSpill&) = delete;
  ScopedSpill& operator=(const ScopedSpill&) = delete;

 private:
  const SpillPolicy* previous_;
};

namespace column_detail {
enum class Store : uint8_t { kHeap, kAnon, kSpill, kView };
struct Block {
  void* data = nullptr;
  size_t bytes = 0;  // capacity in bytes
  Store store = Store::kHeap;
  int fd = -1;  // kSpill: the spill file
  // Fresh pages of an anonymous or spill mapping read as zero: a value-initializing resize need not write them.
  bool zero_filled() const { return store == Store::kAnon || store == Store::kSpill; }
};
// Storage for `bytes`, from the spill policy of this thread when it asks for it (else, or when a spill file cannot
// be made, the heap). Throws std::bad_alloc when neither works.
Block Allocate(size_t bytes);
// Grows or shrinks `b` in place where its storage allows it (heap: realloc; spill: the file and its mapping); the
// first `keep` bytes are kept. A heap block that grows past the policy's threshold moves to a spill file.
void Resize(Block& b, size_t bytes, size_t keep);
void Free(Block& b);
void CountView(int64_t delta);
}  // namespace column_detail

template <typename T>
class Column {
  static_assert(std::is_trivially_copyable_v<T>, "columns hold trivially copyable values");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  Column() = default;
  explicit Column(size_t n) { resize(n); }
  Column(size_t n, const T& v) { assign(n, v); }
  Column(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Column(It first, It last) {
    assign(first, last);
  }
  Column(const Column& o) { assign(o.begin(), o.end()); }
  Column(Column&& o) noexcept { Take(o); }
  ~Column() { Release(); }
  Column& operator=(const Column& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  Column& operator=(Column&& o) noexcept {
    if (this != &o) {
      Release();
      Take(o);
    }
    return *this;
  }
  Column& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }

  // A read-mostly column over `n` values at `p` in a mapping that `owner` keeps alive (the snapshot's).
  static Column View(T* p, size_t n, std::shared_ptr<const void> owner) {
    Column c;
    c.block_.data = p;
    c.block_.bytes = n * sizeof(T);
    c.block_.store = column_detail::Store::kView;
    c.size_ = n;
    c.owner_ = std::move(owner);
    column_detail::CountView(static_cast<int64_t>(c.block_.bytes));
    return c;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return block_.bytes / sizeof(T); }
  bool spilled() const { return block_.store == column_detail::Store::kSpill; }
  bool mapped_view() const { return block_.store == column_detail::Store::kView; }

  T* data() { return Data(); }
  const T* data() const { return Data(); }
  T& operator[](size_t i) { return Data()[i]; }
  const T& operator[](size_t i) const { return Data()[i]; }
  T& front() { return Data()[0]; }
  const T& front() const { return Data()[0]; }
  T& back() { return Data()[size_ - 1]; }
  const T& back() const { return Data()[size_ - 1]; }
  iterator begin() { return Data(); }
  iterator end() { return Data() + size_; }
  const_iterator begin() const { return Data(); }
  const_iterator end() const { return Data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t n) {
    if (n > capacity() || block_.store == column_detail::Store::kView) Grow(std::max(n, size_));
  }
  // From an empty column with no storage, a mapping's fresh pages are zero already: nothing is written, so the
  // pages are faulted in by whoever fills them (the loaders' parts, in parallel), not here.
  void resize(size_t n) {
    if (n > size_ && !block_.data && std::has_unique_object_representations_v<T>) {
      reserve(n);
      if (!block_.zero_filled()) std::memset(static_cast<void*>(Data()), 0, n * sizeof(T));
      size_ = n;
      return;
    }
    resize(n, T{});
  }
  void resize(size_t n, const T& v) {
    if (n > size_) {
      reserve(n);
      std::fill(Data() + size_, Data() + n, v);
    }
    size_ = n;  // a view that shrinks stays a view
  }
  void assign(size_t n, const T& v) {
    clear();
    resize(n, v);
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  void assign(It first, It last) {
    clear();
    insert(end(), first, last);
  }
  void assign(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  void push_back(const T& v) {
    if (size_ == capacity() || block_.store == column_detail::Store::kView) {
      const T copy = v;  // v may live in this column
      Grow(std::max<size_t>(size_ * 2, 16));
      Data()[size_++] = copy;
      return;
    }
    Data()[size_++] = v;
  }
  template <typename... A>
  T& emplace_back(A&&... args) {
    push_back(T(std::forward<A>(args)...));
    return back();
  }
  void pop_back() { --size_; }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    const size_t at = static_cast<size_t>(pos - begin());
    const size_t n = static_cast<size_t>(std::distance(first, last));
    if (n == 0) return begin() + at;
    bool self = false;  // the input is part of this column: the tail moves under it
    if constexpr (std::is_pointer_v<It>) {
      self = !empty() && static_cast<const void*>(first) >= static_cast<const void*>(Data()) &&
             static_cast<const void*>(first) < static_cast<const void*>(Data() + size_);
    }
    const bool grow = size_ + n > capacity() || block_.store == column_detail::Store::kView;
    if (self || grow) {
      // `first` may point into this column: copy the input before the storage or the tail moves.
      std::vector<T> tmp(first, last);
      if (grow) Grow(std::max(size_ + n, size_ * 2));
      std::memmove(Data() + at + n, Data() + at, (size_ - at) * sizeof(T));
      std::copy(tmp.begin(), tmp.end(), Data() + at);
    } else {
      std::memmove(Data() + at + n, Data() + at, (size_ - at) * sizeof(T));
      std::copy(first, last, Data() + at);
    }
    size_ += n;
    return begin() + at;
  }
  iterator insert(const_iterator pos, const T& v) { return insert(pos, &v, &v + 1); }
  iterator insert(const_iterator pos, std::initializer_list<T> values) {
    return insert(pos, values.begin(), values.end());
  }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t at = static_cast<size_t>(first - begin());
    const size_t n = static_cast<size_t>(last - first);
    if (block_.store == column_detail::Store::kView) Grow(size_);
    std::memmove(Data() + at, Data() + at + n, (size_ - at - n) * sizeof(T));
    size_ -= n;
    return begin() + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  void clear() {
    if (block_.store == column_detail::Store::kView) Release();
    size_ = 0;
  }
  void shrink_to_fit() {
    if (block_.store == column_detail::Store::kView) return;  // a view holds no memory of its own
    if (size_ == 0) {
      Release();
      return;
    }
    if (capacity() > size_) column_detail::Resize(block_, size_ * sizeof(T), size_ * sizeof(T));
  }
  void swap(Column& o) noexcept {
    std::swap(block_, o.block_);
    std::swap(size_, o.size_);
    std::swap(owner_, o.owner_);
  }

  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const Column& a, const Column& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const Column& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* Data() const { return static_cast<T*>(block_.data); }

  // Storage of `n` values keeping the first min(size_, n): a view becomes storage of its own.
  void Grow(size_t n) {
    const size_t keep = std::min(size_, n) * sizeof(T);
    if (block_.store == column_detail::Store::kView) {
      column_detail::Block b = column_detail::Allocate(std::max<size_t>(n, 1) * sizeof(T));
      if (keep > 0) std::memcpy(b.data, block_.data, keep);
      const size_t kept = std::min(size_, n);
      Release();
      block_ = b;
      size_ = kept;
      return;
    }
    const size_t bytes = std::max<size_t>(n, 1) * sizeof(T);
    if (!block_.data) {
      block_ = column_detail::Allocate(bytes);
      return;
    }
    column_detail::Resize(block_, bytes, keep);
  }
  void Release() {
    if (block_.store == column_detail::Store::kView) {
      if (block_.data) column_detail::CountView(-static_cast<int64_t>(block_.bytes));
      owner_.reset();
      block_ = {};
    } else if (block_.data) {
      column_detail::Free(block_);
    }
    size_ = 0;
  }
  void Take(Column& o) {
    block_ = o.block_;
    size_ = o.size_;
    owner_ = std::move(o.owner_);
    o.block_ = {};
    o.size_ = 0;
  }

  column_detail::Block block_;
  size_t size_ = 0;
  std::shared_ptr<const void> owner_;  // kView: the mapping
};

}  // namespace nsys::engine
