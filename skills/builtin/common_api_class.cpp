#include "common_api_class.h"

#include <array>
#include <string_view>

#include "common_host_sync.h"
#include "nsys/skills/stats.h"

namespace nsys::skills::builtin {
namespace {

struct Family {
  std::string_view prefix;  // the API names that start with it (after the version suffix is dropped)
  ApiClass cls;
};

// From the CUDA Runtime API reference (Memory Management, Stream Ordered Memory Allocator, Library Management,
// Execution Control, Graph Management) and the CUDA Driver API reference (Memory Management, Virtual Memory
// Management, Stream Ordered Memory Allocator, Module and Library Management, Execution Control). A prefix names a
// family: "cudaMalloc" is cudaMalloc, cudaMallocHost, cudaMallocManaged, cudaMallocPitch, cudaMalloc3D,
// cudaMallocArray, cudaMallocAsync and cudaMallocFromPoolAsync. Copies and memsets come before the allocation
// families whose names they share no prefix with; the first matching row wins.
constexpr std::array<Family, 32> kFamilies = {{
    {"cudaMemcpy", ApiClass::kMemcpy},
    {"cuMemcpy", ApiClass::kMemcpy},
    {"cudaMemset", ApiClass::kMemset},
    {"cuMemset", ApiClass::kMemset},
    {"cudaMalloc", ApiClass::kAlloc},
    {"cudaHostAlloc", ApiClass::kAlloc},
    {"cudaHostRegister", ApiClass::kAlloc},
    {"cuMemAlloc", ApiClass::kAlloc},  // cuMemAlloc, cuMemAllocHost, cuMemAllocManaged, cuMemAllocPitch, ...Async
    {"cuMemHostAlloc", ApiClass::kAlloc},
    {"cuMemHostRegister", ApiClass::kAlloc},
    {"cuMemCreate", ApiClass::kAlloc},  // virtual memory management: physical memory, then mapped
    {"cuMemMap", ApiClass::kAlloc},
    {"cuMemAddressReserve", ApiClass::kAlloc},
    {"cuArrayCreate", ApiClass::kAlloc},
    {"cudaFree", ApiClass::kFree},  // cudaFree, cudaFreeHost, cudaFreeArray, cudaFreeAsync, ...
    {"cudaHostUnregister", ApiClass::kFree},
    {"cuMemFree", ApiClass::kFree},  // cuMemFree, cuMemFreeHost, cuMemFreeAsync
    {"cuMemHostUnregister", ApiClass::kFree},
    {"cuMemRelease", ApiClass::kFree},
    {"cuMemUnmap", ApiClass::kFree},
    {"cuMemAddressFree", ApiClass::kFree},
    {"cuArrayDestroy", ApiClass::kFree},
    {"cuModuleLoad", ApiClass::kModule},  // cuModuleLoad, ...Data, ...DataEx, ...FatBinary
    {"cuLibraryLoad", ApiClass::kModule},
    {"cudaLibraryLoad", ApiClass::kModule},
    {"cuLink", ApiClass::kModule},  // cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete
    {"cudaGetDeviceProperties", ApiClass::kSetup},
    {"cuDeviceGetProperties", ApiClass::kSetup},  // the driver's deprecated equivalent
    {"cudaLaunch", ApiClass::kLaunch},            // cudaLaunchKernel, ...ExC, cudaLaunchCooperativeKernel, ...
    {"cuLaunch", ApiClass::kLaunch},
    {"cudaGraphLaunch", ApiClass::kLaunch},
    {"cuGraphLaunch", ApiClass::kLaunch},
}};

}  // namespace

std::string_view ApiClassName(ApiClass c) {
  switch (c) {
    case ApiClass::kSync:
      return "sync";
    case ApiClass::kAlloc:
      return "alloc";
    case ApiClass::kFree:
      return "free";
    case ApiClass::kModule:
      return "module";
    case ApiClass::kSetup:
      return "setup";
    case ApiClass::kLaunch:
      return "launch";
    case ApiClass::kMemcpy:
      return "memcpy";
    case ApiClass::kMemset:
      return "memset";
    case ApiClass::kOther:
      break;
  }
  return "";
}

ApiClass ApiClassOfName(std::string_view api_name) {
  if (HostSyncOfName(api_name) != HostSync::kNone) return ApiClass::kSync;
  const std::string_view base = StripApiVersionSuffix(api_name);
  for (const Family& f : kFamilies) {
    if (base.substr(0, f.prefix.size()) == f.prefix) return f.cls;
  }
  return ApiClass::kOther;
}

}  // namespace nsys::skills::builtin
