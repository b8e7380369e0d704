// Workspace::NvtxTree on h100_2gpu_1s (PyTorch ranges on two threads): the threads, a range's aggregated numbers and
// its children, checked against figures computed from the sqlite file directly (NVTX nesting per thread by
// (start, end desc), kernels joined to runtime calls by (pid, correlationId), op_id suffixes stripped).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

class NvtxTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.use_cache = false;
    workspace_ = std::make_unique<core::Workspace>(config);
    auto opened = workspace_->Open(Fixture("h100_2gpu_1s.sqlite"));
    ASSERT_TRUE(opened) << opened.error().message;
    id_ = opened->id;
  }
  skills::NvtxTreeLevel Level(const std::string& parent, engine::FilterSpec filter = {}) {
    auto level = workspace_->NvtxTree({id_, parent, std::move(filter)});
    EXPECT_TRUE(level) << level.error().message;
    return level ? *level : skills::NvtxTreeLevel{};
  }
  std::unique_ptr<core::Workspace> workspace_;
  std::string id_;
};

TEST_F(NvtxTreeTest, ThreadsThenRangesThenTheirChildrenCarryTheProfilesNumbers) {
  const skills::NvtxTreeLevel threads = Level("");
  ASSERT_EQ(threads.nodes.size(), 2u);
  EXPECT_FALSE(threads.truncated);
  const auto it = std::find_if(threads.nodes.begin(), threads.nodes.end(),
                               [](const skills::NvtxTreeNode& n) { return n.pid == 111 && n.tid == 111; });
  ASSERT_NE(it, threads.nodes.end());
  const skills::NvtxTreeNode& thread = *it;
  EXPECT_EQ(thread.kind, skills::NvtxTreeNodeKind::kThread);
  EXPECT_EQ(thread.id, "t111.111");
  EXPECT_NE(thread.label.find("(pid 111, tid 111)"), std::string::npos) << thread.label;
  EXPECT_EQ(thread.instances, 2169);  // outermost ranges
  EXPECT_EQ(thread.wall_ns, 948094737);
  EXPECT_EQ(thread.kernel_count, 816);  // kernels launched inside any range of the thread
  EXPECT_EQ(thread.gpu_ns, 11554810);
  EXPECT_TRUE(thread.has_children);
  EXPECT_GE(threads.nodes[0].wall_ns, threads.nodes[1].wall_ns);  // most wall first

  const skills::NvtxTreeLevel top = Level(thread.id);
  ASSERT_FALSE(top.nodes.empty());
  const skills::NvtxTreeNode& linear = top.nodes[0];  // most GPU time first
  EXPECT_EQ(linear.kind, skills::NvtxTreeNodeKind::kRange);
  EXPECT_EQ(linear.name, "aten::linear");
  EXPECT_EQ(linear.instances, 140);
  EXPECT_EQ(linear.wall_ns, 107360182);
  EXPECT_EQ(linear.gpu_ns, 9916911);
  EXPECT_EQ(linear.kernel_count, 122);
  EXPECT_GT(linear.end_ns, linear.start_ns);
  EXPECT_EQ(top.nodes[1].name, "aten::mul");
  EXPECT_EQ(top.nodes[1].gpu_ns, 297025);
  int64_t gpu = 0, kernels = 0;
  for (const auto& n : top.nodes) {
    gpu += n.gpu_ns;
    kernels += n.kernel_count;
  }
  EXPECT_EQ(gpu, thread.gpu_ns);  // every kernel of the thread is inside exactly one outermost range name
  EXPECT_EQ(kernels, thread.kernel_count);

  const skills::NvtxTreeLevel children = Level(linear.id);
  ASSERT_EQ(children.nodes.size(), 2u);
  EXPECT_EQ(children.nodes[0].name, "aten::matmul");
  EXPECT_EQ(children.nodes[0].instances, 140);
  EXPECT_EQ(children.nodes[0].wall_ns, 106194398);
  EXPECT_EQ(children.nodes[0].gpu_ns, 9916911);
  EXPECT_EQ(children.nodes[1].name, "aten::t");
  EXPECT_EQ(children.nodes[1].wall_ns, 829606);
  EXPECT_EQ(children.nodes[1].gpu_ns, 0);
  for (const auto& n : Level(children.nodes[1].id).nodes) {  // aten::t's sub-ranges launch no kernel either
    EXPECT_EQ(n.kind, skills::NvtxTreeNodeKind::kRange);
    EXPECT_EQ(n.gpu_ns, 0);
  }

  // Down the GPU-heaviest path to the kernels: a kernel node's numbers add up under its range.
  std::string id = children.nodes[0].id;
  for (int depth = 0; depth < 16; ++depth) {
    const skills::NvtxTreeLevel level = Level(id);
    ASSERT_FALSE(level.nodes.empty());
    if (level.nodes[0].kind == skills::NvtxTreeNodeKind::kKernel) {
      EXPECT_GT(level.nodes[0].gpu_ns, 0);
      EXPECT_EQ(level.nodes[0].wall_ns, level.nodes[0].gpu_ns);
      EXPECT_FALSE(level.nodes[0].has_children);
      EXPECT_TRUE(Level(level.nodes[0].id).nodes.empty());  // a kernel node resolves, with no children
      return;
    }
    id = level.nodes[0].id;
  }
  ADD_FAILURE() << "no kernel node under aten::linear";
}

TEST_F(NvtxTreeTest, AWindowKeepsOnlyTheRangesThatStartInIt) {
  engine::FilterSpec filter;
  filter.processes = {112};
  const skills::NvtxTreeLevel threads = Level("", filter);
  ASSERT_EQ(threads.nodes.size(), 1u);
  EXPECT_EQ(threads.nodes[0].pid, 112u);
  engine::FilterSpec window;
  window.window.start = 0.0;
  window.window.end = 0.1;
  const skills::NvtxTreeLevel early = Level("", window);
  ASSERT_EQ(early.nodes.size(), 2u);
  EXPECT_LT(early.nodes[0].instances, 2169);
}

// The tree is built once per (profile, filter) and kept; every level read from a kept tree equals a fresh
// build's, across filters switched back and forth and past the number kept (4).
TEST_F(NvtxTreeTest, TreesAreKeptPerProfileAndFilterAndAnswerAsAFreshBuild) {
  const skills::NvtxTreeLevel threads = Level("");
  auto kept = core::WorkspaceTestAccess::NvtxTrees(*workspace_, id_);
  ASSERT_EQ(kept.size(), 1u);
  const std::shared_ptr<const skills::NvtxTree> whole = kept[0];
  for (const auto& thread : threads.nodes) {
    const skills::NvtxTreeLevel top = Level(thread.id);
    ASSERT_FALSE(top.nodes.empty());
    Level(top.nodes[0].id);
  }
  kept = core::WorkspaceTestAccess::NvtxTrees(*workspace_, id_);
  ASSERT_EQ(kept.size(), 1u) << "expansions read the kept tree";
  EXPECT_EQ(kept[0], whole);

  const auto profile = LoadedProfile(*workspace_, id_);
  ASSERT_TRUE(profile);
  auto same = [&](const std::string& parent, const engine::FilterSpec& spec) {
    const skills::NvtxTreeLevel got = Level(parent, spec);
    auto filter = engine::ResolveFilter(profile->info(), spec);
    ASSERT_TRUE(filter) << filter.error().message;
    auto fresh = skills::NvtxTreeChildren(*profile, parent, *filter, CancelToken{});
    ASSERT_TRUE(fresh) << fresh.error().message;
    ASSERT_EQ(got.nodes.size(), fresh->nodes.size()) << parent;
    EXPECT_EQ(got.truncated, fresh->truncated);
    for (size_t i = 0; i < got.nodes.size(); ++i) {
      EXPECT_EQ(got.nodes[i].id, fresh->nodes[i].id);
      EXPECT_EQ(got.nodes[i].instances, fresh->nodes[i].instances) << got.nodes[i].id;
      EXPECT_EQ(got.nodes[i].wall_ns, fresh->nodes[i].wall_ns) << got.nodes[i].id;
      EXPECT_EQ(got.nodes[i].gpu_ns, fresh->nodes[i].gpu_ns) << got.nodes[i].id;
      EXPECT_EQ(got.nodes[i].kernel_count, fresh->nodes[i].kernel_count) << got.nodes[i].id;
    }
  };
  std::vector<engine::FilterSpec> filters(6);
  filters[1].processes = {112};
  for (size_t w = 2; w < filters.size(); ++w) {
    filters[w].window.start = 0.0;
    filters[w].window.end = 0.1 * static_cast<double>(w);
  }
  for (int round = 0; round < 2; ++round) {
    for (const engine::FilterSpec& spec : filters) {
      same("", spec);
      if (spec.processes.empty()) same("t111.111", spec);
    }
  }
  kept = core::WorkspaceTestAccess::NvtxTrees(*workspace_, id_);
  EXPECT_EQ(kept.size(), 4u) << "at most four filters' trees are kept";
}

TEST_F(NvtxTreeTest, UnknownParentIdsAreInvalidArgumentsNamingParent) {
  for (const std::string bad : {"x", "t111.111/999999999", "t1.1", "t111.111#", "t111.111/", "t111"}) {
    auto level = workspace_->NvtxTree({id_, bad, {}});
    ASSERT_FALSE(level) << bad;
    EXPECT_EQ(level.error().kind, ErrorKind::kInvalidArgument) << bad;
    EXPECT_EQ(level.error().message.rfind("parent: '" + bad + "' is not a node", 0), 0u) << level.error().message;
  }
  auto unknown = workspace_->NvtxTree({"p999", "", {}});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace nsys::testing

namespace nsys::testing {
namespace {

core::WorkspaceConfig HermeticConfig() {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  return config;
}

// Profiles that lack a table still answer: no NVTX gives no threads; no kernels gives a report that says so.
TEST(EditorViews, ProfilesWithoutNvtxOrKernelsGiveEmptyAnswersNotErrors) {
  NSYS_REQUIRE_FIXTURES();
  core::Workspace ws(HermeticConfig());
  auto mpi = ws.Open(Fixture("a100_2proc_mpi.sqlite"));
  ASSERT_TRUE(mpi) << mpi.error().message;
  auto tree = ws.NvtxTree({mpi->id, "", {}});
  ASSERT_TRUE(tree) << tree.error().message;
  EXPECT_TRUE(tree->nodes.empty());
  auto mpi_report = ws.Report(mpi->id);
  ASSERT_TRUE(mpi_report) << mpi_report.error().message;
  EXPECT_NE(mpi_report->text.find("(no NVTX ranges)"), std::string::npos) << mpi_report->text;
  EXPECT_NE(mpi_report->text.find("885 executions"), std::string::npos) << mpi_report->text;  // 885 kernels (README)

  auto trt = ws.Open(Fixture("titanrtx_tensorrt_nvtx.sqlite"));
  ASSERT_TRUE(trt) << trt.error().message;
  auto report = ws.Report(trt->id);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->kernels.empty());
  EXPECT_NE(report->text.find("(no kernels)"), std::string::npos) << report->text;
  auto trt_tree = ws.NvtxTree({trt->id, "", {}});
  ASSERT_TRUE(trt_tree) << trt_tree.error().message;
  ASSERT_EQ(trt_tree->nodes.size(), 1u);  // one thread with 21,996 ranges, no kernel
  EXPECT_EQ(trt_tree->nodes[0].kernel_count, 0);
  EXPECT_EQ(trt_tree->nodes[0].gpu_ns, 0);
}

// PyTorch numbers every autograd range ("FlashAttnFunc, seq = 1234"): each call is its own text, yet one operator.
// mfu_2gpu_after has 60 such top-level ranges, 30 on each rank's thread (sqlite3: SELECT globalTid, count(*),
// sum(end-start) FROM NVTX_EVENTS WHERE text LIKE 'FlashAttnFunc, seq = %' GROUP BY globalTid gives 30 | 7745515 and
// 30 | 6627449; none is nested in another range), so the tree shows one "FlashAttnFunc" node per thread.
TEST(NvtxTreeSeq, PyTorchSequenceNumbersGroupAsOneOperator) {
  NSYS_REQUIRE_FIXTURES();
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  core::Workspace workspace(config);
  auto opened = workspace.Open(Fixture("mfu_2gpu_after.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  auto threads = workspace.NvtxTree({opened->id, "", {}});
  ASSERT_TRUE(threads) << threads.error().message;
  std::vector<std::pair<int64_t, int64_t>> flash;  // (instances, wall) of each FlashAttnFunc node
  for (const skills::NvtxTreeNode& thread : threads->nodes) {
    auto top = workspace.NvtxTree({opened->id, thread.id, {}});
    ASSERT_TRUE(top) << top.error().message;
    for (const skills::NvtxTreeNode& node : top->nodes) {
      EXPECT_EQ(node.name.find(", seq = "), std::string::npos) << node.name;
      if (node.name == "FlashAttnFunc") flash.emplace_back(node.instances, node.wall_ns);
    }
  }
  std::sort(flash.begin(), flash.end());
  const std::vector<std::pair<int64_t, int64_t>> expected = {{30, 6627449}, {30, 7745515}};
  EXPECT_EQ(flash, expected);
}

}  // namespace
}  // namespace nsys::testing
