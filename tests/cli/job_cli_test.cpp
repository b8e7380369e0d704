// `nsys-ai job-report DIR` and `nsys-ai skill run SKILL --job DIR` as a user runs them, on rank sets made at
// test time by ../shared/tools/split_ranks.py (never committed): per-rank numbers checked against the sqlite3 CLI on
// the source export, and a 64-rank replicated set under a small memory budget.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/support/sha256.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

fs::path Root() {
  return fs::temp_directory_path() / ("nsys_ai_job_cli_test_" + std::to_string(::getpid()));
}
struct TempRoot {
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(Root(), ec);
  }
};
TempRoot temp_root;

fs::path Split(const std::string& fixture, const std::string& name, const std::string& extra = "") {
  const fs::path out = Root() / name;
  fs::create_directories(out);
  const std::string tool = (fs::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string();
  const std::string cmd = "python3 '" + tool + "' '" + Fixture(fixture) + "' '" + out.string() + "' " + extra + " > '" +
                          (out / "split.log").string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "split_ranks.py failed: " << cmd;
    return {};
  }
  return out;
}

// Per process of mfu_2gpu_after.sqlite, from the sqlite3 CLI:
//   SELECT (globalPid>>24)&16777215, count(*), sum(end-start),
//          sum(lower(short.value) LIKE 'nccl%'), sum(CASE WHEN lower(short.value) LIKE 'nccl%' THEN end-start END)
//   FROM CUPTI_ACTIVITY_KIND_KERNEL JOIN StringIds short ON short.id = shortName GROUP BY 1
// pid 148: 1793 kernels, 237473368 ns, 31 NCCL kernels, 9989016 ns; pid 149: 1794, 251362038, 31, 23753085.
struct ProcessNumbers {
  int64_t kernels, gpu_ns, nccl, nccl_ns;
};
constexpr ProcessNumbers kPid148{1793, 237473368, 31, 9989016};
constexpr ProcessNumbers kPid149{1794, 251362038, 31, 23753085};

void ExpectRank(const Json& rank, const ProcessNumbers& e) {
  EXPECT_EQ(rank["kernels"], e.kernels) << rank.dump();
  EXPECT_EQ(rank["gpuTimeNs"], e.gpu_ns) << rank.dump();
  EXPECT_EQ(rank["ncclKernels"], e.nccl) << rank.dump();
  EXPECT_EQ(rank["ncclTimeNs"], e.nccl_ns) << rank.dump();
  EXPECT_FALSE(rank.contains("error")) << rank.dump();
}

TEST(CliRun, JobReportGivesEachRankTheNumbersOfItsSourceProcess) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_after.sqlite", "after");
  ASSERT_FALSE(dir.empty());
  auto r = RunCli({"--no-cache", "job-report", dir.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json report = Json::parse(r.out);
  ASSERT_EQ(report["ranks"].size(), 2u);
  EXPECT_EQ(report["ranks"][0]["rank"], "rank0000");  // pid 148, split_ranks.py's first GPU process
  EXPECT_EQ(report["ranks"][1]["rank"], "rank0001");
  ExpectRank(report["ranks"][0], kPid148);
  ExpectRank(report["ranks"][1], kPid149);
  EXPECT_EQ(report["memory"]["budgetBytes"], int64_t{4} << 30);  // the default

  // The cross-rank analyses (skills/job_partials.h's job skills) come with the report; job_kernel_imbalance's
  // per-rank kernel and communication time are the same sqlite3 figures.
  std::set<std::string> analyses;
  for (const auto& analysis : report["analyses"]) {
    analyses.insert(analysis["skill"].get<std::string>());
    if (analysis["skill"] != "job_kernel_imbalance") continue;
    const Json& t = analysis["result"];
    std::map<std::string, size_t> col;
    for (size_t c = 0; c < t["columns"].size(); ++c) col[t["columns"][c]["name"]] = c;
    ASSERT_EQ(t["rows"].size(), 2u);
    EXPECT_EQ(t["rows"][0][col["rank"]], "rank0000");
    EXPECT_EQ(t["rows"][0][col["kernel_ns"]], kPid148.gpu_ns);
    EXPECT_EQ(t["rows"][1][col["kernel_ns"]], kPid149.gpu_ns);
    EXPECT_EQ(t["rows"][0][col["comm_ns"]], kPid148.nccl_ns);
    EXPECT_EQ(t["rows"][1][col["comm_ns"]], kPid149.nccl_ns);
  }
  for (const char* skill : {"job_clock_alignment", "job_step_times", "job_stragglers", "job_nccl", "job_overlap",
                            "job_kernel_imbalance", "job_step_heatmap"}) {
    EXPECT_TRUE(analyses.count(skill)) << skill;
  }

  auto table = RunCli({"--no-cache", "job-report", dir.string()});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("rank0001"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("251,362,038"), std::string::npos) << table.out;  // digits grouped in tables

  // The names from before "job" named the multi-rank noun still work: run-report, skill run --run, run_* skills.
  auto old_verb = RunCli({"--no-cache", "run-report", dir.string()});
  ASSERT_EQ(old_verb.exit_code, 0) << old_verb.err;
  EXPECT_EQ(old_verb.out, table.out);
  auto old_option = RunCli({"--no-cache", "skill", "run", "run_stragglers", "--run", dir.string(), "--format", "json"});
  auto new_option = RunCli({"--no-cache", "skill", "run", "job_stragglers", "--job", dir.string(), "--format", "json"});
  ASSERT_EQ(old_option.exit_code, 0) << old_option.err;
  EXPECT_EQ(old_option.out, new_option.out);
  auto both = RunCli({"skill", "run", "job_stragglers", "--job", dir.string(), "--run", dir.string()});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--run is the old name of --job"), std::string::npos) << both.err;
}

// a100_2proc_mpi's two processes have no NVTX step markers and no kernel that repeats with a steady period: the step
// skills say that both were tried (the iterations search's reason, once for both ranks) instead of "2 ranks x 0
// steps" and a bare "pass marker=", which the job views show in place of the heat map.
TEST(CliRun, AJobWithoutStepsSaysWhyNoneWereFound) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("a100_2proc_mpi.sqlite", "no_steps");
  ASSERT_FALSE(dir.empty());
  auto r = RunCli({"--no-cache", "job-report", dir.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json report = Json::parse(r.out);
  ASSERT_EQ(report["ranks"].size(), 2u);
  std::map<std::string, Json> by_skill;
  for (const auto& analysis : report["analyses"]) by_skill[analysis["skill"].get<std::string>()] = analysis["result"];
  const std::string why = "No rank has steps. No repeating kernel pattern was found";
  for (const char* skill : {"job_step_heatmap", "job_step_times"}) {
    SCOPED_TRACE(skill);
    ASSERT_TRUE(by_skill.count(skill));
    const Json& notes = by_skill[skill]["notes"];
    const std::string all = notes.dump();
    EXPECT_NE(all.find(why), std::string::npos) << all;
    EXPECT_NE(all.find("pass marker=<NVTX range name>"), std::string::npos) << all;
    EXPECT_EQ(all.find("x 0 steps"), std::string::npos) << all;
    size_t count = 0;
    for (size_t at = all.find("No repeating kernel pattern"); at != std::string::npos;
         at = all.find("No repeating kernel pattern", at + 1)) {
      ++count;
    }
    EXPECT_EQ(count, 1u) << "the reason once, not once per rank: " << all;
  }
  EXPECT_TRUE(by_skill["job_step_heatmap"]["rows"].empty());
  for (const auto& rank : report["ranks"]) EXPECT_EQ(rank["steps"], 0) << rank.dump();
}

TEST(CliRun, SkillRunOnAJobLeadsEveryRowWithItsRank) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_after.sqlite", "after_skill");
  ASSERT_FALSE(dir.empty());
  auto r = RunCli({"--no-cache", "skill", "run", "nccl_breakdown", "--job", dir.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json t = Json::parse(r.out);
  ASSERT_GE(t["columns"].size(), 2u);
  EXPECT_EQ(t["columns"][0]["name"], "rank");
  EXPECT_EQ(t["columns"][2]["name"], "collective");
  int64_t nccl_ns[2] = {0, 0};
  for (const auto& row : t["rows"]) {
    const int rank = row[0] == "rank0000" ? 0 : 1;
    if (row[2] == "all") nccl_ns[rank] += row[4].get<int64_t>();
  }
  EXPECT_EQ(nccl_ns[0], kPid148.nccl_ns);
  EXPECT_EQ(nccl_ns[1], kPid149.nccl_ns);

  // A job skill through `skill run --job`, with one of its own arguments and a common one.
  auto imbalance = RunCli({"--no-cache", "skill", "run", "job_kernel_imbalance", "--job", dir.string(), "--arg",
                           "ranks_per_node=2", "--format", "json"});
  ASSERT_EQ(imbalance.exit_code, 0) << imbalance.err;
  const Json k = Json::parse(imbalance.out);
  ASSERT_EQ(k["rows"].size(), 2u);
  auto unknown = RunCli({"skill", "run", "job_stragglers", "--job", dir.string(), "--arg", "nope=1"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("ranks_per_node"), std::string::npos) << unknown.err;  // names the arguments

  auto both = RunCli({"skill", "run", "nccl_breakdown", Fixture("mfu_2gpu_after.sqlite"), "--job", dir.string()});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  auto bad = RunCli({"--memory-budget", "lots", "job-report", dir.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--memory-budget"), std::string::npos) << bad.err;
}

// 32 copies of mfu_2gpu_after's two ranks = 64 rank files under a 128 MiB budget: three ranks fit at once by estimate,
// so ranks are dropped and reopened, and every rank still answers with its source process's numbers.
TEST(CliRun, SixtyFourRanksAnswerUnderASmallMemoryBudget) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_after.sqlite", "rep64", "--replicate 32");
  ASSERT_FALSE(dir.empty());
  auto r = RunCli({"--no-cache", "--memory-budget", "128M", "job-report", dir.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json report = Json::parse(r.out);
  ASSERT_EQ(report["ranks"].size(), 64u);
  for (size_t i = 0; i < 64; ++i) {
    SCOPED_TRACE(i);
    char name[16];
    std::snprintf(name, sizeof name, "rank%04zu", i);
    EXPECT_EQ(report["ranks"][i]["rank"], name);
    ExpectRank(report["ranks"][i], i % 2 == 0 ? kPid148 : kPid149);
  }
  const Json& memory = report["memory"];
  EXPECT_EQ(memory["budgetBytes"], 128 << 20);
  EXPECT_LE(memory["peakAccountedBytes"].get<int64_t>(), 128 << 20);
  EXPECT_GT(memory["evictions"].get<int64_t>(), 0);
  EXPECT_EQ(memory["overBudgetRanks"], 0);
}

// `nsys-ai job-trace`: the job's ranks in one trace on the job's clock; the summary names each rank's clock offset.
// 2 copies of mfu_2gpu_after's processes, 2 ranks per node, nodes skewed; the kernels are twice the source's 3587.
TEST(CliRun, JobTraceWritesEveryRankOnTheAlignedClock) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_after.sqlite", "trace4", "--replicate 2 --ranks-per-node 2 --skew-ns 2000000");
  ASSERT_FALSE(dir.empty());
  const std::string out = (Root() / "run4.pftrace").string();
  auto r = RunCli({"--no-cache", "job-trace", dir.string(), "-o", out, "--ranks-per-node", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("wrote " + out + ": ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(", 7174 kernels, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  rank0000: clock +0.000 ms ± 0.0 µs (reference), "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  rank0003: clock +"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(nccl_ends)"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out));
  auto json = RunCli({"--no-cache", "job-trace", dir.string(), "-o", out, "--ranks-per-node", "2", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json result = Json::parse(json.out);
  EXPECT_EQ(result["bytes"].get<int64_t>(), static_cast<int64_t>(fs::file_size(out)));
  EXPECT_EQ(result["ranks"].size(), 4u);
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(result["sha256"], support::Sha256::Hex(bytes));  // the hash of the bytes in the file
  auto bad = RunCli({"job-trace", dir.string(), "-o", out, "--ranks-per-node", "many"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--ranks-per-node"), std::string::npos) << bad.err;
  auto no_output = RunCli({"job-trace", dir.string()});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("--output FILE is required"), std::string::npos) << no_output.err;
}

}  // namespace
}  // namespace nsys::testing
