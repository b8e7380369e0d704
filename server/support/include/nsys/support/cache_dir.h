#pragma once
#include <string>

#include "nsys/support/expected.h"

namespace nsys::support {

// The directory nsys-ai caches into, decided in this one place for every layer: `configured` when set (--cache-dir,
// OpenOptions::cache_dir), else $XDG_CACHE_HOME/nsys-ai, else ~/.cache/nsys-ai, else $TMPDIR (or /tmp)/nsys-ai-<uid>.
// The engine's snapshots and converted reports, the trace cache (<dir>/exported-traces) and the side channel's
// traces (<dir>/traces) all live under it. Only a path: whoever writes there goes through PrivateDir first.
std::string ResolveCacheDir(const std::string& configured);

// Makes `path` a directory only this user can reach, or says why it cannot be: its missing parents are
// created 0700 (existing ones are left alone: /tmp, $HOME), the directory itself is created with mode 0700, then
// opened without following a symlink and checked: a directory, owned by our effective uid, mode exactly 0700 (a
// wider mode on our own directory is narrowed). Anything else (another user's directory, a symlink, a file) is
// refused (kBadInput) with a message naming the path, its owner and its mode. Returns `path`.
Expected<std::string> PrivateDir(const std::string& path);

// ResolveCacheDir(configured) made private, and its subdirectory `sub` (when not empty) too; returns the latter.
Expected<std::string> PrivateCacheDir(const std::string& configured, const std::string& sub = "");

// A fresh temporary file: "<dir>/<prefix><12 random characters>", created with O_CREAT|O_EXCL|O_NOFOLLOW and mode
// 0600 in `dir` made private first (PrivateDir): nothing planted at a predictable name can be followed or reused.
// The caller writes through `fd`, closes it and renames `path` into place (same directory, same file system).
struct PrivateFile {
  int fd = -1;
  std::string path;
};
Expected<PrivateFile> CreatePrivateFile(const std::string& dir, const std::string& prefix);

}  // namespace nsys::support
