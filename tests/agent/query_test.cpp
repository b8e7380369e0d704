// The typed Query: the offline filler in rust-analyzer's style (check(question, expected Queries)), the reading in
// words, the bounds an untrusted filler must keep, and the executor over a real export (check(Query, fixture,
// figures from SQL)).
#include "nsys/agent/query.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "../../server/agent/src/query_lexicon.h"
#include "../derived_export.h"
#include "../skills/analysis_test_sql.h"
#include "analyze_file.h"
#include "fixtures.h"
#include "nsys/agent/query_answer.h"
#include "nsys/agent/query_json.h"
#include "nsys/core/workspace.h"
#include "nsys/support/render_text.h"

namespace nsys::agent {
namespace {

using testing::OfflineConfig;  // no cache, no user skills: the fixtures as they are

// A small vocabulary in the shape of a real PyTorch profile's.
QueryVocabulary Vocabulary() {
  QueryVocabulary v;
  v.kernels = {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8", "nvfuser_pointwise_f0_c1_r0_g0",
               "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "vectorized_elementwise_kernel"};
  v.api = {"cudaMalloc", "cudaFree", "cudaLaunchKernel", "cudaStreamSynchronize", "cudaMemcpyAsync"};
  v.nvtx = {"runFusionWithInputs", "aten::linear", "forward", "ProfilerStep#3"};
  v.device_ids = {0, 1};
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
                                     << "\n  want: " << DescribeQuery(want[i])
                                     << "\n  read: " << QueryToJson(r.queries[i]).dump()
                                     << "\n  want: " << QueryToJson(want[i]).dump();
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
  Check("how many kernels kicked off between 0.25 s and 0.55 s?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 0.25, 0.55})});
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

Query YesNo(Query q, double threshold, bool below = false) {
  q.form = Form::kYesNo;
  q.threshold = threshold;
  q.yes_if_less = below;
  return q;
}

// A threshold on the whole ("more than half of", "more than 100 ms in total") and a bound on each event ("any ...
// longer than 5 ms", "a kernel over 5 ms") are told apart by the comparator and by whether the question counts.
TEST(QueryFill, ThresholdsOnTheWholeAndBoundsOnEachEvent) {
  // The time a share is of is its base, no figure of its own (the share says it: "13.7 ms of 18.6 ms").
  Check("Is nvfuser_pointwise more than half of all the kernel time?",
        {YesNo(Q({Measure::kShare}, {EventKind::kKernels, "nvfuser_pointwise", ""}), 50)});
  Check("Is more than 100 ms spent in cudaStreamSynchronize?",
        {YesNo(Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true}), 1e8)});
  Check("Does cudaMalloc take less than a quarter of the API time?",
        {YesNo(Q({Measure::kShare, Measure::kTotal}, {EventKind::kApi, "cudaMalloc", "", "", true}), 25, true)});
  Scope longer;
  longer.longer_than_ns = 5000000;
  Check("Are any ncclDevKernel_AllReduce kernels longer than 5 ms?",
        {YesNo(Q({Measure::kCount}, {EventKind::kKernels, "ncclDevKernel_AllReduce", ""}, longer), 0)});
  Check("Is there a kernel over 5 ms?", {YesNo(Q({Measure::kCount}, {EventKind::kKernels, "", ""}, longer), 0)});
  Scope more;
  more.longer_than_ns = 10000000;
  Check("How many NVTX ranges lasted more than 10 ms?", {Q({Measure::kCount}, {EventKind::kNvtx, "", ""}, more)});
}

// What the export classifies about copies is a slot of its own: unified-memory migrations with their direction, the
// host memory a copy reads or writes, and the largest copy's size.
TEST(QueryFill, CopyKindsHostMemoryAndTheLargestCopy) {
  Check("How much data did unified memory migrate from the device to the host?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "Unified DtoH"})});
  Check("how many UVM HtoD page migrations were there?",
        {Q({Measure::kCount}, {EventKind::kMemcpy, "", "Unified HtoD"})});
  Subject pageable{EventKind::kMemcpy, "", "HtoD"};
  pageable.memory = "pageable";
  Check("How many HtoD copies come from pageable memory?", {Q({Measure::kCount}, pageable)});
  Check("How big was the largest device-to-device copy?", {Q({Measure::kMaxBytes}, {EventKind::kMemcpy, "", "DtoD"})});
  // The largest copy's own duration is a figure of one event among others: not read, not answered for all of them.
  EXPECT_FALSE(Fill("Take the biggest host-to-device copy. How long did it run?").complete());
}

// A GPU's idle time with copies and memsets named beside kernels is the idle time of all of its work.
TEST(QueryFill, IdleWithEveryKindOfGpuWork) {
  Check("How long was GPU 0 idle, with no kernel, memcpy or memset running?",
        {Q({Measure::kIdle}, {EventKind::kGpu, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
}

// Sentences that set the scene are read as the scene: their words do not make the reading incomplete, and their
// subject serves a question that names none. Narrative and talk are no slots.
TEST(QueryFill, SentencesThatSetTheSceneAndTalk) {
  Check("I suspect we sync way too often. How many cudaStreamSynchronize calls are in this trace?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Check("Both processes call cudaStreamSynchronize. Is more than half a second spent in that call?",
        {YesNo(Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true}), 5e8)});
  Check("quick one pls: what's GPU 1's total kernel time in the PyTorch run on the A100?",
        {Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Query two = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  two.group_by = GroupBy::kName;
  two.rank = Rank::kTop;
  two.limit = 2;
  Check("Which two kernels take the most time?", {two});
  Check("What share of kernel time do the GEMMs take?", {Q({Measure::kShare}, {EventKind::kKernels, "GEMM", ""})});
}

// A relation between two names other than launching, an instance picked by its rank, a window from the end, a yes/no
// question about all of some events: none is a slot, so the reading is incomplete and the question is declined,
// never answered in part.
TEST(QueryFill, RelationsInstancesAndWindowsFromTheEndAreNotRead) {
  EXPECT_FALSE(Fill("how much time did the cudaMalloc calls before nvfuser_pointwise take?").complete());
  EXPECT_FALSE(Fill("How many kernels ran under the second forward range?").complete());
  EXPECT_FALSE(Fill("How many kernels ran in the last 200 ms?").complete());
  EXPECT_FALSE(Fill("Are those HtoD copies pinned? How many are pageable?").complete());
  EXPECT_FALSE(Fill("How many kernels did rank 0 run?").complete());  // an MPI rank is no process id
}

// Words that point back, describe the recording or qualify a noun, and slots said twice (2026-11-26, from the wrong
// answers of the older blind batches; batch 17 was not read).
TEST(QueryFill, PointingBackDescribingTheRecordingAndTwoValuesOfOneSlot) {
  // "its launches": the kernels named before, not every kernel.
  Check("what's the mean duration of nvfuser_pointwise, and the p90 across its launches?",
        {Q({Measure::kAverage, Measure::kP90}, {EventKind::kKernels, "nvfuser_pointwise", ""})});
  Check("How long do cudaMalloc calls take on average, and what is the longest of those calls?",
        {Q({Measure::kAverage, Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  // A name before "trace" or "profile", or opening a clause before "run", says which recording: no filter.
  Check("How many cudaFree calls are in the forward trace?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaFree", "", "", true})});
  Check("forward run: how many kernels ran?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
  // ... but a name before "run" in a question about it is the subject.
  Check("how long did vectorized_elementwise_kernel run?",
        {Q({Measure::kTotal}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
  // "GPU kernels": the GPU says which events; the kernels are counted, not the GPUs.
  Check("how many GPU kernels ran inside runFusionWithInputs?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "runFusionWithInputs", {}, {}})});
  // Two copy kinds in one clause are set side by side, as two names are; summed ("combined"), no Query holds them.
  // Two kinds of host memory in a yes/no question that measures nothing ask which kind the copies are: unread.
  Query versus = Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"});
  versus.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  Check("how many host-to-device and device-to-host copies are there?", {versus});
  EXPECT_FALSE(Fill("how many host-to-device and device-to-host copies are there combined?").complete());
  EXPECT_FALSE(Fill("are the DtoH copies pageable or pinned?").complete());
  Check("how many HtoD copies vs DtoH copies?", {versus});
  Query unified = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "Unified HtoD"});
  unified.versus_subject = Subject{EventKind::kMemcpy, "", "Unified DtoH"};
  Check("How many bytes did unified memory migrate host-to-device and device-to-host?", {unified});
  // A clause that only says by what lends it: "For each process, ..." groups by process.
  Query per_process = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  per_process.group_by = GroupBy::kPid;
  Check("For each process (PID), how many kernels ran?", {per_process});
  // A name of kernels only, said with "calls", is its kernels.
  Check("How many calls of the vectorized_elementwise_kernel kernel?",
        {Q({Measure::kCount}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
  // "each of the two processes": stop words and a count before the noun do not hide it.
  Query bytes_per_process = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"});
  bytes_per_process.group_by = GroupBy::kPid;
  Check("How many bytes did each of the two processes copy host-to-device?", {bytes_per_process});
  // A hardware counter: declined whatever else the question says, and said to be what no Query measures.
  const Reading l2 = Fill("what's the L2 cache hit rate of vectorized_elementwise_kernel?");
  EXPECT_FALSE(l2.complete());
  EXPECT_EQ(l2.not_held, (std::vector<std::string>{"L2", "cache", "hit rate"}));
  EXPECT_TRUE(Fill("What is the average duration of cudaLaunchKernel?").not_held.empty());
  // A name and a fragment opening a clause before "run" describe the run; neither filters.
  Check("forward nvfuser run: how many kernels ran?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
  // "did X take longer than half a second": in a yes/no question that counts nothing, a threshold on X's total, said
  // back in milliseconds.
  Query longer = YesNo(Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true}), 5e8);
  Check("Did forward take longer than half a second?", {longer});
  EXPECT_NE(DescribeQuery(longer).find("(yes if total time is above 500 ms)"), std::string::npos)
      << DescribeQuery(longer);
  // "instances" counts.
  Check("instances of vectorized_elementwise_kernel?",
        {Q({Measure::kCount}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
}

// Plain words a clause that names its events once does not read describe those events, and the reading lists them;
// words that may change the question, a second name, a comparison, or no name at all keep them unread.
TEST(QueryFill, PlainWordsDescribeTheEventsTheClauseNames) {
  const Reading conv = Fill("total time of the cudaMalloc allocator bookkeeping calls?");
  EXPECT_TRUE(conv.complete());
  EXPECT_EQ(conv.described, (std::vector<std::string>{"allocator", "bookkeeping"}));
  Check("total time of the cudaMalloc allocator bookkeeping calls?",
        {Q({Measure::kTotal}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  const Reading reduce =
      Fill("What share of kernel time goes to the ring-reduce collective ncclDevKernel_AllReduce_Sum_f32_RING_LL?");
  EXPECT_TRUE(reduce.complete());
  EXPECT_EQ(reduce.described, (std::vector<std::string>{"ring-reduce"}));
  // No name in the clause: the word may be the name asked about.
  const Reading solver = Fill("how many solver kernels ran?");
  EXPECT_FALSE(solver.complete());
  EXPECT_EQ(solver.unread, (std::vector<std::string>{"solver"}));
  // Words of time, state, relation or size change the question: unread whatever the clause names.
  for (const char* q : {"how many cudaFree calls after warmup?", "total time of the failed cudaMalloc calls?",
                        "how many overlapping nvfuser_pointwise kernels?", "how many non-blocking cudaFree calls?",
                        "how many cudaMalloc calls per thread?"}) {
    EXPECT_FALSE(Fill(q).complete()) << q;
    EXPECT_TRUE(Fill(q).described.empty()) << q;
  }
  // Two names, or a comparison: an unread word may relate them.
  EXPECT_FALSE(Fill("how many times does the allocator thing call cudaFree from cudaMalloc?").complete());
  EXPECT_FALSE(Fill("is the gemm sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8 slower than elementwise "
                    "vectorized_elementwise_kernel?")
                   .described.size() > 0);
}

// A fragment of three letters names only where a part of the name starts: "set" is no part of cudaMemset's name.
TEST(QueryFill, AShortFragmentStartsAPartOfTheName) {
  QueryVocabulary v = Vocabulary();
  v.api.push_back("cudaMemset");
  const Reading set = FillQueries("how long did the cudaMemset calls that set the buffers take?", v);
  ASSERT_EQ(set.queries.size(), 1u);
  EXPECT_EQ(set.queries[0].subject.name, "cudaMemset");
  EXPECT_FALSE(set.queries[0].versus_subject.has_value()) << DescribeQuery(set.queries[0]);
  // At a part's start it names: "mem" of cudaMemset (a capital after a small letter), "all" is a lexicon word.
  const Reading mem = FillQueries("how many Mem calls?", v);
  ASSERT_EQ(mem.queries.size(), 1u);
  EXPECT_EQ(mem.queries[0].subject.name, "Mem");
}

// "how many kernels did TensorRT run": a framework's name before "run" is the program, even where a range has it.
TEST(QueryFill, AFrameworkThatRanIsNoFilter) {
  QueryVocabulary v = Vocabulary();
  v.nvtx.push_back("TensorRT:ExecutionContext::enqueue");
  const Reading r = FillQueries("How many distinct kernels did TensorRT run in this profile?", v);
  ASSERT_EQ(r.queries.size(), 1u) << (r.unread.empty() ? "" : r.unread.front());
  EXPECT_TRUE(r.queries[0].scope.inside.empty()) << DescribeQuery(r.queries[0]);
  EXPECT_TRUE(r.queries[0].subject.name.empty()) << DescribeQuery(r.queries[0]);
}

// The JSON form read from a model's untrusted JSON: each member's type is checked and a bad one named by its path; a
// Query written out reads back as itself.
// The launch delay is the guide's (HTA's): from the end of the launching call, not its start (the latency).
// Arithmetic in parentheses defines a measure asked outside them; "by what factor" asks for the margin of two.
// "Ignoring the first (warm-up) iteration, ...", "leaving out the last 2 runs": the first or last events by start are
// left out (Subject::skip), lent from a clause of its own to the question after it, or narrowing the question before.
// Windows open at one end ("after 2.5 s", "from the 4 s mark onward", "before 300 ms"), times said as marks ("between
// the 1 s and 2 s marks"), the capture clock said in parentheses ("(timestamps measured from the session start)"),
// the window rule said again ("Count only the kernels that started in that window.", "(copies starting inside that
// window)": every Query takes events so), and a GPU that began its kernels as the origin.
TEST(QueryFill, OpenWindowsMarksAndTheWindowRuleSaidAgain) {
  const Query after = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 2.5, {}});
  Check("How many kernels launched after 2.5 s?", {after});
  Check("how many kernels started from the 2.5 s mark onward?", {after});
  const Query before = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 0.0, 0.3});
  Check("How many kernels ran before 300 ms?", {before});
  Check("How many kernels ran between the 0 s and 0.3 s marks?", {before});
  Query clock = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 1.0, 2.0});
  clock.scope.capture_clock = true;
  Check("How many kernels ran between 1 s and 2 s (timestamps measured from the session start)?", {clock});
  Check(
      "How many kernels ran between 1 s and 2 s (session start = 0)? Count only the kernels that started in that "
      "window.",
      {clock});
  const Reading rule = Fill("How many kernels ran between 1 s and 2 s (kernels starting inside that window)?");
  EXPECT_TRUE(rule.complete());
  ASSERT_EQ(rule.defined.size(), 1u);
  EXPECT_EQ(rule.defined.front(), "kernels starting inside that window");
  Scope first_50ms{{}, {}, -1, "", 0.0, 0.05};
  first_50ms.from_first_kernel = true;
  Check("In the first 50 ms after the card began executing kernels, which stream accounted for the most kernel time?",
        {[&] {
          Query q = Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, first_50ms);
          q.group_by = GroupBy::kStream;
          q.rank = Rank::kTop;
          return q;
        }()});
}

// Everyday words: Python's own functions are no traced event (not held, never a name's fragment); copies of the
// program are its processes; a GPU's own memory is a DtoD copy's both ends; busy with something is busy with any work;
// a phrase said of the GPU is the same said of the cards; "separate" and "individual" count each one.
TEST(QueryFill, EverydayWordsForEventsAndPlaces) {
  const Reading python = Fill("Which Python function in the training script was the slowest?");
  EXPECT_FALSE(python.complete());
  EXPECT_FALSE(python.not_held.empty());
  Query per_copy = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  per_copy.group_by = GroupBy::kPid;
  per_copy.rank = Rank::kTop;
  Check("Two instances of the app shared the GPU. Which of them used the most kernel time?", {per_copy});
  Check("How many bytes did the GPU copy inside its own memory?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "DtoD"})});
  Check("What percentage of the time was GPU 1 busy with something, from its first activity to its last?",
        {Q({Measure::kUtilization}, {EventKind::kGpu, ""}, Scope{{1}, {}, -1, "", {}, {}})});
  // (A class of calls is answered per call name, as said of the GPU.)
  Query waiting = Q({Measure::kTotal}, {EventKind::kApi, "", "", "sync"});
  waiting.group_by = GroupBy::kName;
  Check("How long did the host spend waiting for the cards?", {waiting});
  Check("How many separate calculations ran on the GPU?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
  // A word before a noun of the recording says which run it is ("this particle simulation"), never a name's part; one
  // call of the kernel ranked is one execution of it, no CUDA API call.
  Query top = Q({Measure::kTotal, Measure::kAverage}, {EventKind::kKernels, "", ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  Check(
      "For this nvfuser simulation, which kernel eats the most GPU time, and how long does one call of it take on "
      "average?",
      {top});
  // Streams created are not the streams that carried work: unread.
  EXPECT_FALSE(Fill("How many streams did the program set up?").complete());
}

// Read from batch 100 (questions_fresh92.json): "is it true that" asks yes or no; "beat" a rate is to exceed it; a
// span phrase that opens the sentence with "the last" alone; words before a range noun and the whole name in
// parentheses after it describe that name; a place said with the measure that ranks ("comes third in total GPU time",
// "the third kernel by total time") is a place in a ranking by name, never the third to start.
TEST(QueryFill, TruthsRatesSpansAndPlacesByAMeasure) {
  Query more = Q({Measure::kTotal}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}});
  more.versus_scope = Scope{{0}, {}, -1, "", {}, {}};
  more.form = Form::kYesNo;
  Check("Is it true that GPU 1 ran more kernel time than GPU 0?", {more});
  Query fast = YesNo(Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"}), 300);
  Check("Do the host-to-device copies beat 300 GB/s?", {fast});
  Query busy = Q({Measure::kUtilization}, {EventKind::kKernels, ""});
  busy.group_by = GroupBy::kDevice;
  Check("From the first kernel to the last, what fraction of the time is the GPU busy?", {busy});
  Check("How long do the linear layer ranges (aten::linear) take in total?",
        {Q({Measure::kTotal}, {EventKind::kNvtx, "aten::linear", "", "", true})});
  Query third = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  third.group_by = GroupBy::kName;
  third.rank = Rank::kTop;
  third.offset = 2;
  third.limit = 1;
  Check("Which kernel comes third in total GPU time?", {third});
  Check("What is the third kernel by total time?", {third});
}

// Read from batch 106 (questions_fresh98.json): plain words a "meaning" or "i.e." after a comma names ("what share of
// the kernel time is matrix math, meaning the kernels with 'xmma_gemm' in their name") are those names; a range's
// name before "step" or "stage" is that range.
TEST(QueryFill, PlainWordsAnExplanationNames) {
  Check("what share of the kernel time is matrix math, meaning the kernels with 'xmma_gemm' in their name?",
        {Q({Measure::kShare}, {EventKind::kKernels, "xmma_gemm"})});
  Check("what share of the kernel time is fused math, i.e. the vectorized_elementwise kernels?",
        {Q({Measure::kShare}, {EventKind::kKernels, "vectorized_elementwise"})});
  Check("how long did the forward step take in total?",
        {Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true})});
  // Two names after it may relate ("the nvjet matmul kernels"): not this reading.
  EXPECT_FALSE(
      Fill("what share of the kernel time is reduction, i.e. the nvfuser_pointwise forward kernels?").complete());
}

TEST(QueryFill, TheFirstOrLastOnesLeftOut) {
  Query mean = Q({Measure::kAverage}, {EventKind::kNvtx, "forward", "", "", true});
  mean.subject.skip = 1;
  Check("Ignoring the first (warm-up) iteration, what is the average duration of the forward ranges?", {mean});
  Check("What is the mean duration of the forward ranges? Skip the first one.", {mean});
  Query slowest = Q({Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true});
  slowest.subject.skip = -2;
  Check("leaving out the last 2 cudaMalloc calls, how long was the slowest?", {slowest});
  EXPECT_EQ(DescribeQuery(mean),
            "average duration of NVTX ranges named `forward`, leaving out the first to start, the "
            "whole profile");
  // One event and some left out are two selections no Query makes at once.
  Query both = mean;
  both.subject.nth = 2;
  EXPECT_FALSE(CheckQuery(both).ok());
}

TEST(QueryFill, LaunchDelayDefinitionsInParenthesesAndFactors) {
  Check("what is the average launch delay of the nvfuser_pointwise kernels?",
        {Q({Measure::kLaunchDelay}, {EventKind::kKernels, "nvfuser_pointwise"})});
  Check("what is the average launch latency of the nvfuser_pointwise kernels?",
        {Q({Measure::kLatency}, {EventKind::kKernels, "nvfuser_pointwise"})});
  const Reading bandwidth = Fill("What bandwidth do the HtoD copies get (total bytes / total copy time)?");
  EXPECT_EQ(bandwidth.defined, (std::vector<std::string>{"total bytes / total copy time"}));
  Check("What bandwidth do the HtoD copies get (total bytes / total copy time)?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("What bandwidth do the HtoD copies get (total bytes divided by total copy time)?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"})});
  // Parentheses that only group or scope, or that name events, are read as any other words.
  EXPECT_TRUE(Fill("total kernel time (per GPU)?").defined.empty());
  EXPECT_TRUE(Fill("total time of cudaMalloc (cudaMalloc / cudaFree)?").defined.empty());
  // Nothing measured outside them: nothing defined.
  EXPECT_FALSE(Fill("the HtoD copies (total bytes / total copy time)?").complete());
  const Reading factor = Fill("which takes more total time, cudaMalloc or cudaFree, and by what factor?");
  EXPECT_TRUE(factor.complete()) << (factor.unread.empty() ? "" : factor.unread.front());
  Check("what average bandwidth do the HtoD copies reach?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"})});
}

// The rest of a launch configuration (registers, shared memory, threads in the launch, the GPU's SMs) are measures;
// the span and a GPU's idle time said in the guide's own words are those measures; words that point back, or name
// events only as the unit of a figure ("per copy"), mean the events said before; two ranges side by side are two.
TEST(QueryFill, LaunchFiguresSpansSaidInWordsAndEventsSaidAgain) {
  Check("How many registers per thread and how much dynamic shared memory does nvfuser_pointwise use?",
        {Q({Measure::kRegisters, Measure::kDynamicShared}, {EventKind::kKernels, "nvfuser_pointwise"})});
  Check("What is the total number of threads (grid x block) of nvfuser_pointwise?",
        {Q({Measure::kThreads}, {EventKind::kKernels, "nvfuser_pointwise"})});
  EXPECT_EQ(Fill("What is the total number of threads (grid x block) of nvfuser_pointwise?").defined,
            (std::vector<std::string>{"grid x block"}));
  // One launch figure against another of the same launch: a versus measure. A bound on each launch against one is
  // not held: declined, not answered in part.
  Query fewer = Q({Measure::kGrid, Measure::kSmCount}, {EventKind::kKernels, "nvfuser_pointwise"});
  fewer.versus_measure = Measure::kSmCount;
  fewer.form = Form::kYesNo;
  fewer.yes_if_less = true;
  Check("Does nvfuser_pointwise launch fewer blocks than the GPU has SMs?", {fewer});
  // "Did it ...", opening the question after a scene that names the kernel, asks yes or no the same way.
  Check("I hear nvfuser_pointwise is tiny. Did it launch fewer blocks than the GPU has SMs?", {fewer});
  // The same comparison asked of each launch is a bound on the launches: their grid below their GPU's SMs.
  Query below = Q({Measure::kCount}, {EventKind::kKernels});
  below.scope.grid_below_sms = true;
  Check("How many launches used fewer blocks than the GPU has SMs?", {below});
  EXPECT_FALSE(Fill("How many launches used more blocks than the GPU has SMs?").complete());
  Query listed = Q({Measure::kAverage, Measure::kMedian}, {EventKind::kKernels, "nvfuser_pointwise"});
  listed.versus_measure = Measure::kMedian;
  Check("nvfuser_pointwise: mean vs median duration?", {listed});
  Query idle_share = Q({Measure::kIdleShare}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check("Between the first kernel start and the last kernel end, what percentage of the time is GPU 0 idle?",
        {idle_share});
  EXPECT_EQ(Fill("Between the first kernel start and the last kernel end, what percentage of the time is GPU 0 idle?")
                .defined,
            (std::vector<std::string>{"Between the first kernel start and the last kernel end"}));
  Check("what percentage of the time from its first kernel starting to its last kernel finishing is GPU 0 idle?",
        {Q({Measure::kSpan, Measure::kIdleShare}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("How long does GPU 0 run no kernel at all?",
        {Q({Measure::kIdle}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("How long is GPU 0 idle, and what percentage of the span is it?",
        {Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("What is the total time of nvfuser_pointwise, and what share of kernel time does it account for?",
        {Q({Measure::kTotal, Measure::kShare}, {EventKind::kKernels, "nvfuser_pointwise"})});
  Check("How many bytes did the HtoD copies move, and what was the average size per copy?",
        {Q({Measure::kBytes, Measure::kAvgBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check(
      "Unified memory migrations back to the host: total bytes, how many migrations, and the average size per "
      "migration?",
      {Q({Measure::kBytes, Measure::kCount, Measure::kAvgBytes}, {EventKind::kMemcpy, "", "Unified DtoH"})});
  Check("How many bytes did the memsets write?", {Q({Measure::kBytes}, {EventKind::kMemset, "", ""})});
  // "than" with nothing on its other side, and a launch figure against the SMs, are comparisons no Query holds.
  EXPECT_FALSE(Fill("How many SMs are there, and how many kernels used fewer blocks than that?").complete());
  EXPECT_FALSE(Fill("Does nvfuser_pointwise launch at least one block per SM?").complete());
  // "if you divide ..." defines the measure asked before it.
  const Reading divide =
      Fill("What is the effective HtoD bandwidth on GPU 0 if you divide the bytes by the total copy time?");
  EXPECT_EQ(divide.defined, (std::vector<std::string>{"if you divide the bytes by the total copy time"}));
  Check("What is the effective HtoD bandwidth on GPU 0 if you divide the bytes by the total copy time?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"}, Scope{{0}, {}, -1, "", {}, {}})});
  // A scene that names its events but no name serves the question that points back at them.
  Check("Just one kernel here. How many thread blocks did its grid have?",
        {Q({Measure::kGrid}, {EventKind::kKernels, "", ""})});
  // A kernel's name said with copies says which run is meant: copies have no names.
  const Reading run = Fill("How many bytes did the memcpys move in this nvfuser_pointwise run?");
  EXPECT_EQ(run.described, (std::vector<std::string>{"nvfuser_pointwise"}));
  // "+" is "and" between parts, a sum between two names; "as a %" is a share; a name of NVTX ranges only said with
  // "calls" is its ranges; "rank 0" of a one-process export is the recording.
  Check("total time of cudaMalloc + number of calls?",
        {Q({Measure::kTotal, Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  // Two names summed are one subject, either name ("a|b"); a name and a copy kind summed, or two kinds, are not.
  Check("how many nvfuser_pointwise + vectorized_elementwise_kernel kernels ran?",
        {Q({Measure::kCount}, {EventKind::kKernels, "nvfuser_pointwise|vectorized_elementwise_kernel"})});
  Check("how much time do nvfuser_pointwise and vectorized_elementwise_kernel take together?",
        {Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser_pointwise|vectorized_elementwise_kernel"})});
  EXPECT_FALSE(Fill("how many bytes did the HtoD and DtoH copies move together?").complete());
  EXPECT_FALSE(Fill("total time of cudaMalloc plus nvfuser_pointwise?").complete());
  Check("How long is GPU 0 idle, as a % of its span?",
        {Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("how many runFusionWithInputs calls were there?",
        {Q({Measure::kCount}, {EventKind::kNvtx, "runFusionWithInputs", "", "", true})});
  QueryVocabulary one = Vocabulary();
  one.traced_processes = 1;
  const Reading rank = FillQueries("rank 0: how many kernels ran?", one);
  ASSERT_TRUE(rank.complete()) << (rank.unread.empty() ? "" : rank.unread.front());
  ASSERT_EQ(rank.queries.size(), 1u);
  EXPECT_EQ(rank.queries[0], Q({Measure::kCount}, {EventKind::kKernels, "", ""}));
  one.traced_processes = 2;  // two ranks: rank 0 is no process id the question can be read with
  EXPECT_FALSE(FillQueries("rank 0: how many kernels ran?", one).complete());
  // "not running any kernel" is idle; a window "after the capture started" is on the capture clock, from the session
  // start (QueryExecute.WindowsOnTheCaptureClock); "that window" in a later sentence is the span said before.
  Check("How long is GPU 0 not running any kernel?",
        {Q({Measure::kIdle}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Query after_capture = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 1.0, 1.5});
  after_capture.scope.capture_clock = true;
  Check("how many kernels ran between 1.0 s and 1.5 s after the capture started?", {after_capture});
  Check("On GPU 0, from its first kernel start to its last kernel end, how long is it idle? And what % of that window?",
        {Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}})});
  // A window "after the first kernel starts" counts from that start; with no length or bound to count, it is unread.
  Scope first_100ms{{0}, {}, -1, "", 0.0, 0.1};
  first_100ms.from_first_kernel = true;
  Check("In the first 100 ms after the first kernel starts on GPU 0, how many kernels start there?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, first_100ms)});
  EXPECT_FALSE(Fill("How many kernels started after the first kernel?").complete());
  // "the next 100 ms" counts from the origin said before it; with none said, it is unread (the profile's start is not
  // what "next" counts from).
  Check("From when the first kernel starts on GPU 0, how many kernels start there over the next 100 ms?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, first_100ms)});
  EXPECT_FALSE(Fill("How many kernels start on GPU 0 in the next 100 ms?").complete());
  // The first kernel as the origin, said in any of the shapes an origin takes: a word that sets one, pointing words,
  // the kernel, the words that say it began; a word that only takes ("taking", "using") needs "as time zero" or the
  // like after it. A GPU said twice is one.
  for (const char* origin :
       {"Relative to the first kernel on GPU 0",
        "Counting from the moment the first kernel hits "
        "the GPU on GPU 0",
        "Taking the first kernel launch in the trace as time zero on GPU 0",
        "Using the first kernel as the origin on GPU 0", "Since the very first kernel began on GPU 0"}) {
    Check(std::string(origin) + ", how many kernels start on GPU 0 in the next 100 ms?",
          {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, first_100ms)});
  }
  EXPECT_FALSE(Fill("Taking the first kernel, how many kernels start on GPU 0 in the next 100 ms?").complete());
  // Words of English for a total, a duration and a comparison of totals.
  Check("How much memset time did the run add up to?", {Q({Measure::kTotal}, {EventKind::kMemset, "", ""})});
  Check("What is the average length of a cudaMalloc call?",
        {Q({Measure::kAverage}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  Query dearer = Q({Measure::kTotal}, {EventKind::kMemcpy, "", "HtoD"});
  dearer.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  dearer.form = Form::kYesNo;
  Check("Are HtoD copies more expensive than DtoH copies?", {dearer});
  dearer.yes_if_less = true;
  Check("Are HtoD copies cheaper than DtoH copies?", {dearer});
  // "events" is the events the clause names; CUDA's event objects are no Query's.
  Check("How many kernel events ran on GPU 1?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
  EXPECT_FALSE(Fill("How many CUDA events were recorded?").complete());
  // After "compare", events of another kind are the other side; the same kind said again is the first side.
  Query launch_vs_kernels = Q({Measure::kTotal}, {EventKind::kApi, "cudaLaunchKernel", "", "", true});
  launch_vs_kernels.versus_subject = Subject{EventKind::kKernels, "", ""};
  Check("compare the time in cudaLaunchKernel calls with the time of the kernels", {launch_vs_kernels});
  Query copies_vs_kernels = Q({Measure::kTotal}, {EventKind::kMemcpy, "", ""});
  copies_vs_kernels.versus_subject = Subject{EventKind::kKernels, "", ""};
  Check("compare memcpy time and kernel time", {copies_vs_kernels});
  // A second kind of events neither compared nor named together is unread, never dropped; "calls of the X kernel" is
  // the kernel's runs.
  EXPECT_FALSE(Fill("how long do cudaLaunchKernel calls take for the kernels they launch?").complete());
  Check("How many calls of the vectorized_elementwise_kernel kernel?",
        {Q({Measure::kCount}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
  // "how many threads" of a kernel are its launch's (blocks x threads per block, as the reading says); host threads
  // said so are no Query's; "how many threads per block" is the block's.
  Check("how many threads did the kernel launch in total?", {Q({Measure::kThreads}, {EventKind::kKernels, ""})});
  Check("how many threads per block did the kernel use?", {Q({Measure::kBlock}, {EventKind::kKernels, ""})});
  EXPECT_FALSE(Fill("how many host threads call cudaMalloc?").complete());
  // A whole name in parentheses names what the words before it describe.
  const Reading paren =
      Fill("What is the median duration of the fused pointwise kernel (nvfuser_pointwise_f0_c1_r0_g0)?");
  EXPECT_EQ(paren.described, (std::vector<std::string>{"fused", "pointwise"}));
  Check("What is the median duration of the fused pointwise kernel (nvfuser_pointwise_f0_c1_r0_g0)?",
        {Q({Measure::kMedian}, {EventKind::kKernels, "nvfuser_pointwise_f0_c1_r0_g0", "", "", true})});
  // Of a rate, "faster" is the larger: the yes of "is the HtoD bandwidth faster" is a larger bandwidth.
  Query faster = Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"});
  faster.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  faster.form = Form::kYesNo;
  Check("Is the HtoD bandwidth faster than the DtoH bandwidth?", {faster});
  // A yes/no question with only a word of speed, about one side of the comparison just made, asks that comparison.
  Query bandwidths = Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"});
  bandwidths.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  Query dtoh_faster = bandwidths;
  dtoh_faster.subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  dtoh_faster.versus_subject = Subject{EventKind::kMemcpy, "", "HtoD"};
  dtoh_faster.form = Form::kYesNo;
  Check("HtoD vs DtoH bandwidth: is device-to-host faster?", {bandwidths, dtoh_faster});
  Check("Looking only at GPU 1: how many kernels ran?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
}

// A last clause that only names events asks the question before again of them; "what about" does so at once. A
// scene's subject does not override the narrower one a Query took from it. "Faster" ranks the least first.
TEST(QueryFill, FollowUpsScenesAndTheFasterOne) {
  Check("What bandwidth do the HtoD copies reach, and what about DtoH?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"}),
         Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "DtoH"})});
  Check("how many cudaMalloc calls are there, what about cudaFree, and how long do they take in total?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true}),
         Q({Measure::kCount, Measure::kTotal}, {EventKind::kApi, "cudaFree", "", "", true})});
  Check("This is a unified-memory run. How many HtoD migrations happened, and how many bytes did they move?",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "Unified HtoD"})});
  // "stream 14 vs stream 16": the second stream is the other side; two streams not compared are not one Query's.
  Query streams = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, ""});
  streams.scope.stream = 14;
  streams.versus_scope = Scope{};
  streams.versus_scope->stream = 16;
  Check("Stream 14 vs stream 16: kernel count, and total kernel time on each?", {streams});
  Query more = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  more.scope.stream = 14;
  more.versus_scope = streams.versus_scope;
  Query count = more;
  count.measures = {Measure::kCount};
  more.limit = 2;  // "how much more": the margin of two
  Check("Stream 14 vs stream 16: kernel count. How much more kernel time does stream 14 have?", {count, more});
  EXPECT_FALSE(Fill("total kernel time on streams 14 and 16?").complete());
  // A margin with nothing to take it between is not dropped in silence: the reading is incomplete.
  EXPECT_FALSE(Fill("how many cudaMalloc calls are there, and what is the difference?").complete());
  // Launch dimensions in parentheses say what the threads of a launch are: "threads (grid x block)".
  const Reading launched = Fill("how many threads did nvfuser_pointwise launch (grid x block)?");
  ASSERT_EQ(launched.queries.size(), 1u);
  EXPECT_EQ(launched.queries[0].measures, std::vector<Measure>{Measure::kThreads});
  Query faster = Q({Measure::kAverage}, {EventKind::kKernels, ""});
  faster.group_by = GroupBy::kName;
  faster.rank = Rank::kBottom;
  Check("which kernel is faster on average?", {faster});
}

// A follow-up in a conversation: a clause that only says where asks the last turn's question again there; an
// ordinal before "one" or a word that ranks is one place of a ranking ("what about the second one?"); before anything
// else ("the second kernel") it is an instance in time, which no Query picks.
TEST(QueryFill, AFollowUpAsksAgainThereOrTakesOnePlaceOfTheRanking) {
  Query top = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 5;
  const std::vector<Query> before = {top};
  const auto follow = [&](const char* question) { return FillQueries(question, Vocabulary(), before); };
  Query there = top;
  there.scope.devices = {1};
  const Reading on_gpu1 = follow("and on device 1?");
  ASSERT_TRUE(on_gpu1.complete());
  EXPECT_EQ(on_gpu1.queries, std::vector<Query>{there}) << DescribeQuery(on_gpu1.queries.front());
  Query second = top;
  second.offset = 1;
  second.limit = 1;
  const Reading second_one = follow("what about the second one?");
  ASSERT_TRUE(second_one.complete());
  EXPECT_EQ(second_one.queries, std::vector<Query>{second}) << DescribeQuery(second_one.queries.front());
  EXPECT_NE(DescribeQuery(second).find("the 2nd from the top by total time"), std::string::npos);
  // No conversation before: "and on device 1?" asks nothing, said so.
  EXPECT_FALSE(Fill("and on device 1?").complete());
  // One place of a ranking of kernels by name.
  const auto place = [](Measure m, int32_t offset) {
    Query q = Q({m}, {EventKind::kKernels, ""});
    q.group_by = GroupBy::kName;
    q.rank = Rank::kTop;
    q.offset = offset;
    q.limit = 1;
    return q;
  };
  Check("Which kernel is the third slowest?", {place(Measure::kMax, 2)});
  Check("What is the second most expensive kernel?", {place(Measure::kTotal, 1)});
  // "the second kernel" without a word that ranks is the second to start (Subject::nth), said so in the reading.
  Query second_kernel = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  second_kernel.subject.nth = 2;
  Check("How long does the second kernel take?", {second_kernel});
  EXPECT_FALSE(Fill("How many kernels ran in the second second?").complete());
  // A name alone after the place says its events, as a noun would: "the 250th cudaMalloc". So does a word of one
  // occurrence with "of" ("the 12th launch of X"). An ordinal in digits is never read as a GPU model ("4060ti").
  Query nth_malloc = Q({Measure::kTotal}, {EventKind::kApi, "cudaMalloc", "", "", true});
  nth_malloc.subject.nth = 250;
  Check("How long did the 250th cudaMalloc take?", {nth_malloc});
  Query nth_launch = Q({Measure::kTotal}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true});
  nth_launch.subject.nth = 12;
  Check("how long did the 12th launch of vectorized_elementwise_kernel run on the GPU?", {nth_launch});
  const Reading unplaced = Fill("How long did the 101st cudaMalloc call run, on average over 4060ti boards?");
  EXPECT_FALSE(unplaced.complete());
  // A question of its own after the ordinal one starts its ranking from the first again.
  const Reading own = FillQueries("which kernels have the most launches?", Vocabulary(), {second});
  ASSERT_TRUE(own.complete());
  EXPECT_EQ(own.queries.front().offset, 0);
}

// What a question says beside its events: a word written as a name the profile lacks is not a description of them (a
// library's or a copy kind's is); a percentage beside the idle time is the idle share; a name lent by a clause of
// its own fits the events the next clause names, or is unread; an explanation that names the events is not dropped.
TEST(QueryFill, NamesTheProfileLacksLentNamesAndExplanationsThatName) {
  const auto unread = [](const char* question) {
    const Reading r = Fill(question);
    return r.unread.empty() ? std::string() : r.unread.front();
  };
  EXPECT_EQ(unread("How much GPU time did the FlashAttention nvfuser kernels take?"), "FlashAttention");
  EXPECT_TRUE(Fill("How much GPU time did the cuBLASLt nvfuser kernels take?").complete());
  EXPECT_TRUE(Fill("How many nvFuser-generated kernels (names containing nvfuser_) ran?").complete());
  const Reading idle = Fill("How long was GPU 0 idle? Give the idle time and the percentage.");
  ASSERT_TRUE(idle.complete());
  const auto& ms = idle.queries.back().measures;
  EXPECT_NE(std::find(ms.begin(), ms.end(), Measure::kIdleShare), ms.end()) << DescribeQuery(idle.queries.back());
  EXPECT_EQ(std::find(ms.begin(), ms.end(), Measure::kShare), ms.end()) << DescribeQuery(idle.queries.back());
  // A range said as a range is where the next clause's kernels are; a range's name lent to kernels is no filter.
  Check("For the forward ranges: how many kernels were launched inside them?",
        {Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{}, {}, -1, "forward", {}, {}})});
  EXPECT_EQ(unread("For the forward sim: how many kernels ran inside aten::linear?"), "forward");
  EXPECT_EQ(unread("cudaMalloc: total time of forward versus aten::linear?"), "cudaMalloc");
  EXPECT_TRUE(Fill("On the nvfuser kernels on GPU 1: what was the longest nvfuser_pointwise there?").complete());
  EXPECT_FALSE(Fill("What fraction of kernel time is nvfuser, i.e. nvfuser_pointwise_f0_c1_r0_g0 plus "
                    "vectorized_elementwise_kernel?")
                   .complete());
  EXPECT_TRUE(Fill("What was the launch latency of nvfuser_pointwise, i.e. from the start of the cudaLaunchKernel "
                   "call to the kernel starting?")
                  .complete());
}

// A copy's speed is its bandwidth; an origin said in a clause of its own serves the window after it; a word of state
// used as a word is no part of a name; a number before a ranking word limits the ranking.
TEST(QueryFill, CopySpeedsOriginsLentWordsOfStateAndSpelledLimits) {
  Query slower = Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"});
  slower.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  slower.form = Form::kYesNo;
  slower.yes_if_less = true;
  Check("Is the HtoD direction slower than DtoH?", {slower});
  Query early = Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", 0.0, 0.1});
  early.scope.from_first_kernel = true;
  Check("Counting from the first kernel on device 0, how many kernels started on device 0 during the first 100 ms?",
        {early});
  EXPECT_FALSE(Fill("Counting from the first kernel, how many cudaMalloc calls were made?").complete());
  QueryVocabulary v = Vocabulary();
  v.api.push_back("cudaStreamWaitEvent");
  const Reading waits = FillQueries("How long does the host wait in cudaStreamSynchronize overall?", v);
  ASSERT_EQ(waits.queries.size(), 1u);
  EXPECT_EQ(waits.queries.front().subject.name, "cudaStreamSynchronize");  // "wait" is no part of a name here
  EXPECT_EQ(FillQueries("How many wait calls are there?", v).queries.front().subject.name, "wait");
  Query five = Q({Measure::kShare}, {EventKind::kKernels, ""});
  five.group_by = GroupBy::kName;
  five.rank = Rank::kTop;
  five.limit = 5;
  Check("What fraction of kernel time do the five most expensive kernels account for?", {five});
  Query config = Q({Measure::kGrid, Measure::kBlock, Measure::kRegisters}, {EventKind::kKernels, "nvfuser_pointwise"});
  Check("launch config for nvfuser_pointwise? grid, block, regs/thread", {config});
  Query by_gpu = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  by_gpu.group_by = GroupBy::kDevice;
  Check("total kernel time grouped by GPU", {by_gpu});
}

// Idle gaps one by one: how many and the longest, of the events the clause names (kernels by default), per GPU; a
// bare "the longest" after the gaps is the longest gap; what a gap is, said in words, is read as said.
TEST(QueryFill, IdleGapsCountedAndTheLongest) {
  Check("On GPU 1, what's the longest gap between one kernel finishing and the next kernel starting?",
        {Q({Measure::kMaxGap}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Check("How many idle gaps does device 0 have, and what is the longest?",
        {Q({Measure::kGaps, Measure::kMaxGap}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Query per_gpu = Q({Measure::kMaxGap}, {EventKind::kKernels, ""});
  per_gpu.group_by = GroupBy::kDevice;
  Check("what's the biggest bubble between kernels?", {per_gpu});
}

// "by base name", "(short name)": kernels by their base name; "what percentage of all kernel time is it" after a
// ranking of one is that one's share, asked of the ranking.
TEST(QueryFill, BaseNamesAndTheShareOfTheOneRanked) {
  Query base = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  base.group_by = GroupBy::kBaseName;
  Check("total kernel time by base name", {base});
  base.rank = Rank::kTop;
  base.limit = 3;
  Check("List the three kernels (by base name) with the highest total GPU time.", {base});
  Query top = Q({Measure::kTotal, Measure::kShare}, {EventKind::kKernels, ""});
  top.group_by = GroupBy::kBaseName;
  top.rank = Rank::kTop;
  Check("Which kernel (short name) eats the most GPU time, and what percentage of all kernel time is it?", {top});
  top.group_by = GroupBy::kName;
  Check("Which kernel eats the most GPU time, and what percentage of all kernel time is it?", {top});
}

// The GPUs a machine has, idle ones too, are the GPUs the export lists (events: devices), not a count of the GPUs its
// events ran on; which GPU this is, its memory and peak memory bandwidth are theirs too.
TEST(QueryFill, TheGpusOfTheMachineAreNotTheGpusThatRanWork) {
  Query ran = Q({Measure::kGroups}, {EventKind::kKernels, ""});
  ran.group_by = GroupBy::kDevice;
  Check("How many GPUs ran kernels?", {ran});
  const Subject devices{EventKind::kDevices};
  for (const char* q :
       {"How many GPUs does the profile list?", "how many GPUs are installed in this box?",
        "How many GPUs does the machine have?", "What GPU is this?", "which card was this profiled on?"})
    Check(q, {Q({Measure::kCount}, devices)});
  Check("how much memory does the GPU have?", {Q({Measure::kMemory}, devices)});
  Check("What card is this, and what's its peak memory bandwidth?",
        {Q({Measure::kCount, Measure::kMemoryBandwidth}, devices)});
  Query busiest = Q({Measure::kBusy}, {EventKind::kKernels, ""});
  busiest.group_by = GroupBy::kDevice;
  busiest.rank = Rank::kTop;
  Check("Which GPU is the busiest?", {busiest});
}

// CUDA graph launches are events of their own kind (an execution recorded whole, or a node-level replay).
TEST(QueryFill, CudaGraphLaunchesAreEventsOfTheirOwn) {
  const Subject graphs{EventKind::kGraphs};
  Check("How much time did the CUDA graphs take?", {Q({Measure::kTotal}, graphs)});
  Check("how many graph replays on GPU 0", {Q({Measure::kCount}, graphs, Scope{.devices = {0}})});
  Query each = Q({Measure::kCount}, graphs);
  each.group_by = GroupBy::kName;
  Check("How many times was each CUDA graph launched?", {each});
  Check("What is the maximum duration of a graph launch?", {Q({Measure::kMax}, graphs)});
}

// Words the lexicon holds under another form: synonyms of its words, and their inflections, in every phrase. An
// inflection never stands for a share or a noun of events, devices or processes.
TEST(QueryFill, SynonymsAndInflectionsStandForTheWordsTheLexiconHolds) {
  EXPECT_EQ(lexicon::Canonical("slice"), "share");
  EXPECT_EQ(lexicon::Canonical("summing"), "sum");
  EXPECT_EQ(lexicon::Canonical("accumulated"), "take");
  EXPECT_EQ(lexicon::Canonical("outweighs"), "exceed");
  EXPECT_EQ(lexicon::Canonical("spanned"), "span");
  EXPECT_EQ(lexicon::Canonical("shared"), "shared");  // not a share
  EXPECT_EQ(lexicon::Canonical("ranked"), "ranked");  // not a rank (a process)
  EXPECT_EQ(lexicon::Canonical("kernels"), "kernels");
  Check("What slice of the kernel time goes to nvfuser kernels?",
        {Q({Measure::kShare}, Subject{EventKind::kKernels, "nvfuser"})});
  Check("How much time have the cudaMalloc calls accumulated?",
        {Q({Measure::kTotal}, Subject{EventKind::kApi, "cudaMalloc", "", "", true})});
  Check("On device 0, what is the longest idle stretch?", {Q({Measure::kMaxGap}, {}, Scope{.devices = {0}})});
  Query per_gpu =
      Q({Measure::kCount}, Subject{EventKind::kKernels, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "", "", true});
  per_gpu.group_by = GroupBy::kDevice;
  Check("How are the ncclDevKernel_AllReduce_Sum_f32_RING_LL kernels split between the GPUs? Give the count.",
        {per_gpu});
}

// "the shortest one" after a ranking is its other end; "single" ranks by the one extreme event, not the typical one;
// the same events said again keep their place; a noun phrase of measures is asked, not scenery.
TEST(QueryFill, TheOtherEndOfARankingAndTheSameEventsSaidAgain) {
  // A length is each event's own: the longest kernel is its one longest run, with or without "single"; the slowest
  // and fastest rank names by their mean.
  Query longest = Q({Measure::kMax}, {});
  longest.group_by = GroupBy::kName;
  longest.rank = Rank::kTop;
  Query shortest = longest;
  shortest.measures = {Measure::kMin};
  shortest.rank = Rank::kBottom;
  Check("What's the longest kernel and the shortest one?", {longest, shortest});
  Check("What's the longest single kernel execution and the shortest one?", {longest, shortest});
  Query slowest = longest, fastest = shortest;
  slowest.measures = fastest.measures = {Measure::kAverage};
  Check("Which is the slowest kernel, and the fastest one?", {slowest, fastest});
  const Scope inside{.inside = "forward"};
  Check("How much GPU work ran inside forward? Kernel count and total kernel time.",
        {Q({Measure::kTotal}, Subject{EventKind::kGpu}, inside),
         Q({Measure::kCount, Measure::kTotal}, Subject{EventKind::kKernels}, inside)});
  Check("For the unified memory migrations host to device: how many migration records?",
        {Q({Measure::kCount}, Subject{EventKind::kMemcpy, "", "Unified HtoD"})});
  Check(
      "How many kernels ran inside forward, and what is the total kernel time overall?",
      {Q({Measure::kCount}, Subject{EventKind::kKernels}, inside), Q({Measure::kTotal}, Subject{EventKind::kKernels})});
}

// What a comparison, a ranking or a lead-in said in one clause means for the clauses after it; a library's name beside
// a name; the other side of a migration; GPUs named one by one; a bound said of gaps.
TEST(QueryFill, WhatOneClauseSaysForTheNext) {
  Query avg = Q({Measure::kAverage}, Subject{EventKind::kNvtx, "runFusionWithInputs", "", "", true});
  avg.versus_subject = Subject{EventKind::kNvtx, "forward", "", "", true};
  Check("On average, how long does a runFusionWithInputs range take compared with a forward range?", {avg});
  // The comparison's own measure (a total, said by "compare") comes first: it is what the sides are compared by.
  Query sides = Q({Measure::kTotal, Measure::kCount}, Subject{EventKind::kKernels, "nvfuser"}, Scope{.devices = {0}});
  sides.versus_scope = Scope{.devices = {1}};
  Check("Compare nvfuser on GPU 0 versus GPU 1: how many kernels and how much time on each?", {sides});
  Check("How much time do the cuBLAS sm80_xmma_gemm kernels take?",
        {Q({Measure::kTotal}, Subject{EventKind::kKernels, "sm80_xmma_gemm"})});
  Query migrations = Q({Measure::kCount, Measure::kTotal}, Subject{EventKind::kMemcpy, "", "Unified HtoD"});
  migrations.versus_subject = Subject{EventKind::kMemcpy, "", "Unified DtoH"};
  Check("How many page migrations went host-to-device versus device-to-host?", {migrations});  // "went": a time too
  Query streams = Q({Measure::kTotal, Measure::kCount}, Subject{EventKind::kKernels});
  streams.group_by = GroupBy::kStream;
  streams.rank = Rank::kTop;
  streams.limit = 2;
  Check("Which two streams take the most kernel time? Give the kernel count for each.", {streams});
  Query one_by_one = Q({Measure::kTotal}, Subject{EventKind::kKernels}, Scope{.devices = {0, 1}});
  one_by_one.group_by = GroupBy::kDevice;
  Check("What is the total kernel time on device 0 and on device 1?", {one_by_one});
  Query gaps = Q({Measure::kMaxGap}, Subject{EventKind::kGpu});
  gaps.group_by = GroupBy::kDevice;
  Check("Looking at kernels and copies together, what is the longest idle gap?", {gaps});
  // A bound said with the gap measures alone is on each gap they count (QueryExecute.IdleGapsLongerThanABound).
  const Reading over = Fill("How many idle gaps longer than 1 ms are there on GPU 0?");
  ASSERT_EQ(over.queries.size(), 1u);
  EXPECT_EQ(over.queries[0].scope.gap_longer_than_ns, 1000000) << DescribeQuery(over.queries[0]);
  EXPECT_EQ(over.queries[0].scope.longer_than_ns, -1);
}

// A plain word that is only a part of some names, beside a whole name, describes the named events; after a named
// kernel, "the number of calls" counts its executions and "the share of all kernel time" is its share.
TEST(QueryFill, WordsAroundAWholeNameAreTheNamedEvents) {
  const Subject named{EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true};
  Check("What share of kernel time do the vectorized_elementwise_kernel pointwise ops take?",
        {Q({Measure::kShare}, named)});
  Check("How long does vectorized_elementwise_kernel take? Give the number of calls and the share of all kernel time.",
        {Q({Measure::kTotal, Measure::kCount, Measure::kShare}, named)});
}

// "which" with no noun of its own takes the scene's; "which two" ranks two; a bare list of statistics joined by "and"
// is said of what follows it.
TEST(QueryFill, WhichOfTheSceneAndAListOfStatistics) {
  Query streams = Q({Measure::kTotal}, Subject{EventKind::kKernels});
  streams.group_by = GroupBy::kStream;
  streams.rank = Rank::kTop;
  streams.limit = 2;
  Check("Eight streams are busy here. Which two carry the most kernel time?", {streams});
  Query longer = Q({Measure::kTotal}, Subject{EventKind::kKernels});
  longer.group_by = GroupBy::kName;
  longer.rank = Rank::kTop;
  Check("Only three kernels ran. Which took longer on the GPU?", {longer});
  Query sides = Q({Measure::kCount, Measure::kBytes}, Subject{EventKind::kMemcpy, "", "HtoD"});
  sides.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  Check("Copies: count and total bytes for HtoD vs DtoH?", {sides});
}

// "which one" of the noun a clause before said; a part of the scene's one name is that name.
TEST(QueryFill, WhichOneOfTheNounBeforeAndTheScenesNameSaidShort) {
  Query gpus = Q({Measure::kTotal}, Subject{EventKind::kKernels});
  gpus.group_by = GroupBy::kDevice;
  gpus.rank = Rank::kTop;
  Check("Compare the two GPUs: which one spent more time running kernels?", {gpus});
  Check("runFusionWithInputs shows up as NVTX ranges. How many fusions are there?",
        {Q({Measure::kCount}, Subject{EventKind::kNvtx, "runFusionWithInputs", "", "", true})});
  // A unit after "how many" says the measure: a time or a size, not a count.
  Check("how many milliseconds do the kernels take?", {Q({Measure::kTotal}, Subject{EventKind::kKernels})});
  Check("how many MB did the HtoD copies move?", {Q({Measure::kBytes}, Subject{EventKind::kMemcpy, "", "HtoD"})});
  // A question that names no events asks of the scene's; a measure of kernel launches that no clause gives events to
  // is of the kernels (a clause after it still lends its name first).
  Check("There are NVTX ranges for runFusionWithInputs. How many are there?",
        {Q({Measure::kCount}, Subject{EventKind::kNvtx, "runFusionWithInputs", "", "", true})});
  Check("what is the mean launch delay?", {Q({Measure::kLaunchDelay}, Subject{EventKind::kKernels})});
  // Parentheses that only say again which events a name means are a definition; one that changes the set is read.
  const Reading again = Fill("how much time do the nvfuser kernels take (anything with 'nvfuser' in the name)?");
  EXPECT_TRUE(again.complete());
  EXPECT_EQ(again.defined, (std::vector<std::string>{"anything with nvfuser in the name"}));
  EXPECT_FALSE(
      Fill("how much time do the nvfuser kernels take (except the ones with 'nvfuser' in the name)?").complete());
  // Plain words beside names summed describe them, before the names or in parentheses after them; "as a total" is
  // the total.
  const Reading summed = Fill(
      "as a total, how much time do the elementwise kernels vectorized_elementwise_kernel and "
      "nvfuser_pointwise_f0_c1_r0_g0 take together?");
  EXPECT_TRUE(summed.complete()) << (summed.unread.empty() ? "" : summed.unread.front());
  ASSERT_EQ(summed.queries.size(), 1u);
  EXPECT_EQ(summed.queries[0].subject.name, "vectorized_elementwise_kernel|nvfuser_pointwise_f0_c1_r0_g0");
  EXPECT_EQ(summed.described, (std::vector<std::string>{"elementwise"}));
  EXPECT_TRUE(Fill("how much time do pointwise fusions (vectorized_elementwise_kernel plus "
                   "nvfuser_pointwise_f0_c1_r0_g0) take?")
                  .complete());
  // Without a question mark, the sentences before the first that asks set its scene; a library's name right before
  // a range's name says whose it is, not a range it is inside.
  Check("The nvfuser_pointwise kernels run once per step. Give me their count and total time.",
        {Q({Measure::kCount, Measure::kTotal}, Subject{EventKind::kKernels, "nvfuser_pointwise"})});
  Check("How many nvFuser runFusionWithInputs ranges are there?",
        {Q({Measure::kCount}, Subject{EventKind::kNvtx, "runFusionWithInputs", "", "", true})});
  // "kernel work" is the kernels by their time; "which two" with no noun of its own is of the noun said before.
  Query work = Q({Measure::kTotal}, Subject{EventKind::kKernels});
  work.group_by = GroupBy::kStream;
  work.rank = Rank::kTop;
  Check("Which stream carries the most kernel work?", {work});
  work.limit = 2;
  Check("Across the streams, which two carry the most kernel time?", {work});
  // "where no kernel is running" is the idle condition; "break ... down" asks for the split "per" or "by" says; a
  // noun phrase of statistics joined by "and" is one list; unified memory lent to two directions is migrations each
  // way.
  Check("On GPU 0, what's the longest stretch where no kernel is running?",
        {Q({Measure::kMaxGap, Measure::kIdle}, Subject{EventKind::kKernels}, Scope{{0}, {}, -1, "", {}, {}})});
  Query per_stream = Q({Measure::kCount, Measure::kTotal}, Subject{EventKind::kKernels});
  per_stream.group_by = GroupBy::kStream;
  Check("Break down kernel count and total kernel time per stream.", {per_stream});
  Query migrations = Q({Measure::kBytes}, Subject{EventKind::kMemcpy, "", "Unified HtoD"});
  migrations.versus_subject = Subject{EventKind::kMemcpy, "", "Unified DtoH"};
  Check("Break the unified memory migrations down by direction: bytes host to device vs device to host?", {migrations});
  // "hold", "contribute", "burn" and "eat" stand for "take".
  Check("how much time do the nvfuser_pointwise kernels hold?",
        {Q({Measure::kTotal}, Subject{EventKind::kKernels, "nvfuser_pointwise"})});
  // "its" points back at the scene's one name as "their" and "those" do.
  Check("The nvfuser_pointwise kernel fires once per step. What is its median runtime?",
        {Q({Measure::kMedian}, Subject{EventKind::kKernels, "nvfuser_pointwise"})});
}

TEST(QueryJson, ReadsAModelsJsonStrictlyAndWritesItBack) {
  const auto error = [](const char* text) {
    auto q = QueriesFromJson(nlohmann::json::parse(text));
    return q ? std::string() : q.error().message;
  };
  EXPECT_EQ(error(R"({"measures": "count", "subject": {"events": "kernels"}})"),
            "queries[0].measures: an array is required");
  EXPECT_EQ(error(R"([{"measures": ["count"], "subject": {"events": "kernels", "kernel": "gemm"}}])"),
            "queries[0].subject: unknown member 'kernel'; the members are events, name, copyKind, apiClass, memory, "
            "cause, wholeName, family, nth, skip, except");
  EXPECT_EQ(error(R"([{"measures": ["count"], "subject": {"events": "kernels"}, "scope": {"devices": ["0"]}}])"),
            "queries[0].scope.devices[0]: not an integer");
  EXPECT_EQ(error(R"([{"measures": ["count"], "subject": {"events": "kernels"}, "limit": 2.5}])"),
            "queries[0].limit: not an integer");
  EXPECT_EQ(error(R"([{"measures": ["count"], "subject": {"events": 3}}])"), "queries[0].subject.events: not a string");
  EXPECT_EQ(error(R"([{"measures": ["count"], "subject": {"events": "kernels"}, "yesIfLess": "yes"}])"),
            "queries[0].yesIfLess: not true or false");
  EXPECT_EQ(error("[]"), "queries: at least one Query is needed");
  EXPECT_EQ(error("7"), "queries: a Query object or an array of them");
  // Models write 3.0 for 3.
  auto limit = QueriesFromJson(nlohmann::json::parse(
      R"({"measures": ["total"], "subject": {"events": "kernels"}, "groupBy": "name", "rank": "top", "limit": 3.0})"));
  ASSERT_TRUE(limit) << limit.error().message;
  EXPECT_EQ(limit->front().limit, 3);

  Query q = Q({Measure::kCount, Measure::kMaxBytes}, {EventKind::kMemcpy, "", "Unified HtoD"},
              Scope{{0, 1}, {4242}, 7, "forward", 0.5, 1.5, -1, -1, 1024, -1});
  q.subject.memory = "pageable";
  q.scope.outside = "warmup|profiler";
  q.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  q.form = Form::kYesNo;
  q.yes_if_less = true;
  auto back = QueryFromJson(QueryToJson(q), "q");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, q) << QueryToJson(q).dump();
  Query second = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  second.group_by = GroupBy::kName;
  second.rank = Rank::kTop;
  second.offset = 1;
  auto second_back = QueryFromJson(QueryToJson(second), "q");
  ASSERT_TRUE(second_back) << second_back.error().message;
  EXPECT_EQ(*second_back, second) << QueryToJson(second).dump();
  // A whole name says so in the JSON too: a Query an LLM or a script fills can name one call and not its kin.
  const Query whole = Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true});
  EXPECT_EQ(QueryToJson(whole)["subject"]["wholeName"], true);
  auto whole_back = QueryFromJson(QueryToJson(whole), "q");
  ASSERT_TRUE(whole_back) << whole_back.error().message;
  EXPECT_EQ(*whole_back, whole);
  // Names left out go and come back as written; they are of kernels, calls and ranges only.
  Query left_out = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  left_out.subject.except = "nccl|gemm";
  EXPECT_EQ(QueryToJson(left_out)["subject"]["except"], "nccl|gemm");
  auto left_out_back = QueryFromJson(QueryToJson(left_out), "q");
  ASSERT_TRUE(left_out_back) << left_out_back.error().message;
  EXPECT_EQ(*left_out_back, left_out);
  left_out.subject.except = std::string(513, 'x');  // an untrusted filler's names are held to 512 bytes
  EXPECT_FALSE(CheckQuery(left_out).ok());
  left_out.subject.except = "nccl";
  left_out.scope.outside = std::string(513, 'x');
  EXPECT_FALSE(CheckQuery(left_out).ok());
  left_out.scope.outside.clear();
  left_out.subject.events = EventKind::kMemcpy;
  EXPECT_FALSE(CheckQuery(left_out).ok());
  EXPECT_FALSE(QueryFromJson(nlohmann::json::parse(R"({"measures": ["count"], "subject": {"events": "api", "name": "x",
      "wholeName": "yes"}})"),
                             "q"));
  EXPECT_EQ(QueryToJson(second)["offset"], 1);
  EXPECT_EQ(error(R"([{"measures": ["total"], "subject": {"events": "kernels"}, "rank": "top", "offset": -1}])"),
            "queries[0].offset: -1 is not 0 to 100");
  second.rank = Rank::kNone;
  EXPECT_FALSE(CheckQuery(second).ok());  // an offset of no ranking
  // One event by start and a window between the moments two events mark, read back as written; an until beside a
  // window end, or an origin beside fromFirstKernel, is refused.
  Query marked = Q({Measure::kCount}, {EventKind::kKernels, ""});
  marked.subject.nth = -2;
  marked.scope.origin = Anchor{Subject{EventKind::kNvtx, "MPI_Init"}, true};
  marked.scope.until = Anchor{Subject{EventKind::kMemcpy, "", "DtoH"}, false};
  marked.scope.until->events.nth = 3;
  marked.scope.from_s = 0.25;
  EXPECT_EQ(QueryToJson(marked)["scope"]["origin"].dump(),
            R"({"atEnd":true,"events":{"events":"nvtx","name":"MPI_Init"}})");
  auto marked_back = QueryFromJson(QueryToJson(marked), "q");
  ASSERT_TRUE(marked_back) << marked_back.error().message;
  EXPECT_EQ(*marked_back, marked) << QueryToJson(marked).dump();
  marked.scope.to_s = 1.0;
  EXPECT_EQ(CheckQuery(marked).error().message, "Query: a window ends at toSeconds or at until, not both.");
  marked.scope.to_s.reset();
  marked.scope.from_first_kernel = true;
  EXPECT_EQ(CheckQuery(marked).error().message, "Query: a window counts from one origin: fromFirstKernel or origin.");
  marked.scope.from_first_kernel = false;
  marked.scope.until->events.memory = "bogus";  // a moment's events are held to a subject's checks
  EXPECT_EQ(CheckQuery(marked).error().message,
            "Query: a host memory kind is one of pageable, pinned, device, array, managed.");
  EXPECT_EQ(
      error(R"([{"measures": ["count"], "subject": {"events": "kernels"}, "scope": {"origin": {"atEnd": true}}}])"),
      "queries[0].scope.origin: 'events' is required");
  Query early = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", 0.0, 0.1});
  early.scope.from_first_kernel = true;
  auto early_back = QueryFromJson(QueryToJson(early), "q");
  ASSERT_TRUE(early_back) << early_back.error().message;
  EXPECT_EQ(*early_back, early) << QueryToJson(early).dump();
  early.scope.from_s.reset();
  early.scope.to_s.reset();
  EXPECT_FALSE(CheckQuery(early).ok());  // an origin with no window to count from it
  // A versus measure reads back as itself, and is held to being one of the measures, after the first.
  Query sms = Q({Measure::kGrid, Measure::kSmCount}, {EventKind::kKernels, "saxpy"});
  sms.versus_measure = Measure::kSmCount;
  sms.form = Form::kYesNo;
  sms.yes_if_less = true;
  auto sms_back = QueryFromJson(QueryToJson(sms), "q");
  ASSERT_TRUE(sms_back) << sms_back.error().message;
  EXPECT_EQ(*sms_back, sms) << QueryToJson(sms).dump();
  EXPECT_EQ(QueryToJson(sms)["versusMeasure"], "sm_count");
  EXPECT_TRUE(CheckQuery(sms).ok());
  sms.versus_measure = Measure::kMedian;
  EXPECT_FALSE(CheckQuery(sms).ok());
  sms.measures = {Measure::kGrid, Measure::kMedian};
  EXPECT_FALSE(CheckQuery(sms).ok());  // one of a launch configuration, the other not
  EXPECT_EQ(
      error(R"([{"measures": ["grid"], "subject": {"events": "kernels"}, "versusMeasure": "blocks"}])"),
      "queries[0].versusMeasure: unknown measure 'blocks'; one of total, count, share, gpu_share, average, "
      "median, p90, p95, p99, min, max, stddev, bytes, avg_bytes, bandwidth, busy, utilization, idle_share, "
      "idle, span, grid, block, groups, min_bytes, max_bytes, latency, launch_delay, threads, registers, "
      "static_shared_memory, dynamic_shared_memory, sm_count, gaps, max_gap, memory, memory_bandwidth, comm_overlap, "
      "exposed, max_latency, max_delay, count_share, span_share, elapsed, byte_share, avg_gap");
}

// A clause that only ranks is read, not dropped; "the slowest call" after a named call is one of those calls; CUDA API
// calls grouped by stream or GPU are not held.
// Words that say which recording a question is about change nothing of what it asks: the reading is the one of the
// question without them, and the answer says how they were taken.
TEST(QueryFill, WordsForTheRecordingAreSaidAndChangeNothing) {
  QueryVocabulary v = Vocabulary();
  v.gpus = {"NVIDIA GeForce RTX 2080 Ti"};
  const auto same = [&](const std::string& with, const std::string& without, const std::string& taken) {
    const Reading a = FillQueries(with, v), b = FillQueries(without, v);
    EXPECT_TRUE(a.complete()) << with << ": unread " << (a.unread.empty() ? "" : a.unread.front());
    EXPECT_EQ(a.queries, b.queries) << with;
    EXPECT_EQ(a.recording, (std::vector<std::string>{taken})) << with;
  };
  // A heading of words the lexicon does not hold and a noun for the recording, or a GPU by its model.
  same("keras darknet run: how many memsets were there?", "how many memsets were there?", "keras darknet run");
  same("LLaMA inference sim on a 2080 Ti: how many cudaMalloc calls?", "how many cudaMalloc calls?",
       "LLaMA inference sim on a 2080 Ti");
  // A preposition, a determiner, describing words and the noun, wherever they stand.
  same("How many cudaFree calls are in the before profile?", "How many cudaFree calls are there?",
       "in the before profile");
  same("total HtoD bytes for the openmp offload run?", "total HtoD bytes?", "for the openmp offload run");
  same("How many bytes went host-to-device in this 1 s window?", "How many bytes went host-to-device?",
       "in this 1 s window");
  same("How many kernels ran on a GeForce RTX 2080 Ti GPU?", "How many kernels ran?", "on a GeForce RTX 2080 Ti GPU");
  // The GPU by its model after a determiner is the GPU.
  EXPECT_EQ(FillQueries("How long was the 2080 Ti idle?", v).queries,
            FillQueries("How long was the GPU idle?", v).queries);
  // A model that is not every GPU's, a name of the profile's events before a noun that may be one execution of them,
  // and "run" as a verb are not the recording.
  EXPECT_TRUE(FillQueries("How many kernels ran on the A100 in the before run?", v).recording.size() == 1);
  EXPECT_TRUE(FillQueries("For the forward sim: how many kernels ran inside aten::linear?", v).recording.empty());
  EXPECT_TRUE(FillQueries("how long did the solver run?", v).recording.empty());
  EXPECT_TRUE(FillQueries("For the custom 'cudaMalloc' calls: how many?", v).recording.empty());
  v.gpus.push_back("NVIDIA A100-SXM4-40GB");
  EXPECT_TRUE(FillQueries("How many kernels ran on a 2080 Ti?", v).recording.empty());
}

// A word one edit from one lexicon word, and from no name, is read as that word, and the answer says so; another form
// of a word, a word of meaning and a word near two are not.
TEST(QueryFill, AWordMisspelledByOneLetterIsReadAndSaid) {
  const Reading typo = Fill("For cudaMalloc, what are the p90 and p99 exectuion times and the median duraton?");
  EXPECT_TRUE(typo.complete()) << (typo.unread.empty() ? "" : typo.unread.front());
  EXPECT_EQ(typo.queries,
            Fill("For cudaMalloc, what are the p90 and p99 execution times and the median duration?").queries);
  EXPECT_EQ(typo.respelled, (std::vector<std::string>{"'exectuion' as 'execution'", "'duraton' as 'duration'"}));
  EXPECT_EQ(Fill("how much gpu tiem does cudaFree take?").respelled, (std::vector<std::string>{"'tiem' as 'time'"}));
  EXPECT_EQ(lexicon::SpellingOf("execute"), "");  // "executed" is another form, no slip
  EXPECT_EQ(lexicon::SpellingOf("latest"), "");   // a word of meaning
  EXPECT_EQ(lexicon::SpellingOf("fist"), "");     // four letters: only two swapped
  EXPECT_EQ(lexicon::SpellingOf("tiem"), "time");
  EXPECT_EQ(lexicon::SpellingOf("averge"), "average");
}

// "/" and "&" join a list; a slash between a size and a time divides, as "divided by" does.
TEST(QueryFill, SlashesAndAmpersandsAndPercentSigns) {
  Check("avg / min / max duration of cudaMalloc?",
        {Q({Measure::kAverage, Measure::kMin, Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  EXPECT_EQ(Fill("grid & block dims of nvfuser_pointwise_f0_c1_r0_g0?").queries,
            Fill("grid and block dims of nvfuser_pointwise_f0_c1_r0_g0?").queries);
  EXPECT_FALSE(Fill("the HtoD copies (total bytes / total copy time)?").complete());
  // Parentheses alone after the question define what it measured.
  const Reading after = Fill("What bandwidth do the HtoD copies get? (total bytes / total copy time)");
  EXPECT_TRUE(after.complete()) << (after.unread.empty() ? "" : after.unread.front());
  EXPECT_EQ(after.defined, (std::vector<std::string>{"total bytes / total copy time"}));
  // "kernel/copy/memset": three kinds of GPU work.
  EXPECT_EQ(Fill("how long is GPU 0 idle, with no kernel/copy/memset running?").queries,
            Fill("how long is GPU 0 idle, with no kernel, copy or memset running?").queries);
  EXPECT_EQ(Fill("is cudaMalloc more than 15% of the API time?").queries,
            Fill("is cudaMalloc more than 15 % of the API time?").queries);
}

// Readings that once answered another question: each is read right or said unread.
TEST(QueryFill, NoAnswerToAnotherQuestion) {
  // A question after a comma is a question of its own, not more statistics of the one before.
  const Reading two = Fill("how many kernels ran in total, which single kernel was the longest?");
  ASSERT_EQ(two.queries.size(), 2u);
  EXPECT_EQ(two.queries[0].measures, (std::vector<Measure>{Measure::kCount}));
  EXPECT_EQ(two.queries[1].group_by, GroupBy::kName);
  // "how many threads" is no count of blocks or launches, whatever the parentheses say: the threads of the launch.
  const Reading all_blocks = Fill("How many threads did nvfuser_pointwise_f0_c1_r0_g0 launch (all blocks)?");
  ASSERT_EQ(all_blocks.queries.size(), 1u);
  EXPECT_EQ(all_blocks.queries[0].measures.front(), Measure::kThreads);
  // An explanation that names kinds of GPU work the words before it did not says which work counts.
  EXPECT_FALSE(
      Fill("How much idle time does GPU 1 have, i.e. time with no kernel, copy or memset running?").complete());
  // The share of a span the GPU was running kernels is its utilization.
  Check("from its first kernel start to its last kernel end, what percentage of that span was GPU 1 executing kernels?",
        {Q({Measure::kUtilization}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}})});
}

// Communication against compute, HTA's overlap and exposed time (guides/analysis.md): of kernels, per GPU, whatever
// words say "communication"; a share said with them is theirs.
TEST(QueryFill, CommunicationOverlappedAndExposed) {
  Check("On GPU 0, how much of the comm time is overlapped by compute kernels, and how much is left exposed?",
        {Q({Measure::kCommOverlap, Measure::kExposed}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("what fraction of the communication is hidden behind compute (as a %)?",
        {Q({Measure::kCommOverlap}, {EventKind::kKernels, ""})});
  Check("how much ncclDevKernel_AllReduce_Sum_f32_RING_LL time is exposed?",
        {Q({Measure::kExposed}, {EventKind::kKernels, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "", "", true})});
  // A communication word is no filter elsewhere: "how much communication time" alone is not read as kernel time.
  EXPECT_FALSE(Fill("how much communication time is there?").complete());
}

// The launch relation (correlation ids): calls by the kernels they launched, kernels by the call that launched them,
// and two calls set side by side.
TEST(QueryFill, TheLaunchRelation) {
  Query calls = Q({Measure::kTotal}, {EventKind::kApi, "cudaLaunchKernel", "", "", true});
  calls.scope.launches = "nvfuser_pointwise";
  Check("how much time did the cudaLaunchKernel calls that launched nvfuser_pointwise take?", {calls});
  Query counted = calls;
  counted.measures = {Measure::kTotal, Measure::kCount};
  Check(
      "How much CPU time went into the cudaLaunchKernel calls that launched nvfuser_pointwise, and how many such "
      "launches were there?",
      {counted});
  Query by = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  by.scope.launched_by = "cudaLaunchKernel";
  Check("How much GPU time do the kernels launched through cudaLaunchKernel take?", {by});
  Query versus = Q({Measure::kCount}, {EventKind::kKernels, ""});
  versus.scope.launched_by = "cudaLaunchKernel";
  versus.versus_scope = Scope{};
  versus.versus_scope->launched_by = "cudaMalloc";
  Check("how many kernels were launched via cudaLaunchKernel vs cudaMalloc?", {versus});
  // A launch word with no call's name after it, or no kernel's: no relation.
  EXPECT_TRUE(Fill("how many kernels were launched on GPU 0?").queries.front().scope.launched_by.empty());
}

// Two kinds of host memory in a clause set the copies of one against the other's; a third is unread.
TEST(QueryFill, TwoKindsOfHostMemory) {
  Query pinned = Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD", "", false, "pinned"});
  pinned.versus_subject = Subject{EventKind::kMemcpy, "", "HtoD", "", false, "pageable"};
  Check("How many HtoD copies are from pinned vs pageable memory?", {pinned});
  EXPECT_FALSE(Fill("How many HtoD copies are from pinned, pageable or managed memory?").complete());
}

// Readings batch 47 found answering another question (its wrong answers read after its first score).
TEST(QueryFill, ReadingsThatAnsweredAnotherQuestion) {
  // "full" before "demangled name" says which name, and is no part of an NVTX range's name.
  QueryVocabulary v = Vocabulary();
  v.nvtx.push_back("full_step");
  const Reading full = FillQueries("which kernel (by full demangled name) takes the most time?", v);
  ASSERT_TRUE(full.complete()) << (full.unread.empty() ? "" : full.unread.front());
  EXPECT_TRUE(full.queries.front().scope.inside.empty()) << DescribeQuery(full.queries.front());
  // A scene's name is not lent to a question that names ranges of its own.
  EXPECT_EQ(Fill("The aten calls are traced as NVTX ranges. What's the total time spent in forward versus "
                 "aten::linear?")
                .queries,
            Fill("What's the total time spent in forward versus aten::linear?").queries);
  // "it" after a place lent to a Query built since is that Query's events, in that place.
  const Reading it = Fill("Inside forward, which kernel took the most time, and how long did it run?");
  ASSERT_FALSE(it.queries.empty());
  for (const Query& q : it.queries) EXPECT_EQ(q.subject.events, EventKind::kKernels) << DescribeQuery(q);
  // A duration said beside a launch's figures is asked too.
  const Reading launch =
      Fill("nvfuser_pointwise_f0_c1_r0_g0: total number of thread blocks, threads per block, and kernel duration?");
  ASSERT_EQ(launch.queries.size(), 1u);
  const auto& ms = launch.queries.front().measures;
  EXPECT_NE(std::find(ms.begin(), ms.end(), Measure::kTotal), ms.end()) << DescribeQuery(launch.queries.front());
  EXPECT_NE(std::find(ms.begin(), ms.end(), Measure::kGrid), ms.end()) << DescribeQuery(launch.queries.front());
}

// A kernel named by what does its verb ("the pointwiser kernel": "pointwise"), and what such readings may not do: take
// a comparative for a name, drop a third side, or answer a share of a sum as a share of all.
TEST(QueryFill, AgentNounsThirdSidesAndSharesOfASum) {
  QueryVocabulary v = Vocabulary();
  v.kernels.push_back("nvkernel_solve_F1L204_2");
  v.kernels.push_back("long_tail_kernel");
  const Reading solver = FillQueries("how long did the solver kernel run in total?", v);
  ASSERT_TRUE(solver.complete()) << (solver.unread.empty() ? "" : solver.unread.front());
  EXPECT_EQ(solver.queries.front().subject.name, "solve");
  EXPECT_NE(FillQueries("how many longer kernels are there?", v).queries.front().subject.name, "long");
  // Only kernels counted as busy: what the clause names already.
  EXPECT_TRUE(Fill("how long was GPU 0 idle, counting only kernels as busy?").complete());
  EXPECT_FALSE(FillQueries("compare the time in HtoD copies, DtoH copies and the solver kernel", v).complete());
  EXPECT_FALSE(Fill("the nvfuser_pointwise_f0_c1_r0_g0 kernel's share of (kernel + memcpy) time?").complete());
}

// The launch delay said in words, a name in parentheses after an article, and numbers with thousands separators.
TEST(QueryFill, DelayInWordsNamesAfterAnArticleAndThousands) {
  Query delay = Q({Measure::kLaunchDelay}, {EventKind::kKernels, "nvfuser_pointwise", ""});
  Check(
      "For nvfuser_pointwise, what's the average delay between the launch call returning and the kernel actually "
      "starting?",
      {delay});
  Check("what is the gap between its cudaLaunchKernel call returning and nvfuser_pointwise starting?", {delay});
  Check("how long after its launch call returns does nvfuser_pointwise start?", {delay});
  // A call's end and a kernel's start not said both: no delay, but a window from the moment the first call ended.
  Query after = Q({Measure::kCount}, {EventKind::kKernels, ""});
  after.scope.origin = Anchor{Subject{EventKind::kApi, "cudaMalloc"}, true};
  after.scope.origin->events.nth = 1;
  Check("how many kernels start after the first cudaMalloc call?", {after});
  const Reading nvrtc = Fill("how much time went into fusion compilation (the runFusionWithInputs ranges)?");
  EXPECT_TRUE(nvrtc.complete()) << (nvrtc.unread.empty() ? "" : nvrtc.unread.front());
  // "(... minus ..., clipped at 0)": a definition of the delay, as the guide's (HTA's) launch delay is.
  const Reading clipped =
      Fill("the average launch delay of nvfuser_pointwise (kernel start minus the launch call's end, clipped at 0)?");
  EXPECT_TRUE(clipped.complete()) << (clipped.unread.empty() ? "" : clipped.unread.front());
  EXPECT_EQ(clipped.defined, (std::vector<std::string>{"kernel start minus the launch call end, clipped at 0"}));
  const Reading thousands = Fill("is cudaMalloc called more than 1,000 times?");
  EXPECT_TRUE(thousands.complete()) << (thousands.unread.empty() ? "" : thousands.unread.front());
  EXPECT_EQ(thousands.queries, Fill("is cudaMalloc called more than 1000 times?").queries);
  ASSERT_FALSE(thousands.queries.empty());
  EXPECT_EQ(thousands.queries.front().threshold, std::optional<double>(1000));
}

// Readings batch 49 found answering another question (its wrong answers read after its first score).
TEST(QueryFill, ReadingsBatch49FoundWrong) {
  // "inside those ranges": the ranges the Query before named.
  const Reading those = Fill(
      "How many forward ranges are there? And how much kernel time comes from kernels launched inside those ranges?");
  ASSERT_EQ(those.queries.size(), 2u);
  EXPECT_EQ(those.queries[1].subject.events, EventKind::kKernels);
  EXPECT_EQ(those.queries[1].scope.inside, "forward") << DescribeQuery(those.queries[1]);
  // A bound on each idle gap the gap measures count (since session 25; it was declined before).
  const Reading gaps = Fill("on GPU 0, how many idle gaps between kernels are longer than 1 ms?");
  ASSERT_TRUE(gaps.complete()) << (gaps.unread.empty() ? "" : gaps.unread.front());
  ASSERT_EQ(gaps.queries.size(), 1u);
  EXPECT_EQ(gaps.queries[0].scope.gap_longer_than_ns, 1000000) << DescribeQuery(gaps.queries[0]);
  // A share of a base the question names is the first as a percentage of it (QueryFill.ASharesBaseAfterOf).
  const Reading linear =
      Fill("How long do the forward ranges take, and what percentage is that of the aten::linear time?");
  ASSERT_EQ(linear.queries.size(), 2u) << (linear.unread.empty() ? "" : linear.unread.front());
  EXPECT_EQ(linear.queries[1].form, Form::kShare) << DescribeQuery(linear.queries[1]);
  // "summed over all its instances" says how the duration adds up, not how many there are.
  const Reading summed = Fill("Which NVTX range has the largest total duration (summed over all its instances)?");
  ASSERT_FALSE(summed.queries.empty());
  EXPECT_EQ(summed.queries.front().measures, (std::vector<Measure>{Measure::kTotal}));
}

// "what percentage is that of the total time in X ranges", "how large is that as a percentage of X", "A as a share of
// B": the first side's figure as a percentage of a base named after "of" (Form::kShare). A base that says only a
// kind, the subject's, is the share of all time; a library's name is a kind; another kind's time in a range is no
// base a Query holds.
TEST(QueryFill, ASharesBaseAfterOf) {
  Query forward = Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true});
  Query share = forward;
  share.versus_subject = Subject{EventKind::kNvtx, "runFusionWithInputs", "", "", true};
  share.form = Form::kShare;
  Check(
      "How much total time is spent in the forward ranges, and what percentage is that of the total time in "
      "runFusionWithInputs ranges?",
      {forward, share});
  Query counted = Q({Measure::kCount, Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true});
  Check(
      "How many forward ranges are there, what's their total duration, and how large is that total as a percentage "
      "of the total time spent in runFusionWithInputs ranges?",
      {counted, share});
  Check("What is the forward time as a share of the runFusionWithInputs time?", {share});
  // A base of the subject's own kind: the share of all time.
  Check(
      "How much time do the cudaMalloc calls take, and what fraction is that of all the time spent in CUDA API calls "
      "(runtime and driver)?",
      {Q({Measure::kTotal, Measure::kShare}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  EXPECT_FALSE(Fill("How long do the forward ranges take, and what percentage is that of the kernel time in "
                    "runFusionWithInputs?")
                   .complete());
}

// Parentheses that say again the kind the words before them named: read, the kind kept ("(traced as NVTX ranges)");
// two kinds in them ("(kernel + memcpy)") are a sum, not said again. Two ranges after "in" are side by side; events
// in either of them are no place a Query holds.
TEST(QueryFill, KindsSaidAgainAndTwoRangesAfterIn) {
  Query two = Q({Measure::kTotal, Measure::kCount}, {EventKind::kNvtx, "forward", "", "", true});
  two.versus_subject = Subject{EventKind::kNvtx, "aten::linear", "", "", true};
  Check("forward vs aten::linear (traced as NVTX ranges): how much time and how many of each?", {two});
  const Reading traced = Fill("forward vs aten::linear (traced as NVTX ranges): how much time and how many of each?");
  EXPECT_EQ(traced.described, (std::vector<std::string>{"traced as NVTX ranges"}));
  EXPECT_FALSE(Fill("cudaMalloc calls (the kernels): how many?").complete());
  EXPECT_FALSE(Fill("the vectorized_elementwise_kernel kernel's share of (kernel + memcpy) time?").complete());
  Query total = Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true});
  total.versus_subject = Subject{EventKind::kNvtx, "aten::linear", "", "", true};
  Check("How much time is spent in forward and aten::linear?", {total});
  EXPECT_FALSE(Fill("How many kernels ran in forward and aten::linear?").complete());
}

// The launch delay said as a difference ("kernel start minus the end of the X call that launched it", "from the end of
// each kernel's launch call to the kernel starting"), its bound ("clipped at zero", "negative values counted as 0"),
// a definition that restates the measure before it, and the worst case beside it.
TEST(QueryFill, LaunchFiguresAsDifferencesAndTheirWorstCase) {
  Query delay = Q({Measure::kLaunchDelay}, {EventKind::kKernels, "", ""});
  Check(
      "what's the average launch delay, i.e. kernel start minus the end of the cudaLaunchKernel call that launched "
      "it, clipped at zero?",
      {delay});
  Check(
      "what's the average launch latency: kernel start minus the end of the cudaLaunchKernel call that launched it "
      "(negative values counted as 0), averaged over all kernels?",
      {delay});
  Check("what is the mean delay from the end of each kernel's launch call to the kernel actually starting on the GPU?",
        {delay});
  Query per_process = delay;
  per_process.group_by = GroupBy::kPid;
  Check(
      "What's the average launch latency per process, i.e. the time from cudaLaunchKernel returning to the kernel "
      "starting on the GPU?",
      {per_process});
  Check("what is the mean time from the start of the cudaLaunchKernel call to the start of the kernel?",
        {Q({Measure::kLatency}, {EventKind::kKernels, "", ""})});
  Check(
      "What are the average and the worst-case kernel launch delays (time from the end of the launch call to the "
      "kernel starting on the GPU)?",
      {Q({Measure::kMaxDelay, Measure::kLaunchDelay}, {EventKind::kKernels, "", ""})});
  Check("what is the max launch latency of kernels?",
        {Q({Measure::kMaxLatency, Measure::kLatency}, {EventKind::kKernels, "", ""})});
  // A word of duration keeps the mean duration beside the delay.
  Check("what is the average duration and the average launch delay of kernels?",
        {Q({Measure::kAverage, Measure::kLaunchDelay}, {EventKind::kKernels, "", ""})});
}

// Small words: "onto" is "on"; "ranked by" and "sorted by" say what ranks; "which 3 CUDA streams" is a limit; "as pid"
// names the process; "(gridX*gridY*gridZ)" defines the blocks.
TEST(QueryFill, OntoRankedByAndALimitBeforeQualifiedNouns) {
  Scope gpu1;
  gpu1.devices = {1};
  Check("How many bytes were copied host-to-device onto GPU 1?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"}, gpu1)});
  Query streams = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  streams.group_by = GroupBy::kStream;
  streams.rank = Rank::kTop;
  streams.limit = 3;
  Check("Which 3 CUDA streams carry the most kernel time?", {streams});
  Query five = Q({Measure::kShare}, {EventKind::kKernels, "", ""});
  five.group_by = GroupBy::kName;
  five.rank = Rank::kTop;
  five.limit = 5;
  const Reading ranked = Fill(
      "What share of total GPU kernel time do the top 5 kernels account for (ranked by total time, grouped by "
      "kernel name)?");
  EXPECT_TRUE(ranked.complete()) << (ranked.unread.empty() ? "" : ranked.unread.front());
  Scope pid;
  pid.pids = {1680};
  Check("For the rank running as pid 1680, how many kernels ran?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, pid)});
  const Reading grid =
      Fill("how many kernel launches used a grid with fewer thread blocks (gridX*gridY*gridZ) than the GPU has SMs?");
  EXPECT_TRUE(grid.complete()) << (grid.unread.empty() ? "" : grid.unread.front());
  EXPECT_EQ(grid.defined, (std::vector<std::string>{"gridX*gridY*gridZ"}));
  // "compute it ... as X over Y", in a sentence of its own: how the measure asked before is defined.
  const Reading computed = Fill(
      "Effective bandwidth of the HtoD copies vs the DtoH copies in GB/s? compute it per direction as total bytes over "
      "summed copy time.");
  EXPECT_TRUE(computed.complete()) << (computed.unread.empty() ? "" : computed.unread.front());
  EXPECT_EQ(computed.defined,
            (std::vector<std::string>{"compute it per direction as total bytes over summed copy time"}));
}

// A heading that sets two sides against each other before a colon is what the question after it asks of ("HtoD vs
// DtoH: how many bytes?"), with a clause of measures alone after it; "how long is no kernel running" asks the idle time
// even after "idle" was said, and "what % of that span is it" its share; "no" before a measure is unread; "(nvjet_*)"
// after "nvjet" says the name again; "(source or destination pageable)" the memory kind.
TEST(QueryFill, HeadingsIdleSaidAgainAndNamesAndKindsRestated) {
  Query bytes = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"});
  bytes.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  Check("HtoD vs DtoH: how many bytes?", {bytes});
  Query both = bytes;
  both.measures = {Measure::kBytes, Measure::kBandwidth};
  Check("HtoD vs DtoH: total bytes each way and average bandwidth?", {both});
  Scope gpu0;
  gpu0.devices = {0};
  Check(
      "GPU 0 idle time: between its first kernel start and last kernel end, how long is no kernel running, and what % "
      "of that span is it?",
      {Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kKernels, "", ""}, gpu0)});
  EXPECT_FALSE(Fill("What grid does vectorized_elementwise_kernel use, and how many SMs get no block?").complete());
  QueryVocabulary v;
  v.kernels = {"nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT", "nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNN"};
  const Reading nvjet =
      FillQueries("What % of total kernel time is the cuBLASLt nvjet GEMMs (nvjet_*), and how many launches?", v);
  EXPECT_TRUE(nvjet.complete()) << (nvjet.unread.empty() ? "" : nvjet.unread.front());
  ASSERT_FALSE(nvjet.queries.empty());
  EXPECT_FALSE(nvjet.queries.front().versus_subject.has_value()) << DescribeQuery(nvjet.queries.front());
  const Reading pageable = Fill(
      "How many of the copies issued by cudaMemcpyAsync touch pageable host memory (source or destination pageable)?");
  EXPECT_TRUE(pageable.complete()) << (pageable.unread.empty() ? "" : pageable.unread.front());
  EXPECT_EQ(pageable.described, (std::vector<std::string>{"source or destination pageable"}));
}

// Why a question is asked, said before it: a heading said by a person before a colon, a question that reads nothing
// concrete before one that measures; both said under the reading. A question that asks "any" or names a kind of copy
// reads something. Definitions said with "taking ... divided by ..." or in one parenthesis with a comma; a library's
// name beside a whole name; the export's own "deviceId"; "count together" groups.
TEST(QueryFill, WhyItIsAskedAndHowItIsDefined) {
  const Reading retune =
      Fill("Before we retune the GEMM tiles: what is the median duration of vectorized_elementwise_kernel?");
  EXPECT_TRUE(retune.complete()) << (retune.unread.empty() ? "" : retune.unread.front());
  EXPECT_EQ(retune.context, (std::vector<std::string>{"Before we retune the GEMM tiles"}));
  const Reading concentrated = Fill(
      "How concentrated is the GPU work? What share of total kernel time do the five most expensive kernels account "
      "for together?");
  EXPECT_TRUE(concentrated.complete()) << (concentrated.unread.empty() ? "" : concentrated.unread.front());
  EXPECT_EQ(concentrated.context, (std::vector<std::string>{"How concentrated is the GPU work?"}));
  const Reading any = Fill("any device-to-device copies? how many bytes did they move?");
  EXPECT_TRUE(any.context.empty());
  EXPECT_FALSE(any.queries.empty());
  Check("This is the run after our optimisation. How many kernels ran?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
  const Reading taking = Fill(
      "What effective HtoD bandwidth do the copies achieve, taking total HtoD bytes divided by the summed duration of "
      "those copies, in GB/s?");
  EXPECT_TRUE(taking.complete()) << (taking.unread.empty() ? "" : taking.unread.front());
  const Reading comma =
      Fill("What effective bandwidth (GB/s, total bytes over summed copy time) do the HtoD copies get?");
  EXPECT_TRUE(comma.complete()) << (comma.unread.empty() ? "" : comma.unread.front());
  EXPECT_EQ(comma.defined, (std::vector<std::string>{"GB/s, total bytes over summed copy time"}));
  ASSERT_EQ(comma.queries.size(), 1u);
  EXPECT_EQ(comma.queries[0].measures, (std::vector<Measure>{Measure::kBandwidth}));
  const Reading picked = Fill("What launch configuration did nvFuser pick for nvfuser_pointwise_f0_c1_r0_g0?");
  ASSERT_EQ(picked.queries.size(), 1u) << (picked.unread.empty() ? "" : picked.unread.front());
  EXPECT_EQ(picked.queries[0].subject.name, "nvfuser_pointwise_f0_c1_r0_g0");
  EXPECT_FALSE(picked.queries[0].versus_subject.has_value()) << DescribeQuery(picked.queries[0]);
  Scope gpu0;
  gpu0.devices = {0};
  Check("On GPU 0 (deviceId 0), how many kernels ran?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, gpu0)});
  Query base = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  base.group_by = GroupBy::kBaseName;
  base.rank = Rank::kTop;
  base.limit = 3;
  const Reading together = Fill(
      "Grouping kernels by their short base name (so all template variants of one kernel count together), give me the "
      "top 3 by total GPU time.");
  ASSERT_FALSE(together.queries.empty()) << (together.unread.empty() ? "" : together.unread.front());
  EXPECT_EQ(together.queries[0].measures.front(), Measure::kTotal) << DescribeQuery(together.queries[0]);
}

// What batch 54 found: "kernel(s)"; "counting negative delays as zero"; headings of a state ("Before the fix:") or of
// how things look ("X looks heavy on Y:"); "question"; a recording noun that is only a part of some names; "How many
// launches is that" after a ranking keeps its place; "what percentage of the time" after a span said after a
// grouping is the utilization.
TEST(QueryFill, WhatBatch54Found) {
  Query which = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  which.scope.inside = "forward";
  const Reading kernels = Fill(
      "Which kernel(s) get launched from inside the forward NVTX ranges? How many launches is that and what's their "
      "total GPU time?");
  EXPECT_TRUE(kernels.complete()) << (kernels.unread.empty() ? "" : kernels.unread.front());
  ASSERT_EQ(kernels.queries.size(), 2u);
  EXPECT_EQ(kernels.queries[0].group_by, GroupBy::kName);
  EXPECT_EQ(kernels.queries[1].scope.inside, "forward") << DescribeQuery(kernels.queries[1]);
  EXPECT_EQ(kernels.queries[1].measures, (std::vector<Measure>{Measure::kCount, Measure::kTotal}));
  Query delay = Q({Measure::kLaunchDelay}, {EventKind::kKernels, "", ""});
  delay.group_by = GroupBy::kPid;
  Check(
      "For each process, what's the average launch delay, i.e. kernel start minus the end of its launching runtime "
      "call, counting negative delays as zero?",
      {delay});
  const Reading fix = Fill("Before the fix: how many ncclDevKernel_AllReduce_Sum_f32_RING_LL kernels ran?");
  EXPECT_TRUE(fix.complete()) << (fix.unread.empty() ? "" : fix.unread.front());
  EXPECT_EQ(fix.context, (std::vector<std::string>{"Before the fix"}));
  const Reading heavy = Fill("JAX startup looks heavy on stream creation: how many cudaMalloc calls were made?");
  EXPECT_TRUE(heavy.complete()) << (heavy.unread.empty() ? "" : heavy.unread.front());
  EXPECT_TRUE(Fill("unified memory question: how many Unified DtoH copies happened?").complete());
  QueryVocabulary sim = Vocabulary();
  sim.nvtx.push_back("layer_processing_simulation");
  const Reading in_sim = FillQueries(
      "In the llama inference sim, how many cudaMalloc calls are there and what's the average time per call?", sim);
  ASSERT_EQ(in_sim.queries.size(), 1u) << (in_sim.unread.empty() ? "" : in_sim.unread.front());
  EXPECT_TRUE(in_sim.queries[0].scope.inside.empty()) << DescribeQuery(in_sim.queries[0]);
  EXPECT_EQ(in_sim.recording, (std::vector<std::string>{"In the llama inference sim"}));
  Query busy = Q({Measure::kUtilization}, {EventKind::kKernels, "", ""});
  busy.group_by = GroupBy::kDevice;
  Check(
      "Per GPU, between that GPU's first kernel start and last kernel end, what percentage of the time was at least "
      "one kernel running?",
      {busy});
}

// A newcomer's words (batch 56): "GPU functions" are kernels, "cards" GPUs, "programs" processes, "labels" and
// "markers" NVTX ranges, "host-to-GPU" copies HtoD, "CUDA functions" calls. A request after a question ("..., and tell
// me how long ...") asks; "on that card" after a ranking of cards is unread; a share of a sum said before is unread.
TEST(QueryFill, ANewcomersWords) {
  Query per_card = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, "", ""});
  per_card.group_by = GroupBy::kDevice;
  Check("For each card, how many GPU functions ran and how much GPU time did they add up to?", {per_card});
  Query per_program = per_card;
  per_program.group_by = GroupBy::kPid;
  Check("For each of the programs, how many GPU functions ran and what was their total time?", {per_program});
  Check("How many forward labels are there?", {Q({Measure::kCount}, {EventKind::kNvtx, "forward", "", "", true})});
  Check("How many bytes were copied host-to-GPU?", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("How many CUDA functions were called?", {Q({Measure::kCount}, {EventKind::kApi, "", ""})});
  const Reading told = Fill(
      "How much idle time does each GPU have? For each card, take the window from its first GPU function start to its "
      "last GPU function end, and tell me how long no GPU function at all was running in that window, and what "
      "percentage of the window that is.");
  ASSERT_FALSE(told.queries.empty()) << (told.unread.empty() ? "" : told.unread.front());
  EXPECT_TRUE(std::any_of(told.queries.begin(), told.queries.end(), [](const Query& q) {
    return std::find(q.measures.begin(), q.measures.end(), Measure::kIdleShare) != q.measures.end();
  })) << DescribeQuery(told.queries.back());
  EXPECT_FALSE(Fill("Which card spent more total time in vectorized_elementwise_kernel, and what was its average "
                    "duration on that card?")
                   .complete());
  const Reading summed = Fill(
      "My pipeline has two stage labels: forward and aten::linear. Of the summed time of those two labels, what "
      "percentage is forward?");
  EXPECT_FALSE(summed.complete()) << (summed.queries.empty() ? "" : DescribeQuery(summed.queries.front()));
}

// "taken as X divided by Y", "each as X over Y" define; a size said of the run ("my small JAX run") says which
// recording; "transfer speed" is the copies' bandwidth.
TEST(QueryFill, DefinitionsTakenAsASizeOfTheRunAndSpeed) {
  const Reading taken = Fill(
      "How much data went host-to-GPU, and what was the average transfer speed for those copies, taken as total bytes "
      "divided by the total time the copies took?");
  EXPECT_TRUE(taken.complete()) << (taken.unread.empty() ? "" : taken.unread.front());
  ASSERT_FALSE(taken.queries.empty());
  EXPECT_TRUE(std::any_of(taken.queries.begin(), taken.queries.end(), [](const Query& q) {
    return std::find(q.measures.begin(), q.measures.end(), Measure::kBandwidth) != q.measures.end();
  })) << DescribeQuery(taken.queries.front());
  const Reading each = Fill(
      "What transfer speed did the copies get in each direction? Give GB/s for host-to-device and for device-to-host, "
      "each as total bytes over total copy time.");
  EXPECT_TRUE(each.complete()) << (each.unread.empty() ? "" : each.unread.front());
  const Reading small = Fill("In my small JAX run, how many times did vectorized_elementwise_kernel run?");
  EXPECT_TRUE(small.complete()) << (small.unread.empty() ? "" : small.unread.front());
  EXPECT_EQ(small.recording, (std::vector<std::string>{"In my small JAX run"}));
}

// The variance ranks as the standard deviation does, and its figure is none the skills hold.
TEST(QueryFill, TheVarianceRanksButIsNoFigure) {
  Query most = Q({Measure::kStddev}, {EventKind::kKernels, "", ""});
  most.group_by = GroupBy::kName;
  most.rank = Rank::kTop;
  Check("Which kernel has the highest variance in duration?", {most});
  const Reading figure = Fill("what is the variance of vectorized_elementwise_kernel's durations?");
  EXPECT_FALSE(figure.complete());
  EXPECT_EQ(figure.unread, (std::vector<std::string>{"variance"}));
}

// Parentheses that exclude names a whole name before them leaves out anyway say nothing more; others are read.
TEST(QueryFill, ExclusionsAWholeNameMakesAlready) {
  const Reading exactly = Fill(
      "how many times did the kernel named exactly 'vectorized_elementwise_kernel' (not "
      "vectorized_elementwise_kernel_2 etc.) run?");
  EXPECT_TRUE(exactly.complete()) << (exactly.unread.empty() ? "" : exactly.unread.front());
  EXPECT_EQ(exactly.defined, (std::vector<std::string>{"not vectorized_elementwise_kernel_2 etc"}));
  EXPECT_FALSE(Fill("how many times did the kernel named exactly 'vectorized_elementwise_kernel' (not cudaMalloc) run?")
                   .complete());
}

TEST(QueryFill, ALastClauseThatOnlyRanksAndTheSlowestOfTheCallsNamed) {
  Query smallest = Q({Measure::kCount, Measure::kMinBytes}, {EventKind::kMemcpy, "", "HtoD"});
  Check("how many host-to-device copies are there, and what's the smallest one?", {smallest});
  Check("how many cudaMalloc calls, and how long did the slowest call take?",
        {Q({Measure::kCount, Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  // "which call": a ranking of names, not one of the calls named.
  const Reading which = Fill("how many cudaMalloc calls, and which call is the slowest?");
  ASSERT_EQ(which.queries.size(), 2u);
  EXPECT_EQ(which.queries[1].group_by, GroupBy::kName);
  EXPECT_TRUE(which.queries[1].subject.name.empty()) << DescribeQuery(which.queries[1]);
  const Reading streams = Fill("how many cudaFree calls per stream?");
  EXPECT_FALSE(streams.complete());
  EXPECT_TRUE(streams.unbuilt);
  // "the bottom 3 streams by kernel time": the stream is the grouping, "by" says what ranks them.
  Query bottom = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  bottom.group_by = GroupBy::kStream;
  bottom.rank = Rank::kBottom;
  bottom.limit = 3;
  Check("the bottom 3 streams by total kernel time?", {bottom});
  // Sizes and bandwidths of kernels are not held; DRAM throughput is a hardware counter.
  EXPECT_TRUE(Fill("what bandwidth does nvfuser_pointwise get?").unbuilt);
  EXPECT_EQ(Fill("What DRAM throughput does nvfuser_pointwise achieve, as a percent of peak?").not_held,
            (std::vector<std::string>{"DRAM", "of peak"}));
  // "which two streams": the count is the limit; "at most" with no bound after it is the longest; a call's "CPU
  // time" is its time.
  Query two = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  two.group_by = GroupBy::kStream;
  two.rank = Rank::kTop;
  two.limit = 2;
  Check("which two streams carry the most kernel time?", {two});
  Check("how long do cudaMalloc calls take in total and at most?",
        {Q({Measure::kTotal, Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  Check("how much CPU time did the cudaFree calls eat?",
        {Q({Measure::kTotal}, {EventKind::kApi, "cudaFree", "", "", true})});
  // A sentence that lists measures asks them, even without a question mark of its own; two kinds lent by a clause of
  // their own are the two sides of each clause after it.
  Query sides = Q({Measure::kBytes, Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"});
  sides.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  const Reading separately = Fill("For HtoD and DtoH separately: total bytes and average bandwidth.");
  ASSERT_TRUE(separately.complete());
  EXPECT_EQ(separately.queries, std::vector<Query>{sides}) << DescribeQuery(separately.queries.front());
}

TEST(QueryReading, SaysHowTheQuestionWasRead) {
  Query q =
      Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser", ""}, Scope{{}, {}, -1, "runFusionWithInputs", {}, {}});
  EXPECT_EQ(DescribeQuery(q),
            "total time of kernels whose name contains `nvfuser`, inside NVTX ranges named like `runFusionWithInputs`, "
            "all GPUs");
}

// A reading in words reads back as the same Query: a declined question offers its readings as alternatives, and
// asking one of them again must ask exactly that.
TEST(QueryReading, AReadingReadsBackAsItself) {
  Query top = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 3;
  const std::vector<Query> queries = {
      Q({Measure::kCount}, {EventKind::kKernels, "", ""}),
      Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser_pointwise", ""}),
      Q({Measure::kAverage, Measure::kP99}, {EventKind::kApi, "cudaMalloc", "", "", true}),
      Q({Measure::kBytes}, {EventKind::kMemcpy, "", "Unified DtoH"}),
      Q({Measure::kMedian}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}}),
      Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "runFusionWithInputs", {}, {}}),
      top,
  };
  for (const Query& q : queries) Check(DescribeQuery(q), {q});
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
  q.threshold = 0;  // "are there any": a count above 0
  EXPECT_TRUE(CheckQuery(q).ok());
  q.threshold = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(CheckQuery(q).ok());
  q.threshold.reset();
  q.form = Form::kNumber;
  q.subject.memory = "swap";
  EXPECT_FALSE(CheckQuery(q).ok());
  // A family of kernels goes both ways; of other events it is refused.
  Query family = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  family.subject.family = "FlashAttention fwd";
  EXPECT_EQ(QueryToJson(family)["subject"]["family"], "FlashAttention fwd");
  auto family_back = QueryFromJson(QueryToJson(family), "q");
  ASSERT_TRUE(family_back) << family_back.error().message;
  EXPECT_EQ(*family_back, family);
  EXPECT_TRUE(CheckQuery(family).ok());
  family.subject.events = EventKind::kMemcpy;
  EXPECT_EQ(CheckQuery(family).error().message, "Query: a family is of kernels.");
  Query within = Q({Measure::kShare}, {EventKind::kKernels, "nccl"});
  within.group_by = GroupBy::kDevice;
  within.share_within_group = true;
  EXPECT_EQ(QueryToJson(within)["shareWithinGroup"], true);
  auto within_back = QueryFromJson(QueryToJson(within), "q");
  ASSERT_TRUE(within_back) << within_back.error().message;
  EXPECT_EQ(*within_back, within);
}

// A factor through the executor on the MFU export: device 0's ncclDevKernel_SendRecv time (17.173 ms) is more than
// twice device 1's (8.229 ms), not three times (sqlite3 over its kernel table); the factor goes both ways in JSON and
// is refused without two sides.
TEST(QueryExecute, AFactorOfAComparison) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("mfu_2gpu_before.sqlite"));
  ASSERT_TRUE(opened.ok());
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, "ncclDevKernel_SendRecv"}, Scope{{0}, {}, -1, "", {}, {}});
  q.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  q.form = Form::kYesNo;
  q.factor = 2;
  auto twice = ws.AskQueries({opened->id, {q}});
  ASSERT_TRUE(twice.ok()) << twice.error().message;
  EXPECT_NE(twice->answer.summary.find("(yes if the first is more than 2 times the second)"), std::string::npos)
      << twice->answer.summary;
  EXPECT_NE(twice->answer.summary.find("Yes: device 0: total 17.173 ms; device 1: total 8.229 ms"), std::string::npos)
      << twice->answer.summary;
  q.factor = 3;
  auto thrice = ws.AskQueries({opened->id, {q}});
  ASSERT_TRUE(thrice.ok()) << thrice.error().message;
  EXPECT_NE(thrice->answer.summary.find("No: device 0"), std::string::npos) << thrice->answer.summary;
  auto back = QueryFromJson(QueryToJson(q), "q");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, q);
  q.versus_scope.reset();
  EXPECT_EQ(CheckQuery(q).error().message, "Query: a factor is of a yes/no comparison of two sides.");
}

// Each measure of a comparison gets its own margin, not only the first ("how many, and the ratio of their bytes"): the
// a100_2proc_mpi export's HtoD and DtoH copies (sqlite3 over CUPTI_ACTIVITY_KIND_MEMCPY by copyKind 1 and 2: 1,041 and
// 424 copies, 545,590,400 and 119,129,488 bytes, a ratio of 4.58).
// "What share of the kernel time ran on GPU 1 / on stream 7 / in the first 100 ms": a share of every kernel, kept only
// by a place or a window, is of the whole profile's kernels (50.1 %, 22.444 of 44.830 ms as SQL sums them), not of
// the place's own (100 %); a named subject's share stays of its place ("of GPU 0's kernel time, the gemms' share").
TEST(QueryExecute, AShareOfAPlacesEveryEventIsOfTheProfile) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  Query on_gpu = Q({Measure::kShare}, {EventKind::kKernels}, Scope{{1}, {}, -1, "", {}, {}});
  EXPECT_TRUE(ShareOfProfile(on_gpu));
  auto r = ws.AskQueries({opened->id, {on_gpu}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r->answer.summary.find("Read as: share of all time of kernels, on device 1 (the share is of all the "
                                   "profile's kernels)."),
            std::string::npos)
      << r->answer.summary;
  EXPECT_NE(r->answer.summary.find("50.1% of all kernel time in the profile (22.444 ms of 44.830 ms)"),
            std::string::npos)
      << r->answer.summary;
  Query named = on_gpu;
  named.subject.name = "gemm";
  EXPECT_FALSE(ShareOfProfile(named));
  Query per_gpu = on_gpu;
  per_gpu.scope.devices.clear();
  per_gpu.group_by = GroupBy::kDevice;
  EXPECT_FALSE(ShareOfProfile(per_gpu));
  Query everywhere = on_gpu;
  everywhere.scope.devices.clear();
  EXPECT_FALSE(ShareOfProfile(everywhere));
  Query window = Q({Measure::kShare}, {EventKind::kKernels}, Scope{{}, {}, -1, "", 0.0, 0.1});
  auto w = ws.AskQueries({opened->id, {window}});
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_NE(w->answer.summary.find("10.2% of all kernel time in the profile (4.560 ms of 44.830 ms)"),
            std::string::npos)
      << w->answer.summary;
}

// "Is there any copy bigger than 8 bytes?": one count of every copy (not one per kind, which has no row when none
// is), and beside the "No" the largest of them all, as SQL finds it (909 copies, the largest 8 bytes).
TEST(QueryExecute, AnyOverASizeBoundStatesTheLargest) {
  NSYS_REQUIRE_FIXTURES();
  const Reading r = Fill("is there any copy bigger than 8 bytes?");
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].group_by, GroupBy::kNone) << DescribeQuery(r.queries[0]);
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("realworld/rtx3090_pytorch_brainstorm_sample.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.AskQueries({opened->id, r.queries});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("No: 0 of 909 copies. The largest of all of them: 8 B."), std::string::npos)
      << a->answer.summary;
  EXPECT_EQ(a->answer.evidence.size(), 2u) << "the count's row and the largest's";
}

// "What percentage of all bytes copied went host-to-device?": a share of the bytes (46.2 %, 50.95 of 110.32 GB, as SQL
// sums copyKind 1's bytes over every copy's), not of the copy time (97.9 %).
TEST(QueryExecute, AShareOfTheBytes) {
  NSYS_REQUIRE_FIXTURES();
  const Reading r = Fill("what percentage of all bytes copied went host-to-device?");
  ASSERT_EQ(r.queries.size(), 1u);
  Query want = Q({Measure::kByteShare}, {EventKind::kMemcpy, "", "HtoD"});
  EXPECT_EQ(r.queries[0], want) << DescribeQuery(r.queries[0]);
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.AskQueries({opened->id, r.queries});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("46.2% of all bytes copied (50.95 GB of 110.32 GB)"), std::string::npos)
      << a->answer.summary;
  Check("what share of the copied bytes were HtoD?", {want});
  Check("what share of the data went host to device?", {want});
  Check("what percentage of the copy time was HtoD?", {Q({Measure::kShare}, {EventKind::kMemcpy, "", "HtoD"})});
}

// "How many kernels use fewer blocks than SMs?" on an export that gives no GPU info (mfu_2gpu_after has no
// TARGET_INFO_GPU): said not answerable, never "0 of 3,587 kernels" against GPUs of 0 SMs; with the SMs given
// (a100_2proc_mpi: 108), answered.
TEST(QueryExecute, FewerBlocksThanSmsNeedsTheSms) {
  NSYS_REQUIRE_FIXTURES();
  Query q = Q({Measure::kCount}, {EventKind::kKernels, ""});
  q.scope.grid_below_sms = true;
  core::Workspace ws(OfflineConfig());
  auto unknown = ws.Open(testing::Fixture("mfu_2gpu_after.sqlite"));
  ASSERT_TRUE(unknown.ok());
  auto no = ws.AskQueries({unknown->id, {q}});
  ASSERT_TRUE(no.ok()) << no.error().message;
  EXPECT_NE(no->answer.summary.find("does not give how many SMs GPU 0 has"), std::string::npos) << no->answer.summary;
  auto known = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(known.ok());
  auto yes = ws.AskQueries({known->id, {q}});
  ASSERT_TRUE(yes.ok()) << yes.error().message;
  EXPECT_NE(yes->answer.summary.find("GPU 0 has 108 SMs"), std::string::npos) << yes->answer.summary;
}

// A total of no event says that none was counted: "total 0 ns (0 copies)" (a100_perlmutter_uvm_vecadd migrates host
// to device by user prefetch only: SQL counts no copyKind 11 row with migrationCause 2), never a bare "total 0 ns".
TEST(QueryExecute, ATotalOfNothingSaysNoneWasCounted) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("realworld/a100_perlmutter_uvm_vecadd.sqlite"));
  ASSERT_TRUE(opened.ok());
  Subject faults{EventKind::kMemcpy, "", "Unified HtoD"};
  faults.cause = "page_fault";
  auto r = ws.AskQueries({opened->id, {Q({Measure::kTotal}, faults)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r->answer.summary.find("total 0 ns (0 copies)."), std::string::npos) << r->answer.summary;
}

TEST(QueryExecute, EachMeasureOfAComparisonHasItsMargin) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(opened.ok());
  Query q = Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"});
  q.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  auto r = ws.AskQueries({opened->id, {q}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r->answer.summary.find("The larger is HtoD copies, by 617 (2.46x)."), std::string::npos)
      << r->answer.summary;
  EXPECT_NE(r->answer.summary.find("In bytes, the larger is HtoD copies, by 426.46 MB (4.58x)."), std::string::npos)
      << r->answer.summary;
}

// A family of kernels through the executor, on a real export: the 68 FlashAttention kernels of the MFU "before"
// export (flash_fwd_kernel, sqlite3 over its kernel table: 272,317,378 ns), described as a family in the reading.
TEST(QueryExecute, AFamilyOfKernelsByTheDecoder) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("mfu_2gpu_before.sqlite"));
  ASSERT_TRUE(opened.ok());
  Query q = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, ""});
  q.subject.family = "FlashAttention";
  auto a = ws.AskQueries({opened->id, {q}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("Read as: count and total time of kernels of the `FlashAttention` family"),
            std::string::npos)
      << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("68 kernels"), std::string::npos) << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("272.317 ms"), std::string::npos) << a->answer.summary;
  // The names the family holds here are said, with the row that lists them cited.
  EXPECT_NE(a->answer.summary.find("The `FlashAttention` family here: `void flash::flash_fwd_kernel<"),
            std::string::npos)
      << a->answer.summary;
  // A family no kernel of the profile belongs to is something the profile does not hold: said, not "0".
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto none = ws.AskQueries({h100->id, {q}});
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_NE(none->answer.summary.find("this profile has no kernel of the `FlashAttention` family"), std::string::npos)
      << none->answer.summary;
  // So is a part of a name no kernel holds (a word of the question read as a name): said, not a share of 0%. One the
  // profile holds, but not in the window asked, is a 0 of the window.
  Query share = Q({Measure::kShare}, {EventKind::kKernels, "change"});
  auto unheld = ws.AskQueries({h100->id, {share}});
  ASSERT_TRUE(unheld.ok()) << unheld.error().message;
  EXPECT_NE(unheld->answer.summary.find("none of this profile's kernels has a name that contains `change`"),
            std::string::npos)
      << unheld->answer.summary;
  Query early = Q({Measure::kCount}, {EventKind::kKernels, "gemm"}, Scope{{}, {}, -1, "", 0.0, 0.000001});
  auto zero = ws.AskQueries({h100->id, {early}});
  ASSERT_TRUE(zero.ok()) << zero.error().message;
  EXPECT_EQ(zero->answer.summary.find("none of this profile's"), std::string::npos) << zero->answer.summary;
}

// Kernels ranked by whole name, and, when summing each kernel's template instantiations ranks otherwise, by base name
// too, from its own cited row (sqlite3 over h100_2gpu_1s grouped by shortName: vectorized_elementwise_kernel is third,
// 3,075,500 ns over 1,836 launches, though none of its instantiations is in the top 3). Where no base name holds
// two instantiations (mock's two kernels), the ranking is said once.
TEST(QueryExecute, ATopOfKernelsIsGivenByBaseNameWhenInstantiationsRankOtherwise) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  Query top = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 3;
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto a = ws.AskQueries({h100->id, {top}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  const std::string& text = a->answer.summary;
  const size_t base = text.find("Each kernel's template instantiations summed (by base name");
  ASSERT_NE(base, std::string::npos) << text;
  EXPECT_NE(text.find("vectorized_elementwise_kernel: total 3.075 ms (1,836 kernels", base), std::string::npos) << text;
  EXPECT_EQ(text.substr(0, base).find("vectorized_elementwise_kernel"), std::string::npos) << text;
  EXPECT_TRUE(std::any_of(a->answer.evidence.begin(), a->answer.evidence.end(),
                          [](const auto& e) { return e.caption == "By base name"; }));
  auto mock = ws.Open(testing::Fixture("mock.sqlite"));
  ASSERT_TRUE(mock.ok());
  auto once = ws.AskQueries({mock->id, {top}});
  ASSERT_TRUE(once.ok()) << once.error().message;
  EXPECT_EQ(once->answer.summary.find("by base name"), std::string::npos) << once->answer.summary;
}

// Idle in a window between two moments that no kernel ran in is the whole window (mock: the first kernel ends at
// 1,517,728,492 ns and the second starts at 1,535,979,030 ns on device 0, sqlite3: 18,250,538 ns), not "none".
TEST(QueryExecute, IdleBetweenTwoMomentsWithNothingRunningIsTheWindow) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mock = ws.Open(testing::Fixture("mock.sqlite"));
  ASSERT_TRUE(mock.ok());
  Subject first{EventKind::kKernels, ""}, second{EventKind::kKernels, ""};
  first.nth = 1;
  second.nth = 2;
  Query idle = Q({Measure::kIdle}, {EventKind::kKernels, ""});
  idle.scope.origin = Anchor{first, true};
  idle.scope.until = Anchor{second, false};
  auto a = ws.AskQueries({mock->id, {idle}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("idle 18.251 ms for the whole window: no kernels ran in it."), std::string::npos)
      << a->answer.summary;
}

// One event by start time, and windows between moments events mark (sqlite3 over the exports): the 2nd
// runFusionWithInputs range of the nvFuser export lasts 271,057,015 ns and one kernel (901,303 ns) starts while it is
// open; on the H100 export, from the end of the first HtoD copy (155,367,583,702 ns) to the start of the last DtoH
// copy (156,064,793,461 ns), 3,002 kernels start, 36,416,526 ns in all. Each moment's row is cited.
TEST(QueryExecute, OneEventByStartAndAWindowBetweenMomentsEventsMark) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto nvf = ws.Open(testing::Fixture("h200_nvfuser_nvtx.sqlite"));
  ASSERT_TRUE(nvf.ok());
  Subject second{EventKind::kNvtx, "runFusionWithInputs"};
  second.nth = 2;
  auto range = ws.AskQueries({nvf->id, {Q({Measure::kTotal}, second)}});
  ASSERT_TRUE(range.ok()) << range.error().message;
  EXPECT_NE(range->answer.summary.find("Read as: total time of the 2nd to start of the NVTX ranges whose name contains "
                                       "`runFusionWithInputs`"),
            std::string::npos)
      << range->answer.summary;
  EXPECT_NE(range->answer.summary.find("271.057 ms"), std::string::npos) << range->answer.summary;
  Query open = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, ""});
  open.scope.origin = Anchor{second, false};
  open.scope.until = Anchor{second, true};
  auto inside = ws.AskQueries({nvf->id, {open}});
  ASSERT_TRUE(inside.ok()) << inside.error().message;
  EXPECT_NE(inside->answer.summary.find("1 kernel, total 901.303 µs"), std::string::npos) << inside->answer.summary;
  EXPECT_NE(inside->answer.summary.find("The window ends at the end of the 2nd to start of the NVTX ranges"),
            std::string::npos)
      << inside->answer.summary;

  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  Subject first_htod{EventKind::kMemcpy, "", "HtoD"}, last_dtoh{EventKind::kMemcpy, "", "DtoH"};
  first_htod.nth = 1;
  last_dtoh.nth = -1;
  Query between = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, ""});
  between.scope.origin = Anchor{first_htod, true};
  between.scope.until = Anchor{last_dtoh, false};
  auto a = ws.AskQueries({h100->id, {between}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("3,002 kernels, total 36.417 ms"), std::string::npos) << a->answer.summary;
  std::vector<int64_t> moments;
  for (const auto& e : a->answer.evidence) {
    if (e.columns.size() == 3 && e.rows.size() == 1 && e.columns[2].find("_ns") != std::string::npos &&
        std::holds_alternative<int64_t>(e.rows[0][2]))
      moments.push_back(std::get<int64_t>(e.rows[0][2]));
  }
  EXPECT_EQ(moments, (std::vector<int64_t>{155367583702, 156064793461}));
  // No event to mark the moment: said, never the whole profile.
  Query none = between;
  none.scope.origin->events = Subject{EventKind::kKernels, "no_such_kernel"};
  auto missing = ws.AskQueries({h100->id, {none}});
  ASSERT_TRUE(missing.ok()) << missing.error().message;
  EXPECT_EQ(missing->answer.summary.find("3,002 kernels"), std::string::npos) << missing->answer.summary;
  EXPECT_NE(missing->answer.summary.find("no event marks"), std::string::npos) << missing->answer.summary;
}

// The time between two moments (Measure::kElapsed) on a real export: from the end of MPI_Init to the first saxpy
// kernel's start, 214,125,379 ns (sqlite3: MIN(start) of the saxpy kernels - MAX(end) of the MPI_Init ranges), both
// moments' rows cited; elapsed is asked alone, between two moments.
TEST(QueryExecute, TheTimeBetweenTwoMoments) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto saxpy = ws.Open(testing::Fixture("realworld/a100_mpi_cuda_saxpy_rank0.sqlite"));
  ASSERT_TRUE(saxpy.ok());
  auto r =
      ws.Ask({saxpy->id, "how long after MPI_Init finishes does the first saxpy kernel start on the GPU?", ""}, {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r->answer.summary.find("Read as: time from the last end of the NVTX ranges whose name contains `MPI_Init` "
                                   "to the first start of the kernels whose name contains `saxpy`."),
            std::string::npos)
      << r->answer.summary;
  EXPECT_NE(r->answer.summary.find("214.125 ms from"), std::string::npos) << r->answer.summary;
  size_t moments = 0;
  for (const auto& e : r->answer.evidence)
    moments += e.columns.size() == 3 && e.columns[2].find("_ns") != std::string::npos;
  EXPECT_EQ(moments, 2u);
  Query alone = Q({Measure::kElapsed, Measure::kCount}, {EventKind::kKernels, ""});
  alone.scope.origin = Anchor{Subject{EventKind::kKernels, ""}, false};
  alone.scope.until = Anchor{Subject{EventKind::kKernels, ""}, true};
  EXPECT_EQ(CheckQuery(alone).error().message, "Query: elapsed is asked alone: the time between two moments.");
  alone.measures = {Measure::kElapsed};
  EXPECT_TRUE(CheckQuery(alone).ok());
  alone.scope.until.reset();
  EXPECT_FALSE(CheckQuery(alone).ok());
}

// The executor on a real export: each figure is the cell of the cited row, and agrees with SQL over the export.
TEST(QueryExecute, AnswersFromTheCitedRowsAndOpensWithTheReading) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
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

// Yes or no against a threshold, a GPU's copies by their classification, and a partial reading declined, on real
// exports (figures from sqlite3 over them: 218 of the H100 fixture's kernels run longer than 100 us and none longer
// than 1 ms; the UVM export's 12,288 device-to-host migrations (copyKind 12) move 2,147,483,648 bytes).
TEST(QueryExecute, YesNoMigrationsAndDeclinedPartialReadings) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto none = ws.Ask({h100->id, "Are any kernels longer than 1 ms?", ""}, {});
  ASSERT_TRUE(none.ok());
  EXPECT_NE(none->answer.summary.find("No: 0 of 3,442 kernels"), std::string::npos) << none->answer.summary;
  auto some = ws.Ask({h100->id, "Are there any kernels longer than 100 us?", ""}, {});
  ASSERT_TRUE(some.ok());
  EXPECT_NE(some->answer.summary.find("Yes: 218 of 3,442 kernels"), std::string::npos) << some->answer.summary;

  auto uvm = ws.Open(testing::Fixture("realworld/a100_perlmutter_uvm_vecadd.sqlite"));
  ASSERT_TRUE(uvm.ok());
  auto back = ws.Ask({uvm->id, "How much data did unified memory migrate from the device to the host?", ""}, {});
  ASSERT_TRUE(back.ok());
  ASSERT_FALSE(back->answer.evidence.empty()) << back->answer.summary;
  const Evidence& e = back->answer.evidence.front();
  EXPECT_EQ(e.call.args.at("copy_kind"), Value(std::string("Unified DtoH")));
  const auto bytes = std::find(e.columns.begin(), e.columns.end(), "bytes");
  ASSERT_NE(bytes, e.columns.end());
  EXPECT_EQ(e.rows.at(0).at(static_cast<size_t>(bytes - e.columns.begin())), Value(int64_t{2147483648}));

  // Read in part: declined, naming the words not understood and offering what was understood (a window from the end
  // longer than the profile; "the last 200 ms" is read since session 22).
  auto partial = ws.Ask({h100->id, "How many kernels ran in the last 2000 s?", ""}, {});
  ASSERT_TRUE(partial.ok());
  ASSERT_TRUE(partial->answer.refusal.has_value()) << partial->answer.summary;
  EXPECT_NE(partial->answer.refusal->reason.find("'last 2000'"), std::string::npos) << partial->answer.refusal->reason;
  ASSERT_FALSE(partial->answer.refusal->alternatives.empty());
  EXPECT_EQ(partial->answer.refusal->alternatives.front(), "count of kernels, all GPUs");
}

// On the H100 fixture (figures from sqlite3 over it: the 640 kernels whose short name contains sm80_xmma_gemm take
// 38,781,120 ns; devices 1 and 0 run 22,444,359 and 22,385,163 ns of kernels, 59,196 ns apart).
// The launch delay from the end of the launching call (sqlite3 over the fixture: AVG(MAX(0, k.start - r.end)) of the
// 85 splitKreduce_kernel launches, joined on correlationId within the process, is 133,872.9 ns), and a definition
// in parentheses said under the reading.
TEST(QueryExecute, LaunchDelayAndADefinitionSaidUnderTheReading) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mpi = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(mpi.ok());
  auto delay = ws.Ask({mpi->id, "What is the average launch delay of splitKreduce_kernel?", ""}, {});
  ASSERT_TRUE(delay.ok());
  EXPECT_NE(delay->answer.summary.find("launch delay 133.873 µs (85 kernels"), std::string::npos)
      << delay->answer.summary;
  auto t4 = ws.Open(testing::Fixture("realworld/t4_openmp_offload_solver.sqlite"));
  ASSERT_TRUE(t4.ok());
  auto bw = ws.Ask({t4->id, "What bandwidth do the HtoD copies get (total bytes / total copy time)?", ""}, {});
  ASSERT_TRUE(bw.ok());
  EXPECT_NE(bw->answer.summary.find("\nTaken as defining what is measured, not as more to answer: 'total bytes / total "
                                    "copy time'.\n"),
            std::string::npos)
      << bw->answer.summary;
  EXPECT_NE(bw->answer.summary.find("bandwidth 3.83 GB/s (100 copies"), std::string::npos) << bw->answer.summary;
}

// The recording said by its GPU's model (the export's TARGET_INFO_GPU names a GeForce RTX 2080 Ti) answers the question
// without those words and says how they were taken; a count of base names is a count of groups (sqlite3: 500 memsets
// of 21,332,659,200 bytes; 17 distinct shortName values among the kernels).
// An idle share of the GPU span per GPU, with its parts, and the total over both GPUs as each GPU's own time summed
// (sqlite3 over h100_2gpu_1s: per device, span = last end - first start of its kernels, copies and memsets, idle =
// span - their union; summed over the two devices, 13,005,231 ns idle of 1,938,706,183 ns).
TEST(QueryExecute, AnIdleShareOfTheGpuSpanWithItsParts) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto idle = ws.Ask({h100->id, "What percentage of the GPU span is idle?", ""}, {});
  ASSERT_TRUE(idle.ok());
  const std::string& text = idle->answer.summary;
  EXPECT_NE(text.find("device 0: idle share of the span 0.68%, 6.557 ms idle of 969.448 ms"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Total, each GPU's timeline summed over the GPUs: idle share of the span 0.67%, 13.005 ms idle "
                      "of 1.939 s"),
            std::string::npos)
      << text;
}

TEST(QueryExecute, TheRecordingSaidByItsGpuAndACountOfBaseNames) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto fcm = ws.Open(testing::Fixture("realworld/rtx2080ti_cufcm_cufft.sqlite"));
  ASSERT_TRUE(fcm.ok());
  auto memsets = ws.Ask(
      {fcm->id, "cuFCM run on a 2080 Ti: how many memsets were there, and how many bytes did they set?", ""}, {});
  ASSERT_TRUE(memsets.ok());
  // "cuFCM" is a word of the export's file name (rtx2080ti_cufcm_cufft.sqlite): the whole heading names the recording.
  EXPECT_NE(memsets->answer.summary.find("Read as: count and bytes of memsets, all GPUs.\nTaken as saying which "
                                         "recording this is: 'cuFCM run on a 2080 Ti'.\n500 memsets, bytes 21.33 GB"),
            std::string::npos)
      << memsets->answer.summary;
  auto base = ws.Ask({fcm->id, "How many distinct kernels are there by base name?", ""}, {});
  ASSERT_TRUE(base.ok());
  EXPECT_NE(base->answer.summary.find("17 distinct base names have kernels: "), std::string::npos)
      << base->answer.summary;
}

// A kernel's share of its GPU's span (event_stats' gpu_span_share_pct): sqlite3 over the Perlmutter vector add, one
// kernel `add` of 1,055,170,960 ns in a span of every GPU op (kernel and copies) of 4,946,521,254 ns: 21.3%. Said of
// named kernels ("what percentage of the span do ... take") or of the time just asked ("what share of the GPU span is
// that"); of a whole kind it stays its utilization.
TEST(QueryExecute, AKernelsShareOfItsGpusSpan) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto vecadd = ws.Open(testing::Fixture("realworld/a100_perlmutter_uvm_vecadd.sqlite"));
  ASSERT_TRUE(vecadd.ok());
  for (const char* q : {"What percentage of the GPU span does the add kernel take?",
                        "How long does the add kernel run, and what share of the GPU span is that?"}) {
    auto a = ws.Ask({vecadd->id, q, ""}, {});
    ASSERT_TRUE(a.ok()) << q;
    EXPECT_NE(a->answer.summary.find("share of the GPU span 21.3%, 1.055 s busy of 4.947 s"), std::string::npos)
        << q << "\n"
        << a->answer.summary;
  }
  Query kernels = Q({Measure::kUtilization}, {EventKind::kKernels, ""});
  kernels.group_by = GroupBy::kDevice;
  Check("What percent of the span is covered by kernels?", {kernels});
}

// A process the profile does not have is said with the ids it has, the first twelve and how many in all: the saxpy
// rank's export lists 1,667 processes of the machine (sqlite3: SELECT COUNT(*) FROM PROCESSES).
TEST(QueryExecute, AMissingProcessListsTwelveIdsAndHowMany) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto saxpy = ws.Open(testing::Fixture("realworld/a100_mpi_cuda_saxpy_rank0.sqlite"));
  ASSERT_TRUE(saxpy.ok());
  auto a = ws.Ask({saxpy->id, "What bandwidth did the host-to-device copies of process 5 get?", ""}, {});
  ASSERT_TRUE(a.ok());
  const std::string& text = a->answer.summary;
  EXPECT_NE(text.find("this profile has no process 5 (its processes: 1, 2, 3, 4, 7, 9, 10, 11, 12, 13, 14, 16, ... "
                      "(1667 in all))"),
            std::string::npos)
      << text.substr(0, 600);
  EXPECT_LT(text.size(), 2000u);
}

// One kernel asked of without its name is named (sqlite3 over v100_julia: one kernel, add_arrays_(CuDeviceArray<...>)).
TEST(QueryExecute, TheOneKernelIsNamed) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto julia = ws.Open(testing::Fixture("v100_julia.sqlite"));
  ASSERT_TRUE(julia.ok());
  auto a = ws.Ask({julia->id, "How long did the one kernel run on the card?", ""}, {});
  ASSERT_TRUE(a.ok());
  EXPECT_NE(a->answer.summary.find("total 2.272 µs (1 kernel). The one kernel: `add_arrays_(CuDeviceArray<Int64"),
            std::string::npos)
      << a->answer.summary;
}

// The one kernel's name comes from the profile: a hostile one is said as Markdown code (support::MarkdownCode), a
// fence longer than any run of backticks in it, so nothing of it renders as a link, HTML or a table.
TEST(QueryExecute, AHostileOneKernelNameIsCode) {
  NSYS_REQUIRE_FIXTURES();
  const std::string hostile = "<img src=x onerror=alert(1)>](javascript:x) | ``a``";
  testing::DerivedExport copy("v100_julia.sqlite", {"UPDATE StringIds SET value = '" + hostile + "' WHERE id = 287"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  core::Workspace ws(OfflineConfig());
  auto julia = ws.Open(copy.path());
  ASSERT_TRUE(julia.ok()) << julia.error().message;
  auto a = ws.Ask({julia->id, "How long did the one kernel run on the card?", ""}, {});
  ASSERT_TRUE(a.ok());
  EXPECT_NE(a->answer.summary.find(" The one kernel: " + support::MarkdownCode(hostile) + "."), std::string::npos)
      << a->answer.summary;
  EXPECT_EQ(support::MarkdownCode(hostile).substr(0, 4), "``` ");  // fenced past the name's own two backticks
}

// Communication against compute from nccl_breakdown's rows (sqlite3 over mfu_2gpu_after: GPU 1 runs 31 kernels whose
// short name starts with nccl, 23,753,085 ns in all, and no other kernel on GPU 1 overlaps any of them).
TEST(QueryExecute, CommunicationExposedAndOverlappedPerGpu) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mfu = ws.Open(testing::Fixture("mfu_2gpu_after.sqlite"));
  ASSERT_TRUE(mfu.ok());
  auto comm =
      ws.Ask({mfu->id,
              "on GPU 1, how much of the NCCL kernel time is exposed, and what share do compute kernels overlap?", ""},
             {});
  ASSERT_TRUE(comm.ok());
  EXPECT_NE(comm->answer.summary.find("GPU 1: 31 communication kernels (all), busy 23.753 ms; 0.0% of it overlapped by "
                                      "compute kernels; 23.753 ms exposed, 100.0% of its busy time."),
            std::string::npos)
      << comm->answer.summary;
  ASSERT_FALSE(comm->answer.evidence.empty());
  EXPECT_EQ(comm->answer.evidence.front().call.skill, "nccl_breakdown");
  // A kernel that is no communication kernel is not answered with the communication kernels' figures.
  auto other = ws.Ask({mfu->id, "how much flash_fwd_kernel time is exposed?", ""}, {});
  ASSERT_TRUE(other.ok());
  EXPECT_NE(other->answer.summary.find("names no communication kernel"), std::string::npos) << other->answer.summary;
}

// The launch relation answered from event_stats' launched_by and launches (sqlite3, correlation ids within a process:
// 362 cudaLaunchKernel calls of 2,024,677 ns launched trsm_right_kernel on a100_2proc_mpi; on h200_nvfuser_nvtx 3
// kernels were launched by cuLaunchKernelEx and 9 by cudaLaunchKernel).
TEST(QueryExecute, TheLaunchRelation) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mpi = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(mpi.ok());
  auto calls = ws.Ask({mpi->id,
                       "How many cudaLaunchKernel calls launched trsm_right_kernel, and how much host time did "
                       "those launch calls take in total?",
                       ""},
                      {});
  ASSERT_TRUE(calls.ok());
  EXPECT_NE(calls->answer.summary.find("`cudaLaunchKernel`: 362 calls, total 2.025 ms"), std::string::npos)
      << calls->answer.summary;
  auto h200 = ws.Open(testing::Fixture("h200_nvfuser_nvtx.sqlite"));
  ASSERT_TRUE(h200.ok());
  auto versus =
      ws.Ask({h200->id, "how many kernels were launched through cuLaunchKernelEx vs cudaLaunchKernel?", ""}, {});
  ASSERT_TRUE(versus.ok());
  EXPECT_NE(versus->answer.summary.find("launched by `cuLaunchKernelEx`: 3 kernels; launched by `cudaLaunchKernel`: 9 "
                                        "kernels."),
            std::string::npos)
      << versus->answer.summary;
}

// An export that traced no NVTX has no range to name (a100_2proc_mpi has no NVTX_EVENTS table); an export that
// records each CUDA call twice, by its name and its versioned entry, counts each call once (sqlite3 over the saxpy
// export: 15 distinct correlation ids among its 30 cudaMemcpy rows).
TEST(QueryExecute, NoRangesToNameAndCallsRecordedTwice) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mpi = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(mpi.ok());
  auto ranges = ws.Ask({mpi->id, "Which NVTX range contains the most GPU kernel time?", ""}, {});
  ASSERT_TRUE(ranges.ok());
  ASSERT_TRUE(ranges->answer.refusal.has_value()) << ranges->answer.summary;
  EXPECT_NE(ranges->answer.summary.find("the export has no NVTX ranges"), std::string::npos) << ranges->answer.summary;
  auto saxpy = ws.Open(testing::Fixture("realworld/a100_mpi_cuda_saxpy_rank0.sqlite"));
  ASSERT_TRUE(saxpy.ok());
  auto memcpy =
      ws.Ask({saxpy->id, "How many cudaMemcpy calls were made, and how long did they take in total?", ""}, {});
  ASSERT_TRUE(memcpy.ok());
  EXPECT_NE(memcpy->answer.summary.find("`cudaMemcpy`: 15 calls, total 374.344 ms"), std::string::npos)
      << memcpy->answer.summary;
}

// Registers, shared memory and the grid's dimensions from launch_sizes' row (sqlite3 over mfu_2gpu_after:
// flash_fwd_kernel runs 255 registers per thread, no static and 65,536 bytes of dynamic shared memory per block, in
// two grids of 30 launches each, 122 x 1 x 12 and 244 x 1 x 6); the SMs with the GPU's name (mock: an RTX 3080, 68).
TEST(QueryExecute, RegistersSharedMemoryDimensionsAndSms) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mfu = ws.Open(testing::Fixture("mfu_2gpu_after.sqlite"));
  ASSERT_TRUE(mfu.ok());
  auto regs = ws.Ask(
      {mfu->id, "flash_fwd_kernel: registers per thread, dynamic shared memory per block, and grid dimensions?", ""},
      {});
  ASSERT_TRUE(regs.ok());
  const std::string& a = regs->answer.summary;
  EXPECT_NE(a.find("registers per thread 255"), std::string::npos) << a;
  EXPECT_NE(a.find("dynamic shared memory per block 65.54 KB"), std::string::npos) << a;
  EXPECT_TRUE(a.find("blocks per grid 1464 (122 × 1 × 12)") != std::string::npos ||
              a.find("blocks per grid 1464 (244 × 1 × 6)") != std::string::npos)
      << a;
  // Every figure stated is a cell of the cited row.
  ASSERT_FALSE(regs->answer.evidence.empty());
  const auto& cols = regs->answer.evidence.back().columns;
  for (const char* c : {"registers_per_thread", "dynamic_shared_bytes", "grid_x", "grid_y", "grid_z"})
    EXPECT_NE(std::find(cols.begin(), cols.end(), c), cols.end()) << c;
  auto mock = ws.Open(testing::Fixture("mock.sqlite"));
  ASSERT_TRUE(mock.ok());
  auto sms = ws.Ask({mock->id, "How many SMs does the GPU that ran reduce_kernel have?", ""}, {});
  ASSERT_TRUE(sms.ok());
  EXPECT_NE(sms->answer.summary.find("SMs on its GPU 68 (NVIDIA GeForce RTX 3080)"), std::string::npos)
      << sms->answer.summary;
  // A window from the first kernel's start (sqlite3 over the H100 fixture: GPU 0's first kernel starts at
  // 155,360,295,935 ns; 227 kernels start in the 100 ms after it, 2,582,771 ns of them).
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto early = ws.Ask(
      {h100->id, "In the first 100 ms after the first kernel starts on GPU 0, how many kernels start on GPU 0?", ""},
      {});
  ASSERT_TRUE(early.ok());
  const std::string& e = early->answer.summary;
  EXPECT_NE(e.find("between 0.000 s and 0.100 s from the first kernel's start"), std::string::npos) << e;
  EXPECT_NE(e.find("227 kernels"), std::string::npos) << e;
  EXPECT_NE(e.find("at 155,360,295,935 ns on the capture clock"), std::string::npos) << e;
  // Blocks against SMs (sqlite3 over the saxpy rank: 5 launches of 2 blocks of 512 threads, on an A100 of 108 SMs).
  auto saxpy = ws.Open(testing::Fixture("realworld/a100_mpi_cuda_saxpy_rank0.sqlite"));
  ASSERT_TRUE(saxpy.ok());
  auto fill = ws.Ask({saxpy->id, "Does the saxpy kernel launch fewer thread blocks than the A100 has SMs?", ""}, {});
  ASSERT_TRUE(fill.ok());
  const std::string& f = fill->answer.summary;
  EXPECT_NE(f.find("(yes if blocks per grid is below SMs of its GPU)"), std::string::npos) << f;
  EXPECT_NE(f.find("Yes: saxpy: blocks per grid 2, SMs on its GPU 108"), std::string::npos) << f;
  EXPECT_NE(f.find("Blocks per grid 2 is below SMs on its GPU 108."), std::string::npos) << f;
  // Idle gaps between kernels on device 1 (GoldenEventStats.IdleGapsAreTheHolesOfTheUnion: 1,720 gaps, the longest
  // 155,770,060 ns).
  auto gaps = ws.Ask({h100->id, "How many idle gaps between kernels are there on GPU 1, and the longest one?", ""}, {});
  ASSERT_TRUE(gaps.ok());
  const std::string& g = gaps->answer.summary;
  EXPECT_NE(g.find("Read as: number of idle gaps and longest idle gap of kernels, on device 1"), std::string::npos)
      << g;
  EXPECT_NE(g.find("idle gaps 1,720, longest idle gap 155.770 ms"), std::string::npos) << g;
  // The H100 export has no TARGET_INFO_GPU table: no SM count to compare with, said so, never "above 0".
  auto unknown = ws.Ask({h100->id, "Does reduce_kernel launch fewer thread blocks than the GPU has SMs?", ""}, {});
  ASSERT_TRUE(unknown.ok());
  const std::string& u = unknown->answer.summary;
  EXPECT_NE(u.find("Cannot say: "), std::string::npos) << u;
  EXPECT_NE(u.find("The export does not record how many SMs the GPU has"), std::string::npos) << u;
  EXPECT_EQ(u.find("is above SMs"), std::string::npos) << u;
}

// A part of a name that matches one name only is said with that name, from the same skill grouped by name (the T4
// solver's one kernel whose name contains "solve", by sqlite3: nvkernel_solve_F1L204_2, 50 launches); a part that
// matches several is not.
TEST(QueryExecute, APartOfANameThatMatchesOneNameSaysWhich) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("realworld/t4_openmp_offload_solver.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.Ask({opened->id, "How many launches of the solve kernel are there?", ""}, {});
  ASSERT_TRUE(a.ok());
  EXPECT_NE(a->answer.summary.find("50 kernels"), std::string::npos) << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("`solve` matches one name only: `nvkernel_solve_F1L204_2`"), std::string::npos)
      << a->answer.summary;
  const auto one = std::find_if(a->answer.evidence.begin(), a->answer.evidence.end(),
                                [](const Evidence& e) { return e.caption == "The one name it names"; });
  ASSERT_NE(one, a->answer.evidence.end());
  ASSERT_EQ(one->rows.size(), 1u);
  EXPECT_EQ(one->rows[0][0], Value(std::string("nvkernel_solve_F1L204_2")));
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto many = ws.Ask({h100->id, "How many gemm kernels are there?", ""}, {});
  ASSERT_TRUE(many.ok());
  EXPECT_EQ(many->answer.summary.find("matches one name only"), std::string::npos) << many->answer.summary;
}

// The GPUs the export lists (sqlite3: TARGET_INFO_GPU of the JAX export has eight RTX 3090s, and only device 0 has
// kernels or copies); figures an export without a GPU table does not give are refused, not said "not given".
TEST(QueryExecute, TheGpusTheExportListsAndWhatItDoesNotGive) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto jax = ws.Open(testing::Fixture("realworld/rtx3090_jax_xla_small.sqlite"));
  ASSERT_TRUE(jax.ok());
  auto box = ws.Ask({jax->id, "How many GPUs does the machine have, and what is their peak memory bandwidth?", ""}, {});
  ASSERT_TRUE(box.ok());
  const std::string& text = box->answer.summary;
  EXPECT_NE(text.find("8 GPUs listed, 1 of them ran GPU work (kernels, copies or memsets): GPU 0. GPUs 0 to 7: "
                      "NVIDIA GeForce RTX 3090, 936.1 GB/s peak memory bandwidth."),
            std::string::npos)
      << text;
  ASSERT_EQ(box->answer.evidence.size(), 1u);
  EXPECT_EQ(box->answer.evidence[0].call.skill, "gpus");
  EXPECT_EQ(box->answer.evidence[0].rows.size(), 8u);
  // GPUs alike are said once with their ids, a run of ids as a range and other ids one by one (the cuFCM export
  // lists six RTX 2080 Ti; three of them asked).
  auto fcm = ws.Open(testing::Fixture("realworld/rtx2080ti_cufcm_cufft.sqlite"));
  ASSERT_TRUE(fcm.ok());
  Query some{{Measure::kCount}, Subject{EventKind::kDevices}};
  some.scope.devices = {0, 2, 5};
  auto three = ws.AskQueries({fcm->id, {some}});
  ASSERT_TRUE(three.ok());
  EXPECT_NE(three->answer.summary.find("3 GPUs listed, 1 of them ran GPU work (kernels, copies or memsets): GPU 0. "
                                       "GPUs 0, 2 and 5: GeForce RTX 2080 Ti."),
            std::string::npos)
      << three->answer.summary;
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto none = ws.Ask({h100->id, "What peak memory bandwidth does the profile record for the GPUs?", ""}, {});
  ASSERT_TRUE(none.ok());
  ASSERT_TRUE(none->answer.refusal.has_value()) << none->answer.summary;
  EXPECT_NE(none->answer.summary.find("the export gives no SM count, memory or memory bandwidth of its GPUs."),
            std::string::npos)
      << none->answer.summary;
}

// A GPU's name comes from the profile: a hostile one is shown as text in the answer (support::MarkdownText).
TEST(QueryExecute, AHostileGpuNameIsShownAsText) {
  NSYS_REQUIRE_FIXTURES();
  testing::DerivedExport copy(
      "mock.sqlite", {"UPDATE TARGET_INFO_GPU SET name = '<img src=x onerror=alert(1)>](javascript:x) | `a`'"});
  ASSERT_TRUE(copy.ok()) << copy.error();
  core::Workspace ws(OfflineConfig());
  auto mock = ws.Open(copy.path());
  ASSERT_TRUE(mock.ok()) << mock.error().message;
  auto gpu = ws.Ask({mock->id, "What GPU is this?", ""}, {});
  ASSERT_TRUE(gpu.ok());
  const std::string& text = gpu->answer.summary;
  EXPECT_NE(text.find("GPU 0: \\<img src=x onerror=alert(1)\\>\\](javascript:x) \\| \\`a\\`."), std::string::npos)
      << text;
  for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1))
    EXPECT_TRUE(at > 0 && text[at - 1] == '\\') << "an unescaped '<' at " << at << " in " << text;
}

// A client's question is untrusted text: the words the answer quotes back (unread, taken as describing, taken as the
// recording) are escaped as Markdown text, whatever part of the answer says them.
TEST(QueryExecute, HostileWordsOfAQuestionAreQuotedAsText) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  const std::vector<std::string> questions = {
      "how many <img src=x onerror=alert(1)> kernels ran?",
      "in the <b>x</b> profile: how many kernels ran?",
      "how many `x`|[y](javascript:z) foo_<i>bar kernels ran?",
  };
  for (const std::string& q : questions) {
    auto turn = ws.Ask({h100->id, q, ""}, {});
    ASSERT_TRUE(turn.ok()) << q;
    const std::string& text = turn->answer.summary;
    for (size_t at = text.find_first_of("<>"); at != std::string::npos; at = text.find_first_of("<>", at + 1))
      EXPECT_TRUE(at > 0 && text[at - 1] == '\\') << "unescaped '" << text[at] << "' at " << at << " of: " << text;
    for (size_t at = text.find("]("); at != std::string::npos; at = text.find("](", at + 1))  // no link to follow
      EXPECT_TRUE(at > 0 && text[at - 1] == '\\') << "an unescaped link at " << at << " of: " << text;
  }
}

// "fewer blocks than the GPU has SMs" of each launch: event_stats' bound, and the SMs it was held against from
// the gpus skill's rows (sqlite3 over the H200 export: 7 of 18 kernels have a grid below its 132 SMs).
// A share of a named base says both figures and the percentage (sqlite3: 2,023,364,558 ns of myelinGraphExecute
// ranges, 2,124,630,655 ns of ExecutionContext::execute ranges, 95.23%); the worst launch delay is event_stats'
// max_delay_ns (sqlite3: max(start - the launching call's end, 0) over the kernels, 417,744 ns).
TEST(QueryExecute, AShareOfANamedBaseAndTheWorstLaunchDelay) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto trt = ws.Open(testing::Fixture("titanrtx_tensorrt_nvtx.sqlite"));
  ASSERT_TRUE(trt.ok());
  auto share = ws.Ask(
      {trt->id, "What is the myelinGraphExecute time as a share of the ExecutionContext::execute time?", ""}, {});
  ASSERT_TRUE(share.ok());
  EXPECT_NE(
      share->answer.summary.find("`myelinGraphExecute`: total 2.023 s; `ExecutionContext::execute`: total 2.125 s. "
                                 "`myelinGraphExecute` is 95.23% of `ExecutionContext::execute`."),
      std::string::npos)
      << share->answer.summary;
  auto mpi = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(mpi.ok());
  auto worst = ws.Ask({mpi->id, "What is the worst launch delay of the kernels?", ""}, {});
  ASSERT_TRUE(worst.ok());
  EXPECT_NE(worst->answer.summary.find("longest launch delay 417.744 µs, launch delay 150.367 µs (885 kernels"),
            std::string::npos)
      << worst->answer.summary;
}

// CUDA calls and NVTX ranges said of a GPU are those of the process that ran its GPU work, found and cited
// (sqlite3: process 145 ran every kernel of device 1 and recorded 68 ncclSend ranges, 158,244 ns; on h100_2gpu_1s
// processes 111 and 112 made 1,394 cudaLaunchKernel_v7000 calls each). A process that also ran work on another GPU
// cannot have its host events split by GPU: declined (a derived copy where process 145 ran one kernel on device 0).
TEST(QueryExecute, HostEventsOfAGpuAreThoseOfItsProcess) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto mfu = ws.Open(testing::Fixture("mfu_2gpu_before.sqlite"));
  ASSERT_TRUE(mfu.ok());
  auto ranges = ws.Ask(
      {mfu->id, "how many ncclSend NVTX ranges did the GPU 1 rank record, and how long were they in total?", ""}, {});
  ASSERT_TRUE(ranges.ok());
  const std::string& a = ranges->answer.summary;
  EXPECT_NE(a.find("those of GPU 1 are taken as those of the process that ran its GPU work (145)."), std::string::npos)
      << a;
  EXPECT_NE(a.find("`ncclSend`: 68 ranges, total 158.244 µs"), std::string::npos) << a;
  EXPECT_FALSE(ranges->answer.refusal.has_value());
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  auto calls = ws.Ask({h100->id, "how many cudaLaunchKernel calls on GPU 0 vs GPU 1?", ""}, {});
  ASSERT_TRUE(calls.ok());
  EXPECT_NE(calls->answer.summary.find("process 111: 1,394 calls; process 112: 1,394 calls."), std::string::npos)
      << calls->answer.summary;
  testing::DerivedExport both(
      "mfu_2gpu_before.sqlite",
      {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 0 WHERE rowid = (SELECT MIN(rowid) FROM "
       "CUPTI_ACTIVITY_KIND_KERNEL WHERE ((globalPid >> 24) & 16777215) = 145)"});
  ASSERT_TRUE(both.ok()) << both.error();
  auto shared = ws.Open(both.path());
  ASSERT_TRUE(shared.ok());
  auto split = ws.Ask({shared->id, "how many ncclSend NVTX ranges were recorded on GPU 1?", ""}, {});
  ASSERT_TRUE(split.ok());
  ASSERT_TRUE(split->answer.refusal.has_value()) << split->answer.summary;
  EXPECT_NE(split->answer.summary.find("also ran work on GPU 0: its host events cannot be split by GPU"),
            std::string::npos)
      << split->answer.summary;
}

TEST(QueryExecute, LaunchesBelowTheSmsSayTheSms) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto h200 = ws.Open(testing::Fixture("h200_nvfuser_nvtx.sqlite"));
  ASSERT_TRUE(h200.ok());
  auto below = ws.Ask({h200->id, "How many kernel launches used fewer thread blocks than the GPU has SMs?", ""}, {});
  ASSERT_TRUE(below.ok());
  const std::string& text = below->answer.summary;
  EXPECT_EQ(text.rfind("Read as: count of kernels, all GPUs, each with fewer blocks than its GPU has SMs.", 0), 0u)
      << text;
  EXPECT_NE(text.find("7 of 18 kernels"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 0 has 132 SMs (NVIDIA H200)."), std::string::npos) << text;
  ASSERT_EQ(below->answer.evidence.size(), 2u);
  EXPECT_EQ(below->answer.evidence[1].call.skill, "gpus");
}

TEST(QueryExecute, DescribedWordsMarginsAndClausesNoQueryHolds) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto h100 = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(h100.ok());
  // A plain word beside the name describes the kernels, and the answer says so under its reading.
  auto gemm = ws.Ask({h100->id, "total time of the matrix-multiply sm80_xmma_gemm kernels?", ""}, {});
  ASSERT_TRUE(gemm.ok());
  EXPECT_EQ(gemm->answer.summary.rfind("Read as: total time of kernels whose name contains `sm80_xmma_gemm`", 0), 0u)
      << gemm->answer.summary;
  EXPECT_NE(gemm->answer.summary.find("\nTaken as describing them, not as filters: 'matrix-multiply'.\n"),
            std::string::npos)
      << gemm->answer.summary;
  EXPECT_NE(gemm->answer.summary.find("total 38.781 ms (640 kernels"), std::string::npos) << gemm->answer.summary;
  // "by how much": the difference of the two ranked rows.
  auto margin =
      ws.Ask({h100->id, "which of the 2 GPUs spent more total time running kernels, and by how much?", ""}, {});
  ASSERT_TRUE(margin.ok());
  EXPECT_NE(margin->answer.summary.find("Difference: 59.196 µs (device 1 over device 0, 1.00×)."), std::string::npos)
      << margin->answer.summary;
  // The only two groups there are: their difference and ratio (sqlite3 over mfu_2gpu_before: ncclDevKernel_SendRecv
  // runs 17,172,652 ns on device 0 and 8,229,100 ns on device 1, 2.09 times as long).
  auto mfu = ws.Open(testing::Fixture("mfu_2gpu_before.sqlite"));
  ASSERT_TRUE(mfu.ok());
  auto ratio = ws.Ask({mfu->id, "How much GPU time did ncclDevKernel_SendRecv take on each GPU?", ""}, {});
  ASSERT_TRUE(ratio.ok());
  EXPECT_NE(ratio->answer.summary.find("Difference: 8.944 ms (device 0 over device 1, 2.09×)."), std::string::npos)
      << ratio->answer.summary;
  // "by how many nanoseconds": the margin of the total time, not a count; the other of two groups shown beside the
  // one asked for is no tie (33 kernels on each GPU, 17.2 ms against 8.2 ms).
  auto ns = ws.Ask({mfu->id,
                    "Compare the two GPUs: which one spends more total time in ncclDevKernel_SendRecv, and by how "
                    "many nanoseconds?",
                    ""},
                   {});
  ASSERT_TRUE(ns.ok());
  EXPECT_NE(ns->answer.summary.find("the top 1 by total time"), std::string::npos) << ns->answer.summary;
  EXPECT_NE(ns->answer.summary.find("Difference: 8.944 ms (device 0 over device 1, 2.09×)."), std::string::npos)
      << ns->answer.summary;
  EXPECT_EQ(ns->answer.summary.find("(tied)"), std::string::npos) << ns->answer.summary;
  // A question for a cause that also asks for figures: the diagnosis, then those figures from the executor (sqlite3
  // over the brainstorm export: 918 cudaStreamSynchronize calls).
  auto brainstorm = ws.Open(testing::Fixture("realworld/rtx3090_pytorch_brainstorm_sample.sqlite"));
  ASSERT_TRUE(brainstorm.ok());
  auto why = ws.Ask(
      {brainstorm->id, "Why is this GPU so underused? And how many cudaStreamSynchronize calls did the host make?", ""},
      {});
  ASSERT_TRUE(why.ok());
  EXPECT_FALSE(why->answer.refusal.has_value()) << why->answer.summary;
  EXPECT_EQ(why->answer.summary.rfind("Read as: ", 0), std::string::npos) << why->answer.summary;  // diagnosis first
  EXPECT_NE(why->answer.summary.find("\n\nRead as: count of CUDA API calls named `cudaStreamSynchronize`"),
            std::string::npos)
      << why->answer.summary;
  EXPECT_NE(why->answer.summary.find("`cudaStreamSynchronize`: 918 calls"), std::string::npos) << why->answer.summary;
  // A clause that asks for what no Query holds (a share of a span not the events' own) is declined, not handed to
  // the phrase parser to answer another question.
  // The thread blocks of a launch: the configurations ranked by blocks per grid, not the most used one (sqlite3: the
  // H100 fixture's largest grid is vectorized_gather_kernel's, 9604 blocks of 32 threads).
  auto blocks =
      ws.Ask({h100->id, "Which kernel launched the most thread blocks, and how many blocks was that?", ""}, {});
  ASSERT_TRUE(blocks.ok());
  EXPECT_NE(blocks->answer.summary.find("vectorized_gather_kernel: blocks per grid 9604, threads per block 32 (the "
                                        "largest launch configuration by blocks per grid"),
            std::string::npos)
      << blocks->answer.summary;
  auto span = ws.Ask({h100->id, "how much of the GPU span is spent in host-to-device copies, as a pct?", ""}, {});
  ASSERT_TRUE(span.ok());
  ASSERT_TRUE(span->answer.refusal.has_value()) << span->answer.summary;
  EXPECT_NE(span->answer.refusal->reason.find("I could not read all of this question"), std::string::npos)
      << span->answer.refusal->reason;
}

// A comparison with no two sides of its own, said over plural GPUs, processes or streams, is of each of them; a
// place said once is no grouping.
TEST(QueryFill, AComparisonOverPluralPlacesIsOfEach) {
  Query per_process = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  per_process.group_by = GroupBy::kPid;
  Check("How does total kernel time compare between the two processes?", {per_process});
  Query per_stream = Q({Measure::kTotal}, {EventKind::kMemcpy, "", ""});
  per_stream.group_by = GroupBy::kStream;
  Check("compare copy time across streams", {per_stream});
  Query on_one = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  on_one.scope.devices = {0};
  Check("How does kernel time compare on GPU 0?", {on_one});
}

// Batch 57's general causes: a scene's unnamed events lent to a question that names none; a table's "rows" are the
// events; a leading "In the NVTX ranges," is a place; GPU work spelled out as its parts; a GPU "doing nothing" is
// idle, and a share of the time it idles is the idle share of kernels when no events are said; a definition of a
// measure asked before says its events; a Query the check refuses is declined.
TEST(QueryFill, ScenesRowsPartsOfGpuWorkAndDefinitionsOfAMeasure) {
  Check("There are some device-to-device copies in the JAX run. How many, and how many bytes in total?",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "DtoD"})});
  Check("Looking at the memcpy rows, how many bytes were copied host-to-device?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("In the NVTX ranges, how many forward ranges are there?",
        {Q({Measure::kCount}, {EventKind::kNvtx, "forward", "", "", true})});
  Query idle_work = Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kGpu, "", ""});
  idle_work.scope.devices = {0};
  Check(
      "Between its first and last GPU op (kernels, copies, memsets), how long was GPU 0 idle, and what percentage of "
      "that span is it?",
      {idle_work});
  Query idle_share = Q({Measure::kIdleShare}, {EventKind::kKernels, "", ""});
  idle_share.scope.devices = {1};
  Check("what percentage of the time was GPU 1 doing nothing?", {idle_share});
  Query defined = Q({Measure::kIdleShare}, {EventKind::kGpu, "", ""});
  defined.scope.devices = {1};
  const Reading told = Fill(
      "what percentage of the time was GPU 1 sitting idle? count idle as nothing running at all (no kernel, memcpy or "
      "memset)");
  ASSERT_EQ(told.queries.size(), 1u) << (told.queries.empty() ? "" : DescribeQuery(told.queries.back()));
  EXPECT_EQ(DescribeQuery(told.queries.front()), DescribeQuery(defined));
  EXPECT_EQ(told.defined.size(), 1u);
  EXPECT_FALSE(Fill("How much device memory did the forward kernels allocate at peak?").complete());
}

// Windows said in more ways: any unit of time the lexicon holds, one unit without a number ("the first second"), a
// bound on when each starts counted from the first kernel ("more than 1 s after", "within 50 ms of"), and a window's
// end as a length after the origin ("to 100 ms later").
TEST(QueryFill, WindowsInUnitsBoundsAndLengthsFromTheOrigin) {
  const auto window = [](std::optional<double> from, std::optional<double> to, bool origin) {
    Query q = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
    q.scope.from_s = from;
    q.scope.to_s = to;
    q.scope.from_first_kernel = origin;
    return q;
  };
  Check("how many kernels ran in the first 100 milliseconds?", {window(0.0, 0.1, false)});
  Check("how many kernels ran in the first second?", {window(0.0, 1.0, false)});
  Check("How many kernels started within the first second after the first kernel hit the GPU?",
        {window(0.0, 1.0, true)});
  Check("How many kernels started more than 1 s after the first kernel?", {window(1.0, std::nullopt, true)});
  Check("how many kernels started within 50 ms of the first kernel?", {window(0.0, 0.05, true)});
  Check("from the first kernel start to 100 ms later, how many kernels start?", {window(0.0, 0.1, true)});
  Check("how many kernels started in the first 2 minutes?", {window(0.0, 120.0, false)});
  // A bound with no origin after it stays a bound on each kernel's duration.
  Query longer = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  longer.scope.longer_than_ns = 50000;
  Check("how many kernels took more than 50 us?", {longer});
}

// An MPI job's processes said with the library's name; host-side time of CUDA calls; the launch calls for a kernel
// and "how many launches was that" after them; "layer" a range noun; ranges ranked inside a range declined.
TEST(QueryFill, MpiRanksHostTimeLaunchCallsForAKernelAndLayerRanges) {
  Query per_rank = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"});
  per_rank.group_by = GroupBy::kPid;
  Check("htod bytes per mpi rank?", {per_rank});
  Check("how much host-side time went into cudaStreamSynchronize?",
        {Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Query launches = Q({Measure::kTotal, Measure::kCount}, {EventKind::kApi, "", ""});
  launches.scope.launches = "vectorized_elementwise_kernel";
  Check(
      "How much CPU time went into the launch calls for vectorized_elementwise_kernel, and how many launches was that?",
      {launches});
  const Reading layer = Fill("which layer range took the longest?");
  EXPECT_TRUE(layer.complete()) << (layer.unread.empty() ? "" : layer.unread.front());
  ASSERT_EQ(layer.queries.size(), 1u);
  EXPECT_EQ(layer.queries[0].subject.events, EventKind::kNvtx) << DescribeQuery(layer.queries[0]);
  EXPECT_FALSE(Fill("Inside forward, which layer range took the longest?").complete());
  // A layer is an NVTX range (session 22): the time of each.
  Query per_layer = Q({Measure::kTotal}, {EventKind::kNvtx, ""});
  per_layer.group_by = GroupBy::kName;
  Check("how much time per layer?", {per_layer});
}

// GPU work defined in a sentence of its own ("By 'busy' I mean ... kernels, memcpys and memsets", "I understand 'idle'
// as ... kernel/copy ..."): every clause of a GPU's time that names no events is of the GPU's work, and the
// definition is said. A request said as a wish ("I'd like ...") asks; "per-process" is "per process"; "that
// window's length" is the span.
TEST(QueryFill, GpuWorkDefinedRequestsAsWishesAndHyphenatedWords) {
  Query util = Q({Measure::kUtilization}, {EventKind::kGpu, "", ""});
  util.group_by = GroupBy::kDevice;
  const Reading defined = Fill("By busy I mean kernels, memcpys and memsets. What percentage of the window is busy?");
  ASSERT_EQ(defined.queries.size(), 1u);
  EXPECT_EQ(defined.queries.front(), util) << DescribeQuery(defined.queries.front());
  EXPECT_EQ(defined.defined, (std::vector<std::string>{"By busy I mean kernels memcpys and memsets"}));
  util.group_by = GroupBy::kNone;
  util.scope.devices = {1};
  Check("I'd like the GPU utilisation of device 1 only.",
        {Q({Measure::kUtilization}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
  const Reading span = Fill(
      "I understand 'idle' as the time in the GPU's active window (first kernel/copy start to last kernel/copy end) "
      "when nothing is executing. What is that window's length?");
  ASSERT_EQ(span.queries.size(), 1u);
  EXPECT_EQ(span.queries.front(), Q({Measure::kSpan}, {EventKind::kGpu, "", ""}))
      << DescribeQuery(span.queries.front());
  Query per_process = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  per_process.group_by = GroupBy::kPid;
  Check("I'd like a per-process split: how many kernels ran?", {per_process});
  // Without a definition, a GPU's time is its kernels' (guides/analysis.md).
  Check("What percentage of the window is busy on GPU 1?",
        {Q({Measure::kUtilization}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
}

// "count and bytes": the noun "count" is a measure of its own beside bytes ("how many bytes" is the bytes); "first"
// said as an order in time ("Which kernel ran first?") is unread, not dropped; "first ... last" is a span.
TEST(QueryFill, TheCountBesideBytesAndFirstAsAnOrder) {
  Check("count and bytes of HtoD copies", {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("how many bytes of HtoD copies", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  const Reading first = Fill("Which kernel ran first?");
  EXPECT_FALSE(first.complete());
  EXPECT_EQ(first.unread, (std::vector<std::string>{"first"}));
  EXPECT_TRUE(Fill("How much time was the GPU idle between the first and the last kernel?").complete());
}

// A family of kernels said by what they are ("the FlashAttention forward kernel", "the GEMMs", "cuBLAS kernels") when
// no kernel name holds the word: Subject::family, with "forward"/"backward" its operation even where a range is so
// named; beside a name the family's words describe it; lent from a heading; a family's launch configuration and a
// family of CUDA calls are no Query. A comma inside parentheses splits no clause.
TEST(QueryFill, KernelFamiliesByTheDecodersWords) {
  const auto family = [](std::vector<Measure> measures, const char* f) {
    Query q = Q(std::move(measures), {EventKind::kKernels, ""});
    q.subject.family = f;
    return q;
  };
  Check("What share of all kernel time (both GPUs, summed durations) goes to the FlashAttention forward kernel?",
        {family({Measure::kShare}, "FlashAttention fwd")});
  Check("how much time do the convolutions take?", {family({Measure::kTotal}, "conv")});
  // "GEMMs" where a kernel name holds "gemm": the name.
  Check("how much time do the GEMMs take?", {Q({Measure::kTotal}, {EventKind::kKernels, "GEMM"})});
  Check("how many cuBLAS kernels ran?", {family({Measure::kCount}, "cuBLAS")});
  Check("FlashAttention backward: how many launches?", {family({Measure::kCount}, "FlashAttention bwd")});
  // A name of the profile is read as a name first; the family's words beside it describe it.
  Check("how many nvfuser kernels ran?", {Q({Measure::kCount}, {EventKind::kKernels, "nvfuser"})});
  const Reading beside = Fill("What share of kernel time goes to the cuBLASLt sm80_xmma_gemm kernels?");
  ASSERT_EQ(beside.queries.size(), 1u);
  EXPECT_TRUE(beside.queries.front().subject.family.empty());
  EXPECT_EQ(beside.queries.front().subject.name, "sm80_xmma_gemm");
  // launch_sizes takes a family as event_stats does.
  Check("For the FlashAttention forward kernel, how many threads per block does it launch with?",
        {family({Measure::kBlock}, "FlashAttention fwd")});
  EXPECT_FALSE(Fill("how many cuBLAS calls were made?").complete());
}

// A share of some kernels asked per GPU is of each GPU's own kernel time; a share of all kernel time, or of the
// kernels unnamed, is of every one. Parentheses of names alone name what the words before them describe.
TEST(QueryFill, SharesWithinEachPlaceAndNamesInParentheses) {
  Query within = Q({Measure::kShare}, {EventKind::kKernels, "nccl"});
  within.group_by = GroupBy::kDevice;
  within.share_within_group = true;
  Check("Percent of kernel time in nccl kernels, per GPU", {within});
  within.share_within_group = false;
  Check("What share of all kernel time do the nccl kernels take on each GPU?", {within});
  Query spread = Q({Measure::kShare}, {EventKind::kKernels, ""});
  spread.group_by = GroupBy::kDevice;
  Check("What percentage of kernel time is on each GPU?", {spread});
  Query summed = Q({Measure::kShare}, {EventKind::kKernels, "nvfuser_pointwise|vectorized_elementwise"});
  const Reading named = Fill("Percent of kernel time spent in fused ops (nvfuser_pointwise + vectorized_elementwise)");
  ASSERT_EQ(named.queries.size(), 1u) << (named.unread.empty() ? "" : named.unread.front());
  EXPECT_EQ(named.queries.front(), summed) << DescribeQuery(named.queries.front());
}

// A team lead's terse lists and a reviewer's scenes: slashes between three figures or more are a list, not a
// division; "merged", "overlaps counted once" and "Start/end" say no more; a statement of how things look sets the
// scene whatever figures it names; "the A range and of the B range" are two ranges side by side, never A inside B.
TEST(QueryFill, SlashListsLooksAndTwoRangesSideBySide) {
  Check("Memsets: count / total bytes / total time / longest one",
        {Q({Measure::kCount, Measure::kBytes, Measure::kTotal, Measure::kMax}, {EventKind::kMemset, ""})});
  const Reading merged = Fill("GPU busy percent over the whole GPU span (kernels, copies and memsets merged)");
  EXPECT_TRUE(merged.complete()) << (merged.unread.empty() ? "" : merged.unread.front());
  Check("Start/end ranges named forward: count / total",
        {Q({Measure::kCount, Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true})});
  Check("The host side seems to spend a lot of time at teardown. How many cudaFree calls were made?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaFree", "", "", true})});
  Query both = Q({Measure::kAverage}, {EventKind::kNvtx, "forward", "", "", true});
  both.versus_subject = Subject{EventKind::kNvtx, "aten::linear", "", "", true};
  Check("What is the average duration of the forward NVTX range and of the aten::linear range?", {both});
}

// "more than double", "more than 20 times": a yes/no comparison against the second side times a factor; a factor
// said where no two sides are compared is no Query; "how many times" still counts.
TEST(QueryFill, AFactorOfAComparison) {
  Query twice = Q({Measure::kTotal}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true},
                  Scope{{0}, {}, -1, "", {}, {}});
  twice.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  twice.form = Form::kYesNo;
  twice.factor = 2;
  Check("Is device 0's vectorized_elementwise_kernel time more than double device 1's?", {twice});
  const Reading twenty = Fill("is the total time of all memcpys more than 20 times the total kernel time?");
  ASSERT_EQ(twenty.queries.size(), 1u) << (twenty.unread.empty() ? "" : twenty.unread.front());
  EXPECT_EQ(twenty.queries.front().factor, 20.0);
  EXPECT_EQ(twenty.queries.front().versus_subject->events, EventKind::kKernels);
  EXPECT_FALSE(Fill("how many kernels took more than twice?").complete());
  Check("how many times did vectorized_elementwise_kernel run?",
        {Q({Measure::kCount}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
}

// Kernels ranked by name, the top `limit` (0: one) by the first measure.
Query TopKernels(std::vector<Measure> measures, int32_t limit = 0) {
  Query q = Q(std::move(measures), {EventKind::kKernels, ""});
  q.group_by = GroupBy::kName;
  q.rank = Rank::kTop;
  q.limit = limit;
  return q;
}

// Chat shorthand ("krnl", "tot", "b/w", "#calls", "dev 0", ">"), read as the words it stands for; a GPU with its id
// after "count" is where events are counted, not what is.
TEST(QueryFill, ShorthandOfChatAndNotes) {
  Check("krnl count on gpu1", {Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Check("kernel count on GPU 1", {Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Check("#calls cudaLaunchKernel", {Q({Measure::kCount}, {EventKind::kApi, "cudaLaunchKernel", "", "", true})});
  Check("d2h b/w on dev 0",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "DtoH"}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("max krnl dur on dev0", {Q({Measure::kMax}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Scope longer;
  longer.longer_than_ns = 100'000;
  Check("how many krnls > 100us", {Q({Measure::kCount}, {EventKind::kKernels, ""}, longer)});
  Check("top 3 krnls by tot time", {TopKernels({Measure::kTotal}, 3)});
}

// "the top kernel", "the heaviest one": ranked by the time taken, whatever figure of it is asked; "by" says otherwise.
TEST(QueryFill, TheTopKernelIsRankedByItsTime) {
  Check("threads per block for the top kernel", {TopKernels({Measure::kTotal, Measure::kBlock})});
  Check("top 3 kernels by grid size", {TopKernels({Measure::kGrid}, 3)});
}

// A share said of "the span" is the idle share or the utilization, the span its base; "the GPU span" is of every GPU
// op (kernels, copies, memsets); "how much of the span" asks the time too.
TEST(QueryFill, ASharesBaseSaidAsTheSpan) {
  Query idle = Q({Measure::kIdleShare}, {EventKind::kKernels, ""});
  idle.group_by = GroupBy::kDevice;
  Check("What percentage of the span is idle?", {idle});
  idle.subject.events = EventKind::kGpu;
  Check("What percentage of the GPU span is idle?", {idle});
  Query covered = Q({Measure::kUtilization}, {EventKind::kKernels, ""});
  covered.group_by = GroupBy::kDevice;
  Check("What percent of the span is covered by kernels?", {covered});
  Query much = Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kGpu, ""});
  much.group_by = GroupBy::kDevice;
  Check("how much of the GPU span is the gpu sitting idle?", {much});
}

// "what percentage of all kernel launches": a share by number, not of time; "is that" after a count keeps its events
// and bounds, the "all" naming the share's base.
TEST(QueryFill, AShareOfHowManyThereAre) {
  Scope shorter;
  shorter.shorter_than_ns = 10'000;
  Check("what percentage of all kernel launches ran for less than 10 us?",
        {Q({Measure::kCountShare}, {EventKind::kKernels, ""}, shorter)});
  Check("How many kernels ran for less than 10 microseconds, and what percentage of all kernel launches is that?",
        {Q({Measure::kCount, Measure::kCountShare}, {EventKind::kKernels, ""}, shorter)});
  Check("How many kernels ran for less than 10 microseconds, and what percentage of all kernel time is that?",
        {Q({Measure::kCount, Measure::kShare}, {EventKind::kKernels, ""}, shorter)});
  Check("what share of kernel time do the nccl kernels take?", {Q({Measure::kShare}, {EventKind::kKernels, "nccl"})});
}

// The words of the export's file name say which recording a heading means ("mfu before:", "mfu_2gpu_before, gpu0
// only:"), never which events; elsewhere they are read as ever.
TEST(QueryFill, TheRecordingNamedByTheWordsOfItsFile) {
  EXPECT_EQ(FileWordsOf("/data/mfu_2gpu_before.sqlite"),
            (std::vector<std::string>{"2gpu", "before", "mfu", "mfu_2gpu_before", "mfu_2gpu_before.sqlite"}));
  QueryVocabulary v = Vocabulary();
  v.file_words = FileWordsOf("/data/mfu_2gpu_before.sqlite");
  const Query count = Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}});
  // A hyphenated word of file words and a recording noun ("before-run"), and file words in parentheses ("(before
  // run)"), say the recording too.
  for (const char* q :
       {"mfu before: krnl count on gpu0", "mfu_2gpu_before, gpu0 only: how many kernels?",
        "mfu_2gpu_before gpu 0: how many kernels", "before-run, gpu 0: how many kernels?",
        "how many kernels on gpu 0 (before run)?", "how many kernels on gpu 0 (the mfu before profile)?"}) {
    const Reading r = FillQueries(q, v);
    EXPECT_TRUE(r.complete()) << q << ": " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << q;
    EXPECT_EQ(r.queries[0], count) << q << ": " << DescribeQuery(r.queries[0]);
    EXPECT_FALSE(r.recording.empty()) << q;
  }
  // "before" in the question itself is no recording's word.
  EXPECT_FALSE(FillQueries("how many kernels ran before the first sync?", v).complete());
}

// "busy = union of ...", "(GB/s = bytes / time)": what follows "=" defines what stands before it; a part that only
// names a measure asked elsewhere is a definition whole. "krnl+memcpy+memset" lists three kinds; "threads/blk" is
// threads per block.
TEST(QueryFill, EquationsDefineAndSlashesPer) {
  Query idle = Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kGpu, ""}, Scope{{0}, {}, -1, "", {}, {}});
  const Reading r = Fill("dev 0: idle time and idle pct of the span? busy = union of krnl+memcpy+memset on gpu0");
  EXPECT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0], idle) << DescribeQuery(r.queries[0]);
  EXPECT_FALSE(r.defined.empty());
  Check("avg launch delay = kernel start minus the end of its launch call",
        {Q({Measure::kLaunchDelay}, {EventKind::kKernels, ""})});
  Check("threads/blk of vectorized_elementwise_kernel",
        {Q({Measure::kBlock}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true})});
}

// NVIDIA's own copy kind numbers (CUPTI_ACTIVITY_MEMCPY_KIND): "copyKind 11" is a unified-memory migration to the
// device, "copy kind = 1" a host-to-device copy; an array copy (3) has no words a Query holds.
TEST(QueryFill, CopyKindsByNvidiasNumbers) {
  Check("total bytes of copyKind 11 copies", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "Unified HtoD"})});
  Check("how many copies with copy kind = 1?", {Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"})});
  EXPECT_FALSE(Fill("how many copyKind 3 copies?").complete());
}

// A name misspelled by one letter is the one name of the profile it is near ("cudaStreamSyncronize"), said under the
// reading; a column of NVIDIA's export is read in any case ("(shortName)": by base name).
TEST(QueryFill, AMisspelledNameAndTheExportsColumns) {
  const Reading r = Fill("how many cudaStreamSyncronize calls?");
  EXPECT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].subject.name, "cudaStreamSynchronize");
  EXPECT_EQ(r.respelled.size(), 1u);
  EXPECT_FALSE(Fill("how many cudaStreamSyncronise_x calls?").complete());  // two letters away
  Query base = Q({Measure::kCount}, {EventKind::kKernels, ""});
  base.group_by = GroupBy::kBaseName;
  Check("kernel count per shortName", {base});
}

// nsys stats' own words: a report's name says its events ("cuda_api_sum", before 2023 "cudaapisum"), or, for the
// memory reports, its statistic only (the rows name their copies: "[CUDA memcpy HtoD]"); its columns as it writes
// them ("Med (ns)", "Num Calls", "StdDev (ns)"); its first rows are a ranking by total time. OS runtime calls are no
// Query's events: said unread.
TEST(QueryFill, NsysStatsReportsAndColumns) {
  Check("In cuda_api_sum, what's the Num Calls for cudaMalloc?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  Check("Med (ns) of cudaStreamSynchronize in cudaapisum?",
        {Q({Measure::kMedian}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Check("nvtx_sum, forward row: StdDev (ns)?", {Q({Measure::kStddev}, {EventKind::kNvtx, "forward", "", "", true})});
  Check("cuda_gpu_mem_size_sum: Total for [CUDA memcpy DtoH]?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "DtoH"})});
  Check("cuda_gpu_mem_time_sum, [CUDA memset] row: Min (ns)?", {Q({Measure::kMin}, {EventKind::kMemset, "", ""})});
  Query top = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 3;
  Check("the first 3 rows of gpukernsum in rank order, with their Total Time (ns)", {top});
  Check("the first 3 kernels by total time", {top});
  top.limit = Query{}.limit;  // one
  top.measures = {Measure::kTotal, Measure::kShare};
  Check("What is the first row of cuda_gpu_kern_sum and its Time (%)?", {top});
  // "The first 3 kernels" to start: an order in time, unread; "osrt_sum": OS runtime calls, unread.
  EXPECT_EQ(Fill("how long did the first 3 kernels take?").unread, (std::vector<std::string>{"first 3"}));
  EXPECT_FALSE(Fill("osrt_sum: Total Time (ns) for poll?").complete());
}

// Said as people say it in a language they learned, or by its definition: "most long" is "longest"; "which percent"
// asks a value, as "what percent" does; a quotient of bytes and time beside the bandwidth asked defines it, and is
// said as a definition; a span said without start or end words ("from the first GPU work until the last one") is
// the span of those events.
TEST(QueryFill, SuperlativesQuotientsAndSpansSaidPlainly) {
  Query longest = Q({Measure::kMax}, {EventKind::kKernels, "", ""});
  longest.group_by = GroupBy::kName;
  longest.rank = Rank::kTop;
  Check("which kernel is most long for one launch?", {longest});
  Check("the cudaMalloc, its most short call is how much time?",
        {Q({Measure::kMin}, {EventKind::kApi, "cudaMalloc", "", "", true})});
  Check("on GPU 1 the DtoD copies: which bandwidth they get?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "DtoD"}, Scope{{1}, {}, -1, "", {}, {}})});
  const Reading ratio = Fill("HtoD copies, how much GB/s? total bytes divide by total time of the copies");
  EXPECT_TRUE(ratio.complete());
  ASSERT_EQ(ratio.queries.size(), 1u) << DescribeQuery(ratio.queries[0]) << " / "
                                      << DescribeQuery(ratio.queries.back());
  EXPECT_EQ(ratio.queries[0], Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"}));
  EXPECT_EQ(ratio.defined, (std::vector<std::string>{"total bytes divide by total time of the copies"}));
  // Nothing else asked: the quotient is the question, not a definition.
  EXPECT_FALSE(Fill("bytes divided by time per GPU for the HtoD copies").complete());
  Query idle = Q({Measure::kIdleShare}, {EventKind::kGpu, "", ""});
  idle.group_by = GroupBy::kDevice;
  const Reading span = Fill("from first GPU work until the last one, GPU is idle which percent of that time?");
  EXPECT_TRUE(span.complete()) << (span.unread.empty() ? "" : span.unread.front());
  ASSERT_EQ(span.queries.size(), 1u);
  EXPECT_EQ(span.queries[0], idle) << DescribeQuery(span.queries[0]);
}

// Definitions said in words beside the question: kernels grouped by short name in the scene; overlapping time counted
// once (a union, which busy time is, of the kinds listed); "(not fusion_2 and so on)" after a whole name. A question
// of overlaps is no definition.
TEST(QueryFill, DefinitionsSaidBesideTheQuestion) {
  Query base = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  base.group_by = GroupBy::kBaseName;
  base.rank = Rank::kTop;
  base.limit = 3;
  Check("group kernels with the short name please, not the long one. the top 3 by total time?", {base});
  const Reading busy = Fill(
      "GPU 0 is busy for how long? kernels, copies and memsets all count, but when they overlap count only one time");
  EXPECT_TRUE(busy.complete()) << (busy.unread.empty() ? "" : busy.unread.front());
  ASSERT_EQ(busy.queries.size(), 1u) << DescribeQuery(busy.queries.front()) << " / "
                                     << DescribeQuery(busy.queries.back());
  EXPECT_EQ(busy.queries[0], Q({Measure::kBusy}, {EventKind::kGpu, "", ""}, Scope{{0}, {}, -1, "", {}, {}}));
  EXPECT_FALSE(Fill("total kernel time on GPU 0? and how many kernels overlap with copies at least once?").complete());
  Query fusion = Q({Measure::kCount}, {EventKind::kKernels, "nvfuser_pointwise_f0_c1_r0_g0", "", "", true});
  Check("how many times did 'nvfuser_pointwise_f0_c1_r0_g0' run (not nvfuser_pointwise_f0_c1_r0_g0_x and so on)?",
        {fusion});
}

// Comparisons said as people check a hypothesis: "how many times higher" and "how many times as much ... as" are a
// ratio (the margin's), not a count; "the ratio of A to that of B"; "exceed that of B"; "more HtoD copies than DtoH
// copies" compares counts; "how much more than the other one" after a ranking; "those long ones" after a bound; a
// belief the next sentence asks to confirm ("True?", "Is that right?") is the yes/no question.
TEST(QueryFill, ComparisonsSaidAsChecks) {
  Query ratio = Q({Measure::kTotal}, {EventKind::kApi, "cudaMalloc", "", "", true});
  ratio.versus_subject = Subject{EventKind::kApi, "cudaFree", "", "", true};
  ratio.limit = 2;  // a margin: the two sides
  Check("how many times higher is the total time of cudaMalloc than of cudaFree?", {ratio});
  Check("how many times as much time did cudaMalloc take as cudaFree?", {ratio});
  ratio.measures = {Measure::kAverage};
  Check("What's the ratio of the average duration of cudaMalloc to that of cudaFree?", {ratio});
  ratio.measures = {Measure::kTotal};
  Check("By how much does the total time of cudaMalloc exceed that of cudaFree?", {ratio});
  Query counts = Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"});
  counts.versus_subject = Subject{EventKind::kMemcpy, "", "DtoH"};
  counts.form = Form::kYesNo;
  Check("Are there more host-to-device copies than device-to-host copies?", {counts});
  Check("Are there more host-to-device copies than device-to-host ones?", {counts});
  Check("counts and bytes of the HtoD copies",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Query bound = Q({Measure::kCount, Measure::kShare}, {EventKind::kKernels, "", ""});
  bound.scope.longer_than_ns = 1'000'000;
  Check("How many kernels ran longer than 1 ms, and what share of all kernel time do those long ones take?", {bound});
  Query big = Q({Measure::kCount}, {EventKind::kMemcpy, "", ""});
  big.scope.larger_than_bytes = 1'000'000;
  big.group_by = GroupBy::kName;  // copies by their kind, with the total after them
  Check("how many memory copies were over 10^6 bytes?", {big});
  Query belief = Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true});
  belief.versus_subject = Subject{EventKind::kApi, "cudaLaunchKernel", "", "", true};
  belief.form = Form::kYesNo;
  Check("I think the host spends longer in cudaStreamSynchronize than in cudaLaunchKernel. True?", {belief});
  Check("My hunch is cudaStreamSynchronize takes longer than cudaLaunchKernel. Is that right?", {belief});
}

// Scopes said as engineers drill in: a bound on each copy said in a clause before the measure goes with its copies;
// binary units ("8 MiB"); a quantity said again in parentheses ("(8,388,608 bytes)"); the launching-call rule of
// "inside a range" said in parentheses; the scene's range pointed at ("under my forward markers ... inside those
// ranges"); "finished in under" a duration; "that line" is the bound, not a name.
TEST(QueryFill, ScopesSaidAsEngineersDrillIn) {
  Query big = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "DtoD"}, Scope{{1}, {}, -1, "", {}, {}});
  big.scope.larger_than_bytes = 8 * 1024 * 1024;
  Check(
      "On GPU 1, if I keep only device-to-device copies larger than 8 MiB (8,388,608 bytes), how many bytes do they "
      "move in total?",
      {big});
  big.scope.larger_than_bytes = 8'000'000;
  Check("On GPU 1, DtoD copies larger than 8 MB: how many bytes do they move in total?", {big});
  Query inside = Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "forward", {}, {}});
  Check(
      "What's the total GPU time of the kernels launched from inside the forward NVTX ranges (launching runtime call "
      "within the range, same thread)?",
      {inside});
  inside.measures = {Measure::kCount};
  Check("I'm looking at what runs under my forward markers. How many kernels were launched from inside those ranges?",
        {inside});
  Query quick = Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true});
  quick.scope.shorter_than_ns = 1'000'000;
  Check("How many cudaMalloc calls finished in under 1 ms?", {quick});
  EXPECT_FALSE(Fill("Did any copy move more than 1 GB? If so, how many copies crossed that line?").complete());
}

// An origin set in words ("Set the origin at the start of the first kernel", "the earliest kernel start as time zero")
// and counted from in the next sentence ("after that"); without an origin, "after that" stays unread.
TEST(QueryFill, AnOriginSetInWords) {
  Query q = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 1.0, 2.0});
  q.scope.from_first_kernel = true;
  Check(
      "Set the origin at the start of the first kernel. Between 1.0 s and 2.0 s after that, how many kernels started?",
      {q});
  q.scope.from_s = 0.0;
  q.scope.to_s = 0.1;
  Check("Use the earliest kernel start as time zero. How many kernels started in the first 100 ms?", {q});
  EXPECT_FALSE(Fill("How many kernels ran? And after that, how many copies?").complete());
}

// Moments events mark, said as where a window starts or ends (an edge said or assumed from the word before it: after
// an event is after its end, before one is before its start), one event by its place in time, and what stays unread:
// the time between two moments ("how long after ..."), which no Query measures, and "from" before events with no edge
// or place, which says where time comes from.
TEST(QueryFill, MomentsEventsMarkAndOneEventByItsPlaceInTime) {
  const auto at = [](EventKind e, const std::string& name, const std::string& kind, int32_t nth, bool end) {
    Anchor a{Subject{e, name, kind}, end};
    a.events.nth = nth;
    return a;
  };
  Query between = Q({Measure::kCount}, {EventKind::kKernels, ""});
  between.scope.origin = at(EventKind::kMemcpy, "", "HtoD", 1, true);
  between.scope.until = at(EventKind::kMemcpy, "", "DtoH", -1, false);
  Check("How many kernels started between the end of the first HtoD copy and the start of the last DtoH copy?",
        {between});
  Query after = Q({Measure::kTotal}, {EventKind::kKernels, ""}, Scope{{}, {}, -1, "", 0.0, 0.2});
  after.scope.origin = at(EventKind::kNvtx, "forward", "", 0, true);
  Check("Measuring from the end of the forward range, what's the kernel time in the following 200 ms?", {after});
  Query zero = Q({Measure::kCount}, {EventKind::kMemcpy, "", "DtoH"}, Scope{{}, {}, -1, "", 2.0, 3.0});
  zero.scope.origin = at(EventKind::kApi, "cudaMalloc", "", 0, false);
  Check(
      "Taking the start of the first cudaMalloc call as time zero, how many DtoH copies happened between 2 s and 3 s "
      "later?",
      {zero});
  Query before = Q({Measure::kCount}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true});
  before.scope.until = at(EventKind::kNvtx, "ProfilerStep#3", "", 0, false);
  Check("How many cudaStreamSynchronize calls were made before the first ProfilerStep#3 range?", {before});
  // "while the second forward range was open": that one range, from its start to its end.
  Query open = Q({Measure::kCount}, {EventKind::kKernels, ""});
  open.scope.origin = at(EventKind::kNvtx, "forward", "", 2, false);
  open.scope.until = at(EventKind::kNvtx, "forward", "", 2, true);
  Check("While the second forward range was open, how many kernels started?", {open});
  // "once" is "after"; "the 11th" after a moment of the same events points at them; "already" says what "before" does.
  Query once = Q({Measure::kCount}, {EventKind::kKernels, ""});
  once.scope.origin = at(EventKind::kApi, "cudaMalloc", "", 0, true);
  Check("Once the last cudaMalloc call had finished, how many kernels ran?", {once});
  Query tenth = Q({Measure::kCount}, {EventKind::kKernels, ""});
  tenth.scope.origin = at(EventKind::kNvtx, "forward", "", 10, true);
  tenth.scope.until = at(EventKind::kNvtx, "forward", "", 11, false);
  Check("Between the end of the 10th forward range and the start of the 11th, how many kernels started?", {tenth});
  Query already = Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true});
  already.scope.until = at(EventKind::kNvtx, "forward", "", 0, false);
  Check("Before the first forward range started, how many cudaMalloc calls had already happened?", {already});
  // One event by its place in time.
  Query later = Q({Measure::kTotal}, {EventKind::kNvtx, "runFusionWithInputs", "", "", true});
  later.subject.nth = -1;
  Check("How long did the later of the two runFusionWithInputs ranges last?", {later});
  // "the very last one to start": "very" stresses, "one" is of the events the clause names, "to start" is by start.
  Query very = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  very.subject.nth = 1;
  Check("What was the very first kernel to execute on the GPU, and how long did it take?", {very});
  Query third = Q({Measure::kTotal}, {EventKind::kApi, "cudaMemcpyAsync", "", "", true});
  third.subject.nth = 3;
  Check("what was the duration of the third cudaMemcpyAsync call?", {third});
  // The time between two moments (Measure::kElapsed): after an event is after its end, the second its start.
  Query elapsed = Q({Measure::kElapsed}, {EventKind::kMemcpy, "", "HtoD"});
  elapsed.subject.nth = 1;
  elapsed.scope.origin = at(EventKind::kMemcpy, "", "HtoD", 1, true);
  elapsed.scope.until = at(EventKind::kKernels, "", "", 0, false);
  Check("How long after the end of the first HtoD copy does the first kernel start?", {elapsed});
  Query gap = Q({Measure::kElapsed}, {EventKind::kKernels, "vectorized_elementwise_kernel"});
  gap.scope.origin = at(EventKind::kKernels, "vectorized_elementwise_kernel", "", 0, true);  // the last end
  gap.subject = gap.scope.origin->events;
  gap.scope.until = at(EventKind::kApi, "cudaStreamSynchronize", "", -1, false);
  Check(
      "What's the gap between the end of the last vectorized_elementwise_kernel and the start of the last "
      "cudaStreamSynchronize call?",
      {gap});
  // "the next call" is the first after the moment before, which no moment of the whole profile is.
  EXPECT_FALSE(Fill("What's the gap between the end of the last vectorized_elementwise_kernel and the start of the "
                    "next cudaStreamSynchronize call?")
                   .complete());
  // Not moments: where time comes from, a span, a place in a ranking.
  const Reading from = Fill("How much of the kernel time comes from the nccl kernels?");
  for (const Query& q : from.queries) EXPECT_FALSE(q.scope.origin) << DescribeQuery(q);
  EXPECT_FALSE(Fill("How long did the last kernel to finish take?").complete());  // by end, not by start
  const Reading span = Fill("How long was the GPU idle between the first and the last kernel?");
  for (const Query& q : span.queries) EXPECT_EQ(q.subject.nth, 0) << DescribeQuery(q);
  const Reading ranked = Fill("Which kernel is the second slowest?");
  ASSERT_EQ(ranked.queries.size(), 1u);
  EXPECT_EQ(ranked.queries[0].subject.nth, 0);
  EXPECT_EQ(ranked.queries[0].offset, 1);
}

// Ranges nested in a range are the ranges inside it (a noun of ranges before the range, or "nested in"), and the
// launching call said in words before the range ("whose launching runtime call sits inside") is the rule every
// `inside` follows: dropped, and said as taken.
TEST(QueryFill, RangesNestedInARangeAndTheLaunchingCallSaidInWords) {
  Query nested = Q({Measure::kCount}, {EventKind::kNvtx, ""});
  nested.scope.inside = "forward";
  Check("How many NVTX ranges are nested inside forward?", {nested});
  Check("Inside forward, how many NVTX ranges are there at any depth?", {nested});
  Query launched = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  launched.scope.inside = "forward";
  Check("What's the total GPU time of kernels whose launching runtime call sits inside a forward range?", {launched});
  const Reading said =
      Fill("How many kernels count, when the CUDA runtime call that launched them lies inside forward?");
  EXPECT_EQ(said.defined.size(), 1u) << (said.unread.empty() ? "" : said.unread.front());
  // The range itself when nothing is said of ranges inside it; no ranking of ranges whose kind is only described.
  Check("How long did the forward ranges take in total?",
        {Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true})});
  EXPECT_FALSE(Fill("How many ranges are nested?").complete());
}

// "start" where a verb stands says where events start, which is what being in a window or a place means ("kernels
// start within the first 100 ms", "whose start is within"); "each of them" is each of the places a scene said
// ("Two programs shared the card.": its processes).
TEST(QueryFill, StartSaidAsAVerbAndEachOfWhatWasNeverNamed) {
  const Query first = Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{}, {}, -1, "", 0.0, 0.1});
  Check("how many kernels start within the first 100 ms?", {first});
  Check("how many kernels whose start is within the first 100 ms are there?", {first});
  Query on = Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"}, Scope{{1}, {}, -1, "", {}, {}});
  Check("How many HtoD copies start on GPU 1?", {on});
  Query each = Q({Measure::kCount}, {EventKind::kKernels, ""});
  each.group_by = GroupBy::kPid;
  Check("Two programs shared the card. How many kernels did each of them start on it?", {each});
  EXPECT_FALSE(Fill("How many kernels did each of them start?").complete());
}

// Parts that used to be answered as another question (issue 42's "never answer a different question"): the calls
// that launched "them" (the kernels the Query before named), ranges "inside it" (all the ranges the Query before named;
// one of them is not held), a bound said after its quantity ("100 MB or more", inclusive), a scene's bounds and
// places lent to the question, and a window said in a scene that no window reads (unread, not dropped).
TEST(QueryFill, PartsThatWereAnsweredAsAnotherQuestion) {
  Query kernels = Q({Measure::kCount}, {EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true});
  Query calls = Q({Measure::kTotal}, {EventKind::kApi, ""});
  calls.scope.launches = "vectorized_elementwise_kernel";
  Check(
      "How many vectorized_elementwise_kernel launches were there, and how much time did the runtime calls that "
      "launched them take?",
      {kernels, calls});
  Query ranges = Q({Measure::kTotal}, {EventKind::kNvtx, "forward", "", "", true});
  Query nested = Q({Measure::kCount}, {EventKind::kNvtx, ""});
  nested.scope.inside = "forward";
  Check("How long did the forward ranges last in total, and how many NVTX ranges sit inside them?", {ranges, nested});
  EXPECT_FALSE(
      Fill("Take the 3rd forward range. How long did it last, and how many NVTX ranges sit inside it?").complete());
  Query big = Q({Measure::kCount}, {EventKind::kMemcpy, "", "HtoD"});
  big.scope.larger_than_bytes = 99'999'999;
  Check("How many HtoD copies of 100 MB or more are there?", {big});
  big.scope.devices = {0};
  Check("On device 0, look only at the big HtoD copies, the ones of 100 MB or more each. How many were there?", {big});
  // A scene's window from one time to another is read since, and lent (AWindowFromOneTimeToAnother).
  EXPECT_TRUE(Fill("Zoom into 6.0 s to 6.1 s after the session start. How many kernels ran?").complete());
}

// A belief said before the question that tests it sets the scene, whatever comparison it states ("I think" is one
// phrase of the lexicon): the question after it is read as asked.
TEST(QueryFill, ABeliefBeforeTheQuestionIsItsScene) {
  Query each = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  each.group_by = GroupBy::kPid;
  Check("I think pid 1679 did more GPU work than pid 1680. What is the summed kernel time of each process?", {each});
  Check("My hunch is that the copies dominate. What is the summed kernel time of each process?", {each});
}

// Copies said with places, not kinds: a host-side place (host, CPU, the computer, its main memory) and a GPU said
// without a number, after "from"/"off" and "to"/"onto", are the copy kind their two ends make; a GPU alone as the end
// is a host-to-device copy only in a sentence about copies. "GPU-function" is "GPU function" (a kernel).
TEST(QueryFill, CopiesSaidWithPlaces) {
  Check("How many bytes were copied from the computer's main memory onto the graphics cards?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("How many times was data copied back from the graphics card to the computer?",
        {Q({Measure::kCount}, {EventKind::kMemcpy, "", "DtoH"})});
  Check("how many bytes of data were sent onto the card?", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("how much time did the copies to the host take?", {Q({Measure::kTotal}, {EventKind::kMemcpy, "", "DtoH"})});
  // A numbered GPU is a place of its own ("to GPU 1" may be a peer copy): not read as a kind.
  EXPECT_EQ(Fill("how many bytes were copied to GPU 1?").queries.size() == 1
                ? Fill("how many bytes were copied to GPU 1?").queries[0].subject.copy_kind
                : "",
            "");
  // Kernels sent to a GPU are no copies: the kernels, counted.
  const Reading sent = Fill("how many kernels were sent onto the card?");
  ASSERT_EQ(sent.queries.size(), 1u);
  EXPECT_EQ(sent.queries[0].subject.events, EventKind::kKernels);
  EXPECT_EQ(sent.queries[0].measures, std::vector<Measure>{Measure::kCount});
  Check("how many GPU-function runs were there?", {Q({Measure::kCount}, {EventKind::kKernels, ""})});
  Check("how long did the memory fills take?", {Q({Measure::kTotal}, {EventKind::kMemset, ""})});
}

// "each copy" after copies of one kind is one of those copies, not a grouping by name; a belief said before a colon
// is the scene of the question after it.
TEST(QueryFill, EachOneOfThoseAndABeliefBeforeAColon) {
  Check("How many DtoH copies are there, and how big was each copy on average?",
        {Q({Measure::kCount, Measure::kAvgBytes}, {EventKind::kMemcpy, "", "DtoH"})});
  Check("cudaFree looks expensive in this run: how many calls were there?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaFree", "", "", true})});
  Check("Give me the memset picture: number of memsets and total bytes set.",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemset, ""})});
}

// A newcomer's words: a CUDA call said as its name reads ("stream-synchronize waits", "memcpy async calls": NVIDIA's
// "cuda" prefix before them makes a name the profile traced); a kind of events in quotes ("'memory fill'"); "out of"
// the whole a share is of; "the first and last thing the card did" is every GPU op; "that stretch" is the span.
TEST(QueryFill, ANewcomersWordsForCallsKindsAndSpans) {
  // "waits" say the call's class, which its whole name already says: no filter beside it.
  Check("How much time did the stream-synchronize waits add up to?",
        {Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Check("How many calls of the blocking cudaMemcpyAsync were there?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaMemcpyAsync", "", "", true})});
  Check("how many memcpy async calls are there?",
        {Q({Measure::kCount}, {EventKind::kApi, "cudaMemcpyAsync", "", "", true})});
  EXPECT_FALSE(Fill("how many device synchronize calls are there?").complete());  // not traced in this vocabulary
  Check("How long did the one 'memory fill' operation take?", {Q({Measure::kTotal}, {EventKind::kMemset, ""})});
  Query idle = Q({Measure::kIdleShare}, {EventKind::kGpu, ""});
  idle.group_by = GroupBy::kDevice;
  Check("Between the first and the last thing the graphics card did, what share of that stretch was the card idle?",
        {idle});
  const Reading sms = Fill("How many multiprocessor units does the GPU have?");
  ASSERT_EQ(sms.queries.size(), 1u) << (sms.unread.empty() ? "" : sms.unread.front());
  EXPECT_EQ(sms.queries[0].measures, std::vector<Measure>{Measure::kSmCount});
}

// "the hottest kernel" ranks by time; "in the cuFCM run", a word of the export's file name before a recording noun,
// says which recording (even where it is also a part of kernel names); "MPI rank 0" of a one-process export is the
// recording; NVIDIA's two styles of NVTX range, which no Query holds apart, are said unread when they would select.
TEST(QueryFill, HottestTheRunNamedByItsFileAndStylesOfRange) {
  const Reading hot = Fill("What's the hottest kernel?");
  ASSERT_EQ(hot.queries.size(), 1u) << (hot.unread.empty() ? "" : hot.unread.front());
  EXPECT_EQ(hot.queries[0].rank, Rank::kTop);
  EXPECT_EQ(hot.queries[0].group_by, GroupBy::kName);
  QueryVocabulary v = Vocabulary();
  v.kernels.push_back("cufcm_pair_correction_spatial_hashing_tpp");
  v.file_words = FileWordsOf("/x/rtx2080ti_cufcm_cufft.sqlite");
  v.traced_processes = 1;
  const Reading run = FillQueries("What is the total kernel time in the cuFCM run?", v);
  ASSERT_EQ(run.queries.size(), 1u) << (run.unread.empty() ? "" : run.unread.front());
  EXPECT_EQ(run.queries[0].subject.name, "");
  EXPECT_EQ(run.recording, std::vector<std::string>{"in the cuFCM run"});
  const Reading rank = FillQueries("For MPI rank 0, how many kernels ran?", v);
  ASSERT_EQ(rank.queries.size(), 1u) << (rank.unread.empty() ? "" : rank.unread.front());
  EXPECT_TRUE(rank.queries[0].scope.pids.empty());
  v.traced_processes = 2;  // two processes: rank 0 is none of their ids
  EXPECT_FALSE(FillQueries("For MPI rank 0, how many kernels ran?", v).queries.empty() ||
               FillQueries("For MPI rank 0, how many kernels ran?", v).queries[0].scope.pids.empty());
  EXPECT_FALSE(Fill("How many start/end ranges are there, and what is their total time?").complete());
  EXPECT_TRUE(Fill("How many forward push/pop ranges are there?").complete());
}

// A parenthesis that explains ("(so only 5% of runs are slower)", "(middle, i.e. median)") says again what stands
// before it: dropped, said as taken; one that narrows ("(so per GPU)", "(i.e. the HtoD ones)") is read. A call of the
// scene's one kernel is one execution of it.
TEST(QueryFill, ExplainingParenthesesAndAKernelsCall) {
  const Reading p95 = Fill("What is the 95th-percentile duration of forward (so a tail figure, nearly the worst)?");
  ASSERT_EQ(p95.queries.size(), 1u) << (p95.unread.empty() ? "" : p95.unread.front());
  EXPECT_EQ(p95.queries[0].measures, std::vector<Measure>{Measure::kP95});
  EXPECT_EQ(p95.described.size(), 1u);
  const Reading per = Fill("What is the total kernel time (so per GPU)?");
  ASSERT_EQ(per.queries.size(), 1u);
  EXPECT_EQ(per.queries[0].group_by, GroupBy::kDevice);
  const Reading call = Fill(
      "I keep seeing vectorized_elementwise_kernel in the list. What's a typical (middle, i.e. "
      "median) run time for one call of it?");
  ASSERT_EQ(call.queries.size(), 1u) << (call.unread.empty() ? "" : call.unread.front());
  EXPECT_EQ(call.queries[0].subject.events, EventKind::kKernels);
  EXPECT_EQ(call.queries[0].subject.name, "vectorized_elementwise_kernel");
  EXPECT_EQ(call.queries[0].measures, std::vector<Measure>{Measure::kMedian});
}

// Several asks in one breath: "the HtoD byte total"; "the same two figures for X" asks them again of X; "(union of
// kernels and copies)" and "span minus merged kernel/copy/memset time" define GPU work; "how does it compare with GPU
// 0" sets the place asked before against GPU 0; "by how much the first exceeds the second" is the margin of the two
// ranked.
TEST(QueryFill, SeveralAsksInOneBreath) {
  Check("What is the HtoD byte total?", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
  const Reading same = Fill("How many HtoD copies are there and how many bytes, and the same two figures for DtoH?");
  ASSERT_FALSE(same.queries.empty()) << (same.unread.empty() ? "" : same.unread.front());
  EXPECT_TRUE(same.complete()) << (same.unread.empty() ? "" : same.unread.front());
  EXPECT_EQ(same.queries.back().subject.copy_kind, "DtoH");
  Query idle = Q({Measure::kIdle}, {EventKind::kGpu, ""});
  idle.group_by = GroupBy::kDevice;
  Check("Idle time per GPU (span minus merged kernel/copy/memset time)?", {idle});
  Query busy = Q({Measure::kBusy}, {EventKind::kGpu, ""});
  busy.group_by = GroupBy::kDevice;
  Check("What is the busy time (union of kernels and copies)?", {busy});
  const Reading compare = Fill("For GPU 1: what is the total kernel time, and how does it compare with GPU 0?");
  // The comparison states GPU 1's total beside GPU 0's: one Query answers both asks (SplitSaidAfter).
  ASSERT_EQ(compare.queries.size(), 1u) << (compare.unread.empty() ? "" : compare.unread.front());
  EXPECT_EQ(compare.queries[0].scope.devices, std::vector<int32_t>{1});
  ASSERT_TRUE(compare.queries[0].versus_scope.has_value());
  EXPECT_EQ(compare.queries[0].versus_scope->devices, std::vector<int32_t>{0});
  // Two sides said once, after measures of the same events, split them too; what one clause says of the events
  // (HtoD) is said of both.
  Query split = Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"});
  split.subject.memory = "pinned";
  split.versus_subject = split.subject;
  split.versus_subject->memory = "pageable";
  Check("how many HtoD copies and how many bytes from pinned memory vs pageable memory?", {split});
  Query sides = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels}, Scope{.devices = {0}});
  sides.versus_scope = Scope{.devices = {1}};
  Check("how many kernels and how much time, GPU 0 vs GPU 1?", {sides});
  const Reading margin =
      Fill("Top two kernels by total GPU time: name them, and tell me by how much the first exceeds the second.");
  EXPECT_TRUE(margin.complete()) << (margin.unread.empty() ? "" : margin.unread.front());
  EXPECT_FALSE(Fill("Which kernel ran first?").complete());  // an order in time, still unread
}

// A student's words: "the middle value" is the median; "doing nothing at all ... from its first activity to its last"
// is the idle of all GPU work; a line of source code is no figure of a profile (declined); "I'm comparing the two
// GPUs." sets the scene; "from the host to GPU 0" is a kind and a place; "sending data to the GPU" a host-to-device
// copy.
TEST(QueryFill, AStudentsWords) {
  Check("What's the middle value of the durations of forward?",
        {Q({Measure::kMedian}, {EventKind::kNvtx, "forward", "", "", true})});
  Query idle = Q({Measure::kIdleShare}, {EventKind::kGpu, ""});
  idle.group_by = GroupBy::kDevice;
  Check("What fraction of the run was the GPU doing nothing at all, counting from its first activity to its last?",
        {idle});
  EXPECT_FALSE(Fill("Which line of my source code inside forward is the slowest?").complete());
  const Reading scene = Fill("I'm comparing the two GPUs. How much total GPU time did cudaMalloc take?");
  EXPECT_TRUE(scene.complete()) << (scene.unread.empty() ? "" : scene.unread.front());
  Check("How much data got copied from the host to GPU 0 in total?",
        {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("How many bytes did sending data to the GPU move?", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
}

// "kernels whose names start with nvfuser", "(the ones whose names start with nvfuser)": a part of names said as their
// start is read as a part of them, which the reading says ("whose name contains").
TEST(QueryFill, NamesSaidByTheirStart) {
  const Query share = Q({Measure::kShare}, {EventKind::kKernels, "nvfuser"});
  Check("What fraction of all kernel time went to kernels whose names start with nvfuser?", {share});
  Check("What fraction of all kernel time went to the nvfuser kernels (the ones whose names start with nvfuser)?",
        {share});
}

// A triage in one breath: "Same for DtoH." after a question asks it again of DtoH copies (a request, not a scene);
// "the difference" is the margin; a scene that names a call and its kind lends it to "how many calls"; a line number
// is no figure of a profile; "hey" greets.
TEST(QueryFill, SameForTheDifferenceAndTheScenesCall) {
  const Reading same = Fill("How many HtoD copies were there and how many bytes did they move? Same for DtoH.");
  ASSERT_EQ(same.queries.size(), 2u) << (same.unread.empty() ? "" : same.unread.front());
  EXPECT_EQ(same.queries[1].subject.copy_kind, "DtoH");
  EXPECT_NE(std::find(same.queries[1].measures.begin(), same.queries[1].measures.end(), Measure::kBytes),
            same.queries[1].measures.end());
  const Reading diff = Fill("Is GPU 1 doing more kernel work than GPU 0? Give me both totals and the difference.");
  EXPECT_TRUE(diff.complete()) << (diff.unread.empty() ? "" : diff.unread.front());
  const Reading scene = Fill("The ranks do a lot of blocking cudaMalloc. How many calls were there in total?");
  ASSERT_EQ(scene.queries.size(), 1u) << (scene.unread.empty() ? "" : scene.unread.front());
  EXPECT_EQ(scene.queries[0].subject.name, "cudaMalloc");
  EXPECT_FALSE(Fill("Which line number launched the longest forward range?").complete());
  Check("hey, how many kernels ran?", {Q({Measure::kCount}, {EventKind::kKernels, ""})});
}

// "Compare X with Y": "with" after "compare" and a side said between them is the other side.
TEST(QueryFill, ComparedWith) {
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, "nvfuser_pointwise_f0_c1_r0_g0", "", "", true});
  q.versus_subject = Subject{EventKind::kKernels, "vectorized_elementwise_kernel", "", "", true};
  Check("Compare nvfuser_pointwise_f0_c1_r0_g0 with vectorized_elementwise_kernel: total time of each?", {q});
}

// Shorthand keeps the case of what it expands: "#NCCL" is "number of NCCL", and the name read is `NCCL` as written
// (a fuzz finding: the filler read `nccl`, a name the question does not hold).
TEST(QueryFill, ShorthandKeepsTheCaseOfItsWord) {
  const Reading r = Fill("#NCCL calls are there?");
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].subject.name, "NCCL");
  EXPECT_EQ(r.queries[0].measures, std::vector<Measure>{Measure::kCount});
}

// A placeholder names a family ("layer_N_computation": the pattern "layer_*_computation"); a word holding '|', a
// pattern's own mark between alternatives, is no placeholder (a fuzz finding: "i.z{|}@" became "*.z{|}@", a name
// the question does not hold).
TEST(QueryFill, APlaceholderIsAFamilyButABarIsNoPlaceholder) {
  QueryVocabulary v = Vocabulary();
  v.nvtx = {"layer_0_computation", "layer_1_computation", "forward"};
  const Reading family = FillQueries("how many layer_N_computation ranges?", v);
  ASSERT_EQ(family.queries.size(), 1u);
  EXPECT_EQ(family.queries[0].subject.name, "layer_*_computation");
  for (const auto& q : FillQueries("how many layer_N|x_computation ranges?", v).queries)
    EXPECT_EQ(q.subject.name.find('*'), std::string::npos) << q.subject.name;
}

// Yes / no questions of one event and their figures: an indefinite article opening the subject asks of any one event
// ("did a kernel run longer than 2 ms" bounds each kernel, not their total); "a millisecond" is one; "On GPU 1, are
// there any ..." asks after its place; "If not, what was the longest one?" asks the longest of all of them (the
// bound before would only leave none); "the most times" ranks by count; a share said of busy time is the utilization;
// GPU work said with one kind of it is that kind.
TEST(QueryFill, OneEventOfAYesNoQuestion) {
  const auto read = [](const std::string& question) {
    const Reading r = Fill(question);
    EXPECT_TRUE(r.complete()) << question << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    return r.queries;
  };
  auto one = read("Did a kernel run longer than 2 ms?");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].measures.front(), Measure::kCount);
  EXPECT_EQ(one[0].scope.longer_than_ns, 2'000'000);
  EXPECT_EQ(one[0].form, Form::kYesNo);
  auto ms = read("Did any kernel run for more than a millisecond?");
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].scope.longer_than_ns, 1'000'000);
  auto placed = read("On GPU 1, are there any memsets?");
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].subject.events, EventKind::kMemset);
  EXPECT_EQ(placed[0].scope.devices, std::vector<int32_t>{1});
  EXPECT_EQ(placed[0].form, Form::kYesNo);
  auto longest = read("Did any cudaMalloc call go past 5 ms? If not, what was the longest one?");
  ASSERT_EQ(longest.size(), 2u);
  EXPECT_EQ(longest[0].scope.longer_than_ns, 5'000'000);
  EXPECT_EQ(longest[1].subject.name, "cudaMalloc");
  EXPECT_EQ(longest[1].measures, std::vector<Measure>{Measure::kMax});
  EXPECT_EQ(longest[1].scope.longer_than_ns, -1);
  auto often = read("which kernel ran the most times?");
  ASSERT_EQ(often.size(), 1u);
  EXPECT_EQ(often[0].measures.front(), Measure::kCount);
  EXPECT_EQ(often[0].rank, Rank::kTop);
  auto busy = read("Is the GPU busy for more than 80% of the time?");
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].measures.front(), Measure::kUtilization);
  EXPECT_EQ(busy[0].threshold, 80);
  auto memset = read("There was a single GPU operation, a memset. How many bytes did it write?");
  ASSERT_EQ(memset.size(), 1u);
  EXPECT_EQ(memset[0].subject.events, EventKind::kMemset);
}

// A superlative beside a statistic ranks by the statistic: "slowest on average" is the top kernel by its mean, not by
// its longest launch (which answered a different question before); "fastest by median" the bottom one by median.
TEST(QueryFill, ASuperlativeOfAStatistic) {
  Query mean = Q({Measure::kAverage}, {EventKind::kKernels, ""});
  mean.group_by = GroupBy::kName;
  mean.rank = Rank::kTop;
  Check("which kernel is slowest on average?", {mean});
  Check("which kernel has the longest average duration?", {mean});
  Query median = Q({Measure::kMedian}, {EventKind::kKernels, ""});
  median.group_by = GroupBy::kName;
  median.rank = Rank::kBottom;
  Check("which kernel is the fastest by median?", {median});
}

// Three names or more of one kind, listed, are one subject (any of them), a row each: "which of X, Y and Z" ranks
// them, "the total time of X, Y and Z" gives each. Before, the first two were set against each other and the rest
// dropped in silence. A list said before the question is lent whole; names of several kinds listed are unread.
TEST(QueryFill, NamesListed) {
  QueryVocabulary v = Vocabulary();
  v.nvtx = {"ncclSend", "ncclRecv", "ncclGroupStart", "ncclGroupEnd", "forward"};
  const auto read = [&](const std::string& question) {
    const Reading r = FillQueries(question, v);
    EXPECT_TRUE(r.complete()) << question << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    return r.queries;
  };
  for (const char* question : {"Which of ncclSend, ncclRecv and ncclGroupEnd takes the most time?",
                               "Which of ncclSend, ncclRecv, ncclGroupEnd takes the most time?",
                               "ncclSend, ncclRecv, ncclGroupEnd: which one takes the most time?"}) {
    const auto q = read(question);
    ASSERT_EQ(q.size(), 1u) << question;
    EXPECT_EQ(q[0].subject.events, EventKind::kNvtx) << question;
    EXPECT_EQ(q[0].subject.name, "ncclSend|ncclRecv|ncclGroupEnd") << question;
    EXPECT_EQ(q[0].group_by, GroupBy::kName) << question;
    EXPECT_EQ(q[0].rank, Rank::kTop) << question;
    EXPECT_FALSE(q[0].versus_subject.has_value()) << question;
    EXPECT_EQ(DescribeQuery(q[0]).find("(summed)"), std::string::npos) << DescribeQuery(q[0]);
  }
  const auto each = read("What is the total time of ncclSend, ncclRecv, ncclGroupStart and ncclGroupEnd?");
  ASSERT_EQ(each.size(), 1u);
  EXPECT_EQ(each[0].subject.name, "ncclSend|ncclRecv|ncclGroupStart|ncclGroupEnd");
  EXPECT_EQ(each[0].group_by, GroupBy::kName);
  EXPECT_EQ(each[0].rank, Rank::kNone);
  const auto two = read("Which of ncclSend and ncclRecv takes longer in total?");
  ASSERT_EQ(two.size(), 1u);
  EXPECT_TRUE(two[0].versus_subject.has_value());  // two names: one against the other, as before
  EXPECT_FALSE(FillQueries("total time of cudaMalloc, ncclSend and forward?", v).complete());
}

// Events left out by name ("excluding", "other than", "apart from", "non-") and ranges the events are outside
// ("outside", "not inside", a range left out of other events): Subject::except and Scope::outside. A range left out of
// ranges ranked is a group left out, which no Query holds: declined.
TEST(QueryFill, NamesLeftOutAndRangesOutside) {
  Query kernels = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  kernels.subject.except = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  Check("What is the total kernel time excluding ncclDevKernel_AllReduce_Sum_f32_RING_LL?", {kernels});
  Check("total time of the non-ncclDevKernel_AllReduce_Sum_f32_RING_LL kernels", {kernels});
  Query calls = Q({Measure::kCount}, {EventKind::kApi, ""});
  calls.subject.except = "cudaLaunchKernel|cudaMalloc";
  Check("How many CUDA API calls are there other than cudaLaunchKernel and cudaMalloc?", {calls});
  Query outside = Q({Measure::kTotal}, {EventKind::kKernels, ""});
  outside.scope.outside = "forward";
  Check("How much kernel time is outside forward?", {outside});
  Check("How much kernel time is not inside the forward range?", {outside});
  Check("How much kernel time is not under any forward range?", {outside});  // "not" before any word of inside
  Check("How much kernel time is not within the forward ranges?", {outside});
  Check("total kernel time, leaving out forward", {outside});
  Query ranges = Q({Measure::kCount}, {EventKind::kNvtx, ""});
  ranges.subject.except = "forward";
  Check("how many NVTX ranges are there apart from forward?", {ranges});
  EXPECT_FALSE(Fill("Leaving out forward, which NVTX range launched the most kernel time?").complete());
}

// Rankings of places and idle said as nothing running. "Which one" over processes or GPUs named one by one ranks
// them (it ranked the calls' names, one row, and the two totals asked were not there); "which kernel" on two GPUs
// still ranks kernels. "How many ns is nothing running on it" is the idle time (it was read as the work's own time).
TEST(QueryFill, WhichOfThePlacesAndNothingRunning) {
  Query pids = Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true},
                 Scope{{}, {148, 149}, -1, "", {}, {}});
  pids.group_by = GroupBy::kPid;
  pids.rank = Rank::kTop;
  pids.limit = 2;  // "Two ranks": both, ranked
  Check("Two ranks here (pids 148 and 149). Which one spent more time in cudaStreamSynchronize?", {pids});
  const auto gpus = Fill("Which of GPU 0 and GPU 1 ran more kernel time?");
  ASSERT_EQ(gpus.queries.size(), 1u);
  EXPECT_EQ(gpus.queries[0].group_by, GroupBy::kDevice);
  const auto kernel = Fill("which kernel took the most time on GPUs 0 and 1?");
  ASSERT_EQ(kernel.queries.size(), 1u);
  EXPECT_EQ(kernel.queries[0].group_by, GroupBy::kName);
  Query idle = Q({Measure::kIdle}, {EventKind::kGpu, ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check("how many ns is nothing running on GPU 0?", {idle});
  Check("how long is nothing at all running on GPU 0?", {idle});
}

// A label the question is filed under ("Launch overhead check:") is no part of it; an "API function" is a CUDA call;
// "over all layers" is every one of them.
TEST(QueryFill, ALabelAFunctionAndAllLayers) {
  Query median = Q({Measure::kMedian}, {EventKind::kApi, "cudaLaunchKernel", "", "", true});
  Check("Launch overhead check: median duration of cudaLaunchKernel calls?", {median});
  const Reading function = Fill("Which CUDA runtime API function eats the most host time?");
  EXPECT_TRUE(function.complete()) << (function.unread.empty() ? "" : function.unread.front());
  ASSERT_EQ(function.queries.size(), 1u);
  EXPECT_EQ(function.queries[0].subject.events, EventKind::kApi);
  EXPECT_TRUE(Fill("Adding up every forward range over all layers, how much time is that?").complete());
}

// Whether any was recorded, of an export without the kind's table, is answered: none, with why, the declined call
// cited. How many is answered 0 when the export traced CUDA (rtx4060's has the CUDA API table; its README: "the right
// answer is 'no kernels were captured'"), refused when it did not (titanrtx_tensorrt_nvtx has no CUDA table at all);
// any of a part of them is refused.
TEST(QueryExecute, WhetherAnyWasRecordedOfAnExportWithoutTheTable) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("realworld/rtx4060_no_kernels_nsys2025_5.sqlite"));
  ASSERT_TRUE(opened.ok());
  Query any = Q({Measure::kCount}, {EventKind::kKernels, ""});
  any.form = Form::kYesNo;
  any.threshold = 0;
  auto none = ws.AskQueries({opened->id, {any}});
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->answer.refusal.has_value()) << none->answer.summary;
  EXPECT_NE(none->answer.summary.find("No: none was recorded."), std::string::npos) << none->answer.summary;
  EXPECT_NE(none->answer.summary.find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos) << none->answer.summary;
  ASSERT_EQ(none->answer.evidence.size(), 1u);
  EXPECT_EQ(none->answer.evidence[0].call.skill, "event_stats");
  auto how_many = ws.AskQueries({opened->id, {Q({Measure::kCount}, {EventKind::kKernels, ""})}});
  ASSERT_TRUE(how_many.ok());
  EXPECT_FALSE(how_many->answer.refusal.has_value()) << how_many->answer.summary;
  EXPECT_NE(how_many->answer.summary.find("0 kernels were recorded: the export has no CUDA kernel table "
                                          "(CUPTI_ACTIVITY_KIND_KERNEL), which nsys writes only when it records one."),
            std::string::npos)
      << how_many->answer.summary;
  auto untraced = ws.Open(testing::Fixture("titanrtx_tensorrt_nvtx.sqlite"));
  ASSERT_TRUE(untraced.ok());
  auto unknown = ws.AskQueries({untraced->id, {Q({Measure::kCount}, {EventKind::kKernels, ""})}});
  ASSERT_TRUE(unknown.ok());
  EXPECT_TRUE(unknown->answer.refusal.has_value()) << unknown->answer.summary;
  auto grouped = Q({Measure::kCount}, {EventKind::kKernels, ""});
  grouped.group_by = GroupBy::kStream;
  auto per_stream = ws.AskQueries({opened->id, {grouped}});
  ASSERT_TRUE(per_stream.ok());
  EXPECT_TRUE(per_stream->answer.refusal.has_value()) << per_stream->answer.summary;
  any.subject.name = "nccl";
  auto part = ws.AskQueries({opened->id, {any}});
  ASSERT_TRUE(part.ok());
  EXPECT_TRUE(part->answer.refusal.has_value()) << part->answer.summary;
}

// A window said from one time to another ("from 6.0 s to 6.1 s", "6.0 to 6.1 s") is the window "between" says; the
// profile's own start said after it ("into the run") is where windows count from anyway, the session's ("after the
// session start") puts it on the capture clock;
// a scene's window is lent on its own to a question that says a place but no time ("that window"). A length said so
// ("lasting from 1 ms to 2 ms") is no window.
TEST(QueryFill, AWindowFromOneTimeToAnother) {
  Query window = Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{}, {}, -1, "", 6.0, 6.1});
  Check("how many kernels ran from 6.0 s to 6.1 s?", {window});
  Check("how many kernels ran from 6.0 to 6.1 s?", {window});
  Query on_capture_clock = window;
  on_capture_clock.scope.capture_clock = true;
  Check("how many kernels ran between 6.0 s and 6.1 s after the session start?", {on_capture_clock});
  Check("how many kernels ran from 6.0 s to 6.1 s into the run?", {window});
  Query placed = Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{}, {1679}, -1, "", 6.0, 6.1});
  Check("Zoom into 6.0 s to 6.1 s. How many kernels did process 1679 run in that window?", {placed});
  for (const auto& q : Fill("how many kernels lasting from 1 ms to 2 ms?").queries) EXPECT_FALSE(q.scope.from_s);
  // A length said right before its origin is the window from it: "in the 3 ms following the end of the first forward
  // range", "in the 100 ms after its first kernel began".
  const Reading after = Fill("How many kernels started in the 3 ms following the end of the first forward range?");
  EXPECT_TRUE(after.complete()) << (after.unread.empty() ? "" : after.unread.front());
  ASSERT_EQ(after.queries.size(), 1u);
  EXPECT_EQ(after.queries[0].scope.from_s, 0.0);
  EXPECT_EQ(after.queries[0].scope.to_s, 0.003);
  ASSERT_TRUE(after.queries[0].scope.origin.has_value());
  EXPECT_TRUE(after.queries[0].scope.origin->at_end);
  EXPECT_EQ(after.queries[0].scope.origin->events.nth, 1);
  const Reading first = Fill("How many kernels started on GPU 0 in the 100 ms after its first kernel began?");
  EXPECT_TRUE(first.complete()) << (first.unread.empty() ? "" : first.unread.front());
  ASSERT_EQ(first.queries.size(), 1u);
  EXPECT_TRUE(first.queries[0].scope.from_first_kernel);
  EXPECT_EQ(first.queries[0].scope.to_s, 0.1);
  // Where the window counts from, said as starting a clock.
  for (const char* question : {"Starting the clock when the first forward range ends, how many kernels started in the "
                               "next 3 ms?",
                               "With t=0 at the end of the first forward range, how many kernels started in the first "
                               "3 ms?"}) {
    const Reading clock = Fill(question);
    EXPECT_TRUE(clock.complete()) << question << ": " << (clock.unread.empty() ? "" : clock.unread.front());
    ASSERT_EQ(clock.queries.size(), 1u) << question;
    ASSERT_TRUE(clock.queries[0].scope.origin.has_value()) << question;
    EXPECT_TRUE(clock.queries[0].scope.origin->at_end) << question;
    EXPECT_EQ(clock.queries[0].scope.to_s, 0.003) << question;
  }
}

// Words of people who do not profile GPUs, each read into the slot a profiler's word fills: "matrix multiplies" as
// the decoder's gemm family, a "queue" as a stream, "GPU jobs" as kernels, "the CPU" as the host whose
// calls the runtime traced, "reserving memory" as the allocation calls.
TEST(QueryFill, EverydayWordsFillTheSlotsOfAProfilersWords) {
  Subject gemms{EventKind::kKernels, "", ""};
  gemms.family = "gemm";  // the decoder's family, never a name the question did not write
  Check("what fraction of the GPU time went to the matrix multiplies?", {Q({Measure::kGpuShare}, gemms)});
  Query busiest = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  busiest.group_by = GroupBy::kStream;
  busiest.rank = Rank::kTop;
  Check("which work queue ran the most kernel time?", {busiest});
  Check("how many GPU jobs ran on GPU 1?",
        {Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}})});
  Subject alloc{EventKind::kApi, "", ""};
  alloc.api_class = "alloc";
  Query reserving = Q({Measure::kTotal}, alloc);
  reserving.group_by = GroupBy::kName;  // a class of calls is stated call by call, with its total
  Check("how long did the CPU spend reserving memory?", {reserving});
}

// "Add up all the X": the reader's own arithmetic asks the total, as "sum" does; "sum up" the same.
TEST(QueryFill, AddUpIsATotal) {
  Check("add up all the cudaMemcpy calls", {Q({Measure::kTotal}, {EventKind::kApi, "cudaMemcpy"})});
  Check("sum up the nccl kernels on GPU 1",
        {Q({Measure::kTotal}, {EventKind::kKernels, "nccl"}, Scope{{1}, {}, -1, "", {}, {}})});
}

// A CUDA call said in words, in the short and noun forms people use for the verb its name ends in: "stream syncs",
// "stream synchronizations" and "stream-sync calls" are cudaStreamSynchronize (the whole name, as the profile traced
// it); a call the profile did not trace is never guessed.
TEST(QueryFill, ACallSaidInWordsInItsSpokenForms) {
  Subject stream_sync{EventKind::kApi, "cudaStreamSynchronize"};
  stream_sync.whole_name = true;
  Check("how many stream syncs?", {Q({Measure::kCount}, stream_sync)});
  Check("how long did the stream synchronizations take?", {Q({Measure::kTotal}, stream_sync)});
  Check("how many stream-sync calls?", {Q({Measure::kCount}, stream_sync)});
  Check("average stream sync time", {Q({Measure::kAverage}, stream_sync)});
  const std::vector<std::string> candidates = NameCandidates("how many device syncs?");
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), "cudadevicesynchronize"), candidates.end())
      << "the spoken call is looked up in the profile's calls";
  EXPECT_EQ(std::find(candidates.begin(), candidates.end(), "cudahowmany"), candidates.end())
      << "words that end in no call's verb are never looked up as one";
}

// "The second GPU", "the first device", "the last GPU": a GPU by its place among the ids the profile used; never a
// unit of time ("in the first second, GPU 1"), a GPU's events ("the first GPU kernel", "the first GPU op") or a place
// the profile does not have ("the third GPU" of two).
TEST(QueryFill, AGpuByItsPlace) {
  const Scope gpu1{{1}, {}, -1, "", {}, {}};
  Check("what bandwidth are the H2D copies getting on the second GPU (device 1)?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"}, gpu1)});
  Check("how many kernels ran on the first GPU?",
        {Q({Measure::kCount}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}})});
  Check("kernel time on the last GPU", {Q({Measure::kTotal}, {EventKind::kKernels, ""}, gpu1)});
  EXPECT_FALSE(Fill("how many kernels on the third GPU?").complete());
  for (const char* other : {"when did the first GPU kernel start?", "how long after the first GPU op?"}) {
    const Reading r = Fill(other);
    for (const Query& q : r.queries) EXPECT_TRUE(q.scope.devices.empty()) << other << ": " << DescribeQuery(q);
  }
}

// A network's layer is an NVTX range ("which layer took the most time"); "which GPU kernel" ranks kernels, not GPUs;
// two names of no kind in common side by side, with no word that compares, are no two sides ("forward cudaMalloc
// time": the second is unread, never a comparison nobody asked).
TEST(QueryFill, LayersGpuKernelsAndNamesSideBySide) {
  Query layers = Q({Measure::kTotal}, {EventKind::kNvtx, ""});
  layers.group_by = GroupBy::kName;
  layers.rank = Rank::kTop;
  Check("which layer took the most time?", {layers});
  Query kernel = Q({Measure::kMax}, {EventKind::kKernels, ""});
  kernel.group_by = GroupBy::kName;
  kernel.rank = Rank::kTop;
  Check("which GPU kernel took longest?", {kernel});
  EXPECT_FALSE(Fill("how much time does forward cudaMalloc take?").complete());
  // Of one kind, or with a word that compares, they still are.
  const Reading two = Fill("cudaMalloc cudaFree: which took more time?");
  EXPECT_TRUE(two.complete());
  ASSERT_EQ(two.queries.size(), 1u);
  EXPECT_TRUE(two.queries[0].versus_subject || two.queries[0].group_by == GroupBy::kName)
      << DescribeQuery(two.queries[0]);
}

// "(overlapping kernels on different streams counted once)": a parenthesis that says only how busy time is taken (a
// union, as it always is) beside a measure of busy time; one that names events to count is a question.
TEST(QueryFill, AUnionSaidInParentheses) {
  Query busy = Q({Measure::kUtilization}, {EventKind::kKernels, ""});
  busy.group_by = GroupBy::kDevice;
  for (const char* q : {"what percentage of the span was at least one kernel running (overlapping kernels counted "
                        "once)?",
                        "what percentage of the span was at least one kernel running (overlaps counted once)?"}) {
    const Reading r = Fill(q);
    EXPECT_TRUE(r.complete()) << q << ": " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << q;
    EXPECT_EQ(r.queries[0], busy) << q << ": " << DescribeQuery(r.queries[0]);
  }
  EXPECT_EQ(
      Fill("what percentage of the span was at least one kernel running (overlapping kernels counted once)?").defined,
      (std::vector<std::string>{"overlapping kernels counted once"}));
  EXPECT_FALSE(Fill("how many kernels ran (how many overlapping kernels counted once)?").complete());
}

// The measure said after "by" ranks, whatever else is asked and wherever it is said: "top 3 calls by total time, with
// their call counts" ranks by the total (not by the count said last), "busiest by kernel count" by the count.
TEST(QueryFill, TheMeasureAfterByRanks) {
  Query calls = Q({Measure::kTotal, Measure::kCount}, {EventKind::kApi, ""});
  calls.group_by = GroupBy::kName;
  calls.rank = Rank::kTop;
  calls.limit = 3;
  Check("top 3 CUDA API calls by total time, with their call counts", {calls});
  Query kernels = Q({Measure::kTotal, Measure::kAverage}, {EventKind::kKernels, ""});
  kernels.group_by = GroupBy::kName;
  kernels.rank = Rank::kTop;
  kernels.limit = 3;
  Check("top 3 kernels by total time, with their average duration", {kernels});
  const Reading busiest = Fill("which stream is busiest by kernel count?");
  ASSERT_EQ(busiest.queries.size(), 1u);
  EXPECT_EQ(busiest.queries[0].measures.front(), Measure::kCount) << DescribeQuery(busiest.queries[0]);
  EXPECT_EQ(busiest.queries[0].group_by, GroupBy::kStream);
}

// "How much of the memcpy time is HtoD": a part of a kind's time, its time and its share; "what fraction of memcpy
// time is on GPU 0" is one share of the profile's copies, not each kind's share within the GPU.
TEST(QueryFill, HowMuchOfAKindsTimeAndAPlacesShareOfCopies) {
  Check("how much of the memcpy time is HtoD?",
        {Q({Measure::kTotal, Measure::kShare}, {EventKind::kMemcpy, "", "HtoD"})});
  Check("how much of the kernel time is on GPU 1?",
        {Q({Measure::kTotal, Measure::kShare}, {EventKind::kKernels, ""}, Scope{{1}, {}, -1, "", {}, {}})});
  const Query on_gpu0 = Q({Measure::kShare}, {EventKind::kMemcpy, ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check("what fraction of memcpy time is on GPU 0?", {on_gpu0});
  EXPECT_TRUE(ShareOfProfile(on_gpu0));
}

// Superlatives rank without "which": "the busiest stream" is the first stream by busy time (it was each GPU's busy
// time); "the 3 most frequent kernels", "the most common call" rank by how many.
TEST(QueryFill, SuperlativesOfBusyAndOfHowMany) {
  Query busiest = Q({Measure::kBusy}, {EventKind::kKernels, ""});
  busiest.group_by = GroupBy::kStream;
  busiest.rank = Rank::kTop;
  Check("what's the busiest stream?", {busiest});
  Query frequent = Q({Measure::kCount}, {EventKind::kKernels, ""});
  frequent.group_by = GroupBy::kName;
  frequent.rank = Rank::kTop;
  frequent.limit = 3;
  Check("what are the 3 most frequent kernels?", {frequent});
  Query common = Q({Measure::kCount}, {EventKind::kApi, ""});
  common.group_by = GroupBy::kName;
  common.rank = Rank::kTop;
  Check("what is the most common CUDA call?", {common});
}

// One place said at the end of a sentence is of every plain figure before it ("how many kernels and how many memcpys
// ran on GPU 1"); a whole said ("in total", "overall") or a part of what was asked ("how much of that") keeps it to
// its own clause.
TEST(QueryFill, APlaceSaidLastIsOfTheWholeSentence) {
  const Scope gpu1{{1}, {}, -1, "", {}, {}};
  const Reading both = Fill("how many kernels and how many memcpys ran on GPU 1?");
  ASSERT_EQ(both.queries.size(), 2u);
  EXPECT_EQ(both.queries[0], Q({Measure::kCount}, {EventKind::kKernels, ""}, gpu1)) << DescribeQuery(both.queries[0]);
  EXPECT_EQ(both.queries[1].scope.devices, std::vector<int32_t>{1});
  for (const char* own : {"how many kernels in total, and how many memcpys on GPU 1?",
                          "how many kernels overall, and how many memcpys on GPU 1?"}) {
    const Reading r = Fill(own);
    ASSERT_EQ(r.queries.size(), 2u) << own;
    EXPECT_TRUE(r.queries[0].scope.devices.empty()) << own << ": " << DescribeQuery(r.queries[0]);
  }
}

// "How many streams were used?": the streams that carried GPU work of any kind, counted (2 on h100_2gpu_1s, as SQL's
// distinct (deviceId, streamId) over kernels, copies and memsets has it); processes the same way.
TEST(QueryFill, HowManyStreamsCountsTheStreamsOfGpuWork) {
  Query streams = Q({Measure::kGroups}, {EventKind::kGpu, ""});
  streams.group_by = GroupBy::kStream;
  Check("how many streams were used?", {streams});
  Check("how many different streams?", {streams});
  Query processes = streams;
  processes.group_by = GroupBy::kPid;
  Check("how many processes used the GPU?", {processes});
}

// "memcpy calls" are the CUDA calls whose name holds Memcpy (the profile traced cudaMemcpyAsync), not the copies;
// "as a share" asks the share.
TEST(QueryFill, CallsOfAKindOfWorkAndAsAShare) {
  Check("how many memcpy calls?", {Q({Measure::kCount}, {EventKind::kApi, "Memcpy"})});
  const std::vector<std::string> candidates = NameCandidates("how many memcpy calls?");
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), "memcpy"), candidates.end());
  Query per_gpu = Q({Measure::kShare}, {EventKind::kKernels, ""});
  per_gpu.group_by = GroupBy::kDevice;
  Check("what is the kernel time per GPU as a share?", {per_gpu});
}

// "List the kernels that take more than 5% of the kernel time" asks a list of groups over a bound, which no Query
// holds: unread, never the yes or no of "is it more than 5%" (it answered "Yes: 100.0%").
TEST(QueryFill, AListOverABoundIsNoYesOrNo) {
  EXPECT_FALSE(Fill("list the kernels that take more than 5% of the kernel time").complete());
  EXPECT_FALSE(Fill("which kernels take more than 5% of the kernel time?").complete());
  const Reading yes_no = Fill("do the nccl kernels take more than 5% of the kernel time?");
  ASSERT_EQ(yes_no.queries.size(), 1u);
  EXPECT_EQ(yes_no.queries[0].form, Form::kYesNo) << DescribeQuery(yes_no.queries[0]);
}

// "Is the HtoD bandwidth above 20 GB/s?": a rate against a bound, yes or no, in GB/s (it was unread: '20').
TEST(QueryFill, ARateAgainstABound) {
  Query q = Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"});
  q.form = Form::kYesNo;
  q.threshold = 20;
  Check("is the HtoD bandwidth above 20 GB/s?", {q});
  q.threshold = 30;
  Check("do HtoD copies get more than 30 GB/s?", {q});
}

// "In the last 200 ms": the window that ends where the profile ends, when its length is known (here 1 s); unread
// without it, or when the window is longer than the profile.
TEST(QueryFill, TheLastMillisecondsOfTheProfile) {
  QueryVocabulary v = Vocabulary();
  v.length_s = 1.0;
  const Reading r = FillQueries("How many kernels ran in the last 200 ms?", v);
  ASSERT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_NEAR(r.queries[0].scope.from_s.value_or(-1), 0.8, 1e-9);
  EXPECT_NEAR(r.queries[0].scope.to_s.value_or(-1), 1.0, 1e-9);
  EXPECT_FALSE(Fill("How many kernels ran in the last 200 ms?").complete());  // no length known
  EXPECT_FALSE(FillQueries("How many kernels ran in the last 2 s?", v).complete());
}

// Two families with a word that joins or sets them apart are the two sides of a comparison, never one family of both
// ("cuBLAS GEMMs", side by side, is one: the first test's reading of a library and a kind of work).
TEST(QueryFill, TwoFamiliesSaidApartAreTwoSides) {
  Subject attention{EventKind::kKernels, "", ""};
  attention.family = "attention";
  Query q = Q({Measure::kTotal}, attention);
  q.versus_subject = attention;
  q.versus_subject->family = "softmax";
  Check("which took more time, the attention kernels or the softmax kernels?", {q});
  Check("between the attention kernels and the softmax ones, which took more time?", {q});
  q.form = Form::kYesNo;
  Check("is the attention time more than the softmax time?", {q});
  const Reading three = Fill("is the attention time more than the softmax and conv time?");
  EXPECT_FALSE(three.complete()) << "a third family is said unread, never folded into a side";
}

// A size's median or percentile is no statistic a Query holds (event_stats gives the sizes' mean, least and largest):
// the question is declined saying so, never answered with the durations' median beside the summed bytes.
TEST(QueryFill, AMedianOfSizesIsSaidNotHeld) {
  const Reading r = Fill("what's the median copy size?");
  EXPECT_FALSE(r.complete());
  ASSERT_EQ(r.not_held.size(), 1u);
  EXPECT_EQ(r.not_held.front(), "a median or percentile of the sizes");
  Check("median duration and total bytes of the HtoD copies",
        {Q({Measure::kMedian, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"})});
}

// "How many kernels did each copy run?": a second kind of GPU work that neither makes the events the GPU's work nor is
// a side is unread; the reading never drops it to answer the kernels alone.
TEST(QueryFill, ASecondKindOfGpuWorkSaidForNothingIsUnread) {
  const Reading r = Fill("how many kernels did each copy run?");
  EXPECT_FALSE(r.complete());
  EXPECT_NE(std::find(r.unread.begin(), r.unread.end(), "copies"), r.unread.end());
  Query gpu = Q({Measure::kIdle}, {EventKind::kGpu, "", ""});
  gpu.group_by = GroupBy::kDevice;
  Check("how long was each GPU idle, with no kernel or copy running?", {gpu});
}

// A noun of an amount of work ("GPU work", "the computation") is measured by its time: "the most GPU work" ranks by
// time, "a share of the GPU work" is a share of its time, not of how many events it is.
TEST(QueryFill, AnAmountOfWorkIsItsTime) {
  Query q = Q({Measure::kTotal}, {EventKind::kGpu, "", ""});
  q.group_by = GroupBy::kStream;
  q.rank = Rank::kTop;
  Check("which stream carried the most GPU work?", {q});
  q.measures.push_back(Measure::kShare);
  Check("which stream carried the most GPU work, and what share of all GPU work was it?", {q});
}

// Two places in time of one kind of events, joined or set against each other, are one event against the other
// (Subject::nth on each side); places that bound a span ("first to last", "between the first and the last") are not.
TEST(QueryFill, TwoPlacesInTimeAreOneEventAgainstAnother) {
  Query q = Q({Measure::kTotal}, {EventKind::kMemcpy, "", ""});
  q.subject.nth = 1;
  q.versus_subject = q.subject;
  q.versus_subject->nth = -1;
  Check("how long did the first and the last copy take?", {q});
  Check("first vs last copy: which took longer?", {q});
  Query k = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  k.subject.nth = 1;
  k.versus_subject = k.subject;
  k.versus_subject->nth = 2;
  k.form = Form::kYesNo;
  Check("was the first kernel longer than the second one?", {k});
  for (const char* span : {"how much time passed from the first kernel to the last kernel?",
                           "what share of the first-to-last kernel span was idle?"}) {
    const Reading r = Fill(span);
    for (const Query& read : r.queries) EXPECT_FALSE(read.versus_subject) << span << ": " << DescribeQuery(read);
  }
}

// A number before a superlative is how many to rank ("the three slowest kernels": the top 3, never the top 1); where
// the Query ranks nothing ("the five longest copies": each kind's longest), the number is unread, never dropped.
TEST(QueryFill, ANumberBeforeASuperlativeIsHowManyToRank) {
  Query q = Q({Measure::kAverage}, {EventKind::kKernels, "", ""});
  q.group_by = GroupBy::kName;
  q.rank = Rank::kTop;
  q.limit = 3;
  Check("what are the three slowest kernels?", {q});
  Check("list the 3 slowest kernels", {q});
  const Reading copies = Fill("the five longest copies?");
  EXPECT_FALSE(copies.complete()) << (copies.queries.empty() ? "" : DescribeQuery(copies.queries[0]));
  EXPECT_NE(std::find(copies.unread.begin(), copies.unread.end(), "5"), copies.unread.end());
}

// Two measures set against each other are of one kind: "fewer blocks than SMs" compares two numbers; "how many kernels
// are longer than the average kernel" would set a count against a time, which no Query compares: it is declined.
TEST(QueryFill, MeasuresComparedAreOfOneKind) {
  const Reading r = Fill("how many kernels are longer than the average kernel?");
  EXPECT_FALSE(r.complete()) << (r.queries.empty() ? "" : DescribeQuery(r.queries[0]));
}

// "which GPU stream": a GPU noun before another group noun says whose; the group is the last noun.
TEST(QueryFill, AGpuNounBeforeAStreamSaysWhose) {
  Query q = Q({Measure::kBusy}, {EventKind::kKernels, "", ""});
  q.group_by = GroupBy::kStream;
  q.rank = Rank::kTop;
  Check("which GPU stream was busiest?", {q});
}

// Bytes per second is a copy's bandwidth; anything else per unit of time is a rate no Query measures.
TEST(QueryFill, ARatePerSecondIsBandwidthOrUnread) {
  Check("how many GB per second did the HtoD copies reach?",
        {Q({Measure::kBandwidth}, {EventKind::kMemcpy, "", "HtoD"})});
  const Reading r = Fill("how many kernels per second ran on average?");
  EXPECT_FALSE(r.complete()) << (r.queries.empty() ? "" : DescribeQuery(r.queries[0]));
}

// A family said in two words ("flash attention", "soft max") is the decoder's family, with its operation after it.
TEST(QueryFill, AFamilyInTwoWordsIsTheDecodersFamily) {
  Subject bwd{EventKind::kKernels, "", ""};
  bwd.family = "FlashAttention bwd";
  Check("how long did the flash attention backward kernels take in total?", {Q({Measure::kTotal}, bwd)});
}

// Every library the kernel-name decoder names is a family by its own name, in any case, and as the maker of the
// kernels ("nvFuser-generated", "XLA-compiled"); an FFT is a kind of work. Launch configurations take a family too.
TEST(QueryFill, TheDecodersLibrariesAreFamiliesByName) {
  const auto of = [](const char* family) {
    Subject s{EventKind::kKernels, "", ""};
    s.family = family;
    return s;
  };
  Check("how much time did the cuFFT kernels take?", {Q({Measure::kTotal}, of("cuFFT"))});
  Check("total time of the XLA-generated kernels?", {Q({Measure::kTotal}, of("XLA"))});
  Check("how many Triton-compiled kernels ran?", {Q({Measure::kCount}, of("Triton"))});
  Check("how long did the Fourier transforms take in total?", {Q({Measure::kTotal}, of("fft"))});
  Check("threads per block of the cuDNN kernels?", {Q({Measure::kBlock}, of("cuDNN"))});
  const Reading r = Fill("how many foo-generated kernels ran?");
  EXPECT_FALSE(r.complete()) << (r.queries.empty() ? "" : DescribeQuery(r.queries[0]));
}

// "what share ... does it represent": the verb takes the share when it ends its clause after a share was asked;
// before a noun it says what events stand for and stays unread. "does that take" points back as "does it" does.
TEST(QueryFill, RepresentTakesAShareAndThatPointsBack) {
  Query share = Q({Measure::kCount, Measure::kShare}, {EventKind::kKernels, "nccl"});
  Check("how many nccl kernels ran and what share of the kernel time do they represent?", {share});
  EXPECT_FALSE(Fill("how long did the ranges that represent layers take?").complete());
  Query total = Q({Measure::kTotal}, {EventKind::kKernels, "nccl"});
  Query of_span = Q({Measure::kSpanShare}, {EventKind::kKernels, "nccl"});
  of_span.group_by = GroupBy::kDevice;
  Check("How long did the nccl kernels run, and what share of the GPU span does that take?", {total, of_span});
}

// A share of every event of a kind, everywhere, is 100%: after a Query of some of them it is their share ("the top
// kernel: its launches and its share of all kernel time"); alone, it is no question and is unread.
TEST(QueryFill, AShareOfTheWholeKindIsOfTheEventsBefore) {
  Query top = Q({Measure::kTotal, Measure::kCount, Measure::kShare}, {EventKind::kKernels, ""});
  top.group_by = GroupBy::kName;
  top.rank = Rank::kTop;
  top.limit = 1;
  const Reading r = Fill(
      "Top kernel by total GPU time: name, total time, how many launches, and its share of all "
      "kernel time?");
  ASSERT_EQ(r.queries.size(), 1u) << (r.unread.empty() ? "" : r.unread.front());
  EXPECT_TRUE(r.complete());
  for (Measure m : {Measure::kTotal, Measure::kCount, Measure::kShare}) {
    EXPECT_NE(std::find(r.queries[0].measures.begin(), r.queries[0].measures.end(), m), r.queries[0].measures.end())
        << DescribeQuery(r.queries[0]);
  }
  EXPECT_EQ(r.queries[0].group_by, GroupBy::kName);
  const Reading whole = Fill("what share of all kernel time do the kernels take?");
  EXPECT_FALSE(whole.complete()) << (whole.queries.empty() ? "" : DescribeQuery(whole.queries[0]));
}

// A dash between a person's remark and the question opens the question as a colon does ("Allocation seems slow -
// how many cudaMalloc calls?", with an em or en dash too): the remark asks nothing.
TEST(QueryFill, ADashOpensTheQuestionAsAColonDoes) {
  for (const char* q : {"Allocation seems slow - how many cudaMalloc calls are there?",
                        "Allocation seems slow \u2014 how many cudaMalloc calls are there?",
                        "Allocation seems slow \u2013 how many cudaMalloc calls are there?"}) {
    const Reading r = Fill(q);
    EXPECT_TRUE(r.complete()) << q << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << q;
    EXPECT_EQ(r.queries[0], Q({Measure::kCount}, {EventKind::kApi, "cudaMalloc", "", "", true})) << q;
  }
}

// "the first one", "the second" in a moment are of the events the question counted before ("two kernels"); the
// reading is that of the nouns said out ("the end of the first kernel").
TEST(QueryFill, TheFirstOneOfAMomentIsOfTheEventsCounted) {
  const Reading said =
      Fill("How long was the gap between the end of the first kernel and the start of the second one?");
  ASSERT_EQ(said.queries.size(), 1u);
  for (const char* q : {"There are only two kernels. How long was the gap between the end of the first one and the "
                        "start of the second?",
                        "There are two kernels. How long between the first one ending and the second one starting?"}) {
    const Reading r = Fill(q);
    EXPECT_TRUE(r.complete()) << q << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << q;
    EXPECT_EQ(r.queries[0].scope, said.queries[0].scope) << q << "\n  " << DescribeQuery(r.queries[0]);
  }
  // Without a count of events before, "the second one" is no moment's.
  EXPECT_FALSE(Fill("How long between the end of the first one and the start of the second?").complete());
}

// "which one" asks of the noun said before it, never of a place said with its id ("on stream 7" is one stream): of
// the events, by name.
TEST(QueryFill, WhichOneIsNoPlaceSaidWithItsId) {
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, ""}, Scope{{}, {}, 7, "", {}, {}});
  q.scope.shorter_than_ns = 2000;
  q.group_by = GroupBy::kName;
  q.rank = Rank::kTop;
  Check("On stream 7, one kernel finished in under 2 us. Which one was it and how long did it run?", {q});
}

// The GPU's idle asked after named kernels is the GPU's (every GPU op), not the kernels' own holes; "their idle
// time" keeps them.
TEST(QueryFill, TheGpusIdleAfterNamedKernelsIsTheGpus) {
  Query total = Q({Measure::kTotal}, {EventKind::kKernels, "nccl"});
  Query idle = Q({Measure::kIdle}, {EventKind::kGpu, ""});
  idle.group_by = GroupBy::kDevice;
  Check("How long do the nccl kernels run, and how long is the GPU idle?", {total, idle});
  const Reading theirs = Fill("How long do the nccl kernels run, and what is their idle time?");
  ASSERT_EQ(theirs.queries.size(), 2u);
  EXPECT_EQ(theirs.queries[1].subject.name, "nccl") << DescribeQuery(theirs.queries[1]);
}

// Streams a program created are counted by the calls that create them (NVIDIA names each after what it creates):
// "how many streams did the app create" is the StreamCreate calls; with the call named, its words go.
TEST(QueryFill, StreamsCreatedAreTheirCreatingCalls) {
  QueryVocabulary v = Vocabulary();
  v.api.push_back("cudaStreamCreateWithFlags");
  v.api.push_back("cuStreamCreate");
  const auto fill = [&](const char* q) { return FillQueries(q, v); };
  const Reading made = fill("how many streams did the app create?");
  ASSERT_EQ(made.queries.size(), 1u) << (made.unread.empty() ? "" : made.unread.front());
  EXPECT_EQ(made.queries[0], Q({Measure::kCount}, {EventKind::kApi, "StreamCreate"})) << DescribeQuery(made.queries[0]);
  const Reading with = fill("How many streams were created with cudaStreamCreateWithFlags?");
  ASSERT_EQ(with.queries.size(), 1u) << (with.unread.empty() ? "" : with.unread.front());
  EXPECT_EQ(with.queries[0], Q({Measure::kCount}, {EventKind::kApi, "cudaStreamCreateWithFlags", "", "", true}))
      << DescribeQuery(with.queries[0]);
  // Streams that did something are no created ones: "how many streams were used" counts streams of GPU work.
  const Reading used = fill("how many streams were used?");
  ASSERT_EQ(used.queries.size(), 1u);
  EXPECT_NE(used.queries[0].subject.events, EventKind::kApi);
}

// "Give it in time and as a percentage of the span" after an idle figure: the same figure in its unit, and its share
// of the span (the idle share), never the kernels' total time beside it.
TEST(QueryFill, TheIdleFigureInTimeAndAsAShareOfTheSpan) {
  Query idle = Q({Measure::kIdle, Measure::kIdleShare}, {EventKind::kKernels, ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check("On device 0, how long is no kernel running? Give it in time and as a percentage of the span.", {idle});
  Check("how long is GPU 0 idle, and as a % of the span?", {idle});
}

// "kernels or device-to-device copies": the copy kind said after the kernels is the other side's.
TEST(QueryFill, ACopyKindAfterTheKernelsIsTheOtherSides) {
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  q.versus_subject = Subject{EventKind::kMemcpy, "", "DtoD"};
  q.form = Form::kYesNo;
  Check("did the GPU spend more time running kernels than doing device-to-device copies?", {q});
}

// "which one was called most": how often a call was made ranks by how many, not by time.
TEST(QueryFill, CalledMostRanksByHowMany) {
  Query q = Q({Measure::kCount}, {EventKind::kApi, "", ""});
  q.group_by = GroupBy::kName;
  q.rank = Rank::kTop;
  Check("which API was called the most?", {q});
}

// "total GPU time per process" is a GPU's time (its kernels'), as "GPU time per GPU" is; "sorted" asks for the order
// every grouped answer has; "how much time (passed) between X and Y" is the time between two moments.
TEST(QueryFill, GpuTimeSortedAndTheTimeBetweenTwoMoments) {
  Query q = Q({Measure::kTotal}, {EventKind::kKernels, "", ""});
  q.group_by = GroupBy::kPid;
  Check("total GPU time per process, sorted", {q});
  for (const char* between : {"how much time between the first copy and the first kernel?",
                              "how much time passed between the first copy and the first kernel?"}) {
    const Reading r = Fill(between);
    ASSERT_EQ(r.queries.size(), 1u) << between;
    EXPECT_TRUE(r.complete()) << between;
    EXPECT_EQ(r.queries[0].measures, std::vector<Measure>{Measure::kElapsed}) << DescribeQuery(r.queries[0]);
  }
}

// Of calls, "block" is the verb: "how long did the CPU block in cudaStreamSynchronize" is the calls' time, never the
// threads per block, which only kernels have.
TEST(QueryFill, OfCallsBlockIsTheVerb) {
  Check("how long did the CPU block in cudaStreamSynchronize?",
        {Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true})});
  Check("threads per block of the nvfuser kernels?", {Q({Measure::kBlock}, {EventKind::kKernels, "nvfuser", ""})});
}

// "the longest kernel on each GPU": each place's own longest, never a ranking that answers for one GPU.
TEST(QueryFill, ASuperlativeOnEachPlaceIsEachPlacesOwn) {
  Query q = Q({Measure::kMax}, {EventKind::kKernels, "", ""});
  q.group_by = GroupBy::kDevice;
  Check("what's the longest kernel on each GPU?", {q});
  q.rank = Rank::kTop;
  Check("which GPU had the longest kernel?", {q});
}

// "which process" is one ("process" ends in a double s); "spent the longest in X" is the most time in X, summed.
TEST(QueryFill, WhichProcessIsOneAndSpentTheLongestIsTheMostTime) {
  Query q = Q({Measure::kTotal}, {EventKind::kApi, "cudaStreamSynchronize", "", "", true});
  q.group_by = GroupBy::kPid;
  q.rank = Rank::kTop;
  Check("which process spent the most time in cudaStreamSynchronize?", {q});
  Check("which process spent the longest in cudaStreamSynchronize?", {q});
}

}  // namespace
}  // namespace nsys::agent

namespace nsys::agent {
namespace {

// A profile whose MPI calls nsys recorded as NVTX ranges (realworld/a100_mpi_cuda_saxpy_rank0's shape).
QueryVocabulary MpiVocabulary() {
  QueryVocabulary v;
  v.kernels = {"saxpy"};
  v.api = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpy"};
  v.nvtx = {"MPI_Send", "MPI_Recv", "MPI_Init"};
  return v;
}

// A name heading a question ("MPI_Send: ...") is lent to it as the events the question counts mean it: "calls" of a
// name only NVTX ranges have are those ranges, as "how many MPI_Send calls" is; a name that cannot be of the events
// the question names stays unread, and the reading says which events do have it.
TEST(QueryFill, AHeadingNameIsOfTheEventsItNames) {
  const Reading calls = FillQueries("MPI_Send: how many calls and total time?", MpiVocabulary());
  ASSERT_TRUE(calls.complete()) << (calls.unread.empty() ? "" : calls.unread.front());
  ASSERT_EQ(calls.queries.size(), 1u);
  EXPECT_EQ(calls.queries[0].subject.events, EventKind::kNvtx);
  EXPECT_EQ(calls.queries[0].subject.name, "MPI_Send");
  EXPECT_EQ(calls.queries[0].measures, (std::vector<Measure>{Measure::kCount, Measure::kTotal}));
  const Reading api = FillQueries("cudaMemcpy: how many calls?", MpiVocabulary());
  ASSERT_TRUE(api.complete());
  EXPECT_EQ(api.queries[0].subject.events, EventKind::kApi);
  const Reading kernels = FillQueries("MPI_Send: how many kernels?", MpiVocabulary());
  EXPECT_FALSE(kernels.complete());
  ASSERT_EQ(kernels.unread_names.size(), 1u);
  EXPECT_EQ(kernels.unread_names[0], (std::pair<std::string, std::string>{"MPI_Send", "NVTX ranges"}));
}

// "not X" before names leaves them out, in the clause or in a clause of its own after the question it narrows.
TEST(QueryFill, NamesSaidNotAreLeftOut) {
  for (const char* question : {"# of cudaLaunchKernel calls? not ExC", "how many cudaLaunchKernel calls, not ExC?",
                               "How many cudaLaunchKernel calls? Excluding ExC."}) {
    const Reading r = FillQueries(question, MpiVocabulary());
    ASSERT_TRUE(r.complete()) << question << ": " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << question;
    EXPECT_EQ(r.queries[0].subject.name, "cudaLaunchKernel") << question;
    EXPECT_EQ(r.queries[0].subject.except, "ExC") << question;
  }
  // A range's name said "not" of kernels leaves out the kernels launched inside it (Scope::outside).
  const Reading outside = FillQueries("How many kernels? Not MPI_Recv.", MpiVocabulary());
  ASSERT_TRUE(outside.complete());
  EXPECT_EQ(outside.queries[0].scope.outside, "MPI_Recv");
  // A name left out that no Query of those events can leave out (copies have no names) is unread, never dropped.
  for (const char* question : {"How many copies? Not cudaMemcpy.", "how many copies, not cudaMemcpy?"}) {
    const Reading other = FillQueries(question, MpiVocabulary());
    EXPECT_FALSE(other.complete()) << question;
  }
}

}  // namespace
}  // namespace nsys::agent

namespace nsys::agent {
namespace {

// Words of a request or of movement ask nothing of their own: "kindly share" is no share of a whole, "came back" no
// event; "the kernel name" asked for is which kernel it is.
TEST(QueryFill, RequestAndMovementWordsAskNothing) {
  Check("Kindly share the total kernel time.", {Q({Measure::kTotal}, {EventKind::kKernels})});
  Check("how many bytes came back device-to-host?", {Q({Measure::kBytes}, {EventKind::kMemcpy, "", "DtoH"})});
  const Reading name = Fill("Inside forward: I want the kernel name and their total time.");
  ASSERT_TRUE(name.complete()) << (name.unread.empty() ? "" : name.unread.front());
  ASSERT_EQ(name.queries.size(), 1u);
  EXPECT_EQ(name.queries[0].group_by, GroupBy::kName);
  EXPECT_EQ(name.queries[0].scope.inside, "forward");
}

}  // namespace
}  // namespace nsys::agent

namespace nsys::agent {
namespace {

// Why unified memory migrated, as the export classifies it: a cause said selects those migrations (of every
// migration when no kind is said), two causes set against each other are the two sides; the JSON form carries it and
// CheckQuery holds it to copies and to NVIDIA's causes.
TEST(QueryFill, MigrationsByTheirCause) {
  Query faults = Q({Measure::kCount}, {EventKind::kMemcpy, "", "Unified DtoH"});
  faults.subject.cause = "page_fault";
  Check("How many of the unified-memory device-to-host migrations were triggered by page faults?", {faults});
  Query sides = Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "Unified DtoH"});
  sides.subject.cause = "page_fault";
  sides.versus_subject = sides.subject;
  sides.versus_subject->cause = "speculative_prefetch";
  Check(
      "For the device-to-host UVM migrations, how many were page-fault driven versus speculative prefetch, and how "
      "many bytes did each move?",
      {sides});
  Query any = Q({Measure::kBytes}, {EventKind::kMemcpy, "", "Unified"});
  any.subject.cause = "speculative_prefetch";
  Check("how many bytes were moved by speculative prefetching?", {any});
  EXPECT_EQ(QueryToJson(faults).dump(),
            R"({"measures":["count"],"subject":{"cause":"page_fault","copyKind":"Unified DtoH","events":"memcpy"}})");
  Query kernels = Q({Measure::kCount}, {EventKind::kKernels});
  kernels.subject.cause = "page_fault";
  EXPECT_FALSE(CheckQuery(kernels).ok());
  Query unknown = faults;
  unknown.subject.cause = "cosmic_rays";
  EXPECT_FALSE(CheckQuery(unknown).ok());
}

}  // namespace
}  // namespace nsys::agent

namespace nsys::agent {
namespace {

// The scene is set in the first clause that asks or names events: a part that only says where ("Across both
// processes,") passes it on, so a name of the scene never turns the question's own range into a container.
TEST(QueryFill, TheSceneIsSetInTheFirstClauseThatAsks) {
  const Query whole = Q({Measure::kTotal}, {EventKind::kNvtx, "runFusionWithInputs", "", "", true});
  Check(
      "NCCL drops its own annotations into the trace. Across both processes, how much total time was spent "
      "inside the runFusionWithInputs ranges?",
      {whole});
  Check("How much total time was spent inside the runFusionWithInputs ranges?", {whole});
}

// "Same for X" after a question of several measures asks every one of them again of X (not only the last clause's),
// and a direction alone after unified-memory migrations is of those migrations.
TEST(QueryFill, SameForAsksEveryMeasureAgain) {
  Check("How many HtoD copies and how many bytes? Same for DtoH.",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "HtoD"}),
         Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "DtoH"})});
  Check("how many unified HtoD migrations were there and how many bytes did they move? Same for device-to-host.",
        {Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "Unified HtoD"}),
         Q({Measure::kCount, Measure::kBytes}, {EventKind::kMemcpy, "", "Unified DtoH"})});
  // A clause that asks a measure of its own keeps its own kind: "regular" copies are not migrations.
  Check("How many unified HtoD migrations? How many DtoH copies?",
        {Q({Measure::kCount}, {EventKind::kMemcpy, "", "Unified HtoD"}),
         Q({Measure::kCount}, {EventKind::kMemcpy, "", "DtoH"})});
}

// CUDA calls said by their noun alone, then the kernel they launched: the calls of that launch relation, not the
// kernel's own time.
TEST(QueryFill, CallsSaidByTheirNounThatLaunchedAKernel) {
  Query q = Q({Measure::kTotal}, {EventKind::kApi, "", ""});
  q.scope.launches = "nvfuser_pointwise_f0_c1_r0_g0";
  Check("How much time did the CUDA API calls that launched nvfuser_pointwise_f0_c1_r0_g0 take?", {q});
  Check("How much time went into the runtime calls that launched nvfuser_pointwise_f0_c1_r0_g0?", {q});
  // "which" right after the calls relates, as "that" does; it asks for no ranking.
  Check("How much time went into the runtime calls which launched nvfuser_pointwise_f0_c1_r0_g0?", {q});
}

// "at least one kernel running" is the busy time, as "no kernel running" is the idle time; after a share word in its
// clause, the busy share (utilization), as "running" alone says.
TEST(QueryFill, AtLeastOneKernelRunningIsTheBusyTime) {
  for (const char* question :
       {"how much time had at least one kernel running?", "How long was at least one kernel executing on the GPU?"}) {
    const Reading r = Fill(question);
    ASSERT_TRUE(r.complete()) << question << ": " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << question;
    EXPECT_EQ(r.queries[0].measures, std::vector<Measure>{Measure::kBusy}) << question;
    EXPECT_EQ(r.queries[0].subject.events, EventKind::kKernels) << question;
  }
  const Reading share = Fill("what fraction of the kernel span had at least one kernel executing?");
  ASSERT_TRUE(share.complete()) << (share.unread.empty() ? "" : share.unread.front());
  ASSERT_EQ(share.queries.size(), 1u);
  EXPECT_EQ(share.queries[0].measures, std::vector<Measure>{Measure::kUtilization});
}

// Seconds said of the capture or the session ("into the capture", "after the session start", "on the timeline") are on
// the export's own clock, as the Nsight Systems timeline counts them; said of the profile or trace, and the last
// seconds, from the profile's first event. On a100_2proc_mpi
// (its first event, an OS runtime call, is at 0.013 s; its first kernel at 5.77 s) the two differ: the capture clock's
// window holds what SQL counts there (process 1679's kernels starting in [6.0 s, 6.1 s)); a window that misses every
// event is said, with the clock's range, never answered with nothing.
TEST(QueryExecute, WindowsOnTheCaptureClock) {
  NSYS_REQUIRE_FIXTURES();
  Query capture =
      Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{}, {1679}, -1, "", 6.0, 6.1});
  capture.scope.capture_clock = true;
  Check(
      "Zoom into 6.0 s to 6.1 s after the session start. How many kernels did process 1679 run in that window, and "
      "their total time?",
      {capture});
  Query between = Q({Measure::kCount}, {EventKind::kKernels, "", ""}, Scope{{}, {}, -1, "", 6.5, 7.0});
  Query relative = between;
  between.scope.capture_clock = true;
  Check("Between 6.5 s and 7.0 s into the capture, how many kernels ran?", {between});
  Check("How many kernels started between 6.5 s and 7.0 s on the timeline?", {between});
  Check("How many kernels started between 6.5 s and 7.0 s into the trace?", {relative});
  auto back = QueryFromJson(QueryToJson(capture), "q");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, capture);
  EXPECT_EQ(QueryToJson(capture)["scope"]["captureClock"], true);
  Query no_window = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  no_window.scope.capture_clock = true;
  EXPECT_EQ(CheckQuery(no_window).error().message,
            "Query: captureClock says which clock a window's seconds are on: give fromSeconds or toSeconds.");

  const testing::FixtureSql sql("a100_2proc_mpi.sqlite");
  const int64_t n = sql.Int(
      "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE ((globalPid >> 24) & 16777215) = 1679 AND start >= "
      "6000000000 AND start < 6100000000");
  ASSERT_GT(n, 0);
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.AskQueries({opened->id, {capture}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find(std::to_string(n) + " kernels"), std::string::npos) << a->answer.summary;
  EXPECT_NE(a->answer.summary.find("from the session start (on the capture clock)"), std::string::npos)
      << a->answer.summary;
  Query before = capture;
  before.scope.from_s = 10.0;
  before.scope.to_s = 11.0;
  auto missed = ws.AskQueries({opened->id, {before}});
  ASSERT_TRUE(missed.ok()) << missed.error().message;
  EXPECT_NE(missed->answer.summary.find("the window from 10 s to 11 s lies outside this profile, whose events run "
                                        "from 0.013 s to 6.773 s after the session start (on the capture clock)"),
            std::string::npos)
      << missed->answer.summary;
}

// The whole a share is of, said first ("Of all the bytes copied, what percentage ..."), is read as said after the share
// word; a whole said by a place stays where it is said (the base of a share of places).
TEST(QueryFill, TheWholeSaidBeforeItsShare) {
  const Query bytes = Q({Measure::kByteShare}, {EventKind::kMemcpy, "", "HtoD"});
  Check("Of all the bytes copied, what percentage went host-to-device?", {bytes});
  Check("what percentage of all the bytes copied went host-to-device?", {bytes});
}

// An ellipsis after a word written as a name says the rest of the name ("nvfuser_pointwise_..."): a part of names, not
// the end of a sentence, unless a capital opens the next word.
TEST(QueryFill, AnEllipsisAfterANameIsTheRestOfIt) {
  Check("For the pointwise kernel (nvfuser_pointwise_...), how many launches were there?",
        {Q({Measure::kCount}, {EventKind::kKernels, "nvfuser_pointwise_", ""})});
  const Reading two = Fill("I see a kernel named nvfuser_pointwise_... How many launches did it make?");
  ASSERT_TRUE(two.complete()) << (two.unread.empty() ? "" : two.unread.front());
  ASSERT_EQ(two.queries.size(), 1u);
  EXPECT_EQ(two.queries[0].subject.name, "nvfuser_pointwise_");
}

// In a scene, a part of a name said before the whole name is that name said short: the whole one is the subject
// ("TensorRT's myelin layer records myelinGraphExecute ranges. How many are there?").
TEST(QueryFill, ASceneNamesOneThingShortThenWhole) {
  Check("The runFusion layer records runFusionWithInputs ranges. How many are there?",
        {Q({Measure::kCount}, {EventKind::kNvtx, "runFusionWithInputs", "", "", true})});
}

// Programs taken one at a time ("per program", "each application") are processes; "for each one" with no noun of its
// own is each of the scene's places ("I see two python programs in here. For each one, ...").
TEST(QueryFill, ProgramsOneAtATimeAreProcesses) {
  Query per = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  per.group_by = GroupBy::kPid;
  Check("how many kernels per program?", {per});
  Check("How many kernels did each application launch?", {per});
  Check("I see two python programs in here. For each one, how many kernels ran?", {per});
  // "each way" is each direction copies moved in.
  const Reading ways = Fill("How many copies went each way?");
  ASSERT_TRUE(ways.complete()) << (ways.unread.empty() ? "" : ways.unread.front());
  ASSERT_EQ(ways.queries.size(), 1u);
  EXPECT_EQ(ways.queries[0].subject.events, EventKind::kMemcpy);
  EXPECT_EQ(ways.queries[0].group_by, GroupBy::kName) << DescribeQuery(ways.queries[0]);
  // A program said alone is the recording, not a grouping.
  Check("how many kernels did this program launch?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
}

// A yes/no question about a figure ("is it over 5 ms?" after the slowest call, "are they averaging under 15 us?")
// tests that figure against the value; a bound in a question of how many stays a bound on each event; "and did any
// go past 4 ms?" asks whether one did, never dropped; a threshold said after "i.e." is what the question tests.
TEST(QueryFill, AThresholdOnAFigureSaidOrPointedAt) {
  Query slowest = Q({Measure::kMax}, {EventKind::kApi, "cudaMalloc", "", "", true});
  slowest.form = Form::kYesNo;
  slowest.threshold = 5e6;
  Check("Slowest cudaMalloc: is it over 5 ms?", {slowest});
  Query average = Q({Measure::kAverage}, {EventKind::kKernels, "", ""});
  average.form = Form::kYesNo;
  average.threshold = 15e3;
  average.yes_if_less = true;
  Check("are the kernels averaging under 15 us?", {average});
  Query bounded = Q({Measure::kCount}, {EventKind::kKernels, "", ""});
  bounded.scope.longer_than_ns = 1'000'000;
  Check("how many kernels ran longer than 1 ms?", {bounded});
  const Reading any = Fill("How many cudaMalloc calls were made, and did any go past 4 ms?");
  ASSERT_TRUE(any.complete()) << (any.unread.empty() ? "" : any.unread.front());
  ASSERT_EQ(any.queries.size(), 2u);
  EXPECT_EQ(any.queries[1].form, Form::kYesNo);
  EXPECT_EQ(any.queries[1].scope.longer_than_ns, 4'000'000);
  const Reading share = Fill("would you say the nvfuser kernels dominate, i.e. north of 70% of the kernel time?");
  ASSERT_TRUE(share.complete()) << (share.unread.empty() ? "" : share.unread.front());
  ASSERT_EQ(share.queries.size(), 1u);
  EXPECT_EQ(share.queries[0].threshold, 70.0);
  EXPECT_EQ(share.queries[0].measures.front(), Measure::kShare);
}

// A GPU's power and heat are sampled only with GPU metrics, which no skill reads: a question for them is declined as a
// counter not measured, even when it is said as why another is asked; "watts" is never mended into "waits".
TEST(QueryFill, PowerAndHeatAreNotMeasured) {
  for (const char* question : {"Were either of the GPUs power-throttling during this step? Peak watts?",
                               "What was the peak power draw of GPU 0?", "Was GPU 1 thermal throttling?"}) {
    const Reading r = Fill(question);
    EXPECT_FALSE(r.complete()) << question;
    EXPECT_FALSE(r.not_held.empty()) << question;
    EXPECT_TRUE(r.respelled.empty()) << question << ": " << (r.respelled.empty() ? "" : r.respelled.front());
  }
}

// GPUs said by their model in the plural ("the two H100s") are the GPUs, where the program used two or more: as the
// export names them, or as the GPU table knows the model where the export names none.
TEST(QueryFill, GpusSaidByTheirModelInThePlural) {
  QueryVocabulary v = Vocabulary();  // two devices, no GPU names: the table's models
  const Reading r = FillQueries("which of the two H100s ran more kernel time?", v);
  ASSERT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].group_by, GroupBy::kDevice) << DescribeQuery(r.queries[0]);
  v.device_ids = {0};  // one GPU: the model names the machine, no GPUs to rank
  const Reading one = FillQueries("which of the two H100s ran more kernel time?", v);
  EXPECT_TRUE(one.queries.empty() || one.queries[0].group_by != GroupBy::kDevice);
}

// "Is most of X ...?" is more than half of it; a share said of the bytes ("of the copied bytes", "of the copy
// volume") is the bytes' share, not the time's.
TEST(QueryFill, MostOfIsMoreThanHalfAndOfTheBytesIsTheBytesShare) {
  Query bytes = Q({Measure::kByteShare}, {EventKind::kMemcpy, "", "HtoD"});
  bytes.form = Form::kYesNo;
  bytes.threshold = 50;
  Check("Is more than half of the copied bytes host-to-device?", {bytes});
  const Reading most = Fill("Do most of the copied bytes go host-to-device?");  // "go": its time said beside it
  ASSERT_TRUE(most.complete()) << (most.unread.empty() ? "" : most.unread.front());
  ASSERT_EQ(most.queries.size(), 1u);
  EXPECT_EQ(most.queries[0].measures.front(), Measure::kByteShare);
  EXPECT_EQ(most.queries[0].threshold, 50.0);
  Query time = Q({Measure::kShare}, {EventKind::kMemcpy, "", "HtoD"});
  time.form = Form::kYesNo;
  time.threshold = 50;
  Check("Is most of the copy time host-to-device?", {time});
}

// "the longest one" in a sentence after a question of events with no ranking is one of those events: the names ranked
// by that extreme, as "the longest kernel" is.
TEST(QueryFill, TheLongestOneOfTheEventsSaid) {
  Query longest = Q({Measure::kMax}, {EventKind::kKernels, "", ""});
  longest.group_by = GroupBy::kName;
  longest.rank = Rank::kTop;
  Check("What's the longest kernel?", {longest});
  const Reading two = Fill("How many kernels ran? What's the longest one?");
  ASSERT_TRUE(two.complete()) << (two.unread.empty() ? "" : two.unread.front());
  ASSERT_EQ(two.queries.size(), 2u);
  EXPECT_EQ(two.queries[1].group_by, GroupBy::kName) << DescribeQuery(two.queries[1]);
  EXPECT_EQ(two.queries[1].rank, Rank::kTop);
}

// A comparison whose other side is read as the first side again, with no place or family to tell them apart, is not
// held: declined, never answered as the one side alone.
TEST(QueryFill, AComparisonOfASideWithItselfIsNotHeld) {
  EXPECT_FALSE(Fill("does launching the kernel cost more time than the kernel itself runs?").complete());
  // Told apart by a place, the same events are two sides.
  Query gpus = Q({Measure::kTotal}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  gpus.versus_scope = Scope{{1}, {}, -1, "", {}, {}};
  const Reading r = Fill("Do the kernels on GPU 0 take more time than the kernels on GPU 1?");
  ASSERT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_TRUE(r.queries[0].versus_scope.has_value()) << DescribeQuery(r.queries[0]);
}

// A timeline's marks said by how they look: a bar, row or lane right after what it draws is those events or that
// place ("kernel bars" the kernels, "stream lanes" the streams, "GPU 1's kernel row" GPU 1's kernels); after any other
// word it stays unread ("the first bar" is no event the Query holds).
TEST(QueryFill, ATimelinesMarksAreTheEventsTheyDraw) {
  Check("how many kernel bars are there?", {Q({Measure::kCount}, {EventKind::kKernels, "", ""})});
  // Read as the same question without its marks.
  for (const auto& [marked, plain] : std::vector<std::pair<std::string, std::string>>{
           {"How many memcpy bars are on GPU 1?", "How many memcpys are on GPU 1?"},
           {"total bytes of the DtoD copy bars on device 0", "total bytes of the DtoD copies on device 0"},
           {"the longest cudaMalloc bar", "the longest cudaMalloc"}}) {
    const Reading a = Fill(marked), b = Fill(plain);
    ASSERT_TRUE(a.complete()) << marked << ": unread " << (a.unread.empty() ? "" : a.unread.front());
    ASSERT_EQ(a.queries.size(), 1u) << marked;
    ASSERT_EQ(b.queries.size(), 1u) << plain;
    EXPECT_EQ(a.queries[0], b.queries[0]) << marked << ": " << DescribeQuery(a.queries[0]);
  }
  const Reading lanes = Fill("how many stream lanes have kernel bars on them?");
  ASSERT_TRUE(lanes.complete()) << (lanes.unread.empty() ? "" : lanes.unread.front());
  ASSERT_EQ(lanes.queries.size(), 1u);
  EXPECT_EQ(lanes.queries[0].group_by, GroupBy::kStream) << DescribeQuery(lanes.queries[0]);
  const Reading row = Fill("What is the total time of GPU 1's kernel row?");
  ASSERT_TRUE(row.complete()) << (row.unread.empty() ? "" : row.unread.front());
  ASSERT_EQ(row.queries.size(), 1u);
  EXPECT_EQ(row.queries[0].subject.events, EventKind::kKernels);
  EXPECT_EQ(row.queries[0].scope.devices, std::vector<int32_t>{1});
  EXPECT_FALSE(Fill("How long is the first bar?").complete());
}

// "Of the streams, which is the heaviest", "Of all streams, the busiest one": a "which" or a superlative "one" with no
// noun of its own ranks the places named before it, not names; "by summed kernel length" says what ranks them.
TEST(QueryFill, WhichOfThePlacesSaidBefore) {
  for (const char* question : {"Of the streams, which is the heaviest by summed kernel length?",
                               "Of the streams, the heaviest one by summed kernel length: which is it?",
                               "Of all GPUs, which had the most kernel time?"}) {
    const Reading r = Fill(question);
    ASSERT_TRUE(r.complete()) << question << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_FALSE(r.queries.empty()) << question;
    EXPECT_TRUE(IsPlace(r.queries[0].group_by)) << question << ": " << DescribeQuery(r.queries[0]);
    EXPECT_EQ(r.queries[0].rank, Rank::kTop) << question;
  }
  const Reading streams = Fill("Of the streams, which is the heaviest by summed kernel length?");
  EXPECT_EQ(streams.queries[0].group_by, GroupBy::kStream);
}

// "What percentage of the forward time is spent inside runFusionWithInputs": a share said of one range's time, then a
// second range: the second's time as a percentage of the first's, whether or not "inside" is said; never the first
// range read as inside the second.
TEST(QueryFill, AShareOfOneRangesTimeTakenByAnother) {
  Query share = Q({Measure::kTotal}, {EventKind::kNvtx, "runFusionWithInputs", ""});
  share.subject.whole_name = true;
  share.versus_subject = Subject{EventKind::kNvtx, "forward", ""};
  share.versus_subject->whole_name = true;
  share.form = Form::kShare;
  Check("What percentage of the forward time is spent inside runFusionWithInputs?", {share});
  Check("What share of the forward time is runFusionWithInputs?", {share});
}

// PyTorch's ", op_id = N" suffix: the engine names a range without it, so what a question says of the suffix is how
// names already read, and a quoted name with a placeholder for the number is its head. A quoted name with a real
// op_id is one range of one op, which no Query picks: declined.
TEST(QueryFill, WhatIsSaidOfAnOpIdSuffixIsHowNamesRead) {
  const Reading plain = Fill("How many aten::linear ranges are there?");
  ASSERT_TRUE(plain.complete());
  ASSERT_EQ(plain.queries.size(), 1u);
  for (const char* question :
       {"How many aten::linear ranges are there (they carry op_id suffixes)?",
        "Ignoring the ', op_id = ...' suffix on the names, how many aten::linear ranges are there?",
        "The ranges carry an op_id suffix. Ignoring that suffix, how many aten::linear ranges are "
        "there?",
        "How many 'aten::linear, op_id = N' ranges are there?"}) {
    const Reading r = Fill(question);
    ASSERT_TRUE(r.complete()) << question << ": unread " << (r.unread.empty() ? "" : r.unread.front());
    ASSERT_EQ(r.queries.size(), 1u) << question;
    EXPECT_EQ(r.queries[0], plain.queries[0]) << question << ": " << DescribeQuery(r.queries[0]);
  }
  EXPECT_FALSE(Fill("How long is 'aten::linear, op_id = 317127'?").complete());
  // The words that went are said as taken, under the reading.
  EXPECT_EQ(Fill("How many aten::linear ranges are there (they carry op_id suffixes)?").described,
            std::vector<std::string>{"they carry op_id suffixes"});
}

// "(a kernel counts if the runtime call that launched it falls within a runFusionWithInputs range on the same
// thread)": the rule by which work is inside a range, said of one event with the range named again, is how every
// Query's `inside` is taken; never the range read as what is asked about.
TEST(QueryFill, TheRuleOfWorkInsideARangeSaidOfOneEvent) {
  const std::string asked = "How much GPU time do kernels launched inside the runFusionWithInputs ranges take";
  const Reading plain = Fill(asked + "?");
  const Reading rule = Fill(asked +
                            " (a kernel counts if the runtime call that launched it falls within a runFusionWithInputs "
                            "range on the same thread)?");
  ASSERT_TRUE(rule.complete()) << (rule.unread.empty() ? "" : rule.unread.front());
  ASSERT_EQ(rule.queries.size(), 1u);
  ASSERT_EQ(plain.queries.size(), 1u);
  EXPECT_EQ(rule.queries[0], plain.queries[0]) << DescribeQuery(rule.queries[0]);
  EXPECT_EQ(rule.queries[0].subject.events, EventKind::kKernels);
}

// A bound said with the gap measures alone ("how many idle gaps are longer than 1 ms", "the widest one") bounds each
// gap they count, as SQL finds each GPU's gaps; beside another measure it bounds nothing a Query holds: declined.
// Plural marks between which the gaps are ("stretches between bars") are the events the sentence drew before them.
TEST(QueryExecute, IdleGapsLongerThanABound) {
  NSYS_REQUIRE_FIXTURES();
  Query gaps = Q({Measure::kGaps}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}});
  gaps.scope.gap_longer_than_ns = 1000000;
  Check("How many idle gaps on GPU 1 are longer than 1 ms?", {gaps});
  Query widest = gaps;
  widest.measures = {Measure::kGaps, Measure::kMaxGap};
  Check(
      "On GPU 1's kernel row, how many stretches between bars last longer than a millisecond, and how long is the "
      "widest one?",
      {widest});
  EXPECT_FALSE(Fill("How much idle time is in gaps longer than 1 ms?").complete());
  Query total = gaps;
  total.measures = {Measure::kTotal};
  EXPECT_EQ(
      CheckQuery(total).error().message,
      "Query: gapLongerThanNs and gapShorterThanNs bound the gaps the measures gaps, max_gap and avg_gap count: ask "
      "only those.");
  auto back = QueryFromJson(QueryToJson(widest), "q");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, widest);

  const testing::FixtureSql sql("h100_2gpu_1s.sqlite");
  const int64_t n = sql.Int(
      "WITH r AS (SELECT start s, MAX(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
      "PRECEDING) pe FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1) SELECT COUNT(*) FROM r WHERE s - pe > "
      "1000000");
  ASSERT_GT(n, 0);
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.AskQueries({opened->id, {gaps}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find("idle gaps " + std::to_string(n) + " "), std::string::npos) << a->answer.summary;
}

// Events broken down by a grouping, said with no question and none before it to ask again ("kernels per GPU?",
// "Kernel launches broken down by process?"), ask for the breakdown: how many, and their time, in each group. A place
// alone ("kernels on GPU 1?") asks nothing and is declined.
TEST(QueryFill, EventsByAGroupingAskForTheBreakdown) {
  Query per_gpu = Q({Measure::kCount, Measure::kTotal}, {EventKind::kKernels, "", ""});
  per_gpu.group_by = GroupBy::kDevice;
  Check("kernels per GPU?", {per_gpu});
  Query per_process = per_gpu;
  per_process.group_by = GroupBy::kPid;
  Check("Kernel launches broken down by process?", {per_process});
  EXPECT_FALSE(Fill("kernels on GPU 1?").complete());
}

// After a span said in words, "the time" or "the timeline" that the events covered is that span: their utilization.
TEST(QueryFill, TheTimelineCoveredIsTheSpan) {
  Query util = Q({Measure::kUtilization}, {EventKind::kKernels, "", ""});
  util.group_by = GroupBy::kDevice;
  Check("From the first kernel to the last one, what percentage of the time is covered by kernels?", {util});
  Check("Between the first and last kernel, what percentage of the timeline is covered by kernels?", {util});
}

// What batch 102's timeline reader showed, read generally: the biggest of events with no size is the longest; a
// place said after a span phrase stays with the question; "has at least one kernel on it" is running there; a mark
// before its length is the events' own; the most crowded place has the most events.
TEST(QueryFill, ATimelineReadersWordsReadGenerally) {
  Query longest = Q({Measure::kMax}, {EventKind::kApi, "cudaStreamSynchronize", ""});
  longest.subject.whole_name = true;
  Check("How long is the biggest cudaStreamSynchronize call?", {longest});
  Query util = Q({Measure::kUtilization}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check(
      "From the first kernel to the last one on GPU 0, what fraction of that stretch has at least one kernel bar on "
      "it?",
      {util});
  Query median = Q({Measure::kMedian}, {EventKind::kKernels, "nvfuser_pointwise", ""});
  Check("what's the median bar length of the nvfuser_pointwise kernels?", {median});
  const Reading crowded = Fill("Which stream lane is the most crowded with kernel bars?");
  ASSERT_TRUE(crowded.complete()) << (crowded.unread.empty() ? "" : crowded.unread.front());
  ASSERT_EQ(crowded.queries.size(), 1u);
  EXPECT_EQ(crowded.queries[0].group_by, GroupBy::kStream);
  EXPECT_EQ(crowded.queries[0].measures.front(), Measure::kCount) << DescribeQuery(crowded.queries[0]);
}

// The mean idle gap: "the average gap between kernels", or "on average" after the gaps were asked, as SQL finds it
// (each GPU's gaps of its kernel union, their sum over how many).
TEST(QueryExecute, TheAverageIdleGap) {
  NSYS_REQUIRE_FIXTURES();
  const Query avg = Q({Measure::kAvgGap}, {EventKind::kKernels, "", ""}, Scope{{1}, {}, -1, "", {}, {}});
  Check("What's the average gap between kernels on GPU 1?", {avg});
  Query both = avg;
  both.measures = {Measure::kGaps, Measure::kAvgGap};
  Check("How many idle gaps are there on GPU 1, and what is the average?", {both});
  const testing::FixtureSql sql("h100_2gpu_1s.sqlite");
  const auto gaps = [&](const std::string& what) {
    return static_cast<double>(
        sql.Int("WITH r AS (SELECT start s, MAX(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
                "PRECEDING) pe FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1) SELECT " +
                what + " FROM r WHERE s > pe"));
  };
  const double mean = gaps("SUM(s - pe)") / gaps("COUNT(*)");
  char expected[64];
  std::snprintf(expected, sizeof expected, "average idle gap %.3f \u00b5s", mean / 1000.0);
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto a = ws.AskQueries({opened->id, {avg}});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->answer.summary.find(expected), std::string::npos) << a->answer.summary << " (SQL: " << mean << " ns)";
}

// Gaps said as what they are ("between one kernel ending and the next starting", "from one X kernel ending to the
// next one starting"): the statistic asked of them, the longest, the mean, how many, or their sum.
TEST(QueryFill, GapsSaidFromOneEventToTheNext) {
  Query longest = Q({Measure::kMaxGap}, {EventKind::kKernels, "", ""});
  longest.group_by = GroupBy::kDevice;
  Check("What is the longest time between one kernel ending and the next starting?", {longest});
  Query mean = Q({Measure::kAvgGap}, {EventKind::kKernels, "nvfuser_pointwise", ""});
  mean.group_by = GroupBy::kDevice;
  Check("On average, how much empty time is there from one nvfuser_pointwise kernel ending to the next one starting?",
        {mean});
  Query idle = Q({Measure::kIdle}, {EventKind::kKernels, "", ""}, Scope{{0}, {}, -1, "", {}, {}});
  Check("How much idle time is there between one kernel finishing and the next kernel starting on GPU 0?", {idle});
}

// A sentence after a question whose part after a comma opens with a request ("For each GPU, give the utilization.")
// asks: it was taken as the scene and dropped in silence, the question before it answered alone.
TEST(QueryFill, ARequestAfterAPlaceAndACommaAsks) {
  const Reading r = Fill("How many kernels ran? For each GPU, give the utilization.");
  ASSERT_TRUE(r.complete()) << (r.unread.empty() ? "" : r.unread.front());
  ASSERT_EQ(r.queries.size(), 2u);
  EXPECT_EQ(r.queries[1].measures, std::vector<Measure>{Measure::kUtilization}) << DescribeQuery(r.queries[1]);
  EXPECT_EQ(r.queries[1].group_by, GroupBy::kDevice);
  // A statement after a place and a comma still sets no question of its own.
  EXPECT_EQ(Fill("How many kernels ran? On GPU 1, the kernels are slow.").queries.size(), 1u);
}

}  // namespace
}  // namespace nsys::agent