// Rules read what the export classifies, not one spelling of a name (issue 42, "rules that read NVIDIA's own
// classifications"). Each case takes a real export of ../shared/fixtures/realworld, copies it into a private temporary
// folder and gives one of its events another real name for the same thing, as an export from another CUDA version,
// language or library would record it; the Book must still say the expert's first thing. The copies are derived at
// test time, never committed, and the fixtures themselves are never written.
//
// The same-meaning names come from NVIDIA's documentation: cudaThreadSynchronize is the deprecated name of
// cudaDeviceSynchronize (CUDA Runtime API, "Thread Management [DEPRECATED]": "This function is deprecated because its
// name does not reflect its behavior... cudaDeviceSynchronize() ... should be used instead"), and cuCtxSynchronize is
// the driver API's call for the same wait; nsys records each with CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (its syncType,
// ENUM_CUPTI_SYNC_TYPE) correlated to the call.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "analyze_file.h"
#include "derived_export.h"
#include "fixtures.h"
#include "nsys/agent/analyze.h"
#include "nsys/agent/answer.h"

namespace nsys::agent {
namespace {

using testing::DerivedExport;

using testing::AnalyzeFile;

// A program that synchronizes after every GEMM (the expert: "every GEMM is followed by a cudaDeviceSynchronize (512
// calls)"), its 512 syncs spelled as an older or a driver-API program spells them.
struct SyncSpelling {
  const char* name;    // the call's name in the derived export
  const char* source;  // where that spelling comes from
};

class SyncAfterEveryKernel : public ::testing::TestWithParam<SyncSpelling> {};

TEST_P(SyncAfterEveryKernel, IsTheFirstFindingWhateverTheSyncIsCalled) {
  NSYS_REQUIRE_FIXTURES();
  const SyncSpelling& s = GetParam();
  DerivedExport copy(
      "realworld/rtx4060ti_pytorch_llama_infer_sim.sqlite",
      {fmt::format("UPDATE StringIds SET value = '{}' WHERE value = 'cudaDeviceSynchronize_v3020'", s.name)});
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_FALSE(a->findings.empty());
  const Finding& first = a->findings.front();
  EXPECT_EQ(first.root_cause, "sync_after_every_kernel") << s.source << "; first finding: " << first.title;
  // The title names the call as cuda_api_summary groups it: without nsys's "_vNNNN" suffix.
  std::string name = s.name;
  if (const size_t v = name.rfind("_v"); v != std::string::npos) name.resize(v);
  EXPECT_NE(first.title.find("512 " + name + " calls"), std::string::npos) << first.title;
}

INSTANTIATE_TEST_SUITE_P(
    RenamedEvents, SyncAfterEveryKernel,
    ::testing::Values(SyncSpelling{"cudaDeviceSynchronize_v3020", "the export as captured"},
                      SyncSpelling{"cudaThreadSynchronize_v3020", "the deprecated runtime name (CUDA < 4.0 programs)"},
                      SyncSpelling{"cuCtxSynchronize", "the driver API's context sync (JAX/XLA, CUDA Fortran)"},
                      // A name no list holds (a wrapper library's, or an API newer than this build): only the
                      // CUPTI synchronization records that nsys correlated to each call say what it did.
                      SyncSpelling{"vendorRuntimeWaitAll", "a name known only through its sync records"}),
    [](const ::testing::TestParamInfo<SyncSpelling>& info) {
      std::string n = info.param.name;
      for (char& c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return n;
    });

// The first finding of a rule on a derived export, or nullptr.
const Finding* FindingOf(const Analysis& a, const std::string& root_cause) {
  for (const Finding& f : a.findings) {
    if (f.root_cause == root_cause) return &f;
  }
  return nullptr;
}

// Allocation through the driver's virtual memory management calls, as PyTorch's expandable segments and other
// pooling allocators do (CUDA Driver API, "Virtual Memory Management": cuMemCreate allocates physical memory,
// cuMemRelease frees it): the 201 cudaMalloc and 201 cudaFree calls inside this export's GPU idle gaps, spelled so,
// are still allocator pauses.
TEST(RenamedEvents, AllocatorPausesThroughVirtualMemoryManagementCalls) {
  NSYS_REQUIRE_FIXTURES();
  DerivedExport copy("realworld/rtx2080ti_cufcm_cufft.sqlite",
                     {"UPDATE StringIds SET value = 'cuMemCreate' WHERE value = 'cudaMalloc_v3020'",
                      "UPDATE StringIds SET value = 'cuMemRelease' WHERE value = 'cudaFree_v3020'"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  const Finding* f = FindingOf(*a, "allocator_pauses");
  ASSERT_NE(f, nullptr) << "no allocator_pauses finding";
  EXPECT_NE(f->title.find("most of it cuMemRelease in pid 3014736"), std::string::npos) << f->title;
  EXPECT_NE(f->answer.summary.find("cuMemRelease: 328.2 ms over 201 gaps"), std::string::npos) << f->answer.summary;
}

// MPI calls as nsys's MPI trace records them: NVTX ranges in its own domain "MPI" (the saxpy export's rank 0, whose
// expert reading puts its 889.7 ms in MPI first), whatever the calls are named: the Fortran bindings' lower-case
// names (mpi_send_, mpi_recv_, ...), as a Fortran program's trace would show them.
TEST(RenamedEvents, HostTimeInMpiThroughTheMpiDomain) {
  NSYS_REQUIRE_FIXTURES();
  DerivedExport copy("realworld/a100_mpi_cuda_saxpy_rank0.sqlite",
                     {"UPDATE StringIds SET value = lower(value) || '_' WHERE value IN ('MPI_Init', 'MPI_Send', "
                      "'MPI_Recv', 'MPI_Finalize')"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_FALSE(a->findings.empty());
  EXPECT_EQ(a->findings.front().root_cause, "host_time_in_mpi") << a->findings.front().title;
  EXPECT_NE(a->findings.front().title.find("889.7 ms in MPI calls"), std::string::npos) << a->findings.front().title;
}

// Loading modules through the runtime's library API (CUDA 12: cudaLibraryLoadData loads a fatbin or PTX as
// cuModuleLoadFatBinary does): the capture of 344 such loads is still start-up-dominated.
TEST(RenamedEvents, StartUpThroughTheRuntimeLibraryApi) {
  NSYS_REQUIRE_FIXTURES();
  DerivedExport copy("realworld/gtx1650_keras_tf_darknet53.sqlite",
                     {"UPDATE StringIds SET value = 'cudaLibraryLoadData' WHERE value = 'cuModuleLoadFatBinary'"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_FALSE(a->findings.empty());
  EXPECT_EQ(a->findings.front().root_cause, "startup_dominated") << a->findings.front().title;
  EXPECT_NE(a->findings.front().title.find("344 cudaLibraryLoadData calls"), std::string::npos)
      << a->findings.front().title;
}

// A launch configuration read from the export's own record of it (blockX x blockY x blockZ), whatever the kernel is
// called: the cuFCM export's top kernel (cufcm_pair_correction_spatial_hashing_tpp, 100 launches, 7.538 s of a 14 s
// span) launched with 16-thread blocks instead of its 32 leaves half of every warp idle. As captured, only the cuFFT
// vector_fft kernels run 16-thread blocks, 153.7 ms (about 1% of the span): no finding.
TEST(RenamedEvents, BlocksSmallerThanAWarpWhateverTheKernel) {
  NSYS_REQUIRE_FIXTURES();
  auto as_captured = AnalyzeFile(testing::Fixture("realworld/rtx2080ti_cufcm_cufft.sqlite"));
  ASSERT_TRUE(as_captured) << as_captured.error().message;
  EXPECT_EQ(FindingOf(*as_captured, "sub_warp_blocks"), nullptr);
  DerivedExport copy("realworld/rtx2080ti_cufcm_cufft.sqlite",
                     {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET blockX = 16, blockY = 1, blockZ = 1 WHERE shortName = "
                      "(SELECT id FROM StringIds WHERE value = 'cufcm_pair_correction_spatial_hashing_tpp')"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  const Finding* f = FindingOf(*a, "sub_warp_blocks");
  ASSERT_NE(f, nullptr) << "no sub_warp_blocks finding";
  EXPECT_EQ(f->title, "Blocks smaller than a warp: cufcm_pair_correction_spatial_hashing_tpp runs 16-thread blocks");
  EXPECT_NE(
      f->answer.summary.find("Each warp fills 16 of its 32 lanes; the kernel takes 54% of GPU 0's span (100 calls, "
                             "7538.3 ms)"),
      std::string::npos)
      << f->answer.summary;
}

}  // namespace
}  // namespace nsys::agent
