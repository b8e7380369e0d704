// Runs through the dispatcher: nsys/openJob, nsys/runSkillOnJob, nsys/jobReport, nsys/exportJobTrace and
// nsys/closeJob on a real split of mfu_2gpu_after.sqlite (split_ranks.py at test time), with the wire's errors.
// Figures: sqlite3 on the source, SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL = 3587 kernels in all.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "fixtures.h"
#include "in_memory_client.h"
#include "nsys/core/traces.h"
#include "nsys/lsp/method_table.h"
#include "sanitizers.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

class JobMethods : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    dir_ = fs::temp_directory_path() / ("nsys_ai_job_methods_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    const std::string cmd = "python3 -B '" + (fs::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string() +
                            "' '" + Fixture("mfu_2gpu_after.sqlite") + "' '" + (dir_ / "ranks").string() +
                            "' --replicate 2 --ranks-per-node 2 --skew-ns 2000000 > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    client_ = std::make_unique<InMemoryClient>();
    client_->Initialize({{"capabilities", Json::object()}, {"initializationOptions", {{"noCache", true}}}});
  }
  void TearDown() override { fs::remove_all(dir_); }
  Json Call(const std::string& method, Json params) {
    return client_->AwaitReply(client_->Request(method, std::move(params)));
  }

  fs::path dir_;
  std::unique_ptr<InMemoryClient> client_;
};

TEST_F(JobMethods, OpenJobSkillTraceAndCloseThroughTheWire) {
  const Json opened = Call("nsys/openJob", {{"directory", (dir_ / "ranks").string()}, {"memoryBudget", "512M"}});
  ASSERT_TRUE(opened.contains("result")) << opened.dump();
  const std::string job = opened["result"]["jobId"];
  ASSERT_EQ(opened["result"]["ranks"].size(), 4u);
  EXPECT_EQ(opened["result"]["ranks"][3]["rank"], "rank0003");
  EXPECT_EQ(opened["result"]["memoryBudgetBytes"], int64_t{512} << 20);

  // A per-rank skill: every rank's rows led by its rank; the kernels add up to twice the source's.
  const Json top = Call("nsys/runSkillOnJob", {{"jobId", job}, {"skill", "top_kernels"}, {"args", {{"limit", 0}}}});
  ASSERT_TRUE(top.contains("result")) << top.dump();
  const Json& columns = top["result"]["columns"];
  ASSERT_EQ(columns[0]["name"], "rank");
  size_t calls = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c]["name"] == "instances") calls = c;
  }
  ASSERT_GT(calls, 0u);
  int64_t kernels = 0;
  for (const Json& row : top["result"]["rows"]) kernels += row[calls].get<int64_t>();
  EXPECT_EQ(kernels, 2 * 3587);

  // The trace of every rank on the job's clock: node 1 (ranks 2 and 3) found off node 0 by the NCCL ends.
  const std::string out = (dir_ / "run.pftrace").string();
  const Json trace = Call("nsys/exportJobTrace", {{"jobId", job}, {"output", out}, {"ranksPerNode", 2}});
  ASSERT_TRUE(trace.contains("result")) << trace.dump();
  const Json& r = trace["result"];
  EXPECT_EQ(r["path"], out);
  EXPECT_EQ(r["slices"]["kernels"], 2 * 3587);
  EXPECT_EQ(r["bytes"].get<int64_t>(), static_cast<int64_t>(fs::file_size(out)));
  EXPECT_EQ(r["sha256"].get<std::string>().size(), 64u);
  ASSERT_EQ(r["ranks"].size(), 4u);
  EXPECT_EQ(r["ranks"][0]["method"], "reference");
  EXPECT_EQ(r["ranks"][0]["offsetNs"], 0);
  EXPECT_EQ(r["ranks"][2]["method"], "nccl_ends");
  EXPECT_NE(r["ranks"][2]["offsetNs"], 0);
  EXPECT_EQ(r["ranks"][2]["offsetNs"], r["ranks"][3]["offsetNs"]);
  EXPECT_TRUE(r["ranks"][2].contains("uncertaintyNs"));
  EXPECT_FALSE(r["notes"].empty());
  const auto validation = core::ValidateTraceFile(out);
  EXPECT_TRUE(validation.ok) << validation.summary;

  // A rank file of the open job is never a trace's output; bad params name the member.
  const std::string rank0 = (dir_ / "ranks" / "rank0000.sqlite").string();
  const Json onto_rank = Call("nsys/exportJobTrace", {{"jobId", job}, {"output", rank0}});
  EXPECT_EQ(onto_rank["error"]["code"], -32602) << onto_rank.dump();
  const Json negative = Call("nsys/exportJobTrace", {{"jobId", job}, {"ranksPerNode", -1}});
  EXPECT_EQ(negative["error"]["code"], -32602) << negative.dump();
  EXPECT_NE(negative["error"]["message"].get<std::string>().find("ranksPerNode"), std::string::npos);

  // The cross-rank causes in nsys/analyze's shape: the straggler first, with its Markdown.
  const Json analyzed = Call("nsys/analyzeJob", {{"jobId", job}, {"ranksPerNode", 2}});
  ASSERT_TRUE(analyzed.contains("result")) << analyzed.dump();
  ASSERT_FALSE(analyzed["result"]["findings"].empty()) << analyzed.dump();
  EXPECT_EQ(analyzed["result"]["findings"][0]["rootCause"], "job_straggler");
  EXPECT_EQ(analyzed["result"]["ranking"][0], "job_straggler");
  EXPECT_NE(analyzed["result"]["markdown"].get<std::string>().find("## [medium] rank0000 is the last to start"),
            std::string::npos)
      << analyzed["result"]["markdown"];

  const Json closed = Call("nsys/closeJob", {{"jobId", job}});
  EXPECT_TRUE(closed.contains("result") && closed["result"].is_null()) << closed.dump();
  const Json gone = Call("nsys/exportJobTrace", {{"jobId", job}});
  EXPECT_EQ(gone["error"]["code"], -32602) << gone.dump();
  EXPECT_NE(gone["error"]["message"].get<std::string>().find(job), std::string::npos) << gone.dump();
}

// The six methods' names from before "job" named the multi-rank noun answer as the new ones, `runId` read as `jobId`;
// the server lists only the new names.
TEST_F(JobMethods, TheOldMethodNamesAreAliasesThatTakeRunId) {
  const Json opened = Call("nsys/openRun", {{"directory", (dir_ / "ranks").string()}});
  ASSERT_TRUE(opened.contains("result")) << opened.dump();
  const std::string job = opened["result"]["jobId"];
  const Json by_old = Call("nsys/runReport", {{"runId", job}});
  const Json by_new = Call("nsys/jobReport", {{"jobId", job}});
  ASSERT_TRUE(by_old.contains("result")) << by_old.dump();
  EXPECT_EQ(by_old["result"], by_new["result"]);
  const Json skill = Call("nsys/runSkillOnRun", {{"runId", job}, {"skill", "run_stragglers"}});
  ASSERT_TRUE(skill.contains("result")) << skill.dump();
  EXPECT_EQ(skill["result"], Call("nsys/runSkillOnJob", {{"jobId", job}, {"skill", "job_stragglers"}})["result"]);
  const auto names = lsp::BoundMethodNames();
  EXPECT_EQ(std::count(names.begin(), names.end(), "nsys/openRun"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "nsys/openJob"), 1);
  const Json closed = Call("nsys/closeRun", {{"runId", job}});
  EXPECT_TRUE(closed.contains("result") && closed["result"].is_null()) << closed.dump();
  EXPECT_EQ(Call("nsys/analyzeRun", {{"runId", job}})["error"]["code"], -32602);
}

TEST_F(JobMethods, BadOpensAreClearErrors) {
  const Json both = Call("nsys/openJob", {{"directory", dir_.string()}, {"paths", {"a.sqlite"}}});
  EXPECT_EQ(both["error"]["code"], -32602) << both.dump();
  const Json missing = Call("nsys/openJob", {{"paths", {(dir_ / "no_such_rank.sqlite").string()}}});
  EXPECT_EQ(missing["error"]["code"], -32602) << missing.dump();
  const Json budget = Call("nsys/openJob", {{"directory", (dir_ / "ranks").string()}, {"memoryBudget", "lots"}});
  EXPECT_EQ(budget["error"]["code"], -32602) << budget.dump();
  EXPECT_NE(budget["error"]["message"].get<std::string>().find("memoryBudget"), std::string::npos);
}

// initializationOptions.runLauncher: the session's jobReport runs as an MPI job of two processes
// (`mpirun --oversubscribe -n 2 nsys-ai job-report ... --mpi`), with its progress, and answers what the server
// computes itself; a launcher that fails or cannot run is an error naming it.
TEST_F(JobMethods, ARunLauncherRunsTheReportAsAJobWithItsProgress) {
#ifndef NSYS_AI_MPIEXEC
  GTEST_SKIP() << "built without MPI: no job to launch";
#else
  const std::string dir = (dir_ / "ranks").string();
  const Json here_job = Call("nsys/openJob", {{"directory", dir}, {"memoryBudget", "1G"}});
  ASSERT_TRUE(here_job.contains("result")) << here_job.dump();
  const Json here = Call("nsys/jobReport", {{"jobId", here_job["result"]["jobId"]}});
  ASSERT_TRUE(here.contains("result")) << here.dump();

  InMemoryClient::Options options;
  options.workspace.launch_binary = NSYS_AI_BINARY;
  InMemoryClient launched(options);
  Json launcher = {"env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};
  // Open MPI leaks at MPI_Finalize (see MpiCli): leak checks off for the job's processes only.
  if (NSYS_AI_TEST_ASAN) launcher.push_back("ASAN_OPTIONS=detect_leaks=0");
  for (const char* word : {NSYS_AI_MPIEXEC, "--oversubscribe", "-n", "2"}) launcher.push_back(word);
  launched.Initialize({{"capabilities", {{"window", {{"workDoneProgress", true}}}}},
                       {"initializationOptions", {{"noCache", true}, {"runLauncher", launcher}}}});
  const Json opened =
      launched.AwaitReply(launched.Request("nsys/openJob", {{"directory", dir}, {"memoryBudget", "1G"}}));
  ASSERT_TRUE(opened.contains("result")) << opened.dump();
  const Json job = launched.AwaitReply(
      launched.Request("nsys/jobReport", {{"jobId", opened["result"]["jobId"]}, {"workDoneToken", "job-1"}}),
      std::chrono::seconds(300));
  ASSERT_TRUE(job.contains("result")) << job.dump();
  EXPECT_EQ(job["result"]["ranks"], here["result"]["ranks"]);  // kernels, GPU and NCCL time, steps: rank by rank
  EXPECT_EQ(job["result"]["analyses"], here["result"]["analyses"]);
  ASSERT_EQ(job["result"]["ranks"].size(), 4u);
  int64_t kernels = 0;
  for (const Json& rank : job["result"]["ranks"]) kernels += rank["kernels"].get<int64_t>();
  EXPECT_EQ(kernels, 2 * 3587);
  // The job's progress lines came through as reports of the request's token.
  const auto reports = launched.ReceivedMatching([](const Json& m) {
    return m.value("method", "") == "$/progress" && m["params"]["token"] == "job-1" &&
           m["params"]["value"]["kind"] == "report";
  });
  ASSERT_FALSE(reports.empty());
  bool rank_done = false;
  for (const Json& r : reports)
    rank_done = rank_done || r["params"]["value"].value("message", "").find(" done (") != std::string::npos;
  EXPECT_TRUE(rank_done) << reports.back().dump();

  // A launcher that fails, and one that cannot run.
  InMemoryClient failing(options);
  failing.Initialize({{"capabilities", Json::object()},
                      {"initializationOptions",
                       {{"noCache", true}, {"runLauncher", {"sh", "-c", "echo no nodes >&2; exit 7", "sh"}}}}});
  const Json failing_job = failing.AwaitReply(failing.Request("nsys/openJob", {{"directory", dir}}));
  const Json failed =
      failing.AwaitReply(failing.Request("nsys/jobReport", {{"jobId", failing_job["result"]["jobId"]}}));
  ASSERT_TRUE(failed.contains("error")) << failed.dump();
  EXPECT_EQ(failed["error"]["code"], -32603);
  const std::string message = failed["error"]["message"];
  EXPECT_NE(message.find("exit status 7"), std::string::npos) << message;
  EXPECT_NE(message.find("no nodes"), std::string::npos) << message;
  // A job whose output is not JSON: read by the one parse of untrusted JSON, whose error names the bad byte.
  InMemoryClient garbled(options);
  garbled.Initialize({{"capabilities", Json::object()},
                      {"initializationOptions",
                       {{"noCache", true}, {"runLauncher", {"sh", "-c", "printf '{\"ranks\": \\377}'", "sh"}}}}});
  const Json garbled_job = garbled.AwaitReply(garbled.Request("nsys/openJob", {{"directory", dir}}));
  const Json unread =
      garbled.AwaitReply(garbled.Request("nsys/jobReport", {{"jobId", garbled_job["result"]["jobId"]}}));
  ASSERT_TRUE(unread.contains("error")) << unread.dump();
  const std::string unread_message = unread["error"]["message"];
  EXPECT_EQ(unread_message.rfind("The job launcher printed no report: ", 0), 0u) << unread_message;
  EXPECT_NE(unread_message.find("UTF-8"), std::string::npos) << unread_message;
  InMemoryClient missing(options);
  missing.Initialize({{"capabilities", Json::object()},
                      {"initializationOptions", {{"noCache", true}, {"runLauncher", {"nsys-ai-no-such-launcher"}}}}});
  const Json missing_job = missing.AwaitReply(missing.Request("nsys/openJob", {{"directory", dir}}));
  const Json absent =
      missing.AwaitReply(missing.Request("nsys/jobReport", {{"jobId", missing_job["result"]["jobId"]}}));
  ASSERT_TRUE(absent.contains("error")) << absent.dump();
  EXPECT_NE(absent["error"]["message"].get<std::string>().find("nsys-ai-no-such-launcher"), std::string::npos);
#endif
}

}  // namespace
}  // namespace nsys::testing
