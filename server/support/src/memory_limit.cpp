#include "nsys/support/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace nsys::support {
namespace {

// A v1 group without a limit reads as a huge page-aligned number (LONG_MAX rounded down to a page).
constexpr uint64_t kNoLimitAbove = uint64_t{1} << 60;

uint64_t ReadLimit(const std::string& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  try {
    const uint64_t v = std::stoull(text);
    return v >= kNoLimitAbove ? 0 : v;
  } catch (...) {
    return 0;
  }
}

}  // namespace

uint64_t CgroupMemoryLimit(const std::string& proc_self_cgroup, const std::string& cgroup_root) {
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  uint64_t v1 = 0, v2 = 0;
  while (std::getline(lines, line)) {
    // "hierarchy-id:controllers:path"
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controllers.empty()) {
      v2 = ReadLimit(cgroup_root + path + "/memory.max");
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      v1 = ReadLimit(cgroup_root + "/memory" + path + "/memory.limit_in_bytes");
    }
  }
  if (v1 && v2) return std::min(v1, v2);
  return v1 ? v1 : v2;
}

uint64_t MemoryLimitBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t limit = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  const uint64_t group = CgroupMemoryLimit(text.str(), "/sys/fs/cgroup");
  if (group > 0 && (limit == 0 || group < limit)) limit = group;
  return limit;
}

}  // namespace nsys::support
