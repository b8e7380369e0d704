#include "file_checks.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "nsys/support/path_text.h"

namespace nsys::engine {
namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with the NUL

uint32_t BigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads up to n bytes at offset 0; returns the count read.
ssize_t ReadHead(int fd, void* buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r = pread(fd, static_cast<char*>(buf) + done, n - done, static_cast<off_t>(done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return r;
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  return static_cast<ssize_t>(done);
}

uint64_t Rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

uint64_t Mix(uint64_t h) {  // splitmix64 finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// Hashes kSampledBlocks blocks of 4 KiB at evenly spread, block-aligned offsets (the first at 0, the last at the
// end): 64 KiB of reads whatever the file's size, so a warm reopen of 2 GB stays a few preads.
uint64_t SampleHash(int fd, int64_t size) {
  constexpr int64_t kBlock = 4096;
  const int64_t blocks = (size + kBlock - 1) / kBlock;
  uint64_t h = 0;
  unsigned char buf[kBlock];
  for (int i = 0; i < kSampledBlocks && blocks > 0; ++i) {
    const int64_t block = blocks == 1 ? 0 : (blocks - 1) * i / (kSampledBlocks - 1);
    ssize_t got;
    do {
      got = pread(fd, buf, sizeof buf, static_cast<off_t>(block * kBlock));
    } while (got < 0 && errno == EINTR);
    h = Hash64(buf, got > 0 ? static_cast<size_t>(got) : 0, h ^ static_cast<uint64_t>(block));
  }
  return h;
}

}  // namespace

Status CheckExportFile(const std::string& path) {
  const std::string shown = support::QuoteInput(path);  // what messages quote: valid UTF-8, bounded
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR)
      return MakeError(ErrorKind::kNotFound, fmt::format("No such file: '{}'.", shown));
    if (err == EACCES)
      return MakeError(ErrorKind::kBadInput, fmt::format("Permission denied: cannot access '{}'.", shown));
    return MakeError(ErrorKind::kBadInput, fmt::format("Cannot access '{}': {}.", shown, std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode))
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is a directory, not an Nsight Systems export: give a .sqlite file made by "
                                 "`nsys export --type sqlite` (or a .nsys-rep or .qdrep report).",
                                 shown));
  if (!S_ISREG(st.st_mode)) return MakeError(ErrorKind::kBadInput, fmt::format("'{}' is not a regular file.", shown));
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    const int err = errno;
    if (err == EACCES)
      return MakeError(ErrorKind::kBadInput,
                       fmt::format("Permission denied: cannot read '{}' (check the file's permissions).", shown));
    return MakeError(ErrorKind::kBadInput, fmt::format("Cannot read '{}': {}.", shown, std::strerror(err)));
  }
  if (st.st_size == 0)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is empty (0 bytes), not an Nsight Systems export.", shown));
  unsigned char header[100] = {};
  const ssize_t got = ReadHead(fd.get(), header, sizeof header);
  if (got < 0)
    return MakeError(ErrorKind::kBadInput, fmt::format("Cannot read '{}': {}.", shown, std::strerror(errno)));
  const bool is_sqlite = got >= 16 && std::memcmp(header, kSqliteMagic, 16) == 0;
  if (!is_sqlite && HasReportName(path))
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is not an Nsight Systems report: it does not start with a report's header "
                                 "(\"{}\"), nor is it a SQLite export. A report is the .nsys-rep (or, until Nsight "
                                 "Systems 2021.1, .qdrep) file that `nsys profile` writes; was the file cut short or "
                                 "renamed?",
                                 shown, kReportMagic.substr(0, kReportMagic.size() - 1)));
  if (!is_sqlite)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is not a SQLite database (it does not start with the SQLite header). "
                                 "An Nsight Systems export is a .sqlite file made by `nsys export --type sqlite`.",
                                 shown));
  if (got < 100)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is truncated: it is {} bytes, shorter than a SQLite header.", shown, got));
  uint32_t page_size = (uint32_t{header[16]} << 8) | header[17];
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || page_size > 65536 || (page_size & (page_size - 1)) != 0)
    return MakeError(
        ErrorKind::kBadInput,
        fmt::format("'{}' is damaged: its SQLite header has an invalid page size ({}).", shown, page_size));
  const uint32_t page_count = BigEndian32(header + 28);
  // The in-header page count is valid only when the "version-valid-for" field matches the writer's version.
  const bool count_valid = page_count > 0 && BigEndian32(header + 92) == BigEndian32(header + 96);
  const int64_t size = st.st_size;
  if (count_valid && size < int64_t{page_count} * page_size)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is truncated: its SQLite header says {} bytes ({} pages) but the file has {} "
                                 "bytes. Was the copy or the export interrupted?",
                                 shown, int64_t{page_count} * page_size, page_count, size));
  if (size % page_size != 0)
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("'{}' is truncated: {} bytes is not a whole number of {}-byte SQLite pages.", shown,
                                 size, page_size));
  return {};
}

bool IsNsysReport(const std::string& path) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return false;
  struct stat st {};
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return false;  // never wait on a FIFO or device
  char head[kReportMagic.size()];
  return ReadHead(fd.get(), head, sizeof head) == static_cast<ssize_t>(sizeof head) &&
         std::string_view(head, sizeof head) == kReportMagic;
}

bool HasReportName(std::string_view path) {
  auto ends_with = [&](std::string_view ext) {
    if (path.size() <= ext.size()) return false;
    for (size_t i = 0; i < ext.size(); ++i) {
      const char c = path[path.size() - ext.size() + i];
      if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != ext[i]) return false;
    }
    return true;
  };
  return ends_with(".nsys-rep") || ends_with(".qdrep");
}

std::string FileIdentity::Key() const {
  const int64_t fields[] = {size,
                            mtime_ns,
                            ctime_ns,
                            static_cast<int64_t>(inode),
                            static_cast<int64_t>(device),
                            static_cast<int64_t>(head_hash),
                            static_cast<int64_t>(sample_hash)};
  return fmt::format("{:016x}", Hash64(fields, sizeof fields, 0x6e737973616931ULL));
}

Expected<FileIdentity> IdentifyFile(const std::string& path) {
  const std::string shown = support::QuoteInput(path);  // what messages quote: valid UTF-8, bounded
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return MakeError(ErrorKind::kNotFound, fmt::format("No such file: '{}'.", shown));
  FileIdentity id;
  id.size = st.st_size;
  id.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  id.ctime_ns = int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
  id.inode = st.st_ino;
  id.device = st.st_dev;
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    return MakeError(ErrorKind::kBadInput, fmt::format("Cannot read '{}': {}.", shown, std::strerror(errno)));
  std::vector<unsigned char> head(1 << 20);
  const ssize_t got = ReadHead(fd.get(), head.data(), head.size());
  if (got < 0) return MakeError(ErrorKind::kBadInput, fmt::format("Cannot read '{}'.", shown));
  id.head_hash = Hash64(head.data(), static_cast<size_t>(got));
  id.sample_hash = SampleHash(fd.get(), st.st_size);
  return id;
}

uint64_t Hash64(const void* data, size_t size, uint64_t seed) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t lane[4] = {seed ^ 0x243F6A8885A308D3ULL, seed ^ 0x13198A2E03707344ULL, seed ^ 0xA4093822299F31D0ULL,
                      seed ^ 0x082EFA98EC4E6C89ULL};
  size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      lane[k] = Rotl((lane[k] ^ w) * kMul, 29);
    }
  }
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    lane[0] = Rotl((lane[0] ^ w) * kMul, 29);
  }
  uint64_t tail = 0;  // at most 7 bytes
  for (size_t j = 0; i + j < size; ++j) tail = (tail << 8) | p[i + j];
  uint64_t h = Mix(lane[0]) ^ Rotl(Mix(lane[1]), 17) ^ Rotl(Mix(lane[2]), 31) ^ Rotl(Mix(lane[3]), 47);
  return Mix(h ^ Mix(tail ^ (size * kMul)));
}

}  // namespace nsys::engine
