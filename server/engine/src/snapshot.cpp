#include "snapshot.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "nsys/support/cache_dir.h"
#include "table_ops.h"

namespace nsys::engine {
namespace {

constexpr char kMagic[8] = {'N', 'S', 'Y', 'S', 'A', 'I', 'S', 'N'};
constexpr size_t kSections = static_cast<size_t>(SnapshotSection::kCount);
constexpr size_t kHeaderSize = 8 + 4 + 4 + 7 * 8 + kSections * 24 + 8;

uint64_t Combine(uint64_t h, const void* data, size_t size) {
  return Hash64(data, size, h ^ 0x5bd1e995) ^ (h << 1);
}

// Little-endian host assumed (x86-64, aarch64): the snapshot is a local cache, never shipped between machines.
class Buffer {
 public:
  template <typename T>
  void Put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&v);
    bytes_.append(p, sizeof v);
  }
  void Put(std::string_view s) {
    Put<uint64_t>(s.size());
    bytes_.append(s.data(), s.size());
  }
  void Put(const std::string& s) { Put(std::string_view(s)); }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  Reader(const unsigned char* p, size_t n) : p_(p), n_(n) {}
  template <typename T>
  bool Get(T& v) {
    if (n_ - pos_ < sizeof v) return false;
    std::memcpy(&v, p_ + pos_, sizeof v);
    pos_ += sizeof v;
    return true;
  }
  bool Get(std::string& s) {
    uint64_t len = 0;
    if (!Get(len) || n_ - pos_ < len) return false;
    s.assign(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len;
    return true;
  }
  const unsigned char* Take(size_t len) {
    if (n_ - pos_ < len) return nullptr;
    const unsigned char* p = p_ + pos_;
    pos_ += len;
    return p;
  }
  void Align8() { pos_ = std::min(n_, (pos_ + 7) & ~size_t{7}); }

 private:
  const unsigned char* p_;
  size_t n_;
  size_t pos_ = 0;
};

void PutInfo(Buffer& b, const ProfileInfo& info, const AttributionCoverage& cov) {
  b.Put<int64_t>(info.file_size);
  b.Put(info.nsys_version);
  b.Put(info.schema_version);
  b.Put(info.metadata_table);
  b.Put<uint64_t>(info.metadata.size());
  for (const auto& [k, v] : info.metadata) b.Put(k), b.Put(v);
  const Capabilities& c = info.caps;
  for (bool f : {c.kernels, c.runtime, c.memcpy, c.memset, c.sync, c.nvtx, c.gpu_info, c.cuda_streams,
                 c.profiler_overhead, c.osrt, c.enums, c.nccl})
    b.Put<uint8_t>(f);
  b.Put<uint64_t>(info.tables.size());
  for (const TableInfo& t : info.tables) {
    b.Put(t.name);
    b.Put<int64_t>(t.rows);
    b.Put<uint64_t>(t.columns.size());
    for (const std::string& col : t.columns) b.Put(col);
  }
  b.Put<uint64_t>(info.devices.size());
  for (const Device& d : info.devices) {
    b.Put<int32_t>(d.id), b.Put(d.name), b.Put(d.chip), b.Put<int64_t>(d.total_memory);
    b.Put<int64_t>(d.memory_bandwidth), b.Put<int32_t>(d.sm_count), b.Put<int64_t>(d.clock_rate);
    b.Put<int32_t>(d.compute_major), b.Put<int32_t>(d.compute_minor), b.Put<uint8_t>(d.sm_count_from_model ? 1 : 0);
  }
  b.Put<uint64_t>(info.processes.size());
  for (const Process& p : info.processes) b.Put<uint32_t>(p.pid), b.Put(p.name);
  b.Put<uint64_t>(info.threads.size());
  for (const Thread& t : info.threads) b.Put<uint32_t>(t.pid), b.Put<uint32_t>(t.tid), b.Put(t.name);
  b.Put<uint64_t>(info.streams.size());
  for (const CudaStream& s : info.streams)
    b.Put<int32_t>(s.device), b.Put<int32_t>(s.stream), b.Put<uint32_t>(s.pid), b.Put<int32_t>(s.priority),
        b.Put<int32_t>(s.stream_type);
  b.Put<int64_t>(info.start_ns), b.Put<int64_t>(info.end_ns), b.Put<int64_t>(info.session_start_utc_ns);
  for (int64_t v : {cov.kernels, cov.kernel_time_ns, cov.with_launch, cov.with_launch_time_ns, cov.with_nvtx,
                    cov.with_nvtx_time_ns})
    b.Put<int64_t>(v);
  // Written once every table is loaded, so the report is complete.
  const std::vector<RowDamage> damaged = info.row_checks ? info.row_checks->Get().tables : std::vector<RowDamage>{};
  b.Put<uint64_t>(damaged.size());
  for (const RowDamage& d : damaged)
    b.Put(d.table), b.Put<int64_t>(d.bad_time), b.Put<int64_t>(d.bad_span), b.Put<int64_t>(d.unreadable),
        b.Put<int64_t>(d.unnamed);
}

bool GetInfo(Reader& r, ProfileInfo& info, AttributionCoverage& cov) {
  uint64_t n = 0;
  if (!r.Get(info.file_size) || !r.Get(info.nsys_version) || !r.Get(info.schema_version) ||
      !r.Get(info.metadata_table) || !r.Get(n))
    return false;
  for (uint64_t i = 0; i < n; ++i) {
    std::string k, v;
    if (!r.Get(k) || !r.Get(v)) return false;
    info.metadata.emplace(std::move(k), std::move(v));
  }
  Capabilities& c = info.caps;
  for (bool* f : {&c.kernels, &c.runtime, &c.memcpy, &c.memset, &c.sync, &c.nvtx, &c.gpu_info, &c.cuda_streams,
                  &c.profiler_overhead, &c.osrt, &c.enums, &c.nccl}) {
    uint8_t v = 0;
    if (!r.Get(v)) return false;
    *f = v != 0;
  }
  if (!r.Get(n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    TableInfo t;
    uint64_t ncol = 0;
    if (!r.Get(t.name) || !r.Get(t.rows) || !r.Get(ncol)) return false;
    for (uint64_t j = 0; j < ncol; ++j) {
      if (!r.Get(t.columns.emplace_back())) return false;
    }
    info.tables.push_back(std::move(t));
  }
  if (!r.Get(n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    Device& d = info.devices.emplace_back();
    if (!r.Get(d.id) || !r.Get(d.name) || !r.Get(d.chip) || !r.Get(d.total_memory) || !r.Get(d.memory_bandwidth) ||
        !r.Get(d.sm_count) || !r.Get(d.clock_rate))
      return false;
    uint8_t from_model = 0;
    if (!r.Get(d.compute_major) || !r.Get(d.compute_minor) || !r.Get(from_model)) return false;
    d.sm_count_from_model = from_model != 0;
  }
  if (!r.Get(n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    Process& p = info.processes.emplace_back();
    if (!r.Get(p.pid) || !r.Get(p.name)) return false;
  }
  if (!r.Get(n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    Thread& t = info.threads.emplace_back();
    if (!r.Get(t.pid) || !r.Get(t.tid) || !r.Get(t.name)) return false;
  }
  if (!r.Get(n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    CudaStream& s = info.streams.emplace_back();
    if (!r.Get(s.device) || !r.Get(s.stream) || !r.Get(s.pid) || !r.Get(s.priority) || !r.Get(s.stream_type))
      return false;
  }
  if (!(r.Get(info.start_ns) && r.Get(info.end_ns) && r.Get(info.session_start_utc_ns) && r.Get(cov.kernels) &&
        r.Get(cov.kernel_time_ns) && r.Get(cov.with_launch) && r.Get(cov.with_launch_time_ns) && r.Get(cov.with_nvtx) &&
        r.Get(cov.with_nvtx_time_ns) && r.Get(n)))
    return false;
  auto checks = std::make_shared<RowChecks>();
  for (uint64_t i = 0; i < n; ++i) {
    RowDamage d;
    if (!r.Get(d.table) || !r.Get(d.bad_time) || !r.Get(d.bad_span) || !r.Get(d.unreadable) || !r.Get(d.unnamed))
      return false;
    checks->Record(std::move(d));
  }
  checks->MarkComplete();
  info.row_checks = std::move(checks);
  return true;
}

// Writes sections to a FILE, tracking offsets and hashes.
class FileWriter {
 public:
  explicit FileWriter(FILE* f) : f_(f) {}
  bool ok() const { return ok_; }
  uint64_t pos() const { return pos_; }
  void Write(const void* p, size_t n) {
    if (ok_ && n > 0 && std::fwrite(p, 1, n, f_) != n) ok_ = false;
    pos_ += n;
  }
  // A hashed record.
  void Record(const void* p, size_t n, uint64_t& hash) {
    Write(p, n);
    hash = Combine(hash, p, n);
  }
  void Align8() {
    static const char zeros[8] = {};
    Write(zeros, (8 - pos_ % 8) % 8);
  }

 private:
  FILE* f_;
  uint64_t pos_ = 0;
  bool ok_ = true;
};

template <typename Table>
void WriteTable(FileWriter& w, const Table& table, uint64_t& hash) {
  ForEachColumn(const_cast<Table&>(table), [&](auto& col) {
    const uint64_t count = col.size();
    w.Record(&count, sizeof count, hash);
    w.Record(col.data(), count * sizeof(col[0]), hash);
    w.Align8();
  });
  if constexpr (requires { table.max_duration; }) {
    const int64_t m = table.max_duration;
    w.Record(&m, sizeof m, hash);
  }
  ForEachDictionary(const_cast<Table&>(table), [&](const auto& values) {
    const uint64_t count = values.size();
    w.Record(&count, sizeof count, hash);
    w.Record(values.data(), count * sizeof(values[0]), hash);
    w.Align8();
  });
}

}  // namespace

SnapshotReader::~SnapshotReader() = default;

namespace {
// Owns a mapping: the reader and every column view of it share one.
struct Mapping {
  void* data = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (data) munmap(data, size);
  }
};
}  // namespace

std::unique_ptr<SnapshotReader> SnapshotReader::Open(const std::string& file, const FileIdentity& identity) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (fstat(fd, &st) != 0 || static_cast<size_t>(st.st_size) < kHeaderSize) {
    close(fd);
    return nullptr;
  }
  // Writable but private: a view's element written by a caller changes this process's page, never the file.
  void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return nullptr;
  auto mapping = std::make_shared<Mapping>();
  mapping->data = p;
  mapping->size = static_cast<size_t>(st.st_size);
  std::unique_ptr<SnapshotReader> r(new SnapshotReader());
  r->mapping_ = mapping;
  r->map_ = static_cast<const unsigned char*>(p);
  r->map_size_ = static_cast<size_t>(st.st_size);
  Reader h(r->map_, kHeaderSize);
  char magic[8];
  uint32_t version = 0, count = 0;
  FileIdentity id;
  for (char& c : magic) h.Get(c);
  h.Get(version), h.Get(count), h.Get(id.size), h.Get(id.mtime_ns), h.Get(id.ctime_ns), h.Get(id.inode),
      h.Get(id.device), h.Get(id.head_hash), h.Get(id.sample_hash);
  if (std::memcmp(magic, kMagic, 8) != 0 || version != kSnapshotFormatVersion || count != kSections ||
      !(id == identity))
    return nullptr;
  for (Entry& e : r->entries_) h.Get(e.offset), h.Get(e.size), h.Get(e.hash);
  uint64_t header_hash = 0;
  h.Get(header_hash);
  if (header_hash != Hash64(r->map_, kHeaderSize - 8)) return nullptr;
  for (const Entry& e : r->entries_)
    if (e.offset > r->map_size_ || e.size > r->map_size_ - e.offset) return nullptr;  // truncated
  return r;
}

SnapshotReader::Span SnapshotReader::Section(SnapshotSection id) const {
  const Entry& e = entries_[static_cast<size_t>(id)];
  return Span{map_ + e.offset, e.size};
}

bool SnapshotReader::ReadInfo(ProfileInfo& info, StringPool& pool, AttributionCoverage& coverage) const {
  Span s = Section(SnapshotSection::kInfo);
  if (Combine(0, s.data, s.size) != entries_[static_cast<size_t>(SnapshotSection::kInfo)].hash) return false;
  Reader r(s.data, s.size);
  if (!GetInfo(r, info, coverage)) return false;
  Span strings = Section(SnapshotSection::kStrings);
  if (Combine(0, strings.data, strings.size) != entries_[static_cast<size_t>(SnapshotSection::kStrings)].hash)
    return false;
  Reader sr(strings.data, strings.size);
  uint64_t n = 0;
  if (!sr.Get(n) || pool.size() != 1) return false;
  for (uint64_t i = 1; i < n; ++i) {
    uint32_t len = 0;
    if (!sr.Get(len)) return false;
    const unsigned char* p = sr.Take(len);
    if (!p || pool.intern(std::string_view(reinterpret_cast<const char*>(p), len)) != i) return false;
  }
  return true;
}

template <typename Table>
bool SnapshotReader::RestoreTable(SnapshotSection id, Table& t, bool view) const {
  const Span s = Section(id);
  Reader r(s.data, s.size);
  uint64_t hash = 0;
  bool ok = true;
  ForEachColumn(t, [&](auto& col) {
    using T = std::remove_reference_t<decltype(col[0])>;
    uint64_t count = 0;
    if (!ok || !r.Get(count) || count > s.size / sizeof(T)) {
      ok = false;
      return;
    }
    hash = Combine(hash, &count, sizeof count);
    const unsigned char* p = r.Take(count * sizeof(T));
    if (!p) {
      ok = false;
      return;
    }
    hash = Combine(hash, p, count * sizeof(T));
    if (view) {
      // Columns start 8-aligned in a page-aligned mapping: aligned for every column type.
      col = Column<T>::View(reinterpret_cast<T*>(const_cast<unsigned char*>(p)), count, mapping_);
    } else {
      col.resize(0);
      col.reserve(count);
      col.insert(col.end(), reinterpret_cast<const T*>(p),
                 reinterpret_cast<const T*>(p) + count);  // one copy, no zero-fill
    }
    r.Align8();
  });
  if constexpr (requires { t.max_duration; }) {
    int64_t m = 0;
    ok = ok && r.Get(m);
    if (ok) hash = Combine(hash, &m, sizeof m);
    t.max_duration = m;
  }
  ForEachDictionary(t, [&](auto& values) {  // small: always copied
    using T = typename std::remove_reference_t<decltype(values)>::value_type;
    uint64_t count = 0;
    const unsigned char* p = nullptr;
    ok = ok && r.Get(count) && count <= s.size / sizeof(T) && (p = r.Take(count * sizeof(T))) != nullptr;
    if (!ok) return;
    hash = Combine(hash, &count, sizeof count);
    hash = Combine(hash, p, count * sizeof(T));
    values.assign(reinterpret_cast<const T*>(p), reinterpret_cast<const T*>(p) + count);
    r.Align8();
  });
  ok = ok && hash == entries_[static_cast<size_t>(id)].hash && DictionaryIndexesValid(t);
  // The copy is ours now, or the view reads the pages again when it needs them: drop the pages the hash read from
  // this process's memory (they stay in the page cache). Nothing wrote to them yet, so nothing is lost.
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(s.data) & ~(page - 1);
  madvise(reinterpret_cast<void*>(begin), reinterpret_cast<uintptr_t>(s.data) + s.size - begin, MADV_DONTNEED);
  if (!ok) t = Table{};
  return ok;
}

bool SnapshotReader::Restore(KernelTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kKernels, t, view);
}
bool SnapshotReader::Restore(RuntimeTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kRuntime, t, view);
}
bool SnapshotReader::Restore(MemcpyTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kMemcpy, t, view);
}
bool SnapshotReader::Restore(MemsetTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kMemset, t, view);
}
bool SnapshotReader::Restore(SyncTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kSync, t, view);
}
bool SnapshotReader::Restore(NvtxTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kNvtx, t, view);
}
bool SnapshotReader::Restore(NvtxMarkTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kNvtxMarks, t, view);
}
bool SnapshotReader::Restore(OverheadTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kOverhead, t, view);
}
bool SnapshotReader::Restore(GraphTable& t, bool view) const {
  return RestoreTable(SnapshotSection::kGraphs, t, view);
}

Status WriteSnapshot(const std::string& file, const FileIdentity& identity, const ProfileInfo& info,
                     const StringPool& pool, const SnapshotTables& tables) {
  namespace fs = std::filesystem;
  // A fresh temporary (random name, O_EXCL|O_NOFOLLOW, 0600) in the private cache directory: a link planted at a
  // predictable name cannot redirect the write to the link's target.
  const fs::path target(file);
  auto temp = support::CreatePrivateFile(target.parent_path().string(), "." + target.filename().string() + ".tmp.");
  if (!temp) return temp.error();
  const std::string tmp = temp->path;
  FILE* f = ::fdopen(temp->fd, "wb");
  if (!f) {
    ::close(temp->fd);
    ::unlink(tmp.c_str());
    return MakeError(ErrorKind::kInternal, fmt::format("Cannot write the cache file '{}'.", tmp));
  }
  std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
  FileWriter w(f);
  std::vector<char> header(kHeaderSize, 0);
  w.Write(header.data(), header.size());
  struct Out {
    uint64_t offset = 0, size = 0, hash = 0;
  } entries[kSections];
  auto section = [&](SnapshotSection id, auto&& body) {
    w.Align8();
    Out& e = entries[static_cast<size_t>(id)];
    e.offset = w.pos();
    body(e.hash);
    e.size = w.pos() - e.offset;
  };
  section(SnapshotSection::kInfo, [&](uint64_t& hash) {
    Buffer b;
    PutInfo(b, info, tables.coverage);
    w.Record(b.bytes().data(), b.bytes().size(), hash);
  });
  section(SnapshotSection::kStrings, [&](uint64_t& hash) {
    Buffer b;
    const uint64_t n = pool.size();
    b.Put<uint64_t>(n);
    for (uint64_t i = 1; i < n; ++i) {
      const std::string_view s = pool.view(static_cast<StrId>(i));
      b.Put<uint32_t>(static_cast<uint32_t>(s.size()));
      for (char c : s) b.Put<char>(c);
    }
    w.Record(b.bytes().data(), b.bytes().size(), hash);
  });
  section(SnapshotSection::kKernels, [&](uint64_t& h) { WriteTable(w, *tables.kernels, h); });
  section(SnapshotSection::kRuntime, [&](uint64_t& h) { WriteTable(w, *tables.runtime, h); });
  section(SnapshotSection::kMemcpy, [&](uint64_t& h) { WriteTable(w, *tables.memcpys, h); });
  section(SnapshotSection::kMemset, [&](uint64_t& h) { WriteTable(w, *tables.memsets, h); });
  section(SnapshotSection::kSync, [&](uint64_t& h) { WriteTable(w, *tables.syncs, h); });
  section(SnapshotSection::kNvtx, [&](uint64_t& h) { WriteTable(w, *tables.nvtx, h); });
  section(SnapshotSection::kNvtxMarks, [&](uint64_t& h) { WriteTable(w, *tables.nvtx_marks, h); });
  section(SnapshotSection::kOverhead, [&](uint64_t& h) { WriteTable(w, *tables.overhead, h); });
  section(SnapshotSection::kGraphs, [&](uint64_t& h) { WriteTable(w, *tables.graphs, h); });

  Buffer h;
  for (char c : kMagic) h.Put<char>(c);
  h.Put<uint32_t>(kSnapshotFormatVersion);
  h.Put<uint32_t>(static_cast<uint32_t>(kSections));
  h.Put<int64_t>(identity.size), h.Put<int64_t>(identity.mtime_ns), h.Put<int64_t>(identity.ctime_ns);
  h.Put<uint64_t>(identity.inode), h.Put<uint64_t>(identity.device), h.Put<uint64_t>(identity.head_hash);
  h.Put<uint64_t>(identity.sample_hash);
  for (const Out& e : entries) h.Put<uint64_t>(e.offset), h.Put<uint64_t>(e.size), h.Put<uint64_t>(e.hash);
  h.Put<uint64_t>(Hash64(h.bytes().data(), h.bytes().size()));
  bool ok = w.ok() && std::fseek(f, 0, SEEK_SET) == 0 &&
            std::fwrite(h.bytes().data(), 1, h.bytes().size(), f) == h.bytes().size();
  ok = (std::fclose(f) == 0) && ok;
  if (ok && std::rename(tmp.c_str(), file.c_str()) == 0) return {};
  std::remove(tmp.c_str());
  return MakeError(ErrorKind::kInternal, fmt::format("Cannot write the cache file '{}' (disk full?).", file));
}

}  // namespace nsys::engine
