#pragma once
// Where a trace may be written, decided in ONE place for `nsys-ai export`, `nsys-ai open` and nsys/exportTrace.
//
// Architecture Invariant: a trace never replaces a profile, nor any file that is not a trace this writer could have
// produced. Refused: an output that is an open (or earlier opened) profile, by device and inode after following
// links (so a symlink or hard link to it is the profile too); anything that is not a regular file (a directory, a
// device such as /dev/null, a FIFO, a socket); a dangling symlink; and an existing non-empty file that does not start
// like our traces (an SQLite database never does), unless `force` (the CLI's --force), which overrides only that
// last case. The file is written beside its resolved target and renamed onto it (never onto a symlink itself),
// after the same checks run once more.
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/support/expected.h"

namespace nsys::trace {

// What "the same file" means whatever path, symlink or hard link reaches it.
struct FileId {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const FileId&) const = default;
};
// Follows links; nullopt when nothing is there.
std::optional<FileId> FileIdOf(const std::string& path);

struct OutputPolicy {
  std::vector<FileId> profiles;  // files never to write: the open and opened profiles (and their conversions)
  bool force = false;            // may replace an existing regular file that is not a trace (nothing else)
};

// A checked output: the path the rename goes to (every symlink resolved) and what was there when checked.
struct OutputTarget {
  std::string requested;
  std::string resolved;
  std::optional<FileId> existing;  // the trace about to be replaced, if any
};

// kInvalidArgument naming why the output is refused ("... is the profile being exported", "... is a character
// device, not a regular file", "... exists and is not a Perfetto trace (use --force ...)"), or the target.
Expected<OutputTarget> CheckTraceOutput(const std::string& path, const OutputPolicy& policy);
// For "-o -": refuses a stdout that is a profile (`>> profile.sqlite`).
Status CheckTraceStream(int fd, const OutputPolicy& policy);

// Whether `head` (a file's first bytes, at least the first packet) starts like a trace this writer produces: a
// TracePacket record (field 1, length-delimited) that decodes cleanly and carries trusted_packet_sequence_id.
bool LooksLikeTrace(std::string_view head);

// Writes a file at a checked target: the bytes go to a temporary file in the target's directory; Commit() checks
// the target again and renames onto it (without replacing anything when nothing was there at the check, and only
// the checked trace otherwise); destruction without Commit() removes the temporary file.
class TraceFileWriter {
 public:
  static Expected<TraceFileWriter> Create(OutputTarget target, OutputPolicy policy);
  TraceFileWriter(TraceFileWriter&& other) noexcept;
  TraceFileWriter& operator=(TraceFileWriter&&) = delete;
  ~TraceFileWriter();
  Status Write(std::string_view chunk);
  Status Commit();
  const std::string& temp_path() const { return temp_; }

 private:
  TraceFileWriter(OutputTarget target, OutputPolicy policy, std::string temp, int fd)
      : target_(std::move(target)), policy_(std::move(policy)), temp_(std::move(temp)), fd_(fd) {}
  OutputTarget target_;
  OutputPolicy policy_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

// Bounds for traces written into the server's cache (nsys/exportTrace without `output`).
struct TraceCacheLimits {
  size_t max_files = 8;                    // this process's traces kept at once (the newest is always kept)
  uint64_t max_bytes = uint64_t{2} << 30;  // and their total size
  std::chrono::seconds max_age{3600};      // older traces go (also those left by processes that died)
};

// The traces a server writes for exportTrace calls without `output`. Each call gets a fresh file; after each write
// the oldest of this process's traces are deleted until at most `max_files` files and `max_bytes` remain (the newest
// always stays), traces older than `max_age` go, and traces left by processes that no longer run are removed.
// Destruction (server stop) removes every trace this object wrote. Thread-safe.
class TraceCache {
 public:
  TraceCache(std::string dir, TraceCacheLimits limits);
  ~TraceCache();
  TraceCache(const TraceCache&) = delete;
  TraceCache& operator=(const TraceCache&) = delete;

  const std::string& dir() const { return dir_; }
  const TraceCacheLimits& limits() const { return limits_; }
  // A fresh path "<stem>.<pid>.<n>.pftrace" in the directory (created, mode 0700).
  Expected<std::string> NewPath(const std::string& stem);
  // Records a finished trace and prunes; returns the paths deleted.
  std::vector<std::string> Added(const std::string& path);

 private:
  struct Kept {
    std::string path;
    uint64_t bytes = 0;
  };
  void SweepStale();  // under mu_

  const std::string dir_;
  const TraceCacheLimits limits_;
  std::mutex mu_;
  std::deque<Kept> kept_;  // oldest first
  uint64_t kept_bytes_ = 0;
  uint64_t counter_ = 0;
};

}  // namespace nsys::trace
