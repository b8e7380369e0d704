#include "page_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace nsys::engine {
namespace {

constexpr int kMaxDepth = 24;  // real trees are 3-5 deep; deeper means a cycle in a damaged file
constexpr int64_t kAbortCheckRows = 4096;

uint32_t Be16(const uint8_t* p) {
  return (uint32_t{p[0]} << 8) | p[1];
}
uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

bool GetVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  v = 0;
  for (int i = 0; i < 8; ++i) {
    if (p >= end) return false;
    const uint8_t b = *p++;
    v = (v << 7) | (b & 0x7f);
    if (!(b & 0x80)) return true;
  }
  if (p >= end) return false;
  v = (v << 8) | *p++;
  return true;
}

// A record's integer of n bytes, big-endian and sign-extended. Record() reads most integer cells with one word load
// instead; this serves the cells in a record's last 7 bytes, and REAL's 8 bytes.
int64_t BigEndianInt(const uint8_t* p, int n) {
  int64_t v = static_cast<int8_t>(p[0]);  // sign-extended
  for (int i = 1; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

class Scanner {
 public:
  using Callback = void (*)(void*, const RecordRow&);
  Scanner(int fd, uint32_t page_size, uint32_t usable, uint32_t pages, int64_t first, int64_t last,
          const std::vector<int>& positions, const std::atomic<bool>* abort, void* fn, Callback callback)
      : fd_(fd),
        page_size_(page_size),
        usable_(usable),
        pages_(pages),
        first_(first),
        last_(last),
        abort_(abort),
        fn_(fn),
        callback_(callback) {
    for (size_t k = 0; k < positions.size(); ++k) {
      if (positions[k] < 0) continue;
      if (static_cast<size_t>(positions[k]) >= slot_of_.size())
        slot_of_.resize(static_cast<size_t>(positions[k]) + 1, -1);
      slot_of_[static_cast<size_t>(positions[k])] = static_cast<int>(k) + 1;
    }
    row_.fields.resize(positions.size() + 1);
    block_pages_ = std::max<uint32_t>(1, kBlockBytes / page_size);
    block_.resize(static_cast<size_t>(block_pages_) * page_size);
    interior_.resize(kMaxDepth + 1);
  }

  ExportFile::ScanResult Run(uint32_t root) {
    Visit(root, 0);
    return result_;
  }

 private:
  static constexpr uint32_t kBlockBytes = 256 * 1024;

  // Reads `count` pages starting at page n into `out`; false on a short read (a file cut under us).
  bool ReadPages(uint32_t n, uint32_t count, uint8_t* out) const {
    size_t want = static_cast<size_t>(count) * page_size_;
    off_t at = static_cast<off_t>(n - 1) * page_size_;
    while (want > 0) {
      const ssize_t got = pread(fd_, out, want, at);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      out += got;
      at += got;
      want -= static_cast<size_t>(got);
    }
    return true;
  }

  // Page n through the read-ahead block (valid until the next call); nullptr when n is not a page of the file.
  const uint8_t* BlockPage(uint32_t n) {
    if (n == 0 || n > pages_) return nullptr;
    if (n < block_first_ || n >= block_first_ + block_count_) {
      const uint32_t count = std::min(block_pages_, pages_ - n + 1);
      if (!ReadPages(n, count, block_.data())) {
        block_count_ = 0;
        return nullptr;
      }
      block_first_ = n;
      block_count_ = count;
    }
    return block_.data() + static_cast<size_t>(n - block_first_) * page_size_;
  }

  bool Stop() const { return done_ || result_ != ExportFile::ScanResult::kOk; }
  void Unsupported() { result_ = ExportFile::ScanResult::kUnsupported; }

  void Visit(uint32_t page_no, int depth) {
    if (depth > kMaxDepth) return Unsupported();
    const uint8_t* page = BlockPage(page_no);
    if (!page) return Unsupported();
    const uint32_t hdr = page_no == 1 ? 100 : 0;
    const uint8_t type = page[hdr];
    if (type == 0x05) {  // children replace the block: keep this page in the buffer of its depth
      interior_[static_cast<size_t>(depth)].assign(page, page + page_size_);
      page = interior_[static_cast<size_t>(depth)].data();
    }
    const uint32_t cells = Be16(page + hdr + 3);
    if (type == 0x0d) {
      if (hdr + 8 + 2 * cells > usable_) return Unsupported();
      for (uint32_t c = 0; c < cells && !Stop(); ++c) Cell(page, Be16(page + hdr + 8 + 2 * c));
      return;
    }
    if (type != 0x05 || hdr + 12 + 2 * cells > usable_) return Unsupported();
    // Child i holds rowids in (key[i-1], key[i]]; the right-most child holds those above the last key.
    int64_t below = std::numeric_limits<int64_t>::min();
    const uint32_t right = Be32(page + hdr + 8);
    for (uint32_t c = 0; c < cells && !Stop(); ++c) {
      const uint32_t off = Be16(page + hdr + 12 + 2 * c);
      if (off + 4 >= usable_) return Unsupported();
      const uint8_t* p = page + off + 4;
      uint64_t key = 0;
      if (!GetVarint(p, page + usable_, key)) return Unsupported();
      const auto k = static_cast<int64_t>(key);
      if (k >= first_ && below < last_) Visit(Be32(page + off), depth + 1);
      if (Stop()) return;
      below = k;
      if (below >= last_) return;
    }
    if (!Stop() && below < last_) Visit(right, depth + 1);
  }

  void Cell(const uint8_t* page, uint32_t off) {
    if (off < 8 || off >= usable_) return Unsupported();
    const uint8_t* end = page + usable_;
    const uint8_t* p = page + off;
    uint64_t payload = 0, rowid = 0;
    if (!GetVarint(p, end, payload) || !GetVarint(p, end, rowid)) return Unsupported();
    const auto id = static_cast<int64_t>(rowid);
    if (id < first_) return;
    if (id > last_) {
      done_ = true;
      return;
    }
    const uint64_t max_local = usable_ - 35;
    if (payload <= max_local) {
      if (p + payload > end) return Unsupported();
      Record(id, p, static_cast<size_t>(payload));
      return;
    }
    // Overflow: the first `local` bytes are here, the rest in a chain of overflow pages.
    const uint64_t min_local = (uint64_t{usable_ - 12} * 32 / 255) - 23;
    const uint64_t k = min_local + (payload - min_local) % (usable_ - 4);
    const uint64_t local = k <= max_local ? k : min_local;
    if (p + local + 4 > end || payload > (uint64_t{1} << 30)) return Unsupported();
    // A chain holds distinct pages of the file: more pages than the file has, or a page met twice (a loop, which made
    // one 344 KB export read one page until the cell held 1 GiB), is damage. Pages are marked with a stamp per cell.
    if ((payload - local + usable_ - 5) / (usable_ - 4) > pages_) return Unsupported();
    if (chain_seen_.size() != size_t{pages_} + 1) chain_seen_.assign(size_t{pages_} + 1, 0);
    if (++chain_stamp_ == 0) {  // after 2^32 chains: start the marks afresh
      std::fill(chain_seen_.begin(), chain_seen_.end(), 0);
      chain_stamp_ = 1;
    }
    overflow_.assign(p, p + local);
    uint32_t next = Be32(p + local);
    overflow_page_.resize(page_size_);
    while (overflow_.size() < payload) {
      if (next == 0 || next > pages_ || chain_seen_[next] == chain_stamp_) return Unsupported();
      chain_seen_[next] = chain_stamp_;
      if (!ReadPages(next, 1, overflow_page_.data())) return Unsupported();
      const uint8_t* ov = overflow_page_.data();
      const size_t take = std::min<uint64_t>(payload - overflow_.size(), usable_ - 4);
      overflow_.insert(overflow_.end(), ov + 4, ov + 4 + take);
      next = Be32(ov);
    }
    Record(id, overflow_.data(), overflow_.size());
  }

  void Record(int64_t rowid, const uint8_t* payload, size_t size) {
    const uint8_t* end = payload + size;
    const uint8_t* h = payload;
    uint64_t header_size = 0;
    if (!GetVarint(h, end, header_size) || header_size > size) return Unsupported();
    const uint8_t* header_end = payload + header_size;
    const uint8_t* body = header_end;
    auto& fields = row_.fields;
    fields[0].type = RecordRow::Field::kInt;
    fields[0].i = rowid;
    size_t pos = 0;
    for (; h < header_end && pos < slot_of_.size(); ++pos) {
      uint64_t t = *h;
      if (t < 0x80) {
        ++h;  // a one-byte serial type: every type but long text and blobs
      } else if (!GetVarint(h, header_end, t)) {
        return Unsupported();
      }
      static constexpr uint8_t kIntSize[] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0};
      size_t len;
      if (t < 10) {
        len = kIntSize[t];
      } else if (t >= 12) {
        len = static_cast<size_t>((t - 12) / 2);
      } else {
        return Unsupported();  // 10 and 11 are reserved
      }
      if (len > static_cast<size_t>(end - body)) return Unsupported();  // not body + len: that could wrap
      const int slot = slot_of_[pos];
      if (slot > 0) {
        RecordRow::Field& f = fields[static_cast<size_t>(slot)];
        f.type = RecordRow::Field::kNull;  // 0 (NULL); the cases below overwrite it
        if (t - 1 < 6) {                   // t in [1, 6]: integers of 1 to 8 bytes
          f.type = RecordRow::Field::kInt;
          if (end - body >= 8) {  // one load, swapped and shifted down with its sign: no branch on the size
            uint64_t word;
            std::memcpy(&word, body, 8);
            f.i = static_cast<int64_t>(__builtin_bswap64(word)) >> (64 - 8 * len);
          } else {
            f.i = BigEndianInt(body, static_cast<int>(len));
          }
        } else if (t == 7) {
          uint64_t bits = static_cast<uint64_t>(BigEndianInt(body, 8));
          f.type = RecordRow::Field::kReal;
          std::memcpy(&f.d, &bits, sizeof bits);
        } else if (t == 8 || t == 9) {
          f.type = RecordRow::Field::kInt;
          f.i = t == 9;
        } else if (t >= 12) {
          f.type = t % 2 ? RecordRow::Field::kText : RecordRow::Field::kBlob;
          f.s = std::string_view(reinterpret_cast<const char*>(body), len);
        }
      }
      body += len;
    }
    // A record shorter than the table (columns added by a later ALTER TABLE): the columns it lacks are NULL.
    for (; pos < slot_of_.size(); ++pos)
      if (slot_of_[pos] > 0) fields[static_cast<size_t>(slot_of_[pos])].type = RecordRow::Field::kNull;
    callback_(fn_, row_);
    if (++rows_ % kAbortCheckRows == 0 && abort_ && abort_->load(std::memory_order_relaxed))
      result_ = ExportFile::ScanResult::kCancelled;
  }

  int fd_;
  uint32_t page_size_, usable_, pages_;
  int64_t first_, last_;
  const std::atomic<bool>* abort_;
  void* fn_;
  Callback callback_;
  std::vector<int> slot_of_;  // record position -> field index (>= 1), or -1
  RecordRow row_;
  std::vector<uint8_t> overflow_, overflow_page_, block_;
  std::vector<uint32_t> chain_seen_;  // page -> the chain_stamp_ of the overflow chain that last read it
  uint32_t chain_stamp_ = 0;
  std::vector<std::vector<uint8_t>> interior_;  // one page per depth
  uint32_t block_pages_ = 1, block_first_ = 0, block_count_ = 0;
  int64_t rows_ = 0;
  bool done_ = false;
  ExportFile::ScanResult result_ = ExportFile::ScanResult::kOk;
};

}  // namespace

std::unique_ptr<ExportFile> ExportFile::Map(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  std::unique_ptr<ExportFile> f(new ExportFile());
  f->fd_ = fd;
  struct stat st {};
  uint8_t h[100];
  if (fstat(fd, &st) != 0 || st.st_size < 512 || pread(fd, h, sizeof h, 0) != static_cast<ssize_t>(sizeof h))
    return nullptr;
  f->size_ = static_cast<size_t>(st.st_size);
  uint32_t page_size = Be16(h + 16);
  if (page_size == 1) page_size = 65536;
  const uint32_t encoding = Be32(h + 56);
  if (std::memcmp(h, "SQLite format 3", 16) != 0 || page_size < 512 || (page_size & (page_size - 1)) != 0 ||
      h[20] > page_size - 480 || encoding != 1 || f->size_ % page_size != 0)
    return nullptr;
  f->page_size_ = page_size;
  f->usable_ = page_size - h[20];
  f->pages_ = static_cast<uint32_t>(f->size_ / page_size);
  return f;
}

std::unique_ptr<ExportFile> MapExportFile(const std::string& path) {
  if (std::getenv("NSYS_ENGINE_NO_PAGE_READER")) return nullptr;
  return ExportFile::Map(path);
}

ExportFile::~ExportFile() {
  if (fd_ >= 0) close(fd_);
}

ExportFile::ScanResult ExportFile::ScanImpl(uint32_t root_page, int64_t first, int64_t last,
                                            const std::vector<int>& positions, const std::atomic<bool>* abort, void* fn,
                                            Callback callback) const {
  Scanner scanner(fd_, page_size_, usable_, pages_, first, last, positions, abort, fn, callback);
  return scanner.Run(root_page);
}

}  // namespace nsys::engine
