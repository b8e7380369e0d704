// Golden tests of the GPU summary skills. Expected values are NVIDIA's: `nsys stats` 2022.4.2 on the fixture
// (the report and the row are named at each assertion); sums over several nsys rows say so.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(TopKernels, H100TopKernelByNameMatchesNsys) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "top_kernels");
  ASSERT_FALSE(t.declined);
  // gpukernsum lists this kernel in 12 (grid, block) rows; their Total Time sum to 31121662 ns over 248 instances,
  // and all 90 rows sum to 44829522 ns (41 distinct names).
  ASSERT_EQ(t.rows.size(), 41u);
  EXPECT_EQ(StringCell(t, 0, "name"), kGemm64);
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 31121662);
  EXPECT_EQ(IntCell(t, 0, "instances"), 248);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "time_pct"), 69.4);
  EXPECT_EQ(StringCell(t, 0, "short_name"), kGemm64);  // cuBLAS kernels are not templated: same short name
  int64_t total = 0, instances = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    total += IntCell(t, r, "total_time_ns");
    instances += IntCell(t, r, "instances");
  }
  EXPECT_EQ(total, 44829522);
  EXPECT_EQ(instances, 3442);
  EXPECT_NE(JoinNotes(t).find("devices 0, 1"), std::string::npos) << JoinNotes(t);
}

TEST(TopKernels, H100ByLaunchConfigIsGpukernsumRowForRow) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "top_kernels", {{"by_launch_config", Value(true)}});
  ASSERT_EQ(t.rows.size(), 90u);
  // gpukernsum row 1: 28.8,12902673,96,134402.8,134416.0,131777,136865,1416.0,   1   40    3, 128    1    1,<gemm64>
  EXPECT_EQ(StringCell(t, 0, "name"), kGemm64);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "time_pct"), 28.8);
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 12902673);
  EXPECT_EQ(IntCell(t, 0, "instances"), 96);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "avg_ns"), 134402.8);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "med_ns"), 134416.0);
  EXPECT_EQ(IntCell(t, 0, "min_ns"), 131777);
  EXPECT_EQ(IntCell(t, 0, "max_ns"), 136865);
  EXPECT_NEAR(DoubleCell(t, 0, "stddev_ns"), 1416.0, 0.05);
  EXPECT_EQ(StringCell(t, 0, "gridxyz"), "   1   40    3");
  EXPECT_EQ(StringCell(t, 0, "blockxyz"), " 128    1    1");
  // Row 6 has an even count: 8 instances, median 305520.5 (the mean of the two middle values).
  EXPECT_EQ(IntCell(t, 5, "instances"), 8);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 5, "med_ns"), 305520.5);
}

TEST(TopKernels, PerDeviceRowsAddUpToTheNsysTotals) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "top_kernels", {{"per_device", Value(true)}});
  int64_t total = 0, instances = 0;
  std::set<int64_t> devices;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    total += IntCell(t, r, "total_time_ns");
    instances += IntCell(t, r, "instances");
    devices.insert(IntCell(t, r, "device"));
  }
  EXPECT_EQ(total, 44829522);
  EXPECT_EQ(instances, 3442);
  EXPECT_EQ(devices, (std::set<int64_t>{0, 1}));
}

TEST(TopKernels, LimitDeviceAndBase) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(limited, kH100, "top_kernels", {{"limit", Value(int64_t{3})}});
  EXPECT_EQ(limited.rows.size(), 3u);
  EXPECT_NE(JoinNotes(limited).find("first 3 of 41"), std::string::npos);
  NSYS_RUN_SKILL(dev1, kH100, "top_kernels", {{"device", Value(int64_t{1})}});
  int64_t instances = 0;
  for (size_t r = 0; r < dev1.rows.size(); ++r) instances += IntCell(dev1, r, "instances");
  EXPECT_GT(instances, 0);
  EXPECT_LT(instances, 3442);
  EXPECT_NE(JoinNotes(dev1).find("Only device 1."), std::string::npos);
  NSYS_RUN_SKILL(base, "mock.sqlite", "top_kernels", {{"base", Value(true)}});
  ASSERT_EQ(base.rows.size(),
            2u);  // gpukernsum:base on mock: reduce_kernel 2689 ns, vectorized_elementwise_kernel 1440 ns
  EXPECT_EQ(StringCell(base, 0, "name"), "reduce_kernel");
  EXPECT_EQ(IntCell(base, 0, "total_time_ns"), 2689);
  EXPECT_DOUBLE_EQ(DoubleCell(base, 0, "time_pct"), 65.1);
  EXPECT_DOUBLE_EQ(DoubleCell(base, 0, "stddev_ns"), 0.0);  // one instance: nsys prints 0.0
}

TEST(TopKernels, DeclinesWithoutAKernelTable) {
  NSYS_REQUIRE_FIXTURES();
  // nsys: "SKIPPED: titanrtx_tensorrt_nvtx.sqlite does not contain CUDA kernel data."
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "top_kernels");
  EXPECT_TRUE(t.declined);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(JoinNotes(t).find("no CUDA kernel data"), std::string::npos);
}

TEST(CudaApiSummary, H100MatchesCudaapisum) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "cuda_api_summary");
  ASSERT_EQ(t.rows.size(), 10u);
  // cudaapisum row 1: 47.6,856929451,8,107116181.4,6412.5,4946,428468918,198329516.7,cudaStreamSynchronize
  EXPECT_EQ(StringCell(t, 0, "name"), "cudaStreamSynchronize");
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "time_pct"), 47.6);
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 856929451);
  EXPECT_EQ(IntCell(t, 0, "num_calls"), 8);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "avg_ns"), 107116181.4);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "med_ns"), 6412.5);
  EXPECT_EQ(IntCell(t, 0, "min_ns"), 4946);
  EXPECT_EQ(IntCell(t, 0, "max_ns"), 428468918);
  EXPECT_NEAR(DoubleCell(t, 0, "stddev_ns"), 198329516.7, 0.06);
  // Version suffixes: "_v3020" (6 characters) is dropped, "_v11060" and "_v10000" are kept, as nsys does.
  EXPECT_GE(FindRow(t, "name", "cudaLaunchKernelExC_v11060"), 0);
  EXPECT_GE(FindRow(t, "name", "cudaStreamIsCapturing_v10000"), 0);
  const int launch = FindRow(t, "name", "cudaLaunchKernel");
  ASSERT_GE(launch, 0);  // 28.3,509738501,2788,182833.0,5398.0,3350,6243933,938525.2,cudaLaunchKernel
  EXPECT_EQ(IntCell(t, launch, "num_calls"), 2788);
  EXPECT_EQ(IntCell(t, launch, "total_time_ns"), 509738501);
  // sync_kind: the export's 8 synchronization records of syncType 3 (stream) correlate to the 8
  // cudaStreamSynchronize calls; its 236 of syncType 2 (stream wait event) to cudaStreamWaitEvent, which makes a
  // stream wait, not the host.
  EXPECT_EQ(StringCell(t, 0, "sync_kind"), "stream");
  EXPECT_EQ(StringCell(t, launch, "sync_kind"), "");
  // api_class, by NVIDIA's API families.
  EXPECT_EQ(StringCell(t, 0, "api_class"), "sync");
  EXPECT_EQ(StringCell(t, launch, "api_class"), "launch");
  EXPECT_EQ(StringCell(t, FindRow(t, "name", "cudaLaunchKernelExC_v11060"), "api_class"), "launch");
  NSYS_RUN_SKILL(all, kH100, "cuda_api_summary", {{"limit", Value(int64_t{0})}});
  const int wait = FindRow(all, "name", "cudaStreamWaitEvent");
  ASSERT_GE(wait, 0);
  EXPECT_EQ(StringCell(all, wait, "sync_kind"), "");
}

TEST(MemoryTransfers, H100MatchesGpumemtimesumAndGpumemsizesum) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "memory_transfers");
  ASSERT_EQ(t.rows.size(), 4u);
  // gpumemtimesum: 97.9,1841630798,450,4092512.9,2430978.5,768,151750042,10321759.7,[CUDA memcpy HtoD]
  EXPECT_EQ(StringCell(t, 0, "operation"), "[CUDA memcpy HtoD]");
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "time_pct"), 97.9);
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 1841630798);
  EXPECT_EQ(IntCell(t, 0, "count"), 450);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "avg_ns"), 4092512.9);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "med_ns"), 2430978.5);
  EXPECT_EQ(IntCell(t, 0, "min_ns"), 768);
  EXPECT_EQ(IntCell(t, 0, "max_ns"), 151750042);
  // gpumemsizesum (MB = 1e6 bytes): 50950.508,450,113.223,67.109,0.001,4200.595,285.739,[CUDA memcpy HtoD]
  EXPECT_NEAR(DoubleCell(t, 0, "total_bytes") / 1e6, 50950.508, 0.0005);
  EXPECT_NEAR(DoubleCell(t, 0, "avg_bytes") / 1e6, 113.223, 0.0005);
  EXPECT_NEAR(DoubleCell(t, 0, "med_bytes") / 1e6, 67.109, 0.0005);
  EXPECT_NEAR(DoubleCell(t, 0, "max_bytes") / 1e6, 4200.595, 0.0005);
  EXPECT_NEAR(DoubleCell(t, 0, "stddev_bytes") / 1e6, 285.739, 0.0005);
  // 50950.508 MB in 1841630798 ns: 27.67 GB/s.
  EXPECT_NEAR(DoubleCell(t, 0, "bandwidth_gb_s"), 50950.508e6 / 1841630798.0, 0.001);
  // gpumemtimesum: 0.0,29216,22,1328.0,1312.0,1056,1504,106.2,[CUDA memset]
  const int memset = FindRow(t, "operation", "[CUDA memset]");
  ASSERT_GE(memset, 0);
  EXPECT_EQ(IntCell(t, memset, "total_time_ns"), 29216);
  EXPECT_EQ(IntCell(t, memset, "count"), 22);

  // by=size orders as gpumemsizesum: DtoD 59368.473 MB, HtoD, memset, DtoH.
  NSYS_RUN_SKILL(s, kH100, "memory_transfers", {{"by", Value(std::string("size"))}});
  ASSERT_EQ(s.rows.size(), 4u);
  EXPECT_EQ(StringCell(s, 0, "operation"), "[CUDA memcpy DtoD]");
  EXPECT_NEAR(DoubleCell(s, 0, "total_bytes") / 1e6, 59368.473, 0.0005);
  EXPECT_EQ(StringCell(s, 1, "operation"), "[CUDA memcpy HtoD]");
  EXPECT_EQ(StringCell(s, 2, "operation"), "[CUDA memset]");
  EXPECT_EQ(StringCell(s, 3, "operation"), "[CUDA memcpy DtoH]");
}

TEST(MemoryTransfers, DeclinesWithoutMemoryTables) {
  NSYS_REQUIRE_FIXTURES();
  // nsys: "SKIPPED: v100_julia.sqlite does not contain GPU memory data."
  NSYS_RUN_SKILL(t, "v100_julia.sqlite", "memory_transfers");
  EXPECT_TRUE(t.declined);
}

TEST(KernelLaunchOverhead, H100MatchesKernexecsum) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "kernel_launch_overhead");
  ASSERT_EQ(t.rows.size(), 82u);  // kernexecsum prints 82 rows
  // Row 1: 111,111,0,1,1,428522505.0,...,5393.0,...,428515672.0,...,1440.0,...,cudaLaunchKernel,<CompareEq kernel>
  EXPECT_EQ(IntCell(t, 0, "pid"), 111);
  EXPECT_EQ(IntCell(t, 0, "tid"), 111);
  EXPECT_EQ(IntCell(t, 0, "devid"), 0);
  EXPECT_EQ(IntCell(t, 0, "count"), 1);
  EXPECT_EQ(IntCell(t, 0, "qcount"), 1);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "tavg_ns"), 428522505.0);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "aavg_ns"), 5393.0);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "qavg_ns"), 428515672.0);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "kavg_ns"), 1440.0);
  EXPECT_EQ(StringCell(t, 0, "api_name"), "cudaLaunchKernel");
  EXPECT_EQ(StringCell(t, 0, "kernel_name"),
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::BinaryFunctor<float, float, bool, "
            "at::native::<unnamed>::CompareEqFunctor<float>>, std::array<char *, (unsigned long)3>>(int, T2, T3)");
  // Row 2: count 2, TStdDev 45057.6, AMin 4917, QMax 428539735.
  EXPECT_EQ(IntCell(t, 1, "count"), 2);
  EXPECT_NEAR(DoubleCell(t, 1, "tstddev_ns"), 45057.6, 0.06);
  EXPECT_EQ(IntCell(t, 1, "amin_ns"), 4917);
  EXPECT_EQ(IntCell(t, 1, "qmax_ns"), 428539735);
  // 1810 of the 3442 kernels have no runtime row in this cut window (nvtxkernsum's "None" rows count them).
  EXPECT_NE(JoinNotes(t).find("1632 of 3442 kernels"), std::string::npos) << JoinNotes(t);
}

}  // namespace
}  // namespace nsys::testing
