#include "nsys_rep.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <utility>

#include "file_checks.h"
#include "nsys/support/cache_dir.h"

namespace nsys::engine {
namespace {

namespace fs = std::filesystem;

// Resolves `name` like execvp would: as given when it has a slash, else through $PATH.
std::string FindExecutable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string Stem(const std::string& report) {
  std::string name = fs::path(report).filename().string();
  if (HasReportName(name)) name.resize(name.rfind('.'));
  return name;
}

// The last "NN%" that nsys's progress bar printed, or -1.
double LastPercent(const std::string& out) {
  for (size_t i = out.size(); i-- > 0;) {
    if (out[i] != '%') continue;
    size_t j = i;
    while (j > 0 && std::isdigit(static_cast<unsigned char>(out[j - 1]))) --j;
    if (j < i && i - j <= 3) return std::atof(out.substr(j, i - j).c_str());
  }
  return -1;
}

std::string LastLines(const std::string& out, int lines) {
  size_t pos = out.size();
  while (pos > 0 && (out[pos - 1] == '\n' || out[pos - 1] == '\r')) --pos;
  size_t start = pos;
  for (int n = 0; n < lines && start > 0; ++n) {
    start = out.rfind('\n', start - 1);
    if (start == std::string::npos) {
      start = 0;
      break;
    }
  }
  std::string tail = out.substr(start, pos - start);
  while (!tail.empty() && (tail.front() == '\n' || tail.front() == '\r')) tail.erase(tail.begin());
  return tail;
}

void KillGroup(pid_t child) {
  kill(-child, SIGTERM);
  for (int i = 0; i < 50; ++i) {  // up to 1 s for a clean exit, then SIGKILL
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) return;
    usleep(20000);
  }
  kill(-child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
}

struct ChildRun {
  int status = 0;      // as from waitpid
  std::string output;  // stdout and stderr, the last 16 to 64 KB
  bool timed_out = false;
};

// Runs `args` (no shell) in its own process group, stdin from /dev/null, stdout and stderr captured, until it exits,
// `cancel` fires (kCancelled; the group is killed) or `timeout` passes (the group is killed, timed_out set).
// `on_tick` sees the output so far about every 100 ms.
Expected<ChildRun> RunChild(const std::vector<std::string>& args, const CancelToken& cancel,
                            std::chrono::milliseconds timeout,
                            const std::function<void(const std::string&)>& on_tick = {}) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0)
    return MakeError(ErrorKind::kInternal, fmt::format("pipe() failed: {}.", std::strerror(errno)));
  // Descriptors the child must not keep (a listening socket, clients' connections): all from 3 up are closed in it.
  const long open_max = sysconf(_SC_OPEN_MAX);
  const int last_fd = open_max > 0 && open_max < (1 << 20) ? static_cast<int>(open_max) : (1 << 20);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    return MakeError(ErrorKind::kInternal, fmt::format("fork() failed: {}.", std::strerror(errno)));
  }
  if (child == 0) {  // only async-signal-safe calls from here
    setpgid(0, 0);   // its own group, so cancelling also stops nsys's helper processes
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    umask(077);  // what nsys writes into our cache is the user's data: 0600, like every file of ours there
    if (close_range(3, ~0U, 0) != 0) {  // a kernel before 5.9: one by one
      for (int fd = 3; fd < last_fd; ++fd) close(fd);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipefd[1]);
  setpgid(child, child);
  ChildRun run;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool exited = false;
  bool pipe_open = true;
  while (!exited) {
    if (cancel.cancelled() || std::chrono::steady_clock::now() > deadline) {
      close(pipefd[0]);
      KillGroup(child);
      if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "cancelled");
      run.timed_out = true;
      return run;
    }
    if (pipe_open) {
      pollfd p{pipefd[0], POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char buf[4096];
        const ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n > 0) {
          run.output.append(buf, static_cast<size_t>(n));
          if (run.output.size() > 65536) run.output.erase(0, run.output.size() - 16384);
        } else if (n == 0) {
          pipe_open = false;
        }
      }
    } else {
      usleep(50000);
    }
    if (waitpid(child, &run.status, WNOHANG) == child) exited = true;
    if (on_tick) on_tick(run.output);
  }
  // Drain what is left in the pipe for the error message.
  char buf[4096];
  ssize_t n;
  while (pipe_open && (n = read(pipefd[0], buf, sizeof buf)) > 0) run.output.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  return run;
}

bool IsExecutableFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string Resolved(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  return ec ? path : canonical.string();
}

// Asks `nsys --version` once per binary (by path, size and mtime) per process: a second or so each.
std::optional<NsysVersion> VersionOf(const std::string& nsys) {
  static std::mutex mu;
  static std::map<std::string, std::optional<NsysVersion>> known;
  struct stat st {};
  if (stat(nsys.c_str(), &st) != 0) return std::nullopt;
  const std::string key =
      fmt::format("{}\n{}\n{}", nsys, st.st_size, st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
  {
    std::lock_guard lock(mu);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::optional<NsysVersion> version;
  auto run = RunChild({nsys, "--version"}, CancelToken(), std::chrono::seconds(20));
  if (run && !run->timed_out && WIFEXITED(run->status) && WEXITSTATUS(run->status) == 0) {
    version = ParseNsysVersionOutput(run->output);
  }
  std::lock_guard lock(mu);
  if (known.size() > 256) known.clear();
  known[key] = version;
  return version;
}

std::string DescribeCandidates(const std::vector<NsysCandidate>& candidates) {
  std::string out;
  for (const auto& c : candidates) {
    out += fmt::format("\n  {} ({})", c.path, c.version ? c.version->text : "version unknown");
  }
  return out;
}

std::string ConvertYourselfHint(const std::string& report) {
  return fmt::format("  nsys export --type sqlite -o {1}.sqlite {0}\nand open {1}.sqlite instead.", report,
                     Stem(report));
}

// The plain answer to "nsys is older than the report".
Error TooNewError(const std::string& report, const NsysVersion& writer, const std::string& nsys,
                  const std::string& nsys_version, bool chosen) {
  return MakeError(
      ErrorKind::kBadInput,
      fmt::format("'{0}' was written by Nsight Systems {1}, and the {2} nsys ({3}, Nsight Systems {4}) is older, so "
                  "it cannot read the report. Install Nsight Systems {1} or newer (it is found in the standard "
                  "install locations and on PATH; otherwise pass --nsys PATH, or initializationOptions.nsysPath), "
                  "or convert the report where it was captured:\n{5}",
                  report, writer.text, chosen ? "chosen" : "newest", nsys, nsys_version, ConvertYourselfHint(report)));
}

}  // namespace

int NsysVersion::Compare(const NsysVersion& other) const {
  for (size_t i = 0; i < 3; ++i) {
    const int a = i < parts.size() ? parts[i] : 0;
    const int b = i < other.parts.size() ? other.parts[i] : 0;
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

std::optional<NsysVersion> ParseReportHeader(std::string_view head) {
  if (head.substr(0, kReportMagic.size()) != kReportMagic) return std::nullopt;
  head.remove_prefix(kReportMagic.size());
  const size_t end = head.find('.');
  if (end == std::string_view::npos || end == 0 || end > 64) return std::nullopt;
  const std::string_view tag = head.substr(0, end);
  NsysVersion version;
  version.text = std::string(tag);
  if (tag.find('@') == std::string_view::npos) return version;  // the old format: no writer version
  // "2024@6@2@25-246234924588v0": year@release@patch@build.
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    int v = 0;
    const auto [p, ec] = std::from_chars(tag.data() + pos, tag.data() + tag.size(), v);
    if (ec != std::errc() || p == tag.data() + pos) return version;
    version.parts.push_back(v);
    pos = static_cast<size_t>(p - tag.data());
    if (pos < tag.size() && tag[pos] == '@') ++pos;
  }
  version.text = fmt::format("{}.{}.{}", version.parts[0], version.parts[1], version.parts[2]);
  return version;
}

namespace {

// Reads exactly `n` bytes at `offset`, or fails.
bool ReadAt(int fd, int64_t offset, size_t n, std::string& out) {
  out.assign(n, '\0');
  size_t done = 0;
  while (done < n) {
    const ssize_t r = pread(fd, out.data() + done, n - done, static_cast<off_t>(offset + static_cast<int64_t>(done)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    done += static_cast<size_t>(r);
  }
  return true;
}

// A protobuf reader over untrusted bytes: every read is bounds-checked, and any error ends the walk.
class ProtoReader {
 public:
  explicit ProtoReader(std::string_view bytes) : rest_(bytes) {}
  // The next field: its number and wire type; a length-delimited field's bytes go to `bytes`, a varint to `value`.
  bool Next(uint32_t& field, int& type, std::string_view& bytes, uint64_t& value) {
    if (rest_.empty()) return false;
    uint64_t key = 0;
    if (!Varint(key)) return false;
    field = static_cast<uint32_t>(key >> 3);
    type = static_cast<int>(key & 7);
    switch (type) {
      case 0:
        return Varint(value);
      case 1:
      case 5: {
        const size_t n = type == 1 ? 8 : 4;
        if (rest_.size() < n) return false;
        rest_.remove_prefix(n);
        return true;
      }
      case 2: {
        uint64_t n = 0;
        if (!Varint(n) || n > rest_.size()) return false;
        bytes = rest_.substr(0, n);
        rest_.remove_prefix(n);
        return true;
      }
      default:
        return false;  // groups and unknown types never occur in these records
    }
  }

 private:
  bool Varint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64 && !rest_.empty(); shift += 7) {
      const auto byte = static_cast<unsigned char>(rest_.front());
      rest_.remove_prefix(1);
      out |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  std::string_view rest_;
};

constexpr std::string_view kFooterMagic = "U3w[END]";
constexpr size_t kMaxSectionTable = 64 * 1024;
constexpr size_t kMaxSessionRecord = 1024 * 1024;

// Where the section named `name` lies, from the table of sections; nullopt when it is absent or out of the file.
std::optional<std::pair<int64_t, size_t>> FindSection(std::string_view table, std::string_view name,
                                                      int64_t file_size) {
  ProtoReader toc(table);
  uint32_t field = 0;
  int type = 0;
  std::string_view entry;
  uint64_t value = 0;
  while (toc.Next(field, type, entry, value)) {
    if (field != 1 || type != 2) continue;
    ProtoReader fields(entry);
    std::string_view entry_name, bytes;
    uint64_t offset = 0, size = 0;
    bool has_offset = false, has_size = false;
    uint32_t f = 0;
    int t = 0;
    while (fields.Next(f, t, bytes, value)) {
      if (f == 1 && t == 2) entry_name = bytes;
      if (f == 2 && t == 0) offset = value, has_offset = true;
      if (f == 3 && t == 0) size = value, has_size = true;
    }
    if (entry_name != name || !has_offset || !has_size) continue;
    if (offset > static_cast<uint64_t>(file_size) || size > static_cast<uint64_t>(file_size) - offset)
      return std::nullopt;
    return std::make_pair(static_cast<int64_t>(offset), static_cast<size_t>(size));
  }
  return std::nullopt;
}

}  // namespace

std::optional<NsysVersion> ParseWriterVersion(std::string_view text) {
  NsysVersion version;
  size_t pos = 0;
  while (pos < text.size() && version.parts.size() < 4) {
    int v = 0;
    const auto [p, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), v);
    if (ec != std::errc() || p == text.data() + pos) break;
    version.parts.push_back(v);
    pos = static_cast<size_t>(p - text.data());
    if (pos < text.size() && text[pos] == '.')
      ++pos;
    else
      break;
  }
  if (version.parts.size() < 3 || version.parts[0] < 2000) return std::nullopt;
  for (size_t i = 0; i < version.parts.size(); ++i) version.text += fmt::format("{}{}", i ? "." : "", version.parts[i]);
  return version;
}

std::optional<NsysVersion> ReadSessionVersion(const std::string& report) {
  const int fd = open(report.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const int64_t size = st.st_size;
  // The footer: the table's offset and the magic, within the last 64 bytes (a newline or two may follow).
  const int64_t tail_at = std::max<int64_t>(0, size - 64);
  std::string tail;
  if (!ReadAt(fd, tail_at, static_cast<size_t>(size - tail_at), tail)) return std::nullopt;
  const size_t magic = tail.rfind(kFooterMagic);
  if (magic == std::string::npos || magic < 8) return std::nullopt;
  uint64_t table_at = 0;
  for (int i = 7; i >= 0; --i) table_at = (table_at << 8) | static_cast<unsigned char>(tail[magic - 8 + i]);
  const int64_t table_end = tail_at + static_cast<int64_t>(magic) - 8;
  if (table_at >= static_cast<uint64_t>(table_end) || static_cast<uint64_t>(table_end) - table_at > kMaxSectionTable)
    return std::nullopt;
  std::string table;
  if (!ReadAt(fd, static_cast<int64_t>(table_at), static_cast<size_t>(table_end - static_cast<int64_t>(table_at)),
              table))
    return std::nullopt;
  const auto section = FindSection(table, "UI Data", size);
  if (!section || section->second > kMaxSessionRecord) return std::nullopt;
  std::string record;
  if (!ReadAt(fd, section->first, section->second, record)) return std::nullopt;
  ProtoReader fields(record);
  uint32_t field = 0;
  int type = 0;
  std::string_view bytes;
  uint64_t value = 0;
  std::optional<NsysVersion> found;
  while (fields.Next(field, type, bytes, value)) {
    if (type != 2 || (field != 6 && field != 7 && field != 21)) continue;
    if (auto v = ParseWriterVersion(bytes)) {
      if (field == 6) return v;
      if (!found) found = v;
    }
  }
  return found;
}

std::optional<NsysVersion> ReportWriter(const std::string& report) {
  std::ifstream in(report, std::ios::binary);
  std::string head(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  std::optional<NsysVersion> version = ParseReportHeader(head);
  if (!version || !version->parts.empty()) return version;
  if (auto session = ReadSessionVersion(report)) return session;
  return version;
}

std::optional<NsysVersion> ParseNsysVersionOutput(std::string_view output) {
  constexpr std::string_view kWord = "version ";
  const size_t at = output.find(kWord);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = output.substr(at + kWord.size());
  NsysVersion version;
  size_t pos = 0;
  while (pos < rest.size() && version.parts.size() < 4) {
    int v = 0;
    const auto [p, ec] = std::from_chars(rest.data() + pos, rest.data() + rest.size(), v);
    if (ec != std::errc() || p == rest.data() + pos) break;
    version.parts.push_back(v);
    pos = static_cast<size_t>(p - rest.data());
    if (pos < rest.size() && rest[pos] == '.')
      ++pos;
    else
      break;
  }
  if (version.parts.size() < 3) return std::nullopt;
  version.text = fmt::format("{}.{}.{}", version.parts[0], version.parts[1], version.parts[2]);
  if (version.parts.size() > 3) version.text += fmt::format(".{}", version.parts[3]);
  return version;
}

const std::vector<std::string>& StandardNsysLocations() {
  static const std::vector<std::string> patterns = {
      "/opt/nvidia/nsight-systems/*/bin/nsys",
      "/opt/nvidia/nsight-systems-cli/*/bin/nsys",
      "/opt/nvidia/nsight-systems-cli/*/target-linux-*/nsys",
      "/usr/local/cuda*/bin/nsys",
      "/usr/local/cuda*/nsight-systems-*/bin/nsys",
      "/usr/lib/nsight-systems/bin/nsys",
      "/usr/lib/nsight-systems-*/bin/nsys",
  };
  return patterns;
}

std::vector<NsysCandidate> FindNsysCandidates(const std::vector<std::string>& patterns) {
  std::vector<std::string> paths;
  if (std::string on_path = FindExecutable("nsys"); !on_path.empty()) paths.push_back(on_path);
  for (const std::string& pattern : patterns) {
    glob_t found{};
    if (glob(pattern.c_str(), GLOB_NOSORT, nullptr, &found) == 0) {
      for (size_t i = 0; i < found.gl_pathc; ++i) paths.emplace_back(found.gl_pathv[i]);
    }
    globfree(&found);
  }
  std::vector<NsysCandidate> candidates;
  std::vector<std::string> seen;
  for (const std::string& path : paths) {
    if (!IsExecutableFile(path)) continue;
    const std::string real = Resolved(path);
    if (std::find(seen.begin(), seen.end(), real) != seen.end()) continue;
    seen.push_back(real);
    candidates.push_back({path, VersionOf(path)});
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const NsysCandidate& a, const NsysCandidate& b) {
    if (a.version && b.version) return a.version->Compare(*b.version) > 0;
    return a.version.has_value() && !b.version.has_value();
  });
  return candidates;
}

Expected<std::string> ChooseNsys(const std::string& report, const OpenOptions& options) {
  const std::optional<NsysVersion> writer = ReportWriter(report);
  const bool writer_known = writer && !writer->parts.empty();
  if (!options.nsys_binary.empty()) {  // the user's choice: no search, but the same plain answer when it is too old
    const std::string nsys = FindExecutable(options.nsys_binary);
    if (nsys.empty()) {
      return MakeError(ErrorKind::kNotFound,
                       fmt::format("'{0}' is an Nsight Systems report; reading it needs the Nsight "
                                   "Systems CLI `{1}`, which {2}. Convert it yourself with:\n{3}",
                                   report, options.nsys_binary,
                                   options.nsys_binary.find('/') == std::string::npos ? "was not found on PATH"
                                                                                      : "is not an executable file",
                                   ConvertYourselfHint(report)));
    }
    if (writer_known) {
      if (auto version = VersionOf(nsys); version && version->Compare(*writer) < 0) {
        return TooNewError(report, *writer, nsys, version->text, true);
      }
    }
    return nsys;
  }
  const auto candidates =
      FindNsysCandidates(options.nsys_search.empty() ? StandardNsysLocations() : options.nsys_search);
  if (candidates.empty()) {
    return MakeError(ErrorKind::kNotFound,
                     fmt::format("'{0}' is an Nsight Systems report; reading it needs the Nsight Systems "
                                 "CLI `nsys`, which was not found on PATH nor in the standard install locations "
                                 "(/opt/nvidia/nsight-systems*, /usr/local/cuda*, /usr/lib/nsight-systems). Pass "
                                 "--nsys PATH (or initializationOptions.nsysPath), or convert it yourself with:\n{1}",
                                 report, ConvertYourselfHint(report)));
  }
  const NsysCandidate& newest = candidates.front();
  if (writer_known && newest.version && newest.version->Compare(*writer) < 0) {
    Error e = TooNewError(report, *writer, newest.path, newest.version->text, false);
    if (candidates.size() > 1) e.message += "\nnsys found here:" + DescribeCandidates(candidates);
    return e;
  }
  return newest.path;
}

std::vector<std::string> NsysExportArgv(const std::string& nsys, const std::string& output, const std::string& report) {
  // A relative path that starts with '-' ("-h.nsys-rep") would reach nsys as an option: "./" keeps it a path.
  return {nsys, "export", "--type", "sqlite", "--output", output, report.starts_with('-') ? "./" + report : report};
}

namespace {

// Where a conversion goes: always the cache directory (the user's directory is never written), named by the
// report's identity so an unchanged report is converted once.
struct ConversionPaths {
  std::string out;      // the finished export
  std::string partial;  // what nsys writes, renamed onto `out` only when it succeeded
};

Expected<ConversionPaths> PathsFor(const std::string& report, const OpenOptions& options) {
  struct stat st {};
  if (stat(report.c_str(), &st) != 0)
    return MakeError(ErrorKind::kNotFound, fmt::format("No such file: '{}'.", report));
  if (!S_ISREG(st.st_mode)) return MakeError(ErrorKind::kBadInput, fmt::format("'{}' is not a regular file.", report));
  auto identity = IdentifyFile(report);
  if (!identity) return identity.error();
  // The cache directory, only if this user's and 0700: nsys writes the partial export there by a predictable name,
  // which no other user may create first or read.
  auto private_dir = support::PrivateCacheDir(options.cache_dir);
  if (!private_dir) return private_dir.error();
  const std::string& dir = *private_dir;
  return ConversionPaths{fmt::format("{}/{}.sqlite", dir, identity->Key()),
                         fmt::format("{}/{}.{}.partial.sqlite", dir, identity->Key(), getpid())};
}

// Reports nsys's own percentage, at most twice a second.
std::function<void(const std::string&)> ExportTicker(const std::string& report, const ProgressSink& progress) {
  const auto started = std::chrono::steady_clock::now();
  return
      [report, progress, started, last_report = started - std::chrono::seconds(1)](const std::string& output) mutable {
        const auto now = std::chrono::steady_clock::now();
        if (!progress || now - last_report < std::chrono::milliseconds(500)) return;
        last_report = now;
        const double pct = LastPercent(output);
        const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now - started).count();
        progress(pct < 0 ? 0.0 : pct, fmt::format("nsys export {} ({} s)", Stem(report), secs));
      };
}

// Why `nsys export` produced no export, in nsys's words where they are known.
Error ExportFailed(const std::string& report, const std::string& nsys, const ChildRun& run, bool exited_ok,
                   const OpenOptions& options) {
  // nsys's own words for a report newer than itself (ChooseNsys normally caught this before the run), or a failure
  // of an nsys older than the report's known writer (2022.4.2 throws a ProtobufParseException at a 2023.1 report).
  const auto known = ReportWriter(report);
  const auto version = VersionOf(nsys);
  const bool older = known && !known->parts.empty() && version && version->Compare(*known) < 0;
  if (older || run.output.find("Version number is invalid") != std::string::npos) {
    NsysVersion writer;
    writer.text = "a newer release";
    if (known && !known->parts.empty()) writer = *known;
    return TooNewError(report, writer, nsys, version ? version->text : "version unknown", !options.nsys_binary.empty());
  }
  const int status = run.status;
  const std::string how = WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                            : fmt::format("signal {}", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return MakeError(ErrorKind::kBadInput,
                   fmt::format("`nsys export` ({}) could not convert '{}' ({}{}). Its last output:\n{}", nsys, report,
                               how, exited_ok ? ", and it wrote no output file" : "", LastLines(run.output, 8)));
}

}  // namespace

Expected<std::string> ConvertNsysRep(const std::string& report, const OpenOptions& options,
                                     const ProgressSink& progress, const CancelToken& cancel) {
  auto paths = PathsFor(report, options);
  if (!paths) return paths.error();
  if (CheckExportFile(paths->out).ok()) return paths->out;  // converted before: no nsys needed
  auto nsys = ChooseNsys(report, options);
  if (!nsys) return nsys.error();
  std::error_code ec;
  fs::remove(paths->partial, ec);
  auto run = RunChild(NsysExportArgv(*nsys, paths->partial, report), cancel, std::chrono::hours(24),
                      ExportTicker(report, progress));
  if (!run) {
    fs::remove(paths->partial, ec);
    if (run.error().kind == ErrorKind::kCancelled)
      return MakeError(ErrorKind::kCancelled, fmt::format("Converting '{}' was cancelled.", report));
    return run.error();
  }
  const bool exited_ok = !run->timed_out && WIFEXITED(run->status) && WEXITSTATUS(run->status) == 0;
  if (!exited_ok || !fs::exists(paths->partial)) {
    fs::remove(paths->partial, ec);
    return ExportFailed(report, *nsys, *run, exited_ok, options);
  }
  // 0600 whatever modes nsys chose for its output.
  fs::permissions(paths->partial, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
  fs::rename(paths->partial, paths->out, ec);
  if (ec)
    return MakeError(ErrorKind::kInternal,
                     fmt::format("Cannot move the converted export to '{}': {}.", paths->out, ec.message()));
  if (progress) progress(100.0, fmt::format("converted {}", Stem(report)));
  return paths->out;
}

}  // namespace nsys::engine
