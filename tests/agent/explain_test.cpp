// agent::ExplainKernel through a real Workspace (its memoised runner) on the fixtures. Expected numbers come from SQL
// over the export (Profile::Query on the export's own tables, not the engine's model).
#include "nsys/agent/explain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/workspace_test_util.h"
#include "fixtures.h"
#include "nsys/core/workspace.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

class ExplainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    cache_ = fs::temp_directory_path() / ("nsys-ai-explain-test-" + std::to_string(::getpid()));
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.use_cache = false;
    config.open.cache_dir = cache_.string();
    ws_ = std::make_unique<core::Workspace>(config);
  }
  void TearDown() override {
    ws_.reset();
    std::error_code ec;
    fs::remove_all(cache_, ec);
  }
  std::string Open(const std::string& fixture) {
    auto opened = ws_->Open(Fixture(fixture));
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message);
    return opened.ok() ? opened->id : "";
  }
  std::vector<std::vector<Value>> Sql(const std::string& id, const std::string& sql) {
    auto r = LoadedProfile(*ws_, id)->Query(sql);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message) << "\n" << sql;
    return r.ok() ? r->rows : std::vector<std::vector<Value>>{};
  }
  int64_t SqlInt(const std::string& id, const std::string& sql) {
    auto rows = Sql(id, sql);
    if (rows.empty() || rows[0].empty()) return 0;
    if (const auto* i = std::get_if<int64_t>(&rows[0][0])) return *i;
    return 0;
  }
  // Durations of the kernels `where` selects, sorted.
  std::vector<int64_t> Durations(const std::string& id, const std::string& where) {
    std::vector<int64_t> out;
    for (const auto& row : Sql(id, "SELECT k.[end] - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k " + where)) {
      out.push_back(std::get<int64_t>(row[0]));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static int64_t MedianOf(const std::vector<int64_t>& v) {
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : static_cast<int64_t>(std::llround((v[n / 2 - 1] + v[n / 2]) / 2.0));
  }
  static int64_t P90Of(const std::vector<int64_t>& v) {
    return v[static_cast<size_t>(std::ceil(0.9 * static_cast<double>(v.size()))) - 1];
  }

  fs::path cache_;
  std::unique_ptr<core::Workspace> ws_;
};

TEST_F(ExplainTest, FlashAttentionByShortNameMatchesSql) {
  const std::string id = Open("mfu_2gpu_before.sqlite");
  auto e = ws_->ExplainKernel(id, "flash_fwd_kernel");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->matched_by, "short name");
  EXPECT_EQ(e->short_name, "flash_fwd_kernel");
  EXPECT_EQ(e->identity.library, "FlashAttention");
  EXPECT_EQ(e->identity.operation, "fwd");
  EXPECT_EQ(e->identity.precision, "bf16");
  EXPECT_EQ(e->identity.tensor_cores, true);
  const std::string where = " JOIN StringIds s ON s.id = k.shortName WHERE s.value = 'flash_fwd_kernel'";
  const std::vector<int64_t> all = Durations(id, where);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(e->calls, static_cast<int64_t>(all.size()));
  int64_t total = 0;
  for (int64_t d : all) total += d;
  EXPECT_EQ(e->total_ns, total);
  EXPECT_EQ(e->p50_ns, MedianOf(all));
  EXPECT_EQ(e->p90_ns, P90Of(all));
  EXPECT_EQ(e->min_ns, all.front());
  EXPECT_EQ(e->max_ns, all.back());
  ASSERT_EQ(e->devices.size(), 2u);
  for (const agent::KernelDeviceStats& d : e->devices) {
    SCOPED_TRACE(d.device);
    const std::string dev = " AND k.deviceId = " + std::to_string(d.device);
    const std::vector<int64_t> v = Durations(id, where + dev);
    EXPECT_EQ(d.calls, static_cast<int64_t>(v.size()));
    int64_t t = 0;
    for (int64_t x : v) t += x;
    EXPECT_EQ(d.total_ns, t);
    const int64_t device_total = SqlInt(
        id, "SELECT sum([end] - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(d.device));
    EXPECT_NEAR(d.share, static_cast<double>(t) / static_cast<double>(device_total), 1e-12);
    EXPECT_EQ(d.p50_ns, MedianOf(v));
    EXPECT_EQ(d.p90_ns, P90Of(v));
  }
  EXPECT_NE(e->markdown.find("FlashAttention attention (fwd), bf16"), std::string::npos) << e->markdown;
  // NVTX: the ranges come from nvtx_kernel_map's rows of this kernel (summed over threads, and over PyTorch's
  // per-call "FlashAttnFunc, seq = N" texts), largest first.
  ASSERT_FALSE(e->nvtx.empty()) << e->nvtx_note;
  EXPECT_EQ(e->nvtx.front().range, "FlashAttnFunc");
  EXPECT_LE(e->nvtx.front().calls, e->calls);
  auto map = ws_->RunSkill(id, "nvtx_kernel_map", {});
  ASSERT_TRUE(map.ok());
  int64_t calls = 0;
  for (const auto& row : map->rows) {
    const auto* range = std::get_if<std::string>(&row[0]);
    const auto* kernel = std::get_if<std::string>(&row.back());
    if (range && range->rfind("FlashAttnFunc, seq = ", 0) == 0 && kernel &&
        kernel->find("flash_fwd_kernel") != std::string::npos) {
      calls += std::get<int64_t>(row[5]);
    }
  }
  EXPECT_EQ(e->nvtx.front().calls, calls);
}

// PyTorch numbers every call's range ("aten::addmm, seq = 48068"), so nvtx_kernel_map has one row per call; the
// explanation groups them by operator. mfu_2gpu_after's cuBLAS GEMM nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN
// runs 212 times, 210 of them inside an aten::addmm inside an aten::linear (sqlite3: kernels joined to runtime on
// (pid, correlationId), NVTX on the launching thread, text LIKE 'aten::addmm, seq = %': 210 launches).
TEST_F(ExplainTest, PyTorchSequenceNumbersGroupAsOneOperator) {
  const std::string id = Open("mfu_2gpu_after.sqlite");
  auto e = ws_->ExplainKernel(id, "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->calls, 212);
  ASSERT_EQ(e->nvtx.size(), 2u) << e->nvtx_note;
  for (const auto& r : e->nvtx) {
    EXPECT_TRUE(r.range == "aten::addmm" || r.range == "aten::linear") << r.range;
    EXPECT_EQ(r.calls, 210) << r.range;
  }
  EXPECT_NE(e->nvtx_note.find("2 execution(s) were launched outside any range"), std::string::npos) << e->nvtx_note;
}

TEST_F(ExplainTest, LaunchOverheadJoinsOnProcessAndCorrelation) {
  const std::string id = Open("mfu_2gpu_before.sqlite");
  const std::string name = "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN";
  auto e = ws_->ExplainKernel(id, name);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->matched_by, "name");
  EXPECT_EQ(e->kernel, name);
  ASSERT_TRUE(e->launch.has_value());
  // A kernel's launch is the runtime call of the same process with the same correlationId.
  const std::string join =
      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
      "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
      "AND (r.globalTid >> 24) & 16777215 = (k.globalPid >> 24) & 16777215 WHERE s.value = '" +
      name + "'";
  EXPECT_EQ(e->launch->launched, SqlInt(id, "SELECT count(*) " + join));
  std::vector<int64_t> api;
  for (const auto& row : Sql(id, "SELECT r.[end] - r.start " + join)) api.push_back(std::get<int64_t>(row[0]));
  std::sort(api.begin(), api.end());
  EXPECT_EQ(e->launch->api_p50_ns, MedianOf(api));
  EXPECT_EQ(e->launch->api.rfind("cu", 0), 0u) << e->launch->api;
  ASSERT_FALSE(e->configs.empty());
  const int64_t top_config =
      SqlInt(id, "SELECT count(*) AS n " + join.substr(0, join.find("JOIN CUPTI_ACTIVITY_KIND_RUNTIME")) +
                     "WHERE s.value = '" + name +
                     "' GROUP BY gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
                     "dynamicSharedMemory ORDER BY n DESC LIMIT 1");
  EXPECT_EQ(e->configs.front().calls, top_config);
}

TEST_F(ExplainTest, OccupancyFromTheGpuLimits) {
  const std::string id = Open("a100_2proc_mpi.sqlite");
  auto e = ws_->ExplainKernel(id, "ampere_sgemm_32x32_sliced1x4_tn");
  ASSERT_TRUE(e.ok()) << e.error().message;
  ASSERT_TRUE(e->occupancy.has_value()) << e->occupancy_note;
  // Its most used configuration: block 128 threads (4 warps), 86 registers/thread, 32 KiB static shared memory, grid
  // 2x2x1. The A100's limits (TARGET_INFO_GPU): 167936 B shared memory, 65536 registers, 64 warps, 32 blocks per SM.
  // Registers: 86 x 32 = 2752 -> 2816 per warp -> 23 warps -> 5 blocks; shared memory: 167936 / (32768 + 1024) = 4
  // blocks; warps: 16 blocks. So 4 blocks x 4 warps = 16 of 64 warps.
  ASSERT_FALSE(e->configs.empty());
  EXPECT_EQ(e->configs.front().registers_per_thread, 86);
  EXPECT_EQ(e->configs.front().static_shared_bytes, 32768);
  EXPECT_EQ(SqlInt(id, "SELECT maxShmemPerSm FROM TARGET_INFO_GPU"), 167936);
  const agent::KernelOccupancy& o = *e->occupancy;
  EXPECT_EQ(o.warps_per_block, 4);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_EQ(o.limited_by, "shared memory");
  EXPECT_DOUBLE_EQ(o.occupancy, 0.25);
  EXPECT_EQ(o.sm_count, 108);
  EXPECT_EQ(o.grid_blocks, 4);
  EXPECT_NE(e->markdown.find("25.0%"), std::string::npos) << e->markdown;
  // fp32 SIMT GEMM on an Ampere GPU: the first thing to look at.
  ASSERT_FALSE(e->look_at.empty());
  EXPECT_NE(e->look_at.front().find("TF32"), std::string::npos) << e->look_at.front();
}

TEST_F(ExplainTest, UniqueSubstringAmbiguityAndUnknownNames) {
  const std::string id = Open("mfu_2gpu_before.sqlite");
  auto sub = ws_->ExplainKernel(id, "NVJET_TST_96x64");
  ASSERT_TRUE(sub.ok()) << sub.error().message;
  EXPECT_EQ(sub->matched_by, "substring");
  EXPECT_EQ(sub->kernel, "nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN");

  auto ambiguous = ws_->ExplainKernel(id, "nvjet");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_EQ(ambiguous.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(ambiguous.error().message.find("matches 3 kernels"), std::string::npos) << ambiguous.error().message;

  auto unknown = ws_->ExplainKernel(id, "flash_fwd_kernal");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(unknown.error().message.rfind("no kernel named 'flash_fwd_kernal' in this profile; closest: "
                                          "flash_fwd_kernel, ",
                                          0),
            0u)
      << unknown.error().message;

  auto empty = ws_->ExplainKernel(id, "  ");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(ExplainTest, ProfileWithoutKernelsIsUnsupported) {
  const std::string id = Open("titanrtx_tensorrt_nvtx.sqlite");
  auto e = ws_->ExplainKernel(id, "anything");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().kind, ErrorKind::kUnsupported);
  EXPECT_NE(e.error().message.find("no CUDA kernel data"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
