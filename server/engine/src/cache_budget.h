#pragma once
// Keeps the snapshot cache ($XDG_CACHE_HOME/nsys-ai) within a size budget: warm snapshots of big exports are
// gigabytes each, and a cache that only grows would eventually fill the user's disk.
#include <cstdint>
#include <string>
#include <vector>

namespace nsys::engine {

// Marks a snapshot as just used (its mtime), so that pruning removes the ones unused longest first.
void TouchSnapshot(const std::string& snapshot_path);

// Deletes the least recently used "*.snap" files in `cache_dir` until the snapshots total at most `budget_bytes`,
// never `keep` (the one just written). Other files (converted .nsys-rep exports, temp files being written) are not
// touched. Returns the paths it deleted; errors (a file vanished, no permission) only skip that file.
std::vector<std::string> PruneSnapshots(const std::string& cache_dir, uint64_t budget_bytes, const std::string& keep);

}  // namespace nsys::engine
