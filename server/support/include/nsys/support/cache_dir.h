#pragma once
#include <string>

namespace nsys::support {

// The directory nsys-ai caches into, decided in this one place for every layer: `configured` when set (--cache-dir,
// OpenOptions::cache_dir), else $XDG_CACHE_HOME/nsys-ai, else ~/.cache/nsys-ai, else $TMPDIR (or /tmp)/nsys-ai-<uid>.
// The engine's snapshots and converted reports, the trace cache (<dir>/exported-traces) and the side channel's
// traces (<dir>/traces) all live under it.
std::string ResolveCacheDir(const std::string& configured);

}  // namespace nsys::support
