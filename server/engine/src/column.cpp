// Column storage: the heap, spill files in the cache directory, and the views' accounting (column.h).
#include "nsys/engine/column.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "nsys/support/cache_dir.h"

namespace nsys::engine {
namespace {

thread_local const SpillPolicy* t_policy = nullptr;
std::atomic<int64_t> g_heap{0}, g_spill{0}, g_view{0};
constexpr size_t kAnonFrom = size_t{1} << 20;  // heap columns from this size are anonymous mappings

size_t PageRound(size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

// Huge pages: a column's mapping starts on a 2 MiB boundary and asks for transparent huge pages (a hint, ignored
// where THP is off), anonymous or a spill file alike. A 4 KiB-mapped column costs a fault per page written and a TLB
// miss per random access: with spill files mapped in 4 KiB pages, the paged x5000 export's attribution took 29 s
// instead of 18 s, and a 2 GB export held in memory took a million page faults. Page cache large folios of the spill
// file can then be mapped whole (ext4 has them since Linux 6.16), so a spilled table is walked at memory speed.
constexpr size_t kHugePage = size_t{2} << 20;

// `size` bytes of address space reserved (no access) on a kHugePage boundary; nullptr when mmap fails.
void* ReserveAligned(size_t size) {
  void* r = mmap(nullptr, size + kHugePage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) return nullptr;
  const auto lo = reinterpret_cast<uintptr_t>(r);
  const uintptr_t at = (lo + kHugePage - 1) & ~(kHugePage - 1);
  if (at > lo) munmap(r, at - lo);
  munmap(reinterpret_cast<void*>(at + size), lo + kHugePage - at);
  return reinterpret_cast<void*>(at);
}

void AdviseHuge(void* p, size_t size) {
  madvise(p, size, MADV_HUGEPAGE);
}

// A read-write mapping of `size` bytes (anonymous, or of `fd` from offset 0) on a huge page boundary, advised.
void* MapHuge(size_t size, int flags, int fd) {
  void* at = size >= kHugePage ? ReserveAligned(size) : nullptr;
  void* p = mmap(at, size, PROT_READ | PROT_WRITE, flags | (at ? MAP_FIXED : 0), fd, 0);
  if (p == MAP_FAILED) {
    if (at) munmap(at, size);
    return nullptr;
  }
  AdviseHuge(p, size);
  return p;
}

// mremap to `size`, moving to a reserved huge page boundary when the mapping must move; nullptr on failure (the
// old mapping is then untouched).
void* RemapHuge(void* old, size_t old_size, size_t size) {
  if (size <= old_size || size < kHugePage) {
    void* p = mremap(old, old_size, size, MREMAP_MAYMOVE);
    return p == MAP_FAILED ? nullptr : p;
  }
  // In place when the pages after it are free and it starts on a boundary (a file's pages can only be mapped whole
  // where the address and the file offset agree modulo 2 MiB: a small spill mapping that grows must move).
  void* p = reinterpret_cast<uintptr_t>(old) % kHugePage == 0 ? mremap(old, old_size, size, 0) : MAP_FAILED;
  if (p != MAP_FAILED) {
    AdviseHuge(p, size);
    return p;
  }
  void* at = ReserveAligned(size);
  if (!at) return nullptr;
  p = mremap(old, old_size, size, MREMAP_MAYMOVE | MREMAP_FIXED, at);  // replaces the reservation
  if (p == MAP_FAILED) {
    munmap(at, size);
    return nullptr;
  }
  AdviseHuge(p, size);
  return p;
}

// An unlinked file in `dir`: its blocks are freed when the last mapping and descriptor go.
int SpillFile(const std::string& dir) {
  // Only when <cache>/spill and the cache itself are this user's and 0700, so no other user can plant or read spill
  // files; else the column stays in memory.
  if (!support::PrivateDir(std::filesystem::path(dir).parent_path().string()) || !support::PrivateDir(dir)) return -1;
#ifdef O_TMPFILE
  int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
#endif
  std::string name = dir + "/spill.XXXXXX";
  fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) unlink(name.c_str());
  return fd;
}

// A shared mapping of `bytes` (page-rounded) of a fresh spill file; false when the file cannot be made or sized.
bool MapSpill(column_detail::Block& b, size_t bytes, const std::string& dir) {
  const int fd = SpillFile(dir);
  if (fd < 0) return false;
  const size_t size = PageRound(bytes);
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    close(fd);
    return false;
  }
  void* p = MapHuge(size, MAP_SHARED, fd);
  if (!p) {
    close(fd);
    return false;
  }
  b = {p, size, column_detail::Store::kSpill, fd};
  g_spill += static_cast<int64_t>(size);
  return true;
}

// An anonymous mapping of `bytes` (page-rounded) that asks for transparent huge pages; false when mmap fails.
bool MapAnon(column_detail::Block& b, size_t bytes) {
  const size_t size = PageRound(bytes);
  void* p = MapHuge(size, MAP_PRIVATE | MAP_ANONYMOUS, -1);
  if (!p) return false;
  b = {p, size, column_detail::Store::kAnon, -1};
  g_heap += static_cast<int64_t>(size);
  return true;
}

bool WantsSpill(size_t bytes) {
  return t_policy && !t_policy->dir.empty() && bytes >= t_policy->min_bytes;
}

}  // namespace

bool CanSpillTo(const std::string& dir) {
  const int fd = SpillFile(dir);
  if (fd < 0) return false;
  const bool sized = ftruncate(fd, static_cast<off_t>(PageRound(1))) == 0;
  close(fd);
  return sized;
}

ColumnBytes ColumnBytesNow() {
  return ColumnBytes{g_heap.load(), g_spill.load(), g_view.load()};
}

ScopedSpill::ScopedSpill(const SpillPolicy* policy) : previous_(t_policy) {
  t_policy = policy;
}
ScopedSpill::~ScopedSpill() {
  t_policy = previous_;
}

namespace column_detail {

Block Allocate(size_t bytes) {
  Block b;
  if (WantsSpill(bytes) && MapSpill(b, bytes, t_policy->dir)) return b;
  if (bytes >= kAnonFrom && MapAnon(b, bytes)) return b;
  b.data = std::malloc(bytes);
  if (!b.data) throw std::bad_alloc();
  b.bytes = bytes;
  g_heap += static_cast<int64_t>(bytes);
  return b;
}

// An anonymous block grown or shrunk in place (or moved by the kernel), its huge-page advice kept.
static void RemapAnon(Block& b, size_t bytes) {
  const size_t size = PageRound(bytes);
  if (size == b.bytes) return;
  void* p = RemapHuge(b.data, b.bytes, size);
  if (!p) throw std::bad_alloc();
  g_heap += static_cast<int64_t>(size) - static_cast<int64_t>(b.bytes);
  b.data = p;
  b.bytes = size;
}

void Resize(Block& b, size_t bytes, size_t keep) {
  if (b.store == Store::kAnon && !WantsSpill(bytes)) {
    RemapAnon(b, bytes);
    return;
  }
  if (b.store == Store::kSpill) {
    const size_t size = PageRound(bytes);
    if (size == b.bytes) return;
    if (size > b.bytes && ftruncate(b.fd, static_cast<off_t>(size)) != 0) throw std::bad_alloc();
    void* p = RemapHuge(b.data, b.bytes, size);
    if (!p) throw std::bad_alloc();
    if (size < b.bytes && ftruncate(b.fd, static_cast<off_t>(size)) != 0) {
      // The mapping is smaller already; a file that keeps its old length only costs disk until it is freed.
    }
    g_spill += static_cast<int64_t>(size) - static_cast<int64_t>(b.bytes);
    b.data = p;
    b.bytes = size;
    return;
  }
  if (bytes > b.bytes && (WantsSpill(bytes) || bytes >= kAnonFrom)) {  // heap -> spill or anon, anon -> spill
    Block moved;
    if ((WantsSpill(bytes) && MapSpill(moved, bytes, t_policy->dir)) || (!WantsSpill(bytes) && MapAnon(moved, bytes))) {
      std::memcpy(moved.data, b.data, keep);
      Free(b);
      b = moved;
      return;
    }
  }
  if (b.store == Store::kAnon) {  // an anon block that should have spilled but could not: grow it in place
    RemapAnon(b, bytes);
    return;
  }
  void* p = std::realloc(b.data, bytes);
  if (!p) throw std::bad_alloc();
  g_heap += static_cast<int64_t>(bytes) - static_cast<int64_t>(b.bytes);
  b.data = p;
  b.bytes = bytes;
}

void Free(Block& b) {
  if (b.store == Store::kSpill) {
    munmap(b.data, b.bytes);
    close(b.fd);
    g_spill -= static_cast<int64_t>(b.bytes);
  } else if (b.store == Store::kAnon) {
    munmap(b.data, b.bytes);
    g_heap -= static_cast<int64_t>(b.bytes);
  } else if (b.store == Store::kHeap) {
    std::free(b.data);
    g_heap -= static_cast<int64_t>(b.bytes);
  }
  b = {};
}

void CountView(int64_t delta) {
  g_view += delta;
}

}  // namespace column_detail
}  // namespace nsys::engine
