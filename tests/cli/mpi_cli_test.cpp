// `mpirun -n 4 nsys-ai job-report DIR --mpi`: a job spread over MPI processes gives
// the single-process report. The rank set is made at test time by ../shared/tools/split_ranks.py (never committed).
// Also the halves the job moves: core's ReportJobRanks / MergeJobReport and server/mpi's byte form of them.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "nsys/mpi/mpi_job.h"
#include "sanitizers.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// This process's scratch directory (rank sets, mpirun's output), removed when the program ends.
fs::path MpiScratchRoot() {
  return fs::temp_directory_path() / ("nsys_ai_mpi_cli_test_" + std::to_string(::getpid()));
}
struct MpiScratchRemover {
  ~MpiScratchRemover() {
    std::error_code ec;
    fs::remove_all(MpiScratchRoot(), ec);
  }
};
MpiScratchRemover mpi_scratch_remover;

// mfu_2gpu_after.sqlite split into rank files in <scratch>/<name> (`extra`: split_ranks.py's options); empty on
// failure.
fs::path SplitMfuAfter(const std::string& name, const std::string& extra) {
  const fs::path out = MpiScratchRoot() / name;
  fs::create_directories(out);
  const std::string tool = (fs::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string();
  const std::string cmd = "python3 '" + tool + "' '" + Fixture("mfu_2gpu_after.sqlite") + "' '" + out.string() + "' " +
                          extra + " > '" + (MpiScratchRoot() / (name + ".log")).string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "split_ranks.py failed: " << cmd;
    return {};
  }
  fs::remove(out / "manifest.json");  // not a rank (the job lists *.sqlite only; keep the directory plain)
  return out;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

#ifdef NSYS_AI_MPIEXEC
// `mpirun --oversubscribe -n K nsys-ai ARGS` (as root too): its exit code and stdout.
CliResult RunMpi(int processes, const std::string& args) {
  const fs::path out = MpiScratchRoot() / "mpi.out", err = MpiScratchRoot() / "mpi.err";
  // Under AddressSanitizer the job's processes keep every check but leak detection: Open MPI itself leaks at
  // MPI_Finalize (measured: a 10-line MPI program under clang's ASan reports ~121 KB in 3,350 allocations, mostly from
  // its unloaded plugins, so no suppression by library can name them). Our code's leaks are still checked by the
  // in-process tests below and by the single-process runs of the same calls.
  const std::string leaks = NSYS_AI_TEST_ASAN ? "ASAN_OPTIONS=\"${ASAN_OPTIONS}:detect_leaks=0\" " : "";
  const std::string cmd =
      leaks + "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '" NSYS_AI_MPIEXEC "' --oversubscribe -n " +
      std::to_string(processes) + " '" NSYS_AI_BINARY "' " + args + " > '" + out.string() + "' 2> '" + err.string() +
      "'";
  CliResult result;
  const int status = std::system(cmd.c_str());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(out);
  result.err = ReadFile(err);
  return result;
}

// 32 copies of mfu_2gpu_after's two ranks = 64 rank files over 4 processes (16 each): every count, sum, step time
// and cross-rank table equals the single process's. The memory figures are per process, summed (loads: 64 both).
TEST(MpiCli, JobReportOverFourProcessesEqualsTheSingleProcessReport) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = SplitMfuAfter("rep64", "--replicate 32");
  ASSERT_FALSE(dir.empty());
  auto single = RunCli({"--no-cache", "job-report", dir.string(), "--format", "json"});
  ASSERT_EQ(single.exit_code, 0) << single.err;
  auto spread = RunMpi(4, "--no-cache job-report '" + dir.string() + "' --mpi --format json");
  ASSERT_EQ(spread.exit_code, 0) << spread.err;
  Json one = Json::parse(single.out), many = Json::parse(spread.out);  // printed once, by process 0
  ASSERT_EQ(many["ranks"].size(), 64u);
  // Rank 0 is pid 148 of the source; sqlite3 CLI: SELECT count(*), sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL
  // WHERE (globalPid>>24)&16777215 = 148 -> 1793, 237473368 (as tests/cli/job_cli_test.cpp).
  EXPECT_EQ(many["ranks"][0]["kernels"], 1793);
  EXPECT_EQ(many["ranks"][0]["gpuTimeNs"], 237473368);
  EXPECT_EQ(many["ranks"][63]["rank"], "rank0063");
  EXPECT_EQ(one["memory"]["loads"], 64);
  EXPECT_EQ(many["memory"]["loads"], 64);  // each rank loaded once, by the process that owns it
  one.erase("memory");
  many.erase("memory");
  EXPECT_EQ(one, many);
  EXPECT_GE(many["analyses"].size(), 7u);

  // A job skill the same way (its own table), and a skill that is not a job skill is refused with a clear error.
  auto single_skill =
      RunCli({"--no-cache", "skill", "run", "job_stragglers", "--job", dir.string(), "--format", "json"});
  ASSERT_EQ(single_skill.exit_code, 0) << single_skill.err;
  auto spread_skill = RunMpi(4, "--no-cache skill run job_stragglers --job '" + dir.string() + "' --mpi --format json");
  ASSERT_EQ(spread_skill.exit_code, 0) << spread_skill.err;
  EXPECT_EQ(Json::parse(single_skill.out), Json::parse(spread_skill.out));
  auto refused = RunMpi(2, "--no-cache skill run top_kernels --job '" + dir.string() + "' --mpi");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("--mpi runs job skills"), std::string::npos) << refused.err;
}
#endif

// The halves one process can run too: rank 1's part computed apart from rank 0's, merged, equals ReportJob; the byte
// form round-trips and every cut of it is an error, never a crash.
TEST(MpiCli, ReportHalvesMergeToTheReportAndTheirBytesRoundTrip) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = SplitMfuAfter("two", "");
  ASSERT_FALSE(dir.empty());
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  core::Workspace whole(config), halves(config);
  core::JobRequest request;
  request.directory = dir.string();
  auto run = whole.OpenJob(request);
  ASSERT_TRUE(run) << run.error().message;
  auto report = whole.ReportJob(run->id);
  ASSERT_TRUE(report) << report.error().message;

  auto split = halves.OpenJob(request);
  ASSERT_TRUE(split);
  auto second = halves.ReportJobRanks(split->id, {1});
  auto first = halves.ReportJobRanks(split->id, {0});
  ASSERT_TRUE(first && second);
  ASSERT_EQ(first->size(), 1u);
  EXPECT_EQ((*first)[0].summary.kernels, 1793);   // pid 148 (sqlite3 CLI, as above)
  EXPECT_EQ((*second)[0].summary.kernels, 1794);  // pid 149
  std::vector<core::RankReportPart> parts = {(*first)[0], (*second)[0]};

  core::JobMemoryStats memory;
  memory.loads = 2;
  const std::string bytes = mpi::EncodeReportParts(parts, memory);
  core::JobMemoryStats decoded_memory;
  auto decoded = mpi::DecodeReportParts(bytes, &decoded_memory);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded_memory.loads, 2);
  ASSERT_EQ(decoded->size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ((*decoded)[i].summary.gpu_time_ns, parts[i].summary.gpu_time_ns);
    EXPECT_EQ((*decoded)[i].summary.step_time_ns, parts[i].summary.step_time_ns);
    ASSERT_TRUE((*decoded)[i].partial && parts[i].partial);
    EXPECT_TRUE(*(*decoded)[i].partial == *parts[i].partial);
  }
  for (size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 16) {
    EXPECT_FALSE(mpi::DecodeReportParts(std::string_view(bytes).substr(0, cut), nullptr)) << cut;
  }
  EXPECT_FALSE(mpi::DecodeReportParts(bytes + "x", nullptr));

  auto merged = halves.MergeJobReport(split->id, std::move(*decoded));
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->ranks.size(), report->ranks.size());
  for (size_t i = 0; i < merged->ranks.size(); ++i) {
    EXPECT_EQ(merged->ranks[i].rank, report->ranks[i].rank);
    EXPECT_EQ(merged->ranks[i].kernels, report->ranks[i].kernels);
    EXPECT_EQ(merged->ranks[i].gpu_time_ns, report->ranks[i].gpu_time_ns);
    EXPECT_EQ(merged->ranks[i].nccl_time_ns, report->ranks[i].nccl_time_ns);
    EXPECT_EQ(merged->ranks[i].step_time_ns, report->ranks[i].step_time_ns);
  }
  ASSERT_EQ(merged->analyses.size(), report->analyses.size());
  for (size_t a = 0; a < merged->analyses.size(); ++a) {
    EXPECT_EQ(merged->analyses[a].table.rows, report->analyses[a].table.rows) << merged->analyses[a].skill;
    EXPECT_EQ(merged->analyses[a].table.notes, report->analyses[a].table.notes) << merged->analyses[a].skill;
  }
  // Parts that do not name the job's ranks in order are refused.
  auto swapped = halves.MergeJobReport(split->id, {(*second)[0], (*first)[0]});
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().kind, ErrorKind::kInvalidArgument);
}

TEST(MpiCli, SharesAreContiguousBlocksInRankOrder) {
  EXPECT_EQ(mpi::ShareOf(10, 0, 4), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(mpi::ShareOf(10, 1, 4), (std::vector<size_t>{3, 4, 5}));
  EXPECT_EQ(mpi::ShareOf(10, 2, 4), (std::vector<size_t>{6, 7}));
  EXPECT_EQ(mpi::ShareOf(10, 3, 4), (std::vector<size_t>{8, 9}));
  EXPECT_TRUE(mpi::ShareOf(2, 3, 4).empty());  // more processes than ranks: the last ones load nothing
  EXPECT_TRUE(mpi::ShareOf(2, 4, 4).empty());
}

}  // namespace
}  // namespace nsys::testing
