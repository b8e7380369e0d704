// The CUDA API classes the Book's rules read (skills/builtin/common_api_class.h): each family by its runtime and
// driver names, newer and deprecated spellings and suffixes included, and the names that only look alike.
#include <gtest/gtest.h>

#include <string_view>

#include "../../skills/builtin/common_api_class.h"

namespace nsys::skills::builtin {
namespace {

TEST(ApiClass, RuntimeAndDriverNamesOfEachFamily) {
  struct Case {
    std::string_view name;
    ApiClass cls;
  };
  const Case cases[] = {
      {"cudaDeviceSynchronize_v3020", ApiClass::kSync},
      {"cudaThreadSynchronize", ApiClass::kSync},
      {"cuStreamSynchronize", ApiClass::kSync},
      {"cudaMalloc_v3020", ApiClass::kAlloc},
      {"cudaMallocManaged", ApiClass::kAlloc},
      {"cudaMallocAsync_v11020", ApiClass::kAlloc},
      {"cudaHostAlloc", ApiClass::kAlloc},
      {"cuMemAlloc_v2", ApiClass::kAlloc},
      {"cuMemHostAlloc", ApiClass::kAlloc},
      {"cuMemCreate", ApiClass::kAlloc},
      {"cuMemMap", ApiClass::kAlloc},
      {"cudaFree_v3020", ApiClass::kFree},
      {"cudaFreeHost", ApiClass::kFree},
      {"cudaFreeAsync_v11020", ApiClass::kFree},
      {"cuMemFree_v2", ApiClass::kFree},
      {"cuMemRelease", ApiClass::kFree},
      {"cuMemUnmap", ApiClass::kFree},
      {"cudaHostUnregister", ApiClass::kFree},
      {"cuModuleLoadFatBinary", ApiClass::kModule},
      {"cuModuleLoadDataEx", ApiClass::kModule},
      {"cuLibraryLoadData", ApiClass::kModule},
      {"cudaLibraryLoadData", ApiClass::kModule},
      {"cuLinkCreate_v2", ApiClass::kModule},
      {"cudaGetDeviceProperties_v2_v12000", ApiClass::kSetup},
      {"cudaLaunchKernel_v7000", ApiClass::kLaunch},
      {"cudaLaunchKernelExC_v11060", ApiClass::kLaunch},
      {"cuLaunchKernel", ApiClass::kLaunch},
      {"cudaGraphLaunch_v10000", ApiClass::kLaunch},
      {"cudaMemcpyAsync_v3020", ApiClass::kMemcpy},
      {"cuMemcpyHtoDAsync_v2", ApiClass::kMemcpy},
      {"cudaMemsetAsync", ApiClass::kMemset},
      {"cuMemsetD8_v2", ApiClass::kMemset},
      // Alike in name only.
      {"cudaMemPrefetchAsync", ApiClass::kOther},
      {"cudaStreamWaitEvent", ApiClass::kOther},
      {"cudaEventRecord", ApiClass::kOther},
      {"cuModuleGetFunction", ApiClass::kOther},
      {"cudaGetDevice", ApiClass::kOther},
      {"", ApiClass::kOther},
  };
  for (const Case& c : cases) EXPECT_EQ(ApiClassOfName(c.name), c.cls) << c.name;
  EXPECT_EQ(ApiClassName(ApiClass::kAlloc), "alloc");
  EXPECT_EQ(ApiClassName(ApiClass::kOther), "");
}

}  // namespace
}  // namespace nsys::skills::builtin
