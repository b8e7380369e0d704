#include "nsys/support/cache_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace nsys::support {
namespace {

Error DirError(const std::string& path, const std::string& why) {
  return MakeError(ErrorKind::kBadInput,
                   fmt::format("Refusing the directory '{}': {}. nsys-ai writes its caches and state only into a "
                               "directory of this user's with mode 0700 (remove it, or choose another place, e.g. with "
                               "XDG_CACHE_HOME).",
                               path, why));
}

// mkdir of every missing ancestor of `path`, mode 0700; existing ones stay as they are.
void MakeParents(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return;  // the final mkdir reports the failure
  }
}

}  // namespace

std::string ResolveCacheDir(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/nsys-ai";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/nsys-ai";
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/nsys-ai-" + std::to_string(::getuid());
}

Expected<std::string> PrivateDir(const std::string& given) {
  std::string path = given;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty()) return DirError(given, "the path is empty");
  MakeParents(path);
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return DirError(path, std::strerror(errno));
  // The checks and the chmod go through one descriptor opened without following a link: what is checked is what
  // is fixed, whatever is renamed in between.
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) return DirError(path, "it is a symbolic link");
    if (err == ENOTDIR) return DirError(path, "it is not a directory");
    return DirError(path, std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return DirError(path, std::strerror(err));
  }
  if (st.st_uid != ::geteuid()) {
    ::close(fd);
    return DirError(path, fmt::format("it belongs to uid {}, not to this user (uid {}), and has mode {:04o}", st.st_uid,
                                      ::geteuid(), st.st_mode & 07777));
  }
  if ((st.st_mode & S_ISVTX) != 0) {  // a shared directory such as /tmp is never narrowed, even when root owns it
    ::close(fd);
    return DirError(path, fmt::format("it is a shared (sticky) directory, mode {:04o}", st.st_mode & 07777));
  }
  if ((st.st_mode & 07777) != 0700 && ::fchmod(fd, 0700) != 0) {
    const int err = errno;
    ::close(fd);
    return DirError(
        path, fmt::format("its mode is {:04o} and cannot be made 0700: {}", st.st_mode & 07777, std::strerror(err)));
  }
  ::close(fd);
  return path;
}

Expected<std::string> PrivateCacheDir(const std::string& configured, const std::string& sub) {
  auto root = PrivateDir(ResolveCacheDir(configured));
  if (!root || sub.empty()) return root;
  return PrivateDir(*root + "/" + sub);
}

Expected<PrivateFile> CreatePrivateFile(const std::string& dir, const std::string& prefix) {
  auto checked = PrivateDir(dir);
  if (!checked) return checked.error();
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned char bytes[12];
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) continue;
    std::string path = *checked + "/" + prefix;
    for (unsigned char b : bytes) path += kChars[b % (sizeof kChars - 1)];
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::fchmod(fd, 0600);  // whatever the umask did
      return PrivateFile{fd, std::move(path)};
    }
    if (errno != EEXIST) {
      return MakeError(ErrorKind::kInternal,
                       fmt::format("Cannot create a temporary file in '{}': {}.", *checked, std::strerror(errno)));
    }
  }
  return MakeError(ErrorKind::kInternal,
                   fmt::format("Cannot create a temporary file in '{}': every name was taken.", *checked));
}

}  // namespace nsys::support
