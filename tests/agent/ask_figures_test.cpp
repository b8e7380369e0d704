// Offline ask's answers to questions for figures (the typed Query, read and executed), on real fixtures through a
// real Workspace: counts are real counts (no row limit leaks into them), every CUDA API call in the profile is a
// subject, grid and block sizes are measures, a comparison's yes/no agrees with the figures it prints, a percentage
// carries its numerator and denominator, "per X" gets one figure per X, and what an export does not measure is refused.
// Expected figures are from SQL over the exports (given beside each).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/agent/ask.h"
#include "nsys/core/workspace.h"

namespace nsys {
namespace {

using testing::Fixture;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class AskFiguresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures not found";
  }
  agent::Answer Ask(const std::string& fixture, const std::string& question) {
    if (!ids_.count(fixture)) {
      auto opened = ws_.Open(Fixture(fixture));
      EXPECT_TRUE(opened) << fixture << ": " << (opened ? "" : opened.error().message);
      if (!opened) return {};
      ids_[fixture] = opened->id;
    }
    auto r = ws_.Ask({ids_[fixture], question, ""}, {});
    EXPECT_TRUE(r) << r.error().message;
    return r ? r->answer : agent::Answer{};
  }
  static core::WorkspaceConfig Config() {
    core::WorkspaceConfig c;
    c.open.use_cache = false;
    c.default_skill_dirs = false;
    return c;
  }
  core::Workspace ws_{Config()};
  std::map<std::string, std::string> ids_;
};

const char* kLlama = "realworld/rtx4060ti_pytorch_llama_infer_sim.sqlite";

// An answer after the line that says how the question was read ("Read as: ...").
std::string AfterReading(const std::string& summary) {
  if (summary.rfind("Read as: ", 0) != 0) return summary;
  const size_t eol = summary.find('\n');
  return eol == std::string::npos ? "" : summary.substr(eol + 1);
}

// SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId
//   WHERE s.value = 'cudaDeviceSynchronize_v3020'   -> 512 (sync_apis lists the 100 longest)
TEST_F(AskFiguresTest, ACountIsTheRealCountNotTheRowLimit) {
  const auto named = Ask(kLlama, "How many times was cudaDeviceSynchronize called?");
  ASSERT_FALSE(named.refusal) << named.summary;
  EXPECT_TRUE(Contains(named.summary, "`cudaDeviceSynchronize`: 512 calls")) << named.summary;
  EXPECT_FALSE(Contains(named.summary, "100 ")) << named.summary;
  const auto generic = Ask(kLlama, "How many blocking synchronization calls are there?");
  ASSERT_FALSE(generic.refusal) << generic.summary;
  EXPECT_TRUE(Contains(generic.summary, "cudaDeviceSynchronize_v3020: 512 calls")) << generic.summary;
}

// Every CUDA API name in the profile is a subject: cudaMalloc, 6 calls, sum(end-start) = 268,604 ns.
TEST_F(AskFiguresTest, AnyCudaApiInTheProfileIsASubject) {
  const auto a = Ask(kLlama, "How long did cudaMalloc take in total?");
  ASSERT_FALSE(a.refusal) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "`cudaMalloc`: total 268.604 µs")) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "6 calls")) << a.summary;
  ASSERT_FALSE(a.evidence.empty());
  EXPECT_EQ(a.evidence[0].call.skill, "event_stats");
  // A driver API the old topic table had no word for (rtx2080ti: 1,800 cuLaunchKernel calls).
  const auto drv = Ask("realworld/rtx2080ti_cufcm_cufft.sqlite", "How many times was cuLaunchKernel called?");
  ASSERT_FALSE(drv.refusal) << drv.summary;
  EXPECT_TRUE(Contains(drv.summary, "`cuLaunchKernel`: 1,800 calls")) << drv.summary;
}

// SELECT gridX, gridY, gridZ, blockX, blockY, blockZ FROM CUPTI_ACTIVITY_KIND_KERNEL (uvm vecadd: 1 x 1 x 1, 256 x 1
// x 1; julia: 2 x 2 x 2, 8 x 8 x 8).
TEST_F(AskFiguresTest, GridAndBlockSizesAreMeasures) {
  const auto add =
      Ask("realworld/a100_perlmutter_uvm_vecadd.sqlite", "How many thread blocks did the add kernel launch with?");
  ASSERT_FALSE(add.refusal) << add.summary;
  EXPECT_TRUE(Contains(add.summary, "blocks per grid 1, threads per block 256")) << add.summary;
  const auto julia = Ask("v100_julia.sqlite", "What block size does add_arrays_ use?");
  ASSERT_FALSE(julia.refusal) << julia.summary;
  EXPECT_TRUE(Contains(julia.summary, "threads per block 512")) << julia.summary;
  EXPECT_TRUE(Contains(julia.summary, "blocks per grid 8")) << julia.summary;
  // The H100 fixture's add kernels are PyTorch's elementwise kernels of CUDAFunctor_add (their demangled names, by
  // sqlite3): read from every launch configuration, not only the 20 with the most time (which hold none of them).
  const auto add_h100 = Ask("h100_2gpu_1s.sqlite", "How many thread blocks did the add kernel launch with?");
  ASSERT_FALSE(add_h100.refusal) << add_h100.summary;
  EXPECT_TRUE(Contains(add_h100.summary, "Read as: blocks per grid of kernels whose name contains `add`"))
      << add_h100.summary;
  // No kernel named: refused, never the kernel count instead.
  const auto none = Ask("h100_2gpu_1s.sqlite", "How many thread blocks did the saxpy kernel launch with?");
  ASSERT_TRUE(none.refusal) << none.summary;
  EXPECT_TRUE(Contains(none.refusal->reason, "I did not understand 'saxpy'")) << none.refusal->reason;
}

// The first two figures of a "Yes:/No:" answer, in order.
std::vector<double> Figures(const std::string& s) {
  std::vector<double> out;
  for (size_t i = 0; i < s.size() && out.size() < 2; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])) ||
        (i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1]))))
      continue;
    if (i >= 7 && s.compare(i - 7, 7, "device ") == 0) {  // "device 1" names a side, it is no figure
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      continue;
    }
    size_t j = i;
    std::string digits;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ',' || s[j] == '.')) {
      if (s[j] != ',') digits += s[j];
      ++j;
    }
    while (!digits.empty() && digits.back() == '.') digits.pop_back();
    double v = std::stod(digits);
    const std::string unit = s.substr(j, 4);
    if (unit.rfind(" ms", 0) == 0) v *= 1e6;
    if (unit.rfind(" µs", 0) == 0) v *= 1e3;
    if (unit.rfind(" s", 0) == 0 && (unit.size() < 3 || !std::isalpha(static_cast<unsigned char>(unit[2])))) v *= 1e9;
    out.push_back(v);
    i = j;
  }
  return out;
}

// Each question asks about its first subject against its second: the yes/no must follow from the two figures the
// answer prints, in both directions of the comparison and both orders of the subjects.
TEST_F(AskFiguresTest, AComparisonsYesAgreesWithItsFigures) {
  struct Case {
    const char* fixture;
    const char* question;
    bool asks_more;
  };
  const Case cases[] = {
      {"mfu_2gpu_before.sqlite", "Did cudaLaunchKernel take more time than cudaMemcpyAsync?", true},
      {"mfu_2gpu_before.sqlite", "Did cudaMemcpyAsync take more time than cudaLaunchKernel?", true},
      {"mfu_2gpu_before.sqlite", "Did cudaMemcpyAsync take less time than cudaLaunchKernel?", false},
      {"mfu_2gpu_before.sqlite", "Was cudaLaunchKernel called more often than cudaMemcpyAsync?", true},
      {"mfu_2gpu_before.sqlite", "Does device 1 run fewer kernels than device 0?", false},
      {"mfu_2gpu_before.sqlite", "Does device 0 run fewer kernels than device 1?", false},
      {"mfu_2gpu_before.sqlite", "Is kernel time on GPU 0 less than on GPU 1?", false},
      {"h100_2gpu_1s.sqlite", "Did HtoD transfers take longer than DtoH transfers?", true},
      {"h100_2gpu_1s.sqlite", "Did DtoH transfers take longer than HtoD transfers?", true},
      {"realworld/rtx2080ti_cufcm_cufft.sqlite", "Is device-to-host copy time smaller than host-to-device copy time?",
       false},
  };
  for (const auto& k : cases) {
    const auto a = Ask(k.fixture, k.question);
    ASSERT_FALSE(a.refusal) << k.question << ": " << a.summary;
    const std::string answer = AfterReading(a.summary);
    const bool yes = answer.rfind("Yes:", 0) == 0;
    ASSERT_TRUE(yes || answer.rfind("No:", 0) == 0) << k.question << ": " << a.summary;
    const auto f = Figures(answer.substr(4));
    ASSERT_GE(f.size(), 2u) << a.summary;
    const bool holds = k.asks_more ? f[0] > f[1] : f[0] < f[1];
    EXPECT_EQ(yes, holds) << k.question << ": " << a.summary;
  }
}

// mfu_2gpu_before: SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL -> 535,200,650 ns; copies 5,692,087 ns
// (CUPTI_ACTIVITY_KIND_MEMCPY), memsets 213,408 ns: memcpy is the copies, GPU time all three.
TEST_F(AskFiguresTest, APercentageCarriesItsNumeratorAndDenominator) {
  const auto mem = Ask("mfu_2gpu_before.sqlite", "What percentage of GPU time is spent in memcpy?");
  ASSERT_FALSE(mem.refusal) << mem.summary;
  EXPECT_TRUE(Contains(mem.summary, "1.05% of all GPU time")) << mem.summary;
  EXPECT_TRUE(Contains(mem.summary, "5.692 ms of 541.106 ms")) << mem.summary;
  const auto api = Ask("mfu_2gpu_before.sqlite", "What share of CUDA API time is cudaLaunchKernel?");
  ASSERT_FALSE(api.refusal) << api.summary;
  EXPECT_TRUE(Contains(api.summary, "7.56%")) << api.summary;
  EXPECT_TRUE(Contains(api.summary, "27.982 ms of 370.169 ms")) << api.summary;
  const auto kern = Ask("a100_2proc_mpi.sqlite", "What percentage of kernel time is ampere_sgemm_32x128_tn?");
  ASSERT_FALSE(kern.refusal) << kern.summary;
  EXPECT_TRUE(Contains(kern.summary, "of 9.315 ms")) << kern.summary;
}

// a100_2proc_mpi: SELECT globalPid >> 24 & 0xffffff, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ->
// 1679: 464, 1680: 421.
TEST_F(AskFiguresTest, PerXGetsOneFigurePerX) {
  const auto a = Ask("a100_2proc_mpi.sqlite", "How many kernels per process?");
  ASSERT_FALSE(a.refusal) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "process 1679: 464 kernels")) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "process 1680: 421 kernels")) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "Total: 885 kernels")) << a.summary;
}

// A CUDA API the profile never calls is answered as such, with the calls of similar name it has
// (a100_perlmutter_uvm_vecadd: SELECT value FROM StringIds WHERE value LIKE 'cudaMalloc%' -> cudaMallocManaged_v6000).
// Library names (cuBLAS) are not API names.
TEST_F(AskFiguresTest, AnApiTheProfileNeverCallsIsSaidAbsent) {
  const auto a = Ask("realworld/a100_perlmutter_uvm_vecadd.sqlite", "How long did cudaMalloc take in total?");
  ASSERT_FALSE(a.refusal) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "This profile has no cudaMalloc calls")) << a.summary;
  EXPECT_TRUE(Contains(a.summary, "cudaMallocManaged")) << a.summary;
  const auto lib = Ask("realworld/a100_perlmutter_uvm_vecadd.sqlite", "How much time do cuBLAS kernels take?");
  EXPECT_FALSE(Contains(lib.summary, "no cuBLAS calls")) << lib.summary;
}

// What the export does not measure is declined, naming the words not understood, with questions it can answer.
TEST_F(AskFiguresTest, WhatTheExportDoesNotMeasureIsRefusedWithTheClosestQuestions) {
  for (const auto& [q, word] :
       std::vector<std::pair<const char*, const char*>>{{"What color is the kernel?", "'color'"},
                                                        {"What was the GPU temperature?", "'temperature'"},
                                                        {"asdf qwerty", "'asdf', 'qwerty'"}}) {
    const auto a = Ask("h100_2gpu_1s.sqlite", q);
    ASSERT_TRUE(a.refusal) << q << ": " << a.summary;
    EXPECT_TRUE(Contains(a.refusal->reason, std::string("I did not understand ") + word))
        << q << ": " << a.refusal->reason;
    EXPECT_FALSE(a.refusal->alternatives.empty());
  }
}

// A family of ranges said with a placeholder is a name pattern of the typed Query ("layer_*_computation"). SELECT
// COALESCE(e.text, s.value) n, SUM(e.end - e.start) t, COUNT(*) FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id =
// e.textId WHERE e.eventType = 59 AND n LIKE 'layer\_%\_computation' ESCAPE '\' GROUP BY n ORDER BY t DESC ->
// layer_0_computation 150511882 (64) first of 8 names; no kernel, copy or memset is launched inside the
// ensure_layer_%_weights ranges.
TEST_F(AskFiguresTest, AFamilyOfRangesSaidWithAPlaceholderIsRankedAndSummed) {
  const auto ranked = Ask(kLlama, "which of the layer_N_computation ranges has the most total time?");
  ASSERT_FALSE(ranked.refusal) << ranked.summary;
  EXPECT_TRUE(Contains(ranked.summary, "whose name matches `layer_*_computation`")) << ranked.summary;
  EXPECT_TRUE(Contains(ranked.summary, "layer_0_computation: total 150.512 ms (64 ranges")) << ranked.summary;
  EXPECT_TRUE(Contains(ranked.summary, "(8 groups in all)")) << ranked.summary;
  const auto gpu = Ask(kLlama, "Do the ensure_layer_*_weights ranges put any work on the GPU?");
  ASSERT_FALSE(gpu.refusal) << gpu.summary;
  EXPECT_TRUE(Contains(gpu.summary, "inside NVTX ranges named like `ensure_layer_*_weights`")) << gpu.summary;
  EXPECT_EQ(AfterReading(gpu.summary).rfind("No: ", 0), 0u) << gpu.summary;
  // A placeholder that matches one range or none is no family: no pattern is read, and nothing is answered for it.
  const auto none = Ask(kLlama, "which of the token_N_nothing ranges takes longest?");
  EXPECT_FALSE(Contains(none.summary, "token_*_nothing")) << none.summary;
}

// Two kernels summed ("X + Y") are one subject, either name (Subject::name "X|Y"): SELECT COUNT(*), SUM(end - start)
// ... WHERE shortName IN ('nchwToNhwcKernel', 'nhwcToNchwKernel') -> 7396, 298223682. One left out ("not Y") is
// Subject::except, the same count as the name alone: ... shortName = 'nchwToNhwcKernel' -> 4822.
TEST_F(AskFiguresTest, KernelsSummedAreOneSubjectAndOneSaidNotIsLeftOut) {
  const auto both = Ask("realworld/titanrtx_pytorch_dnn_colocation_b.sqlite",
                        "how many nchwToNhwcKernel + nhwcToNchwKernel kernels ran, and how much GPU time?");
  EXPECT_TRUE(Contains(both.summary, "whose name contains `nchwToNhwcKernel` or `nhwcToNchwKernel` (summed)"))
      << both.summary;
  EXPECT_TRUE(Contains(both.summary, "7,396 kernels")) << both.summary;
  EXPECT_TRUE(Contains(both.summary, "298.224 ms")) << both.summary;
  const auto one = Ask("realworld/titanrtx_pytorch_dnn_colocation_b.sqlite",
                       "how many nchwToNhwcKernel kernels ran (not nhwcToNchwKernel)?");
  EXPECT_TRUE(Contains(one.summary, "except those whose name contains `nhwcToNchwKernel`")) << one.summary;
  EXPECT_TRUE(Contains(one.summary, "4,822 kernels")) << one.summary;
  const auto alone =
      Ask("realworld/titanrtx_pytorch_dnn_colocation_b.sqlite", "how many nchwToNhwcKernel kernels ran?");
  EXPECT_TRUE(Contains(alone.summary, "4,822 kernels")) << alone.summary;
}

// The launch-to-start latency: SELECT k.start - r.start, r.end - r.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN
// CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId -> 33520, 38083 (the kernel started before the
// call returned); the kernel itself ran 2272 ns, so the host call is the slower. The latency is a measure of the typed
// Query (event_stats' latency), read from the launch call of each kernel.
TEST_F(AskFiguresTest, LaunchLatencyAndAHostCallAgainstAKernel) {
  const auto latency = Ask("v100_julia.sqlite", "what was the launch latency of add_arrays_?");
  EXPECT_TRUE(Contains(latency.summary, "Read as: launch latency of kernels named `add_arrays_`")) << latency.summary;
  EXPECT_TRUE(Contains(latency.summary, "launch latency 33.520 µs")) << latency.summary;
  const auto pair = Ask("v100_julia.sqlite", "Is the cuLaunchKernel call slower than the add_arrays_ kernel?");
  EXPECT_EQ(AfterReading(pair.summary).rfind("Yes:", 0), 0u) << pair.summary;
  EXPECT_TRUE(Contains(pair.summary, "38.083 µs")) << pair.summary;
  EXPECT_TRUE(Contains(pair.summary, "2.272 µs")) << pair.summary;
}

}  // namespace
}  // namespace nsys
