// mfu: the formula of the analysis guide (MFU = tokens/s x (6N + 12·L·H·Q·T) / (n_gpu x dense peak)) evaluated
// by hand here, the peak table's numbers, and the declines the guide asks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(Mfu, A100FromTokensPerSecond) {
  NSYS_REQUIRE_FIXTURES();
  // a100_2proc_mpi: "NVIDIA A100-PCIE-40GB" (312 dense BF16 TFLOP/s), one device.
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "mfu", {{"params", Value(1e9)}, {"tokens_per_s", Value(20000.0)}});
  ASSERT_FALSE(t.declined) << JoinNotes(t);
  ASSERT_EQ(t.rows.size(), 1u);
  const double expected = 100.0 * 20000.0 * 6e9 / (1 * 312e12);  // 38.46%
  EXPECT_NEAR(DoubleCell(t, 0, "mfu_pct"), expected, 1e-9);
  EXPECT_EQ(IntCell(t, 0, "n_gpu"), 1);
  EXPECT_EQ(StringCell(t, 0, "gpu"), "A100 40GB PCIe");
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "peak_tflops_per_gpu"), 312.0);
  EXPECT_NE(JoinNotes(t).find("gpu-peaks/"), std::string::npos);  // the table version is stated
  EXPECT_NE(JoinNotes(t).find("attention term"), std::string::npos);
}

TEST(Mfu, AttentionTermStepTimeAndRecompute) {
  NSYS_REQUIRE_FIXTURES();
  // H200 (989 dense BF16), one device; 7B model, 32 layers, hidden 4096, seq 4096, 1M tokens per 2.5 s step.
  NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "mfu",
                 {{"params", Value(7e9)},
                  {"tokens_per_step", Value(1048576.0)},
                  {"step_time_s", Value(2.5)},
                  {"layers", Value(int64_t{32})},
                  {"hidden", Value(int64_t{4096})},
                  {"seq", Value(int64_t{4096})},
                  {"recompute", Value(true)}});
  ASSERT_EQ(t.rows.size(), 1u);
  const double tokens_per_s = 1048576.0 / 2.5;
  const double flops = 6 * 7e9 + 12.0 * 32 * 4096 * 4096;
  EXPECT_NEAR(DoubleCell(t, 0, "flops_per_token"), flops, 1e-3);
  EXPECT_NEAR(DoubleCell(t, 0, "mfu_pct"), 100.0 * tokens_per_s * flops / 989e12, 1e-9);
  EXPECT_NEAR(DoubleCell(t, 0, "hfu_pct"), 100.0 * tokens_per_s * (8 * 7e9 + 16.0 * 32 * 4096 * 4096) / 989e12, 1e-9);
  EXPECT_NEAR(DoubleCell(t, 0, "step_time_s"), 2.5, 1e-12);
  // heads x head_dim is the same width.
  NSYS_RUN_SKILL(h, "h200_nvfuser_nvtx.sqlite", "mfu",
                 {{"params", Value(7e9)},
                  {"tokens_per_step", Value(1048576.0)},
                  {"step_time_s", Value(2.5)},
                  {"layers", Value(int64_t{32})},
                  {"heads", Value(int64_t{32})},
                  {"head_dim", Value(int64_t{128})},
                  {"seq", Value(int64_t{4096})}});
  EXPECT_NEAR(DoubleCell(h, 0, "mfu_pct"), DoubleCell(t, 0, "mfu_pct"), 1e-9);
}

TEST(Mfu, H100WithoutGpuInfoDeclinesUnlessTold) {
  NSYS_REQUIRE_FIXTURES();
  {
    NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "mfu", {{"params", Value(1e9)}, {"tokens_per_s", Value(1000.0)}});
    EXPECT_TRUE(t.declined);
    EXPECT_NE(JoinNotes(t).find("TARGET_INFO_GPU"), std::string::npos) << JoinNotes(t);
  }
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "mfu",
                 {{"params", Value(1e9)}, {"tokens_per_s", Value(1000.0)}, {"gpu", Value(std::string("H100 SXM"))}});
  ASSERT_FALSE(t.declined);
  EXPECT_EQ(IntCell(t, 0, "n_gpu"), 2);  // both traced devices, never silently one
  EXPECT_NEAR(DoubleCell(t, 0, "mfu_pct"), 100.0 * 1000 * 6e9 / (2 * 989e12), 1e-12);
  NSYS_RUN_SKILL(p, "h100_2gpu_1s.sqlite", "mfu",
                 {{"params", Value(1e9)},
                  {"tokens_per_s", Value(1000.0)},
                  {"peak_tflops", Value(500.0)},
                  {"n_gpu", Value(int64_t{8})}});
  EXPECT_NEAR(DoubleCell(p, 0, "mfu_pct"), 100.0 * 1000 * 6e9 / (8 * 500e12), 1e-12);
}

TEST(Mfu, StepTimeFromDetectedIterations) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(it, "h100_2gpu_1s.sqlite", "iterations");
  ASSERT_FALSE(it.declined);
  std::vector<int64_t> d;
  for (size_t r = 0; r < it.rows.size(); ++r) d.push_back(IntCell(it, r, "duration_ns"));
  std::sort(d.begin(), d.end());
  const double median_s =
      static_cast<double>(d.size() % 2 ? d[d.size() / 2] : (d[d.size() / 2 - 1] + d[d.size() / 2]) / 2) / 1e9;
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "mfu",
                 {{"params", Value(1e9)}, {"tokens_per_step", Value(4096.0)}, {"gpu", Value(std::string("H100 SXM"))}});
  ASSERT_FALSE(t.declined) << JoinNotes(t);
  EXPECT_NEAR(DoubleCell(t, 0, "step_time_s"), median_s, 1e-12);
  EXPECT_NE(JoinNotes(t).find("Caution"), std::string::npos);  // periodicity may be a layer, said so
}

TEST(Mfu, UnknownGpusAndBadArguments) {
  NSYS_REQUIRE_FIXTURES();
  {
    NSYS_RUN_SKILL(t, "mock.sqlite", "mfu", {{"params", Value(1e9)}, {"tokens_per_s", Value(1000.0)}});
    EXPECT_TRUE(t.declined);  // RTX 3080: not in the table, no guess
    EXPECT_NE(JoinNotes(t).find("NVIDIA GeForce RTX 3080"), std::string::npos);
  }
  {
    // H200 has no FP8 figure in the table.
    NSYS_RUN_SKILL(t, "h200_nvfuser_nvtx.sqlite", "mfu",
                   {{"params", Value(1e9)}, {"tokens_per_s", Value(1000.0)}, {"dtype", Value(std::string("fp8"))}});
    EXPECT_TRUE(t.declined);
  }
  auto missing = RunSkill("a100_2proc_mpi.sqlite", "mfu", {{"tokens_per_s", Value(1000.0)}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("params"), std::string::npos);
  auto no_tokens = RunSkill("a100_2proc_mpi.sqlite", "mfu", {{"params", Value(1e9)}});
  ASSERT_FALSE(no_tokens.ok());
  EXPECT_EQ(no_tokens.error().kind, ErrorKind::kInvalidArgument);
  auto bad_gpu =
      RunSkill("a100_2proc_mpi.sqlite", "mfu",
               {{"params", Value(1e9)}, {"tokens_per_s", Value(1.0)}, {"gpu", Value(std::string("TPU v5"))}});
  ASSERT_FALSE(bad_gpu.ok());
  EXPECT_NE(bad_gpu.error().message.find("TPU v5"), std::string::npos);
  auto bad_dtype =
      RunSkill("a100_2proc_mpi.sqlite", "mfu",
               {{"params", Value(1e9)}, {"tokens_per_s", Value(1.0)}, {"dtype", Value(std::string("int4"))}});
  ASSERT_FALSE(bad_dtype.ok());
  auto zero = RunSkill("a100_2proc_mpi.sqlite", "mfu", {{"params", Value(0.0)}, {"tokens_per_s", Value(1.0)}});
  ASSERT_FALSE(zero.ok());
}

}  // namespace
}  // namespace nsys::testing
