// Golden test of tensor_core_use: every group's count and time equal SQL over the fixture that selects the same
// kernels by the library's naming convention (written here, independently of the decoder's table).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis_test_sql.h"
#include "skill_test_util.h"

namespace nsys::testing {
namespace {

// The row of (device, category, precision, tensor_cores), or -1.
int RowOf(const skills::Table& t, int64_t device, const std::string& category, const std::string& precision,
          const std::string& tensor_cores) {
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (IntCell(t, r, "device_id") == device && StringCell(t, r, "category") == category &&
        StringCell(t, r, "precision") == precision && StringCell(t, r, "tensor_cores") == tensor_cores) {
      return static_cast<int>(r);
    }
  }
  return -1;
}

struct Expect {
  int64_t kernels, ns;
};
Expect FromSql(const FixtureSql& sql, int device, const std::string& where) {
  const std::string from =
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE k.deviceId = " +
      std::to_string(device) + " AND (" + where + ")";
  return {sql.Int("SELECT count(*) " + from), sql.Int("SELECT sum(k.[end] - k.start) " + from)};
}

void ExpectGroup(const skills::Table& t, const FixtureSql& sql, int device, const std::string& category,
                 const std::string& precision, const std::string& tc, const std::string& where) {
  SCOPED_TRACE(category + "/" + precision + "/" + tc + " on device " + std::to_string(device));
  const int r = RowOf(t, device, category, precision, tc);
  ASSERT_GE(r, 0);
  const Expect e = FromSql(sql, device, where);
  ASSERT_GT(e.kernels, 0);
  EXPECT_EQ(IntCell(t, r, "kernels"), e.kernels);
  EXPECT_EQ(IntCell(t, r, "gpu_ns"), e.ns);
  const int64_t device_ns =
      sql.Int("SELECT sum([end] - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(device));
  EXPECT_NEAR(DoubleCell(t, r, "share"), static_cast<double>(e.ns) / static_cast<double>(device_ns), 1e-12);
}

TEST(TensorCoreUse, MfuBeforeFlashAttentionAndNvjetOnTensorCores) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "tensor_core_use");
  ASSERT_FALSE(t.declined);
  FixtureSql sql("mfu_2gpu_before.sqlite");
  for (int device : {0, 1}) {
    ExpectGroup(t, sql, device, "attention", "bf16", "yes", "s.value LIKE 'void flash::flash_fwd_kernel<%'");
    ExpectGroup(t, sql, device, "gemm", "bf16", "yes", "s.value LIKE 'nvjet_tst_%'");
    ExpectGroup(t, sql, device, "collective", "", "no", "s.value LIKE 'ncclDevKernel_%'");
  }
  // Shares of one device add up to 1: every kernel is in exactly one group.
  std::map<int64_t, double> share;
  for (size_t r = 0; r < t.rows.size(); ++r) share[IntCell(t, r, "device_id")] += DoubleCell(t, r, "share");
  for (const auto& [device, s] : share) EXPECT_NEAR(s, 1.0, 1e-9) << device;
  EXPECT_NE(JoinNotes(t).find("no GPU details"), std::string::npos) << JoinNotes(t);
}

TEST(TensorCoreUse, H100Fp32GemmsRunOnCudaCores) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "tensor_core_use");
  FixtureSql sql("h100_2gpu_1s.sqlite");
  for (int device : {0, 1}) {
    ExpectGroup(t, sql, device, "gemm", "fp32", "no",
                "(s.value LIKE 'sm80_xmma_gemm_f32f32%' AND s.value LIKE '%_ffma_%') OR s.value LIKE 'ampere_sgemm_%'");
  }
  EXPECT_EQ(RowOf(t, 0, "gemm", "fp32", "yes"), -1);
}

TEST(TensorCoreUse, A100NotesComputeCapabilityAndFp32GemmTime) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "tensor_core_use");
  FixtureSql sql("a100_2proc_mpi.sqlite");
  // fp64 on tensor cores: CUTLASS's DMMA kernels and cuBLAS's xmma fp64 kernels with an MMA shape.
  ExpectGroup(t, sql, 0, "gemm", "fp64", "yes",
              "s.value LIKE 'void cutlass::Kernel<cutlass_80_tensorop_d884gemm%' OR "
              "(s.value LIKE 'sm80_xmma_gemm_f64%' AND s.value LIKE '%_tensor8x8x4_%')");
  // fp32 on CUDA cores: SIMT sgemm and the split-K reductions of fp32 GEMMs.
  const std::string fp32_gemms =
      "s.value LIKE 'ampere_sgemm_%' OR s.value LIKE 'void splitKreduce_kernel<(int)32, (int)16, int, float,%'";
  ExpectGroup(t, sql, 0, "gemm", "fp32", "no", fp32_gemms);
  const std::string notes = JoinNotes(t);
  EXPECT_NE(notes.find("NVIDIA A100-PCIE-40GB) has compute capability 8.0"), std::string::npos) << notes;
  const Expect fp32 = FromSql(sql, 0, fp32_gemms);
  EXPECT_NE(notes.find(fmt::format("{:.3f} us of fp32 GEMMs ran on CUDA cores", fp32.ns / 1000.0)), std::string::npos)
      << notes;
}

TEST(TensorCoreUse, DeclinesWithoutKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "tensor_core_use");
  EXPECT_TRUE(t.declined);
  EXPECT_NE(JoinNotes(t).find("no CUDA kernel data"), std::string::npos);
}

TEST(TensorCoreUse, HonoursTheDeviceFilter) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "mfu_2gpu_before.sqlite", "tensor_core_use", {{"device", Value(int64_t{1})}});
  ASSERT_FALSE(t.rows.empty());
  for (size_t r = 0; r < t.rows.size(); ++r) EXPECT_EQ(IntCell(t, r, "device_id"), 1);
}

}  // namespace
}  // namespace nsys::testing
