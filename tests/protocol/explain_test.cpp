// protocol/explain.h: explainKernel's params and result read back what they write, and bad params name the field.
#include "nsys/protocol/explain.h"

#include <gtest/gtest.h>

#include <string>

#include "nsys/protocol/mcp.h"

namespace nsys::protocol {
namespace {

TEST(ProtocolExplain, ResultRoundTrips) {
  ExplainKernelResult r;
  r.kernel = "nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN";
  r.short_name = r.kernel;
  r.matched_by = "name";
  r.variants = {r.kernel};
  r.identity = {"cuBLAS", "gemm", "", "bf16", "96x64x64", "yes", "cuBLAS GEMM"};
  r.calls = 3;
  r.total_ns = 300;
  r.p50_ns = 100;
  r.p90_ns = 120;
  r.min_ns = 80;
  r.max_ns = 120;
  r.devices = {{0, 3, 300, 0.25, 100, 120}};
  r.launch = KernelLaunchInfo{3, "cudaLaunchKernel", 5000, 1000};
  r.configs = {{{132, 1, 1}, {384, 1, 1}, 168, 0, 213000, 3}};
  r.distinct_configs = 1;
  r.occupancy = KernelOccupancyInfo{0, "NVIDIA H200", 0.1875, 1, 12, "shared memory", 132, 132, 1.0};
  r.nvtx = {{"aten::mm", 3, 300}};
  r.nvtx_note = "1 range name(s).";
  r.look_at = {"Nothing stands out."};
  r.markdown = "### x";
  const Json j = r;
  EXPECT_EQ(j["identity"]["tensorCores"], "yes");
  EXPECT_EQ(j["occupancy"]["limitedBy"], "shared memory");
  EXPECT_EQ(j["devices"][0]["p90Ns"], 120);
  auto back = Parse<ExplainKernelResult>(j, "result");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, r);

  r.launch.reset();
  r.occupancy.reset();
  const Json bare = r;
  EXPECT_FALSE(bare.contains("launch"));
  EXPECT_FALSE(bare.contains("occupancy"));
  EXPECT_EQ(*Parse<ExplainKernelResult>(bare, "result"), r);
}

TEST(ProtocolExplain, ParamsNameTheBadField) {
  auto ok = Parse<ExplainKernelParams>(Json{{"profileId", "p1"}, {"kernel", "gemm"}}, "params");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->kernel, "gemm");
  EXPECT_EQ(Json(*ok), (Json{{"profileId", "p1"}, {"kernel", "gemm"}}));
  auto missing = Parse<ExplainKernelParams>(Json{{"profileId", "p1"}}, "params");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "params.kernel: missing required field");
  auto typed = Parse<ExplainKernelParams>(Json{{"profileId", "p1"}, {"kernel", 3}}, "params");
  ASSERT_FALSE(typed.ok());
  EXPECT_NE(typed.error().message.find("params.kernel: expected a string"), std::string::npos) << typed.error().message;
  auto tool = mcp::ParseToolArgs<mcp::ExplainKernelArgs>(Json{{"profile_id", "p1"}, {"kernel", "k"}}, "explain_kernel");
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(tool->profile_id, "p1");
}

}  // namespace
}  // namespace nsys::protocol
