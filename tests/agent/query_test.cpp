// The typed Query: the offline filler in rust-analyzer's style (check(question, expected Queries)), the reading in
// words, the bounds an untrusted filler must keep, and the executor over a real export (check(Query, fixture,
// figures from SQL)).
#include "nsys/agent/query.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/agent/query_answer.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

// A small vocabulary in the shape of a real PyTorch profile's.
QueryVocabulary Vocabulary() {
  QueryVocabulary v;
  v.kernels = {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8", "nvfuser_pointwise_f0_c1_r0_g0",
               "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "vectorized_elementwise_kernel"};
  v.api = {"cudaMalloc", "cudaFree", "cudaLaunchKernel", "cudaStreamSynchronize", "cudaMemcpyAsync"};
  v.nvtx = {"runFusionWithInputs", "aten::linear", "forward", "ProfilerStep#3"};
  return v;
}

Reading Fill(const std::string& question) {
  return FillQueries(question, Vocabulary());
}

void Check(const std::string& question, const std::vector<Query>& want) {
  const Reading r = Fill(question);
  EXPECT_TRUE(r.complete()) << question << ": unread " << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), want.size()) << question;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.queries[i], want[i]) << question << "\n  read: " << DescribeQuery(r.queries[i])
                                     << "\n  want: " << DescribeQuery(want[i]);
  }
}

Query Q(std::vector<Measure> measures, Subject subject, Scope scope = {}) {
  Query q;
  q.measures = std::move(measures);
  q.subject = std::move(subject);
  q.scope = std::move(scope);
  return q;
}

TEST(QueryFill, ACompoundQuestionIsOneQueryWithEveryMeasure) {
  Check("How many cudaMalloc calls were made, their total time, and the slowest one?",
        {Q({Measure::kCount, Measure::kTotal, Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true})});
}

TEST(QueryFill, AYesNoComparisonOfTwoGpus) {
  Query q = Q({Measure::kIdle}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  q.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  q.form = Form::kYesNo;
  Check("Is GPU 0 idle more than GPU 1?", {q});
  q.yes_if_less = true;
  Check("is gpu0 idle less than gpu1?", {q});
}

TEST(QueryFill, KernelsInsideAnNvtxRange) {
  Check("How much GPU time do the kernels launched inside runFusionWithInputs take?",
        {Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "runFusionWithInputs", {}, {}})});
}

TEST(QueryFill, WhichRangeLaunchesAFamilyOfKernels) {
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser", ""});
  q.group_by = GroupBy::kRange;
  q.rank = Rank::kTop;
  Check("Which NVTX range launches the nvfuser kernels?", {q});
}

TEST(QueryFill, StatisticsScopesAndRankings) {
  Check("whats the median kernel duration on GPU 1?",
        {Q({Measure::kMedian}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Check("p99 of cudaStreamSynchronize", {Q({Measure::kP99}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Query top = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 3;
  Check("top 3 kernels by total time", {top});
  Check("How many bytes were copied host to device in the first 0.5 s?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"}, Scope{{}, {}, -1, "", 0.0, 0.5})});
}

TEST(QueryFill, TwoQuestionsInOneAreTwoQueries) {
  const Reading r = Fill("How many kernels ran on GPU 0, and what is the average duration of cudaLaunchKernel?");
  ASSERT_EQ(r.queries.size(), 2u);
  EXPECT_EQ(r.queries[0], Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}}));
  EXPECT_EQ(r.queries[1].subject, (Subject{EventKind::kApi, "cudaLaunchKernel", "", "", true}));
  EXPECT_EQ(r.queries[1].measures, std::vector<Measure>{Measure::kAverage});
}

TEST(QueryFill, BoundsClassesAndComparisonsAreSlotsToo) {
  Scope longer;
  longer.longer_than_ns = 100000;
  Check("How many kernels ran longer than 100 us?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, longer)});
  Scope large;
  large.larger_than_bytes = 1000000;
  large.devices = {0};
  Check("how many h2d copies on gpu 0 were larger than 1 MB?",
        {Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"}, large)});
  Query syncs = Q({Measure::kCount}, {EventKind::kApi, "", "", "sync"});
  syncs.group_by = GroupBy::kName;  // a family of calls is stated call by call, with its total
  Check("How many blocking synchronization calls are there?", {syncs});
  Query both = Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  both.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  Check("compare GPU 0 and GPU 1", {both});
}

// A part of a question that names no subject takes the one a later part names; a part that only says where lends
// it to the next part.
TEST(QueryFill, PartsLendEachOtherWhatTheyLeaveOut) {
  Query grid = Q({Measure::kGrid, Measure::kBlock}, {EventKind::kKernels, "nvfuser_pointwise", ""});
  Check("What grid and block size did nvfuser_pointwise use?", {grid});
  Scope stream;
  stream.stream = 16;
  Check("on stream 16, how many kernels ran and how much GPU time did they take?",
        {Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, "", ""}, stream)});
  Check("cudaMalloc - how many calls and what is their p95?",
        {Q({Measure::kCount, Measure::kP95}, {EventKind::kApi, "cudaMalloc", "", "", true})});
}

// What the lexicon does not cover is said, never dropped: a threshold is not a slot, so the reading is incomplete.
TEST(QueryFill, WordsItCannotReadMakeTheReadingIncomplete) {
  EXPECT_FALSE(Fill("How many kernels launched around 100 us after the first one?").complete());
  EXPECT_FALSE(Fill("What is the power draw of GPU 0?").complete());
  EXPECT_FALSE(Fill("hello").complete());
}

TEST(QueryReading, SaysHowTheQuestionWasRead) {
  Query q =
      Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser", ""}, Scope{{}, {}, -1, "runFusionWithInputs", {}, {}});
  EXPECT_EQ(DescribeQuery(q),
            "total time of kernels whose name contains `nvfuser`, inside NVTX ranges named like `runFusionWithInputs`, "
            "all GPUs");
}

TEST(QueryBounds, AnUntrustedFillerIsHeldToThem) {
  Query q = Q({}, {});
  EXPECT_FALSE(CheckQuery(q).ok());
  q.measures = {Measure::kCount};
  EXPECT_TRUE(CheckQuery(q).ok());
  q.subject.name = std::string(600, 'x');
  EXPECT_FALSE(CheckQuery(q).ok());
  q.subject.name.clear();
  q.form = Form::kYesNo;  // nothing to compare with
  EXPECT_FALSE(CheckQuery(q).ok());
}

// The executor on a real export: each figure is the cell of the cited row, and agrees with SQL over the export.
TEST(QueryExecute, AnswersFromTheCitedRowsAndOpensWithTheReading) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  // 1,721 kernels ran on device 1, and 50,950,507,584 bytes went host to device (the fixture's README; SQL in the
  // event_stats golden test).
  auto a =
      ws.Ask({opened->id, "How many kernels ran on GPU 1, and how many bytes were copied host to device?", ""}, {});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->answer.summary.rfind("Read as: count of kernels, all GPUs", 0), std::string::npos);
  EXPECT_NE(a->answer.summary.find("Read as: count of kernels, on device 1"), std::string::npos) << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("1,721 kernels"), std::string::npos) << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("50.95 GB"), std::string::npos) << a->answer.summary;
  ASSERT_EQ(a->answer.evidence.size(), 2u);
  EXPECT_EQ(a->answer.evidence[0].call.skill, "event_stats");
  EXPECT_EQ(a->answer.verify.rfind("nsys-ai skill run event_stats ", 0), 0u) << a->answer.verify;
}

}  // namespace
}  // namespace nsys::agent
