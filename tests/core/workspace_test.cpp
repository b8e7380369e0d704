// The Workspace: profiles by id, several at once, skills (built-in and user), errors by kind.
#include "nsys/core/workspace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("nsys_ai_core_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

TEST(Workspace, OpensSeveralProfilesWithStableIds) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(Hermetic());
  auto a = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  auto b = workspace.Open(Fixture("mock.sqlite"));
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(a->id, "p1");
  EXPECT_EQ(b->id, "p2");
  EXPECT_EQ(a->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(b->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), 2);

  auto listed = workspace.List();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "p1");
  EXPECT_EQ(listed[1].id, "p2");
  auto got = workspace.Describe("p2");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->info.path, b->info.path);
  EXPECT_EQ(got->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), 2);

  EXPECT_TRUE(workspace.Close("p1").ok());
  auto gone = workspace.Describe("p1");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(gone.error().message.find("open: p2"), std::string::npos) << gone.error().message;
  EXPECT_EQ(workspace.Close("p1").error().kind, ErrorKind::kNotFound);
  // The closed profile stays usable by whoever still holds it.
  EXPECT_EQ(a->info.rows("CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(workspace.Open(Fixture("mock.sqlite"))->id, "p3");  // ids are not reused
}

// info --check's one call: every event table loaded (so the damaged-row counts are complete) and the NVTX mapping
// coverage computed, returned as a description; the profile itself stays inside the workspace.
TEST(Workspace, CheckTablesLoadsEveryTableAndComputesTheCoverage) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config = Hermetic();
  config.open.load_all_in_background = false;
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_FALSE(opened->coverage);
  EXPECT_FALSE(opened->info.row_checks->Get().complete);
  auto checked = workspace.CheckTables(opened->id);
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_EQ(checked->id, opened->id);
  ASSERT_TRUE(checked->coverage);
  EXPECT_EQ(checked->coverage->kernel_ns_total, 44829522);  // SUM(end - start) of the export's 3442 kernels
  EXPECT_EQ(checked->coverage->mapped_ns, 2944);
  EXPECT_TRUE(checked->info.row_checks->Get().complete);
  EXPECT_TRUE(workspace.Describe(opened->id)->coverage);  // remembered
  EXPECT_EQ(workspace.CheckTables("p9").error().kind, ErrorKind::kNotFound);
}

TEST(Workspace, ConcurrentOpensGetDistinctIds) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(Hermetic());
  std::vector<std::thread> threads;
  std::vector<std::string> ids(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      auto opened = workspace.Open(Fixture(i % 2 ? "mock.sqlite" : "v100_julia.sqlite"));
      if (opened) ids[i] = opened->id;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), (std::set<std::string>{"p1", "p2", "p3", "p4"}));
}

TEST(Workspace, OpenErrorsHaveKinds) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(Hermetic());
  auto missing = workspace.Open("/no/such/profile.sqlite");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(workspace.Open("").error().kind, ErrorKind::kInvalidArgument);
  auto not_export = workspace.Open(Fixture("README.md"));
  ASSERT_FALSE(not_export.ok());
  EXPECT_EQ(not_export.error().kind, ErrorKind::kBadInput);
  CancelToken cancelled;
  cancelled.cancel();
  auto cancel = workspace.Open(Fixture("mock.sqlite"), cancelled);
  ASSERT_FALSE(cancel.ok());
  EXPECT_EQ(cancel.error().kind, ErrorKind::kCancelled);
  EXPECT_TRUE(workspace.List().empty());  // nothing failed or cancelled stays open
}

TEST(Workspace, RunsBuiltInSkills) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(Hermetic());
  const auto skills = workspace.Skills();
  ASSERT_GE(skills.size(), 10u);
  EXPECT_TRUE(
      std::is_sorted(skills.begin(), skills.end(), [](const auto& x, const auto& y) { return x->name() < y->name(); }));
  ASSERT_TRUE(workspace.FindSkill("top_kernels").ok());

  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto table = workspace.RunSkill(opened->id, "top_kernels", {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(SumColumn(*table, "instances"), 3442);

  auto device0 = workspace.RunSkill(opened->id, "top_kernels", {{"device", int64_t{0}}});
  auto device1 = workspace.RunSkill(opened->id, "top_kernels", {{"device", int64_t{1}}});
  ASSERT_TRUE(device0.ok() && device1.ok());
  EXPECT_EQ(SumColumn(*device0, "instances") + SumColumn(*device1, "instances"), 3442);
  // The one filter shape: a device set in the filter answers as the device argument does, and the memo keeps
  // calls with different filters apart.
  engine::FilterSpec only1;
  only1.devices = {1};
  auto filtered = workspace.RunSkill(opened->id, "top_kernels", {}, only1);
  ASSERT_TRUE(filtered.ok()) << filtered.error().message;
  EXPECT_EQ(SumColumn(*filtered, "instances"), SumColumn(*device1, "instances"));
  EXPECT_EQ(SumColumn(*workspace.RunSkill(opened->id, "top_kernels", {}), "instances"), 3442);
  only1.devices = {0, 1};
  EXPECT_EQ(SumColumn(*workspace.RunSkill(opened->id, "top_kernels", {}, only1), "instances"), 3442);

  auto unknown = workspace.RunSkill(opened->id, "no_such_skill", {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(unknown.error().message.rfind("unknown skill 'no_such_skill' (known: ", 0), 0u) << unknown.error().message;
  EXPECT_NE(unknown.error().message.find("top_kernels"), std::string::npos);  // lists the known ones
  EXPECT_EQ(workspace.RunSkill("p9", "top_kernels", {}).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(workspace.RunSkill(opened->id, "top_kernels", {{"bogus", int64_t{1}}}).error().kind,
            ErrorKind::kInvalidArgument);
}

TEST(Workspace, LoadsAndReloadsUserSkills) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string skill = dir.Write("kernel_count.skill.json", R"({
    "name": "kernel_count",
    "description": "Counts the kernels.",
    "sql": "SELECT COUNT(*) AS kernels FROM CUPTI_ACTIVITY_KIND_KERNEL",
    "requires_tables": ["CUPTI_ACTIVITY_KIND_KERNEL"]
  })");
  dir.Write("broken.skill.json", "{ not json");
  dir.Write("shadow.skill.json", R"({"name": "top_kernels", "description": "Not the real one.",
    "sql": "SELECT 1 AS one"})");

  core::Workspace workspace(Hermetic());
  const size_t builtins = workspace.Skills().size();
  EXPECT_FALSE(workspace.FindSkill("kernel_count").ok());
  const auto warnings = workspace.AddSkillDirs({dir.path()});
  EXPECT_EQ(workspace.Skills().size(), builtins + 1);
  ASSERT_TRUE(workspace.FindSkill("kernel_count").ok());
  // One warning for the broken file, one for the user skill that takes a built-in's name.
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(),
                          [](const auto& w) { return w.find("broken.skill.json") != std::string::npos; }));
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(),
                          [](const auto& w) { return w.find("built-in") != std::string::npos; }));
  EXPECT_EQ((*workspace.FindSkill("top_kernels"))->reference(), "gpukernsum");  // the built-in stayed

  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto table = workspace.RunSkill(opened->id, "kernel_count", {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  ASSERT_EQ(table->rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(table->rows[0][0]), 3442);

  std::filesystem::remove(skill);
  workspace.ReloadSkills();
  EXPECT_FALSE(workspace.FindSkill("kernel_count").ok());
  EXPECT_EQ(workspace.Skills().size(), builtins);
}

TEST(Workspace, RepeatedSkillCallsAreAnsweredFromTheMemo) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace workspace(Hermetic());
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  const skills::Args args{{"limit", Value(int64_t{3})}};
  auto first = workspace.RunSkill(opened->id, "top_kernels", args);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = workspace.RunSkill(opened->id, "top_kernels", args);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->rows, first->rows);
  EXPECT_EQ(second->notes, first->notes);
  auto other = workspace.RunSkill(opened->id, "top_kernels", {});
  ASSERT_TRUE(other.ok());
  EXPECT_GT(other->rows.size(), 3u);
  auto stats = MemoStats(workspace, opened->id);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->hits, 1);
  EXPECT_EQ(stats->misses, 2);
  EXPECT_EQ(stats->results, 2u);
  // Errors are not remembered: a bad argument is refused every time.
  EXPECT_FALSE(workspace.RunSkill(opened->id, "top_kernels", {{"limit", Value(std::string("x"))}}).ok());
  EXPECT_EQ(MemoStats(workspace, opened->id)->results, 2u);
  // Another profile has its own memo (opens of the same file share one: workspace_sharing_test.cpp).
  auto other_file = workspace.Open(Fixture("mock.sqlite"));
  ASSERT_TRUE(other_file.ok());
  EXPECT_EQ(MemoStats(workspace, other_file->id)->results, 0u);
  ASSERT_TRUE(workspace.Close(opened->id).ok());
  EXPECT_FALSE(MemoStats(workspace, opened->id).ok());
}

TEST(Workspace, ReloadedUserSkillsAreNotAnsweredFromTheMemo) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  dir.Write("answer.skill.json", R"({"name": "answer", "description": "A constant.", "sql": "SELECT 1 AS n"})");
  core::WorkspaceConfig config = Hermetic();
  config.skill_dirs = {dir.path()};
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto before = workspace.RunSkill(opened->id, "answer", {});
  ASSERT_TRUE(before.ok()) << before.error().message;
  EXPECT_EQ(std::get<int64_t>(before->rows.at(0).at(0)), 1);
  dir.Write("answer.skill.json", R"({"name": "answer", "description": "A constant.", "sql": "SELECT 2 AS n"})");
  workspace.ReloadSkills();
  auto after = workspace.RunSkill(opened->id, "answer", {});
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(std::get<int64_t>(after->rows.at(0).at(0)), 2);
}

TEST(Workspace, WarmUpPrecomputesTheHeavySkillsAfterTheBackgroundLoad) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config = Hermetic();
  config.open.load_all_in_background = true;
  config.warm_skills = core::DefaultWarmSkills();
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  WaitForWarmUp(workspace, opened->id);
  auto stats = MemoStats(workspace, opened->id);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->results, config.warm_skills.size());
  auto summary = workspace.RunSkill(opened->id, "nvtx_summary", {});
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(MemoStats(workspace, opened->id)->hits, 1);
  EXPECT_EQ(MemoStats(workspace, opened->id)->misses, 0) << "warm-up checks do not count as misses";
  // nsys's grouping (one row per op id) is warmed too.
  auto split = workspace.RunSkill(opened->id, "nvtx_summary", {{"split_op_id", Value(true)}});
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(MemoStats(workspace, opened->id)->hits, 2);
  // The warmed answer is the computed one: the same skill run directly gives the same rows.
  auto direct = skills::Run(**workspace.FindSkill("nvtx_summary"), *LoadedProfile(workspace, opened->id), {});
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(summary->rows, direct->rows);
}

TEST(Workspace, ClosingDuringWarmUpStopsItPromptly) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config = Hermetic();
  config.open.load_all_in_background = true;
  config.warm_skills = core::DefaultWarmSkills();
  core::Workspace workspace(config);
  for (int i = 0; i < 5; ++i) {
    auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
    ASSERT_TRUE(opened.ok());
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(workspace.Close(opened->id).ok());
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  }
  // And a workspace destroyed with a warm-up running joins it (ASan would see a thread touching freed memory).
  ASSERT_TRUE(workspace.Open(Fixture("h100_2gpu_1s.sqlite")).ok());
}

}  // namespace
}  // namespace nsys::testing
