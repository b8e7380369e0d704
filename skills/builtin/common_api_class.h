#pragma once
// What a CUDA runtime or driver API call does, by the section of NVIDIA's API references it belongs to: the Book's
// rules read this class (the api_class column of cuda_api_summary, api_phases and api_in_gaps), not the spellings of
// one API version, so the driver's calls, the runtime's newer and deprecated names and their "_vNNNN", "_v2",
// "_ptsz" forms count with the calls they stand for.
#include <cstdint>
#include <string_view>

namespace nsys::skills::builtin {

enum class ApiClass : uint8_t {
  kOther = 0,
  kSync,    // blocks the host until GPU work completes (common_host_sync.h)
  kAlloc,   // allocates device, host-pinned or managed memory, or maps physical memory
  kFree,    // frees or unmaps it
  kModule,  // loads a module or library, or JIT-links code
  kSetup,   // reads a device's properties (what frameworks do at start-up)
  kLaunch,  // launches a kernel or a graph
  kMemcpy,
  kMemset,
};

// "sync", "alloc", "free", "module", "setup", "launch", "memcpy", "memset"; "" for kOther.
std::string_view ApiClassName(ApiClass c);

// By the call's name, with or without its version suffix.
ApiClass ApiClassOfName(std::string_view api_name);

}  // namespace nsys::skills::builtin
