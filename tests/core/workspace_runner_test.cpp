// Workspace::RunnerFor (through WorkspaceTestAccess): the agent's skill calls go through the profile's result memo,
// like a client's.
#include <gtest/gtest.h>

#include <string>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::core {
namespace {
using testing::Fixture;
using testing::HaveFixtures;

TEST(WorkspaceRunner, RunsThroughTheMemoAndFailsAfterClose) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  const std::string path = Fixture("h100_2gpu_1s.sqlite");
  WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  Workspace ws(config);
  auto opened = ws.Open(path);
  ASSERT_TRUE(opened) << opened.error().message;
  auto run = core::WorkspaceTestAccess::RunnerFor(ws, opened->id);
  auto first = run("top_kernels", {{"limit", Value{int64_t{3}}}}, {}, {});
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->rows.size(), 3u);
  auto direct = ws.RunSkill(opened->id, "top_kernels", {{"limit", Value{int64_t{3}}}});
  ASSERT_TRUE(direct);
  EXPECT_EQ(direct->rows, first->rows);
  auto stats = testing::MemoStats(ws, opened->id);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->hits, 1);
  ASSERT_TRUE(ws.Close(opened->id));
  auto after = run("top_kernels", {}, {}, {});
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace nsys::core
