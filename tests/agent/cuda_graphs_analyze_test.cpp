// analyze on a graph-level capture (derived from a real export: tests/cuda_graph_export.h): the graphs' time is GPU
// work, and the report says that the export holds none of their kernels and how to capture them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../cuda_graph_export.h"
#include "../derived_export.h"
#include "analyze_file.h"
#include "fixtures.h"
#include "nsys/agent/analyze.h"

namespace nsys::agent {
namespace {

using testing::AnalyzeFile;

const Finding* FindingOf(const Analysis& a, const std::string& root_cause) {
  const auto it =
      std::find_if(a.findings.begin(), a.findings.end(), [&](const Finding& f) { return f.root_cause == root_cause; });
  return it == a.findings.end() ? nullptr : &*it;
}

TEST(CudaGraphsAnalyze, TheReportSaysWhatGraphRecordsHideAndHowToSeeIt) {
  NSYS_REQUIRE_FIXTURES();
  testing::DerivedExport copy("h100_2gpu_1s.sqlite", testing::GraphLevelEdits());
  ASSERT_TRUE(copy.ok()) << copy.error();
  auto a = AnalyzeFile(copy.path());
  ASSERT_TRUE(a) << a.error().message;
  const Finding* f = FindingOf(*a, "graphs_recorded_whole");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("CUDA graph executions fill"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("GPU 0"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("the export holds none of their kernels"), std::string::npos) << f->title;
  const auto& todo = f->answer.recommendations;
  EXPECT_TRUE(std::any_of(todo.begin(), todo.end(), [](const std::string& r) {
    return r.find("nsys profile --cuda-graph-trace=node") != std::string::npos;
  }));
  // The captured export has no graph records, and no such finding.
  auto captured = AnalyzeFile(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(captured) << captured.error().message;
  EXPECT_EQ(FindingOf(*captured, "graphs_recorded_whole"), nullptr);
  EXPECT_EQ(captured->findings.front().root_cause, a->findings.front().root_cause);  // still copy-bound first
}

}  // namespace
}  // namespace nsys::agent
