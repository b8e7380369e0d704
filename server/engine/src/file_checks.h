#pragma once
// Checks on the user's file before SQLite sees it (so that errors name the real problem), and the file
// identity that keys the warm cache. Private to the engine.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nsys/support/expected.h"

namespace nsys::engine {

// Missing file, directory, unreadable, empty, not SQLite, truncated (shorter than its header says). A name that
// says report (HasReportName) but bytes that are neither a report nor SQLite are refused as "not a report".
Status CheckExportFile(const std::string& path);

// The first bytes of every Nsight Systems report, .nsys-rep and .qdrep alike (the version tag follows).
inline constexpr std::string_view kReportMagic = "NVIDIA Tegra Profiler Report ";
// Does the file start with kReportMagic? A report is recognised by its bytes, whatever its name.
bool IsNsysReport(const std::string& path);
// Is the file named like a report: *.nsys-rep, or *.qdrep (what Nsight Systems wrote until 2021.1)?
bool HasReportName(std::string_view path);

// What keys the warm snapshot. mtime, size and inode can all be preserved by an in-place rewrite
// (`rsync --inplace -t`, `cp --preserve` over the old file); ctime cannot be set by a user (every write, chmod,
// rename or utimensat moves it to now), and the sampled pages catch a rewrite on file systems whose ctime is coarse.
struct FileIdentity {
  int64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  uint64_t head_hash = 0;    // hash of the first 1 MB (the SQLite header, schema and first pages)
  uint64_t sample_hash = 0;  // hash of kSampledBlocks blocks of 4 KiB spread evenly across the file

  bool operator==(const FileIdentity&) const = default;
  // A file-name-safe key: 16 hex digits over all of the above.
  std::string Key() const;
};

inline constexpr int kSampledBlocks = 16;
Expected<FileIdentity> IdentifyFile(const std::string& path);

// A fast non-cryptographic 64-bit hash (four independent lanes, so it runs near memory speed).
uint64_t Hash64(const void* data, size_t size, uint64_t seed = 0);

}  // namespace nsys::engine
