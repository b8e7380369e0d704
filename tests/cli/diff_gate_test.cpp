// The diff gate against the real binary: a copy of mfu_2gpu_before.sqlite in which every call of one
// kernel is 50% longer must regress and exit 3 with --fail-on-regression, naming the measure that tripped; the
// profile against itself exits 0; --metric picks one measure. The copies are made here with SQLite, in a private
// temporary folder, from the shared fixtures.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// Copies `fixture` to `to` and makes every call of the kernels whose demangled name contains `kernel` `factor` times
// longer (start kept, end moved), as a slower build of that kernel would.
void SlowedCopy(const std::string& fixture, const fs::path& to, const std::string& kernel, double factor) {
  fs::copy_file(Fixture(fixture), to, fs::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(to.c_str(), &db), SQLITE_OK);
  const std::string sql =
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + CAST((end - start) * " + std::to_string(factor) +
      " AS INTEGER) WHERE demangledName IN (SELECT id FROM StringIds WHERE value LIKE '%" + kernel + "%')";
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  EXPECT_GT(sqlite3_changes(db), 0) << kernel;
  sqlite3_close(db);
}

class DiffGate : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    dir_ = fs::temp_directory_path() / ("nsys_ai_diff_gate_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace);
    before_ = Fixture("mfu_2gpu_before.sqlite");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path dir_;
  std::string before_;
};

// The step time does not move (kernel starts are kept), every flash_fwd_kernel call is 1.5x: the GPU work per
// iteration regresses and trips the gate. Before the rank tests, the per-call spread of flash_fwd's different
// shapes (±42%) hid it and the verdict was neutral with exit 0.
TEST_F(DiffGate, AKernelFiftyPercentSlowerOnEveryCallRegressesAndExitsThree) {
  const fs::path slowed = dir_ / "flash_slowed.sqlite";
  SlowedCopy("mfu_2gpu_before.sqlite", slowed, "flash_fwd_kernel", 1.5);
  const auto r = RunCli({"diff", before_, slowed.string(), "--no-cache", "--fail-on-regression", "5"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("**Verdict: regressed.** Regressed: the median GPU work per iteration is"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("regression: the median GPU work per iteration is +2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("measure gpu"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("measure step"), std::string::npos) << r.err;  // the step time did not move

  const auto json = RunCli({"diff", before_, slowed.string(), "--no-cache", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["verdict"], "regressed");
  ASSERT_EQ(j["measures"].size(), 2u);
  EXPECT_EQ(j["measures"][0]["measure"], "step");
  EXPECT_EQ(j["measures"][0]["verdict"], "neutral");
  EXPECT_EQ(j["measures"][1]["measure"], "gpu");
  EXPECT_EQ(j["measures"][1]["verdict"], "regressed");
  EXPECT_LT(j["measures"][1]["rankP"].get<double>(), 1e-6);
  bool found = false;
  for (const auto& k : j["kernels"]) {
    if (k["shortName"] != "flash_fwd_kernel") continue;
    found = true;
    EXPECT_NEAR(k["perCallPct"].get<double>(), 50.0, 0.01);
    EXPECT_LT(k["rankP"].get<double>(), 1e-4);
    EXPECT_TRUE(k["beyondNoise"].get<bool>());
  }
  EXPECT_TRUE(found);

  // One measure at a time: the step time alone passes, the GPU work and the kernel's own time fail.
  EXPECT_EQ(RunCli({"diff", before_, slowed.string(), "--no-cache", "--fail-on-regression", "5", "--metric", "step"})
                .exit_code,
            0);
  EXPECT_EQ(RunCli({"diff", before_, slowed.string(), "--no-cache", "--fail-on-regression", "5", "--metric", "gpu"})
                .exit_code,
            3);
  const auto kernel = RunCli({"diff", before_, slowed.string(), "--no-cache", "--fail-on-regression", "40", "--metric",
                              "kernel:flash_fwd_kernel"});
  EXPECT_EQ(kernel.exit_code, 3) << kernel.out;
  EXPECT_NE(kernel.err.find("regression: the time per call of flash_fwd_kernel is +50.0% (more than 40%; measure "
                            "kernel:flash_fwd_kernel)"),
            std::string::npos)
      << kernel.err;
}

TEST_F(DiffGate, IdenticalProfilesAndAnUntouchedKernelPass) {
  const auto same = RunCli({"diff", before_, before_, "--no-cache", "--fail-on-regression", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("**Verdict: neutral.**"), std::string::npos) << same.out;
  const fs::path slowed = dir_ / "flash_slowed.sqlite";
  SlowedCopy("mfu_2gpu_before.sqlite", slowed, "flash_fwd_kernel", 1.5);
  // A kernel that did not change is not a regression, whatever happened to the others.
  const auto other = RunCli({"diff", before_, slowed.string(), "--no-cache", "--fail-on-regression", "0", "--metric",
                             "kernel:ncclDevKernel_SendRecv"});
  EXPECT_EQ(other.exit_code, 0) << other.out << other.err;
  const auto bad = RunCli({"diff", before_, slowed.string(), "--metric", "latency"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("step"), std::string::npos) << bad.err;
  const auto unknown = RunCli({"diff", before_, slowed.string(), "--no-cache", "--metric", "kernel:no_such_kernel"});
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("no_such_kernel"), std::string::npos) << unknown.err;
}

// Without iterations (a100_2proc_mpi finds none) the GPU work is the base's kernel mix, judged by the kernels' rank
// tests: every kernel 1.5x slower regresses; the same file against itself does not.
TEST_F(DiffGate, WithoutIterationsTheKernelMixIsJudgedByRankTests) {
  const fs::path slowed = dir_ / "all_slowed.sqlite";
  SlowedCopy("a100_2proc_mpi.sqlite", slowed, "", 1.5);
  const std::string base = Fixture("a100_2proc_mpi.sqlite");
  const auto r = RunCli({"diff", base, slowed.string(), "--no-cache", "--fail-on-regression", "5"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("regression: the kernel time per call (the base's mix) is +50.0% (more than 5%; measure gpu)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(RunCli({"diff", base, base, "--no-cache", "--fail-on-regression", "0"}).exit_code, 0);
}

}  // namespace
}  // namespace nsys::testing
