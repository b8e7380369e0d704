#pragma once
// .nsys-rep reports: converted once with `nsys export --type sqlite` into the cache directory (never next to
// the report), then opened like any export. Private to the engine.
#include <string>
#include <vector>

#include "nsys/engine/cancel.h"
#include "nsys/engine/expected.h"
#include "nsys/engine/profile.h"

namespace nsys::engine {

// The cache directory: options.cache_dir, else $XDG_CACHE_HOME/nsys-ai, else ~/.cache/nsys-ai ("" if unknown).
std::string CacheDir(const OpenOptions& options);

// The argv of the conversion (no shell involved).
std::vector<std::string> NsysExportArgv(const std::string& nsys, const std::string& output, const std::string& report);

// Returns the path of the converted .sqlite (reused when this exact report was converted before). Without
// `nsys`, the error gives the user the command to run themselves. Cancelling kills the conversion.
Expected<std::string> ConvertNsysRep(const std::string& report, const OpenOptions& options,
                                     const ProgressSink& progress, const CancelToken& cancel);

}  // namespace nsys::engine
