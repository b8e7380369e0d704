// The annotation plan and mapping coverage in core on h200_nvfuser_nvtx.sqlite (nvFuser's C++ scope names around 18
// kernels) with our own C++ source naming those ranges (tests/source/data/plan/executor.cpp). Figures from the sqlite3
// CLI:
//  - kernels joined to their launch calls by (pid, correlationId), the NVTX ranges of the launching thread holding
//    the call's start: ExecutorRunFusion::cuLaunchKernel's 6 instances each launch one kernel (correlation ids 1754,
//    1776, 1802, 1868, 2130, 2156), KernelExecutor::runFusion::intermediates' 6 instances launch 2 kernels in all,
//    both in one instance (1842, 1862: vectorized_elementwise_kernel); no other innermost range launches a kernel.
//  - `select sum(end-start) from CUPTI_ACTIVITY_KIND_KERNEL` = 10167602; the six cuLaunchKernel kernels sum to
//    3131549 (the mapped time); 1842 and 1862 sum to 2848.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kPlanSources = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data" / "plan";

class AnnotationPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.use_cache = false;
    config.open.load_all_in_background = false;
    workspace_ = std::make_unique<core::Workspace>(config);
    auto opened = workspace_->Open(Fixture("h200_nvfuser_nvtx.sqlite"));
    ASSERT_TRUE(opened) << opened.error().message;
    id_ = opened->id;
  }
  std::unique_ptr<core::Workspace> workspace_;
  std::string id_;
};

TEST_F(AnnotationPlanTest, CoverageIsUnknownUntilComputedThenRemembered) {
  EXPECT_FALSE(workspace_->KnownMappingCoverage(id_));  // nothing loaded the attribution tables yet
  auto described = workspace_->Describe(id_);
  ASSERT_TRUE(described) << described.error().message;
  EXPECT_FALSE(described->coverage);
  auto coverage = workspace_->MappingCoverage(id_);
  ASSERT_TRUE(coverage) << coverage.error().message;
  EXPECT_EQ(coverage->kernel_ns_total, 10167602);
  EXPECT_EQ(coverage->mapped_ns, 3131549);
  EXPECT_DOUBLE_EQ(coverage->share, 3131549.0 / 10167602.0);
  auto known = workspace_->KnownMappingCoverage(id_);
  ASSERT_TRUE(known);
  EXPECT_EQ(known->mapped_ns, 3131549);
  EXPECT_TRUE(workspace_->Describe(id_)->coverage);
  // A second open of the same file shares the load, and so the coverage.
  auto again = workspace_->Open(Fixture("h200_nvfuser_nvtx.sqlite"));
  ASSERT_TRUE(again) << again.error().message;
  ASSERT_TRUE(again->coverage);
  EXPECT_EQ(again->coverage->mapped_ns, 3131549);
}

TEST_F(AnnotationPlanTest, WarmUpComputesTheCoverage) {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  config.warm_skills = core::DefaultWarmSkills();  // as serve and mcp: nvtx_kernel_map loads the attribution tables
  core::Workspace warm(config);
  auto opened = warm.Open(Fixture("h200_nvfuser_nvtx.sqlite"));
  ASSERT_TRUE(opened) << opened.error().message;
  WaitForWarmUp(warm, opened->id);
  auto known = warm.KnownMappingCoverage(opened->id);
  ASSERT_TRUE(known);
  EXPECT_EQ(known->kernel_ns_total, 10167602);
  EXPECT_EQ(known->mapped_ns, 3131549);
}

TEST_F(AnnotationPlanTest, PlanListsTheRangeLaunchingTwoKernelsWithItsSourceAndEdit) {
  core::AnnotationPlanRequest request;
  request.profile_id = id_;
  request.source_roots = {kPlanSources.string()};
  auto plan = workspace_->AnnotationPlanFor(request);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->coverage.mapped_ns, 3131549);
  EXPECT_EQ(plan->unmapped_ns, 10167602 - 3131549);
  EXPECT_EQ(plan->files_indexed, 1u);
  ASSERT_EQ(plan->items.size(), 1u);
  EXPECT_EQ(plan->total_items, 1u);
  const core::PlanItem& item = plan->items[0];
  EXPECT_EQ(item.name, "KernelExecutor::runFusion::intermediates");
  EXPECT_EQ(item.instances, 6);
  EXPECT_EQ(item.kernels, 2);
  EXPECT_EQ(item.gpu_ns, 2848);
  EXPECT_EQ(item.distinct_kernels, 1);
  EXPECT_EQ(item.max_kernels_per_call, 2);
  EXPECT_EQ(item.top_kernel, "vectorized_elementwise_kernel");
  ASSERT_TRUE(item.location);
  EXPECT_EQ(fs::path(item.location->file).filename(), "executor.cpp");
  EXPECT_EQ(item.location->line, 17);    // line 18 of executor.cpp
  EXPECT_EQ(item.location->column, 21);  // after `    FUSER_PERF_SCOPE(`
  ASSERT_TRUE(item.edit) << item.reason;
  EXPECT_EQ(item.edit->title, "Add NVTX ranges inside 'KernelExecutor::runFusion::intermediates'");
  std::vector<std::string> names;
  for (const auto& r : item.edit->ranges) names.push_back(std::to_string(r.line + 1) + " " + r.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"19 KernelExecutor::runFusion::intermediates/IntermediateSizes",
                                      "20 KernelExecutor::runFusion::intermediates/intermediates.push_back:20",
                                      "21 KernelExecutor::runFusion::intermediates/intermediates.push_back:21"}));
  EXPECT_NE(item.reason.find("2.8 µs of GPU time"), std::string::npos) << item.reason;
  EXPECT_EQ(plan->next_command,
            "nsys profile -t cuda,nvtx -o h200_nvfuser_nvtx_refined <your command> && nsys export --type sqlite "
            "h200_nvfuser_nvtx_refined.nsys-rep");
}

TEST_F(AnnotationPlanTest, PlanWithoutSourcesHasNoLocationsAndABadRootIsAnError) {
  auto plan = workspace_->AnnotationPlanFor({id_, {}, 20});
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->items.size(), 1u);
  EXPECT_FALSE(plan->items[0].location);
  EXPECT_NE(plan->items[0].reason.find("not given in the sources"), std::string::npos) << plan->items[0].reason;
  auto bad = workspace_->AnnotationPlanFor({id_, {"/no/such/dir"}, 20});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kNotFound);
  EXPECT_FALSE(workspace_->AnnotationPlanFor({"p99", {}, 20}));
}

// textDocument/codeAction's core call: refining is offered on a range that launches two kernels in a call, not on
// one that launches one per call, and never without a profile; annotating a function only where it has no range.
TEST_F(AnnotationPlanTest, SourceActionsOfferRefiningOnlyWhereACallLaunchesSeveralKernels) {
  const std::string file = (kPlanSources / "executor.cpp").string();
  auto on_intermediates = workspace_->SourceActions({id_, file, std::nullopt, 17, 17});
  ASSERT_TRUE(on_intermediates) << on_intermediates.error().message;
  ASSERT_EQ(on_intermediates->size(), 1u);  // RunFusion opens a scope first: no "Annotate function"
  EXPECT_EQ((*on_intermediates)[0].title, "Add NVTX ranges inside 'KernelExecutor::runFusion::intermediates'");
  EXPECT_EQ((*on_intermediates)[0].kind, "refactor.rewrite");
  EXPECT_EQ((*on_intermediates)[0].edit.ranges.size(), 3u);
  auto on_launch = workspace_->SourceActions({id_, file, std::nullopt, 25, 25});  // cuLaunchKernel: 1 per call
  ASSERT_TRUE(on_launch) << on_launch.error().message;
  EXPECT_TRUE(on_launch->empty());
  auto no_profile = workspace_->SourceActions({"", file, std::nullopt, 17, 17});
  ASSERT_TRUE(no_profile) << no_profile.error().message;
  EXPECT_TRUE(no_profile->empty());
  // An editor buffer (not the file on disk) with a function that has no range.
  const std::string buffer = "void Plain(int n) {\n  Work(n);\n}\n";
  auto annotate = workspace_->SourceActions({"", "/nowhere/plain.cpp", buffer, 1, 1});
  ASSERT_TRUE(annotate) << annotate.error().message;
  ASSERT_EQ(annotate->size(), 1u);
  EXPECT_EQ((*annotate)[0].title, "Annotate function 'Plain' with NVTX");
  EXPECT_TRUE(workspace_->SourceActions({"", "/nowhere/notes.txt", std::string("x"), 0, 0})->empty());
}

}  // namespace
}  // namespace nsys::testing
