#pragma once
// Checks on the user's file before SQLite sees it (so that errors name the real problem), and the file
// identity that keys the warm cache. Private to the engine.
#include <cstddef>
#include <cstdint>
#include <string>

#include "nsys/engine/expected.h"

namespace nsys::engine {

// Missing file, directory, unreadable, empty, not SQLite, truncated (shorter than its header says).
Status CheckExportFile(const std::string& path);

struct FileIdentity {
  int64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  uint64_t head_hash = 0;  // hash of the first 1 MB

  bool operator==(const FileIdentity&) const = default;
  // A file-name-safe key: 16 hex digits over all of the above.
  std::string Key() const;
};

Expected<FileIdentity> IdentifyFile(const std::string& path);

// A fast non-cryptographic 64-bit hash (four independent lanes, so it runs near memory speed).
uint64_t Hash64(const void* data, size_t size, uint64_t seed = 0);

}  // namespace nsys::engine
