// `nsys-ai analyze` against the real binary: Markdown by default, the typed JSON with --format json, and --out DIR
// writing the report and one CSV per evidence table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(AnalyzeCli, MarkdownRanksFindingsAndNamesWhatCannotBeChecked) {
  NSYS_REQUIRE_FIXTURES();
  const auto r = RunCli({"analyze", "--no-cache", Fixture("mfu_2gpu_before.sqlite")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The headline leads with the time budget: the dominant slice group and its share of the GPU span, then
  // the processes and GPUs that did GPU work.
  EXPECT_EQ(r.out.rfind("# nsys-ai analyze\n\ncompute kernels 85.2% of the GPU span", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("2 processes on 2 GPUs (2 × unnamed GPU): 598.5 ms of GPU span in a 300.0 ms capture (whole "
                       "profile)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("NCCL overlaps compute only 0% on GPU 0: 25.4 ms of communication is exposed on both GPUs"),
            std::string::npos);
  EXPECT_NE(r.out.find("Verify: `nsys-ai skill run nccl_breakdown " + Fixture("mfu_2gpu_before.sqlite") + "`"),
            std::string::npos);
  EXPECT_NE(r.out.find("## Not checked on this profile"), std::string::npos);
}

TEST(AnalyzeCli, JsonAndOutDirHoldTheSameFindings) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = fs::temp_directory_path() / ("nsys-ai-analyze-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto r =
      RunCli({"analyze", "--no-cache", "--format", "json", "--out", dir.string(), Fixture("mfu_2gpu_before.sqlite")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto printed = nlohmann::json::parse(r.out);
  const auto written = nlohmann::json::parse(Slurp(dir / "report.json"));
  EXPECT_EQ(printed, written);
  ASSERT_FALSE(printed["findings"].empty());
  EXPECT_EQ(Slurp(dir / "report.md"), printed["markdown"].get<std::string>());
  // One CSV per finding's evidence, named by rank and root cause; the NCCL one has its two device rows.
  int csvs = 0;
  for (size_t i = 0; i < printed["findings"].size(); ++i) {
    const std::string id = printed["findings"][i]["rootCause"];
    const fs::path csv = dir / (std::string(i + 1 < 10 ? "0" : "") + std::to_string(i + 1) + "-" + id + ".csv");
    ASSERT_TRUE(fs::exists(csv)) << csv;
    ++csvs;
    if (id == "serialized_nccl") {
      EXPECT_EQ(Slurp(csv),
                "device_id,count,total_ns,overlap_pct,exposed_ns,comm_time_pct\n0,33,17172652,0,17172652,100\n"
                "1,33,8229100,0,8229100,100\n");
    }
  }
  EXPECT_EQ(csvs, static_cast<int>(printed["findings"].size()));
  fs::remove_all(dir);
}

TEST(AnalyzeCli, BadOptionsAreUsageErrors) {
  NSYS_REQUIRE_FIXTURES();
  const auto format = RunCli({"analyze", "--format", "csv", Fixture("mfu_2gpu_before.sqlite")});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.err.find("--format must be markdown or json"), std::string::npos) << format.err;
  const auto trim = RunCli({"analyze", "--trim", "a", "b", Fixture("mfu_2gpu_before.sqlite")});
  EXPECT_EQ(trim.exit_code, 2);
  EXPECT_NE(trim.err.find("--trim needs two numbers"), std::string::npos) << trim.err;
}

}  // namespace
}  // namespace nsys::testing
