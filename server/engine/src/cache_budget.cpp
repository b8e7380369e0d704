#include "cache_budget.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace nsys::engine {

namespace fs = std::filesystem;

void TouchSnapshot(const std::string& snapshot_path) {
  std::error_code ec;
  fs::last_write_time(snapshot_path, fs::file_time_type::clock::now(), ec);  // best effort: a read-only cache is fine
}

std::vector<std::string> PruneSnapshots(const std::string& cache_dir, uint64_t budget_bytes, const std::string& keep) {
  struct Snapshot {
    fs::path path;
    uint64_t bytes;
    fs::file_time_type used;
  };
  std::vector<Snapshot> snapshots;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(cache_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.extension() != ".snap" || !it->is_regular_file(ec)) continue;
    std::error_code size_ec, time_ec;
    const uint64_t bytes = it->file_size(size_ec);
    const fs::file_time_type used = it->last_write_time(time_ec);
    if (size_ec || time_ec) continue;
    total += bytes;
    snapshots.push_back({path, bytes, used});
  }
  std::sort(snapshots.begin(), snapshots.end(), [](const Snapshot& a, const Snapshot& b) { return a.used < b.used; });
  std::vector<std::string> deleted;
  const fs::path kept = fs::path(keep).lexically_normal();
  for (const Snapshot& s : snapshots) {
    if (total <= budget_bytes) break;
    if (s.path.lexically_normal() == kept) continue;
    std::error_code remove_ec;
    if (fs::remove(s.path, remove_ec)) {
      total -= s.bytes;
      deleted.push_back(s.path.string());
    }
  }
  return deleted;
}

}  // namespace nsys::engine
