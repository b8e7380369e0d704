// The one place that decides whether a trace may be written to a path, and the file writer that keeps to it.
#include "nsys/trace/trace_output.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include "nsys/support/cache_dir.h"
#include "nsys/trace/protobuf.h"

namespace nsys::trace {
namespace {

namespace fs = std::filesystem;

constexpr size_t kHeadBytes = 64 * 1024;  // our first packet (sequence flags, interned names) is well under 1 KB
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
constexpr std::string_view kReportMagic = "NVIDIA Tegra Profiler Report";  // .nsys-rep / .qdrep

Error Refuse(const std::string& path, const std::string& why) {
  return MakeError(ErrorKind::kInvalidArgument, fmt::format("Refusing to write the trace to '{}': {}.", path, why));
}

FileId IdOfStat(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

bool IsProfile(const FileId& id, const OutputPolicy& policy) {
  return std::find(policy.profiles.begin(), policy.profiles.end(), id) != policy.profiles.end();
}

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) != nullptr ? std::string(buf) : std::string();
}

// The first bytes of a regular file, read without blocking (the caller checked it is regular).
Expected<std::string> ReadHead(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return MakeError(ErrorKind::kInvalidArgument, std::strerror(errno));
  std::string head(kHeadBytes, '\0');
  size_t got = 0;
  while (got < head.size()) {
    const ssize_t n = ::read(fd, head.data() + got, head.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  head.resize(got);
  return head;
}

// Checks what exists at `resolved` (a path without symlinks). `label` names it in messages.
Status CheckExisting(const std::string& label, const std::string& resolved, const struct stat& st,
                     const OutputPolicy& policy) {
  if (IsProfile(IdOfStat(st), policy)) {
    return Refuse(label, "it is a profile opened in this session (a trace never replaces a profile)");
  }
  if (!S_ISREG(st.st_mode)) return Refuse(label, fmt::format("it is {}, not a regular file", KindOf(st.st_mode)));
  if (st.st_size == 0) return {};  // nothing to lose (e.g. a file made by mktemp)
  auto head = ReadHead(resolved);
  if (!head) {
    return Refuse(label,
                  fmt::format("it exists and cannot be read to check that it is a trace ({})", head.error().message));
  }
  if (LooksLikeTrace(*head)) return {};
  const bool sqlite = head->compare(0, kSqliteMagic.size(), kSqliteMagic) == 0;
  const bool report = head->compare(0, kReportMagic.size(), kReportMagic) == 0;
  if (sqlite || report) {
    // Never, not even with --force: it may well be a profile that is simply not open right now.
    return Refuse(label, fmt::format("it is {}, not a Perfetto trace (a trace never replaces a profile)",
                                     sqlite ? "an SQLite database" : "an Nsight Systems report"));
  }
  if (policy.force) return {};
  return Refuse(label,
                "it exists and is not a Perfetto trace; choose another path or remove the file first "
                "(`nsys-ai export --force` replaces it)");
}

}  // namespace

std::optional<FileId> FileIdOf(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return IdOfStat(st);
}

bool LooksLikeTrace(std::string_view head) {
  ProtoDecoder trace(head);
  ProtoField packet;
  // Only the first record: `head` may end inside a later one.
  if (!trace.Next(packet) || packet.number != 1 || packet.type != WireType::kLengthDelimited) return false;
  ProtoDecoder fields(packet.bytes);
  ProtoField field;
  bool has_sequence = false;
  while (fields.Next(field)) {
    if (field.number == 10 && field.type == WireType::kVarint && field.value != 0) has_sequence = true;
  }
  return fields.error() == nullptr && has_sequence;
}

Expected<OutputTarget> CheckTraceOutput(const std::string& path, const OutputPolicy& policy) {
  if (path.empty()) return MakeError(ErrorKind::kInvalidArgument, "The trace output path is empty.");
  OutputTarget target;
  target.requested = path;
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) != 0) {
    if (errno != ENOENT) return Refuse(path, std::strerror(errno));
    // A new file: its directory must exist; resolve it so the rename lands where the path points.
    const fs::path p(path);
    const std::string parent = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    const std::string dir = RealPath(parent);
    struct stat dst {};
    if (dir.empty() || ::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode)) {
      return Refuse(path, fmt::format("its directory '{}' does not exist", parent));
    }
    if (!p.has_filename() || p.filename() == "." || p.filename() == "..") return Refuse(path, "it names no file");
    target.resolved = (fs::path(dir) / p.filename()).string();
    return target;
  }
  target.resolved = RealPath(path);
  if (target.resolved.empty()) {
    return Refuse(path, S_ISLNK(lst.st_mode) ? "it is a symlink to a file that does not exist" : std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(target.resolved.c_str(), &st) != 0) return Refuse(path, std::strerror(errno));
  // Messages name the link and where it leads: "'out.pftrace' → '/data/p.sqlite'".
  const std::string label = S_ISLNK(lst.st_mode) ? path + "' → '" + target.resolved : path;
  if (Status ok = CheckExisting(label, target.resolved, st, policy); !ok.ok()) return ok.error();
  target.existing = IdOfStat(st);
  return target;
}

Status CheckTraceStream(int fd, const OutputPolicy& policy) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && IsProfile(IdOfStat(st), policy)) {
    return Refuse("stdout", "it is a profile opened in this session (a trace never replaces a profile)");
  }
  return {};
}

// ---- TraceFileWriter ----

Expected<TraceFileWriter> TraceFileWriter::Create(OutputTarget target, OutputPolicy policy) {
  const fs::path resolved(target.resolved);
  // Hidden, in the target's directory: the rename stays on one file system and never crosses a link.
  std::string temp = (resolved.parent_path() / ("." + resolved.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("Cannot create the trace file next to '{}': {}.",
                                                              target.requested, std::strerror(errno)));
  }
  // A new trace stays 0600 as mkstemp made it (traces describe the user's runs, so other users must not read them);
  // one that replaces a file keeps that file's mode, as an editor saving over it would.
  struct stat old {};
  if (::stat(target.resolved.c_str(), &old) == 0 && S_ISREG(old.st_mode)) ::fchmod(fd, old.st_mode & 0777);
  return TraceFileWriter(std::move(target), std::move(policy), std::move(temp), fd);
}

TraceFileWriter::TraceFileWriter(TraceFileWriter&& other) noexcept
    : target_(std::move(other.target_)),
      policy_(std::move(other.policy_)),
      temp_(std::move(other.temp_)),
      fd_(std::exchange(other.fd_, -1)),
      committed_(std::exchange(other.committed_, true)) {}

TraceFileWriter::~TraceFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

Status TraceFileWriter::Write(std::string_view chunk) {
  while (!chunk.empty()) {
    const ssize_t n = ::write(fd_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return MakeError(ErrorKind::kInternal, fmt::format("Writing '{}' failed: {}.", temp_, std::strerror(errno)));
    }
    chunk.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

// Why the checks run again: a long export leaves time for the target to change (a profile moved or linked there,
// a FIFO made). RENAME_NOREPLACE and RENAME_EXCHANGE close the last gap where the file system has them.
Status TraceFileWriter::Commit() {
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    return MakeError(ErrorKind::kInternal, fmt::format("Closing '{}' failed: {}.", temp_, std::strerror(errno)));
  }
  const char* to = target_.resolved.c_str();
  struct stat st {};
  if (::lstat(to, &st) != 0) {
    if (errno != ENOENT) return Refuse(target_.requested, std::strerror(errno));
    if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, to, RENAME_NOREPLACE) == 0) {
      committed_ = true;
      return {};
    }
    if (errno == EEXIST) return Refuse(target_.requested, "a file appeared there while the trace was written");
    if (errno != EINVAL && errno != ENOSYS) {
      return MakeError(ErrorKind::kInternal,
                       fmt::format("Cannot move the trace to '{}': {}.", target_.requested, std::strerror(errno)));
    }
    // The file system has no RENAME_NOREPLACE: a plain rename right after the check.
  } else {
    if (S_ISLNK(st.st_mode)) return Refuse(target_.requested, "a symlink appeared there while the trace was written");
    if (Status ok = CheckExisting(target_.requested, target_.resolved, st, policy_); !ok.ok()) return ok;
    if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, to, RENAME_EXCHANGE) == 0) {
      // The old file now sits at the temporary name: remove it only when it is what was checked.
      struct stat old {};
      if (::lstat(temp_.c_str(), &old) == 0 && IdOfStat(old) == IdOfStat(st)) {
        ::unlink(temp_.c_str());
        committed_ = true;
        return {};
      }
      ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, to, RENAME_EXCHANGE);  // swap back
      return Refuse(target_.requested, "the file changed while the trace was written");
    }
    if (errno != EINVAL && errno != ENOSYS) {
      return MakeError(ErrorKind::kInternal,
                       fmt::format("Cannot move the trace to '{}': {}.", target_.requested, std::strerror(errno)));
    }
  }
  if (::rename(temp_.c_str(), to) != 0) {
    return MakeError(ErrorKind::kInternal,
                     fmt::format("Cannot move the trace to '{}': {}.", target_.requested, std::strerror(errno)));
  }
  committed_ = true;
  return {};
}

// ---- TraceCache ----

namespace {

// "<stem>.<pid>.<n>.pftrace" → pid, or 0 when the name is not one of ours.
pid_t WriterPid(const std::string& name) {
  constexpr std::string_view kExt = ".pftrace";
  if (name.size() <= kExt.size() || name.compare(name.size() - kExt.size(), kExt.size(), kExt) != 0) return 0;
  const std::string base = name.substr(0, name.size() - kExt.size());
  const size_t counter_dot = base.rfind('.');
  if (counter_dot == std::string::npos || counter_dot == 0) return 0;
  const size_t pid_dot = base.rfind('.', counter_dot - 1);
  if (pid_dot == std::string::npos) return 0;
  const std::string pid = base.substr(pid_dot + 1, counter_dot - pid_dot - 1);
  if (pid.empty() || pid.size() > 9 || !std::all_of(pid.begin(), pid.end(), ::isdigit)) return 0;
  return static_cast<pid_t>(std::atol(pid.c_str()));
}

}  // namespace

TraceCache::TraceCache(std::string dir, TraceCacheLimits limits) : dir_(std::move(dir)), limits_(limits) {}

TraceCache::~TraceCache() {
  std::lock_guard lock(mu_);
  for (const Kept& kept : kept_) ::unlink(kept.path.c_str());
}

Expected<std::string> TraceCache::NewPath(const std::string& stem) {
  // Traces of the user's profiles are the user's: the directory (and the cache above it) are this user's, 0700.
  if (auto parent = support::PrivateDir(fs::path(dir_).parent_path().string()); !parent) return parent.error();
  if (auto made = support::PrivateDir(dir_); !made) return made.error();
  std::lock_guard lock(mu_);
  return (fs::path(dir_) / fmt::format("{}.{}.{}.pftrace", stem.empty() ? "profile" : stem, ::getpid(), ++counter_))
      .string();
}

std::vector<std::string> TraceCache::Added(const std::string& path) {
  std::vector<std::string> deleted;
  struct stat st {};
  std::lock_guard lock(mu_);
  if (::stat(path.c_str(), &st) == 0) {
    kept_.push_back({path, static_cast<uint64_t>(st.st_size)});
    kept_bytes_ += static_cast<uint64_t>(st.st_size);
  }
  while (kept_.size() > 1 && (kept_.size() > limits_.max_files || kept_bytes_ > limits_.max_bytes)) {
    ::unlink(kept_.front().path.c_str());
    deleted.push_back(kept_.front().path);
    kept_bytes_ -= kept_.front().bytes;
    kept_.pop_front();
  }
  SweepStale();
  return deleted;
}

void TraceCache::SweepStale() {
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const pid_t pid = WriterPid(name);
    std::error_code entry_ec;
    if (pid == 0 || !it->is_regular_file(entry_ec)) continue;
    const bool ours = pid == ::getpid();
    const bool dead = !ours && ::kill(pid, 0) != 0 && errno == ESRCH;
    const auto written = it->last_write_time(entry_ec);
    const bool old = !entry_ec && now - written > limits_.max_age;
    if (!dead && !old) continue;
    if (ours) {
      if (kept_.size() <= 1 || kept_.back().path == it->path().string()) continue;  // the newest stays
      auto kept =
          std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.path == it->path().string(); });
      if (kept == kept_.end()) continue;
      kept_bytes_ -= kept->bytes;
      kept_.erase(kept);
    }
    fs::remove(it->path(), entry_ec);
  }
}

}  // namespace nsys::trace
