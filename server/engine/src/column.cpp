// Column storage: the heap, spill files in the cache directory, and the views' accounting (column.h).
#include "nsys/engine/column.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace nsys::engine {
namespace {

thread_local const SpillPolicy* t_policy = nullptr;
std::atomic<int64_t> g_heap{0}, g_spill{0}, g_view{0};
constexpr size_t kAnonFrom = size_t{1} << 20;  // heap columns from this size are anonymous mappings

size_t PageRound(size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

// An unlinked file in `dir`: its blocks are freed when the last mapping and descriptor go.
int SpillFile(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
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
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
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
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  madvise(p, size, MADV_HUGEPAGE);  // a hint: ignored where THP is off
  b = {p, size, column_detail::Store::kAnon, -1};
  g_heap += static_cast<int64_t>(size);
  return true;
}

bool WantsSpill(size_t bytes) {
  return t_policy && !t_policy->dir.empty() && bytes >= t_policy->min_bytes;
}

}  // namespace

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
  void* p = mremap(b.data, b.bytes, size, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
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
    void* p = mremap(b.data, b.bytes, size, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
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
