// `nsys-ai explain FILE KERNEL` run as a user would: Markdown by default, the explainKernel result with --format json
// (checked against `nsys-ai skill run top_kernels`), and exit codes for unknown kernels and bad usage.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;

TEST(CliExplain, MarkdownAndJsonAgreeWithTopKernels) {
  NSYS_REQUIRE_FIXTURES();
  const std::string file = Fixture("h100_2gpu_1s.sqlite");
  const std::string kernel = "tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel";
  auto md = RunCli({"--no-cache", "explain", file, kernel});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("**cuBLAS GEMM (matrix multiply), fp32, tile 64x256x8, on CUDA cores (no tensor cores)**"),
            std::string::npos)
      << md.out;
  // gpukernsum (nsys stats 2022.4.2) on this fixture: 248 instances, 31121662 ns in all (tests/skills/golden_gpu).
  EXPECT_NE(md.out.find("248 calls, 31.122 ms of GPU time"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("TF32"), std::string::npos) << md.out;

  auto js = RunCli({"--no-cache", "explain", file, kernel, "--format", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const Json r = Json::parse(js.out);
  EXPECT_EQ(r["calls"], 248);
  EXPECT_EQ(r["totalNs"], 31121662);
  EXPECT_EQ(r["matchedBy"], "substring");
  EXPECT_EQ(r["markdown"], md.out);
  auto top =
      RunCli({"--no-cache", "skill", "run", "top_kernels", file, "--arg", "per_device=true", "--format", "json"});
  ASSERT_EQ(top.exit_code, 0) << top.err;
  const Json t = Json::parse(top.out);
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < t["columns"].size(); ++c) col[t["columns"][c]["name"]] = c;
  int devices = 0;
  for (const auto& row : t["rows"]) {
    if (row[col.at("name")] != r["kernel"]) continue;
    for (const auto& d : r["devices"]) {
      if (d["device"] != row[col.at("device")]) continue;
      ++devices;
      EXPECT_EQ(d["calls"], row[col.at("instances")]);
      EXPECT_EQ(d["totalNs"], row[col.at("total_time_ns")]);
    }
  }
  EXPECT_EQ(devices, 2);
}

TEST(CliExplain, UnknownKernelsFailWithTheClosestNames) {
  NSYS_REQUIRE_FIXTURES();
  auto unknown = RunCli({"--no-cache", "explain", Fixture("mfu_2gpu_before.sqlite"), "flash_fwd_kernal"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(
      unknown.err.rfind("nsys-ai: no kernel named 'flash_fwd_kernal' in this profile; closest: flash_fwd_kernel", 0),
      0u)
      << unknown.err;
  auto no_kernels = RunCli({"--no-cache", "explain", Fixture("titanrtx_tensorrt_nvtx.sqlite"), "x"});
  EXPECT_EQ(no_kernels.exit_code, 1);
  EXPECT_NE(no_kernels.err.find("no CUDA kernel data"), std::string::npos) << no_kernels.err;
  EXPECT_EQ(RunCli({"explain", Fixture("mock.sqlite")}).exit_code, 2);  // KERNEL missing
  EXPECT_EQ(RunCli({"explain", Fixture("mock.sqlite"), "x", "--format", "csv"}).exit_code, 2);
  auto help = RunCli({"help", "explain"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Usage: nsys-ai explain FILE KERNEL [--format markdown|json]"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
