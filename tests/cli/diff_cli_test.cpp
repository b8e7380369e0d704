// `nsys-ai diff` and `nsys-ai baseline` with the real binary on real fixtures: the verdict, the JSON shape, the exit
// status for CI, unrelated profiles, and named baselines kept in ./.nsys-ai/baselines.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

class DiffCli : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    before_ = Fixture("mfu_2gpu_before.sqlite");
    after_ = Fixture("mfu_2gpu_after.sqlite");
  }
  std::string before_, after_;
};

TEST_F(DiffCli, MfuPairRegressesPerIterationAndTheMarkdownSaysWhy) {
  const auto r = RunCli({"diff", before_, after_, "--no-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("# Diff: mfu_2gpu_before.sqlite → mfu_2gpu_after.sqlite"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("**Verdict: regressed.** Regressed: the median iteration time is 18.914 ms in the new "
                       "profile against 16.727 ms in the base (+13.1%"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("## Comparability: 1.00 (comparable)"), std::string::npos);
  EXPECT_NE(r.out.find("| ncclDevKernel_SendRecv | both | 66 → 62 | 384.9 µs → 544.2 µs | +41.4% |"),
            std::string::npos);
  EXPECT_NE(r.out.find("Verify: `nsys-ai skill run iterations " + before_), std::string::npos);
}

TEST_F(DiffCli, JsonIsTheDiffResultShape) {
  const auto r = RunCli({"diff", before_, after_, "--no-cache", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "regressed");
  EXPECT_EQ(j["comparability"]["label"], "comparable");
  EXPECT_EQ(j["headline"]["metric"], "median iteration time");
  EXPECT_EQ(j["baseIterations"]["count"], 32);
  EXPECT_EQ(j["newIterations"]["count"], 28);
  EXPECT_EQ(j["kernelCounts"]["both"], 27);
  EXPECT_EQ(j["perCall"]["metric"], "kernel time per call (the base's mix)");
  EXPECT_TRUE(j["answer"]["summary"].get<std::string>().rfind("Regressed:", 0) == 0);
  EXPECT_EQ(j["answer"]["confidence"], "high");
  EXPECT_EQ(j["answer"]["evidence"][0]["call"]["skill"], "iterations");
  EXPECT_EQ(j["answer"]["evidence"][0]["rows"].size(), 32u);
  EXPECT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"][0]["baseIdleNs"], 26031025);  // the union of device 0's ops, as SQL computes it
}

// The diff compares the two profiles' NVTX mapping coverage (kernel time launched inside an innermost range
// whose calls each launch one kernel). Kernel time from sqlite3, SELECT sum(end-start) FROM
// CUPTI_ACTIVITY_KIND_KERNEL: 535200650 ns (before), 488835406 ns (after); the mapped parts are nvtx_range_kernels'.
TEST_F(DiffCli, ComparesTheMappingCoverageOfTheTwoProfiles) {
  const auto r = RunCli({"diff", before_, after_, "--no-cache", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["baseCoverage"]["kernelNs"], 535200650);
  EXPECT_EQ(j["baseCoverage"]["mappedNs"], 156170938);
  EXPECT_EQ(j["newCoverage"]["kernelNs"], 488835406);
  EXPECT_EQ(j["newCoverage"]["mappedNs"], 415950159);
  EXPECT_NEAR(j["baseCoverage"]["share"].get<double>(), 156170938.0 / 535200650.0, 1e-12);
  EXPECT_NEAR(j["coverageChange"].get<double>(), 415950159.0 / 488835406.0 - 156170938.0 / 535200650.0, 1e-12);
  const auto md = RunCli({"diff", before_, after_, "--no-cache"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("**NVTX mapping coverage** (kernel time launched inside an innermost range whose calls each "
                        "launch one kernel): 29.2% → 85.1% (+55.9 points)."),
            std::string::npos)
      << md.out;
}

TEST_F(DiffCli, FailOnRegressionExitsThreeOnlyPastThePercentage) {
  const auto strict = RunCli({"diff", before_, after_, "--no-cache", "--fail-on-regression", "5"});
  EXPECT_EQ(strict.exit_code, 3) << strict.err;
  EXPECT_NE(strict.err.find("regression: the median iteration time is +13.1% (more than 5%; measure step)"),
            std::string::npos)
      << strict.err;
  const auto lenient = RunCli({"diff", before_, after_, "--no-cache", "--fail-on-regression", "20"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  // The other way round it improved: never a failure.
  const auto reverse = RunCli({"diff", after_, before_, "--no-cache", "--fail-on-regression", "0"});
  EXPECT_EQ(reverse.exit_code, 0) << reverse.err;
  EXPECT_NE(reverse.out.find("**Verdict: improved.**"), std::string::npos);
  const auto bad = RunCli({"diff", before_, after_, "--fail-on-regression", "-1"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(DiffCli, UnrelatedProfilesAreNotComparableAndNeverFail) {
  const auto r = RunCli({"diff", Fixture("h100_2gpu_1s.sqlite"), Fixture("v100_julia.sqlite"), "--no-cache",
                         "--fail-on-regression", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("**Verdict: neutral.** These profiles are not comparable (comparability 0.00)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Confidence: low"), std::string::npos);
}

TEST_F(DiffCli, BadInputIsAClearError) {
  EXPECT_EQ(RunCli({"diff", before_}).exit_code, 2);
  const auto missing = RunCli({"diff", before_, "/nonexistent/after.sqlite", "--no-cache"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent/after.sqlite"), std::string::npos) << missing.err;
  const auto format = RunCli({"diff", before_, after_, "--format", "csv"});
  EXPECT_EQ(format.exit_code, 2);
}

// Baselines live in the current directory's .nsys-ai/: each test runs in a fresh one.
class BaselineCli : public DiffCli {
 protected:
  void SetUp() override {
    DiffCli::SetUp();
    if (IsSkipped()) return;
    old_ = fs::current_path();
    dir_ = fs::temp_directory_path() / ("nsys_ai_baselines_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    fs::current_path(dir_);
  }
  void TearDown() override {
    if (!old_.empty()) fs::current_path(old_);
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path old_, dir_;
};

TEST_F(BaselineCli, TagListAndDiffAgainstAName) {
  const auto empty = RunCli({"baseline", "list"});
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_NE(empty.out.find("no baselines"), std::string::npos);
  const auto tag = RunCli({"baseline", "tag", "good", before_});
  ASSERT_EQ(tag.exit_code, 0) << tag.err;
  ASSERT_TRUE(fs::exists(dir_ / ".nsys-ai" / "baselines.json"));
  const auto saved = nlohmann::json::parse(std::ifstream(dir_ / ".nsys-ai" / "baselines.json"));
  ASSERT_EQ(saved["baselines"].size(), 1u);
  EXPECT_EQ(saved["baselines"][0]["name"], "good");
  // The absolute path as given (symbolic links are not resolved: a fixtures folder reached through one stays so).
  const std::string stored = fs::absolute(before_).lexically_normal().string();
  EXPECT_EQ(saved["baselines"][0]["path"], stored);
  EXPECT_EQ(saved["baselines"][0]["size"], static_cast<int64_t>(fs::file_size(before_)));
  const auto list = RunCli({"baseline", "list"});
  EXPECT_NE(list.out.find("good\t" + stored), std::string::npos) << list.out;

  const auto against = RunCli({"diff", "--against", "good", after_, "--no-cache", "--fail-on-regression", "5"});
  EXPECT_EQ(against.exit_code, 3) << against.err;
  EXPECT_NE(against.out.find("# Diff: mfu_2gpu_before.sqlite → mfu_2gpu_after.sqlite"), std::string::npos);

  const auto unknown = RunCli({"diff", "--against", "nope", after_});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no baseline named 'nope'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("known: good"), std::string::npos) << unknown.err;
}

TEST_F(BaselineCli, BadNamesFilesAndStoresAreClearErrors) {
  EXPECT_EQ(RunCli({"baseline", "tag", "no spaces", before_}).exit_code, 2);
  EXPECT_EQ(RunCli({"baseline", "tag", "x", "/nonexistent.sqlite"}).exit_code, 1);
  fs::create_directories(dir_ / ".nsys-ai");
  std::ofstream(dir_ / ".nsys-ai" / "baselines.json") << "{\"baselines\": [{\"name\": 1}]}";
  const auto broken = RunCli({"baseline", "list"});
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("is not a baselines file"), std::string::npos) << broken.err;
}

}  // namespace
}  // namespace nsys::testing
