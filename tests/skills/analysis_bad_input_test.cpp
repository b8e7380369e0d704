// Every analysis skill under bad input: a device or window the profile does not have, arguments it does not take,
// and profiles without the data it needs (it declines with a reason, or answers from what is there).
#include <gtest/gtest.h>

#include <string>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

const char* const kSkills[] = {"sync_apis",
                               "sync_memcpy",
                               "pageable_memcpy",
                               "sync_memset",
                               "gpu_idle_gaps",
                               "gpu_utilization",
                               "nccl_breakdown",
                               "stream_concurrency",
                               "thread_utilization",
                               "iterations",
                               "mfu"};

skills::Args Required(const std::string& skill) {
  if (skill == "mfu") return {{"params", Value(1e9)}, {"tokens_per_s", Value(1000.0)}};
  return {};
}

TEST(AnalysisBadInput, NoSuchDeviceWindowOrArgument) {
  NSYS_REQUIRE_FIXTURES();
  for (const std::string skill : kSkills) {
    auto args = Required(skill);
    args["device"] = Value(int64_t{5});  // h100_2gpu_1s has devices 0 and 1
    auto r = RunSkill("h100_2gpu_1s.sqlite", skill, args);
    ASSERT_FALSE(r.ok()) << skill;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument) << skill;
    EXPECT_NE(r.error().message.find("Device 5"), std::string::npos) << skill << ": " << r.error().message;

    args = Required(skill);
    args["start"] = Value(50.0);  // the profile lasts about a second
    args["end"] = Value(60.0);
    r = RunSkill("h100_2gpu_1s.sqlite", skill, args);
    ASSERT_FALSE(r.ok()) << skill;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument) << skill;

    args = Required(skill);
    args["threshold"] = Value(int64_t{1});  // NVIDIA's option name, not ours
    r = RunSkill("h100_2gpu_1s.sqlite", skill, args);
    ASSERT_FALSE(r.ok()) << skill;
    EXPECT_NE(r.error().message.find("threshold"), std::string::npos) << skill;
  }
}

TEST(AnalysisBadInput, ProfilesWithoutKernelsOrCudaTrace) {
  NSYS_REQUIRE_FIXTURES();
  // titanrtx_tensorrt_nvtx: NVTX only. thread_utilization answers from NVTX; every other skill declines, saying why.
  for (const std::string skill : kSkills) {
    NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", skill, Required(skill));
    if (skill == "thread_utilization") {
      EXPECT_FALSE(t.declined);
      continue;
    }
    EXPECT_TRUE(t.declined) << skill;
    ASSERT_FALSE(t.notes.empty()) << skill;
    EXPECT_GT(t.notes.front().size(), 40u) << skill << ": the reason should be a sentence";
    EXPECT_TRUE(t.rows.empty()) << skill;
  }
}

TEST(AnalysisBadInput, OneKernelProfile) {
  NSYS_REQUIRE_FIXTURES();
  // v100_julia: a single kernel, no memcpy/memset tables. Nothing to flag, nothing to crash on.
  {
    NSYS_RUN_SKILL(t, "v100_julia.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(0.0)}});
    EXPECT_TRUE(t.rows.empty());
  }
  {
    NSYS_RUN_SKILL(t, "v100_julia.sqlite", "gpu_utilization");
    EXPECT_TRUE(t.rows.empty());  // one kernel covers its whole span: 100% in every chunk
  }
  {
    NSYS_RUN_SKILL(t, "v100_julia.sqlite", "stream_concurrency");
    ASSERT_EQ(t.rows.size(), 2u);  // level 0 (zero time) and level 1
    EXPECT_EQ(IntCell(t, 0, "time_ns"), 0);
  }
  NSYS_RUN_SKILL(t, "v100_julia.sqlite", "iterations");
  EXPECT_TRUE(t.declined);
}

}  // namespace
}  // namespace nsys::testing
