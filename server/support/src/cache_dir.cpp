#include "nsys/support/cache_dir.h"

#include <unistd.h>

#include <cstdlib>

namespace nsys::support {

std::string ResolveCacheDir(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/nsys-ai";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/nsys-ai";
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/nsys-ai-" + std::to_string(::getuid());
}

}  // namespace nsys::support
