// analyze on a graph-level capture (derived from a real export: tests/cuda_graph_export.h): the graphs' time is GPU
// work, and the report says that the export holds none of their kernels and how to capture them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../cuda_graph_export.h"
#include "../derived_export.h"
#include "../skills/analysis_test_sql.h"
#include "analyze_file.h"
#include "fixtures.h"
#include "nsys/agent/analyze.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

using testing::AnalyzeFile;
using testing::OfflineConfig;

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

// ask reads CUDA graph launches as events of their own, from either capture: counted, timed and grouped by graph, the
// figures being SQL's over the captured export, chunked as the derivation chunks it (one launch per 10 ms).
TEST(CudaGraphsAsk, LaunchesAreCountedAndTimedFromEitherCapture) {
  NSYS_REQUIRE_FIXTURES();
  testing::FixtureSql sql("h100_2gpu_1s.sqlite");
  const std::string chunks = testing::GraphChunksSql();
  struct Capture {
    std::vector<std::string> edits;
    std::string launched;  // which chunks are launches: every one recorded whole, those with a launch call as nodes
  };
  const Capture captures[] = {{testing::GraphLevelEdits(), ""}, {testing::NodeLevelEdits(), " WHERE with_call > 0"}};
  for (const Capture& c : captures) {
    testing::DerivedExport copy("h100_2gpu_1s.sqlite", c.edits);
    ASSERT_TRUE(copy.ok()) << copy.error();
    core::Workspace ws(OfflineConfig());
    auto opened = ws.Open(copy.path());
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    const int64_t launches = sql.Int("SELECT count(*) FROM (" + chunks + ")" + c.launched);
    const int64_t total = sql.Int("SELECT sum(span) FROM (" + chunks + ")" + c.launched);
    auto a =
        ws.Ask({opened->id, "How many CUDA graph launches were there, and how long did they take in total?", ""}, {});
    ASSERT_TRUE(a.ok()) << a.error().message;
    const std::string& text = a->answer.summary;
    EXPECT_EQ(text.rfind("Read as: count and total time of CUDA graph launches, all GPUs", 0), 0u) << text;
    EXPECT_NE(text.find(fmt::format("{} CUDA graph launches", launches)), std::string::npos) << text;
    EXPECT_NE(text.find(fmt::format("total {:.3f} ms", static_cast<double>(total) / 1e6)), std::string::npos) << text;
    auto each = ws.Ask({opened->id, "how many times was each graph replayed", ""}, {});
    ASSERT_TRUE(each.ok());
    EXPECT_NE(each->answer.summary.find(fmt::format("CUDA graph 7: {} CUDA graph launches", launches)),
              std::string::npos)
        << each->answer.summary;
  }
  // The captured export has none: the question is refused with what is missing, not answered with a zero.
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(testing::Fixture("h100_2gpu_1s.sqlite"));
  ASSERT_TRUE(opened.ok());
  auto none = ws.Ask({opened->id, "How many CUDA graph launches were there?", ""}, {});
  ASSERT_TRUE(none.ok());
  ASSERT_TRUE(none->answer.refusal.has_value()) << none->answer.summary;
  EXPECT_NE(none->answer.summary.find("records no CUDA graph"), std::string::npos) << none->answer.summary;
}

// explain of a graph's name as the timeline writes it: its launches from skill rows, how nsys recorded it, and what
// the records hide. Figures from SQL over the captured export, chunked as the derivation chunks it.
TEST(CudaGraphsExplain, AGraphsNameExplainsItsLaunches) {
  NSYS_REQUIRE_FIXTURES();
  testing::FixtureSql sql("h100_2gpu_1s.sqlite");
  const std::string chunks = testing::GraphChunksSql();
  const core::WorkspaceConfig config = OfflineConfig();
  {
    testing::DerivedExport copy("h100_2gpu_1s.sqlite", testing::GraphLevelEdits());
    ASSERT_TRUE(copy.ok()) << copy.error();
    core::Workspace ws(config);
    auto opened = ws.Open(copy.path());
    ASSERT_TRUE(opened.ok());
    auto e = ws.ExplainKernel(opened->id, "CUDA graph 7");
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ(e->kernel, "CUDA graph 7");
    EXPECT_EQ(e->identity.category, "graph");
    EXPECT_EQ(e->calls, sql.Int("SELECT count(*) FROM (" + chunks + ")"));
    EXPECT_EQ(e->total_ns, sql.Int("SELECT sum(span) FROM (" + chunks + ")"));
    EXPECT_EQ(e->max_ns, sql.Int("SELECT max(span) FROM (" + chunks + ")"));
    ASSERT_EQ(e->devices.size(), 1u);
    EXPECT_EQ(e->devices.front().device, 0);
    EXPECT_FALSE(e->nvtx.empty());
    EXPECT_NE(e->markdown.find("nsys profile --cuda-graph-trace=node"), std::string::npos) << e->markdown;
    EXPECT_NE(e->markdown.find(fmt::format("{} launches", e->calls)), std::string::npos) << e->markdown;
    // The timeline's label, and another id, which names the graphs the profile has.
    EXPECT_TRUE(ws.ExplainKernel(opened->id, "[CUDA graph 7]").ok());
    auto other = ws.ExplainKernel(opened->id, "CUDA graph 8");
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.error().kind, ErrorKind::kNotFound);
    EXPECT_NE(other.error().message.find("CUDA graph 7"), std::string::npos) << other.error().message;
    // Ids past int64, signs and words are no graph's, and never throw.
    for (const char* bad : {"CUDA graph 99999999999999999999", "CUDA graph -1", "CUDA graph 7x", "graph "}) {
      auto r = ws.ExplainKernel(opened->id, bad);
      EXPECT_FALSE(r.ok()) << bad;
    }
  }
  {
    testing::DerivedExport copy("h100_2gpu_1s.sqlite", testing::NodeLevelEdits());
    ASSERT_TRUE(copy.ok()) << copy.error();
    core::Workspace ws(config);
    auto opened = ws.Open(copy.path());
    ASSERT_TRUE(opened.ok());
    auto e = ws.ExplainKernel(opened->id, "cuda graph 7");
    ASSERT_TRUE(e.ok()) << e.error().message;
    const int64_t launches = sql.Int("SELECT count(*) FROM (" + chunks + ") WHERE with_call > 0");
    const int64_t kernels = sql.Int("SELECT sum(n) FROM (" + chunks + ") WHERE with_call > 0");
    EXPECT_EQ(e->calls, launches);
    EXPECT_NE(
        e->identity.summary.find(fmt::format("{:.1f} kernels per replay", static_cast<double>(kernels) / launches)),
        std::string::npos)
        << e->identity.summary;
    EXPECT_EQ(e->markdown.find("--cuda-graph-trace=node"), std::string::npos);  // nothing is hidden
  }
}

}  // namespace
}  // namespace nsys::agent
