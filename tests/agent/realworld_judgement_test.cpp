// Judgement on the real exports of other projects: on every file of ../shared/fixtures/realworld, analyze's
// headline names the dominant part of the GPU span that the README's expert reading gives, with its share within 5
// points, counts the processes and GPUs that did GPU work, and its first finding is the expert's first thing. The
// expected values are transcribed from that README (its table's "procs / devs" and each reading's span split and
// "First thing"); the rule that says each first thing is written down here. This is the development set: the rules
// read numbers only and never name a profile. The test prints the score and how often each rule fires, so a rule
// that fires everywhere shows.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "fixtures.h"
#include "nsys/agent/analyze.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

struct ExpertReading {
  const char* file;
  const char* dominant;  // the README's dominant part, as analyze's headline names it
  double share;          // its share of the GPU span, %
  const char* first;     // the Book rule that says the expert's first thing
};

// README name → headline name: idle → "GPU idle", kernels_compute → "compute kernels", memcpy_HtoD → "HtoD copies",
// memset → "memsets".
constexpr ExpertReading kReadings[] = {
    {"a100_mpi_cuda_saxpy_rank0.sqlite", "GPU idle", 66.0, "host_time_in_mpi"},     // the MPI / host-staging path
    {"a100_perlmutter_uvm_vecadd.sqlite", "GPU idle", 73.1, "under_sized_launch"},  // launch a full grid
    {"gtx1650_keras_tf_darknet53.sqlite", "GPU idle", 81.8, "startup_dominated"},   // profile after warm-up
    {"rtx2080ti_cufcm_cufft.sqlite", "compute kernels", 88.3, "compute_bound"},     // the pair-correction kernel
    {"rtx3090_jax_xla_small.sqlite", "GPU idle", 99.9, "startup_dominated"},        // a warmed-up jitted step
    {"rtx3090_pytorch_brainstorm_sample.sqlite", "GPU idle", 99.9, "small_copy_round_trips"},  // 8-byte round trips
    {"rtx3090_tensorrt_fp16_conv.sqlite", "compute kernels", 99.3, "compute_bound"},  // nothing on the timeline
    {"rtx4060_no_kernels_nsys2025_5.sqlite", "memsets", 100.0, "no_kernels_captured"},
    {"rtx4060ti_pytorch_llama_infer_sim.sqlite", "GPU idle", 97.2, "sync_after_every_kernel"},  // per-layer syncs
    {"t4_openmp_offload_solver.sqlite", "HtoD copies", 48.9, "copy_bound"},  // keep the arrays resident, pin
    {"titanrtx_pytorch_dnn_colocation_b.sqlite", "compute kernels", 51.7,
     "memory_bound_glue"},  // channels_last, fusion
};

TEST(RealworldJudgement, HeadlineAndFirstFindingAgreeWithTheExpertOnEveryExport) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  int headlines = 0, firsts = 0;
  std::map<std::string, int> fired;
  for (const ExpertReading& r : kReadings) {
    SCOPED_TRACE(r.file);
    auto opened = ws.Open(testing::Fixture(std::string("realworld/") + r.file));
    ASSERT_TRUE(opened) << opened.error().message;
    auto a = ws.Analyze(opened->id, {});
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_TRUE(ws.Close(opened->id).ok());
    for (const auto& f : a->findings) {
      ++fired[f.root_cause];
      // Every title reads as a person writes it: one sentence of about 120 characters at most (a long kernel name is
      // cut at 60), starting with a capital or a name, with no "(s)" plurals and none of the skills' internal terms.
      EXPECT_LE(f.title.size(), 130u) << f.root_cause << ": " << f.title;
      EXPECT_EQ(f.title.find("(s)"), std::string::npos) << f.title;
      EXPECT_EQ(f.title.find("slice"), std::string::npos) << f.title;
      const std::string first_word = f.title.substr(0, f.title.find_first_of(" ,:"));
      EXPECT_FALSE(first_word.empty() ||
                   first_word.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos)
          << "a title starts with a capital or a name: " << f.title;
    }
    // "GPU idle 66.0% of the GPU span": the dominant part leads, within 5 points of the expert's share.
    const std::string lead = std::string(r.dominant) + " ";
    double share = -1;
    if (a->summary.rfind(lead, 0) == 0) share = std::stod(a->summary.substr(lead.size()));
    const bool headline =
        share >= 0 && std::abs(share - r.share) <= 5.0 && a->summary.find("1 process on 1 ") != std::string::npos;
    EXPECT_TRUE(headline) << a->summary;
    const bool first = !a->findings.empty() && a->findings.front().root_cause == r.first;
    EXPECT_TRUE(first) << "first finding: " << (a->findings.empty() ? "none" : a->findings.front().root_cause)
                       << ", the expert's: " << r.first;
    headlines += headline ? 1 : 0;
    firsts += first ? 1 : 0;
  }
  std::string counts;
  for (const auto& [rule, n] : fired) counts += fmt::format(" {}={}", rule, n);
  std::cout << fmt::format("realworld judgement: headline {}/{}, first finding {}/{}; findings per rule:{}\n",
                           headlines, std::size(kReadings), firsts, std::size(kReadings), counts);
}

}  // namespace
}  // namespace nsys::agent
