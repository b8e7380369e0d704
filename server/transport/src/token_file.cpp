#include "nsys/transport/token_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "nsys/support/cache_dir.h"

namespace nsys::transport {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// Creates the missing directories of `dir` with mode 0700 (existing ones are left as they are), then requires that
// nobody else may replace a file in `dir`: ours and writable by no one else, or sticky.
Status PrepareDirectory(const std::filesystem::path& dir) {
  std::filesystem::path walked;
  for (const auto& part : dir) {
    walked /= part;
    if (::mkdir(walked.c_str(), 0700) != 0 && errno != EEXIST) {
      return MakeError(ErrorKind::kBadInput,
                       fmt::format("cannot create the token directory {}: {}", walked.string(), std::strerror(errno)));
    }
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return MakeError(ErrorKind::kBadInput, fmt::format("the token directory {} is not a directory", dir.string()));
  }
  // A sticky directory such as /tmp is fine too: others may write there but cannot remove or rename our file.
  const bool private_dir = st.st_uid == ::geteuid() && (st.st_mode & 0022) == 0;
  if (!private_dir && (st.st_mode & S_ISVTX) == 0) {
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("the token directory {} must belong to this user and be writable by no one else, "
                                 "or be sticky like /tmp (mode {:o}); choose another with --token-file",
                                 dir.string(), st.st_mode & 07777));
  }
  return {};
}

}  // namespace

Expected<std::string> NewToken() {
  unsigned char bytes[32];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return MakeError(ErrorKind::kInternal, fmt::format("getrandom failed: {}", std::strerror(errno)));
    got += static_cast<size_t>(n);
  }
  std::string hex;
  hex.reserve(2 * sizeof bytes);
  for (unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  return hex;
}

std::string DefaultTokenPath(uint16_t port) {
  const std::string name = fmt::format("serve-{}.token", port);
  const std::string runtime = Env("XDG_RUNTIME_DIR");
  std::error_code ec;
  if (!runtime.empty() && std::filesystem::is_directory(runtime, ec)) {
    return (std::filesystem::path(runtime) / "nsys-ai" / name).string();
  }
  std::filesystem::path cache = Env("XDG_CACHE_HOME");
  if (cache.empty()) cache = std::filesystem::path(Env("HOME")) / ".cache";
  return (cache / "nsys-ai" / "run" / name).string();
}

Status TokenFile::Write(const std::string& path, const std::string& token) {
  Remove();
  const std::filesystem::path file = std::filesystem::absolute(path);
  // The default directory is nsys-ai's own: this user's with mode 0700, nothing else, so no other local user can read
  // the token or plant a file in its place. A --token-file elsewhere keeps the rule for a user-chosen place (ours and
  // writable by no one else, or sticky).
  const std::filesystem::path default_dir = std::filesystem::absolute(DefaultTokenPath(0)).parent_path();
  if (file.parent_path() == default_dir) {
    if (default_dir.filename() == "run") {  // <cache>/nsys-ai/run: the cache directory is private too
      if (auto cache = support::PrivateDir(default_dir.parent_path().string()); !cache) return cache.error();
    }
    if (auto dir = support::PrivateDir(default_dir.string()); !dir) return dir.error();
  } else if (auto status = PrepareDirectory(file.parent_path()); !status) {
    return status;
  }
  // Fresh: whatever is there (a stale token, a link someone planted) goes, and O_EXCL|O_NOFOLLOW never follows.
  if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("cannot replace the token file {}: {}", file.string(), std::strerror(errno)));
  }
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("cannot create the token file {}: {}", file.string(), std::strerror(errno)));
  }
  const std::string text = token + "\n";
  bool ok = ::fchmod(fd, 0600) == 0;  // whatever the umask
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  const int saved = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(file.c_str());
    return MakeError(ErrorKind::kBadInput,
                     fmt::format("cannot write the token file {}: {}", file.string(), std::strerror(saved)));
  }
  path_ = file.string();
  return {};
}

void TokenFile::Remove() {
  if (path_.empty()) return;
  ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace nsys::transport
