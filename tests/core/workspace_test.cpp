// The Workspace: profiles by id, several at once, skills (built-in and user), errors by kind.
#include "nsys/core/workspace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "fixtures.h"

namespace nsys::testing {
namespace {

core::WorkspaceConfig Hermetic() {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  return config;
}

int64_t SumColumn(const skills::Table& table, const std::string& column) {
  size_t index = 0;
  while (index < table.columns.size() && table.columns[index].name != column) ++index;
  int64_t sum = 0;
  for (const auto& row : table.rows) sum += std::get<int64_t>(row.at(index));
  return sum;
}

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
  EXPECT_EQ(a->profile->info().rows("CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(b->profile->info().rows("CUPTI_ACTIVITY_KIND_KERNEL"), 2);

  auto listed = workspace.List();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "p1");
  EXPECT_EQ(listed[1].id, "p2");
  auto got = workspace.Get("p2");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->get(), b->profile.get());

  EXPECT_TRUE(workspace.Close("p1").ok());
  auto gone = workspace.Get("p1");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(gone.error().message.find("open: p2"), std::string::npos) << gone.error().message;
  EXPECT_EQ(workspace.Close("p1").error().kind, ErrorKind::kNotFound);
  // The closed profile stays usable by whoever still holds it.
  EXPECT_EQ(a->profile->info().rows("CUPTI_ACTIVITY_KIND_KERNEL"), 3442);
  EXPECT_EQ(workspace.Open(Fixture("mock.sqlite"))->id, "p3");  // ids are not reused
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
  auto cancel = workspace.Open(Fixture("mock.sqlite"), {}, cancelled);
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
  ASSERT_NE(workspace.FindSkill("top_kernels"), nullptr);

  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto table = workspace.RunSkill(opened->id, "top_kernels", {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(SumColumn(*table, "instances"), 3442);

  auto device0 = workspace.RunSkill(opened->id, "top_kernels", {{"device", int64_t{0}}});
  auto device1 = workspace.RunSkill(opened->id, "top_kernels", {{"device", int64_t{1}}});
  ASSERT_TRUE(device0.ok() && device1.ok());
  EXPECT_EQ(SumColumn(*device0, "instances") + SumColumn(*device1, "instances"), 3442);

  auto unknown = workspace.RunSkill(opened->id, "no_such_skill", {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
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
  EXPECT_EQ(workspace.FindSkill("kernel_count"), nullptr);
  const auto warnings = workspace.AddSkillDirs({dir.path()});
  EXPECT_EQ(workspace.Skills().size(), builtins + 1);
  ASSERT_NE(workspace.FindSkill("kernel_count"), nullptr);
  // One warning for the broken file, one for the user skill that takes a built-in's name.
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(),
                          [](const auto& w) { return w.find("broken.skill.json") != std::string::npos; }));
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(),
                          [](const auto& w) { return w.find("built-in") != std::string::npos; }));
  EXPECT_EQ(workspace.FindSkill("top_kernels")->reference(), "gpukernsum");  // the built-in stayed

  auto opened = workspace.Open(Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto table = workspace.RunSkill(opened->id, "kernel_count", {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  ASSERT_EQ(table->rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(table->rows[0][0]), 3442);

  std::filesystem::remove(skill);
  workspace.ReloadSkills();
  EXPECT_EQ(workspace.FindSkill("kernel_count"), nullptr);
  EXPECT_EQ(workspace.Skills().size(), builtins);
}

}  // namespace
}  // namespace nsys::testing
