// `nsys-ai suggest PROFILE --source DIR` with the real binary (the refinement loop as a command): on
// h200_nvfuser_nvtx.sqlite and our nvFuser-like sketch (tests/source/data/plan/executor.cpp), the one innermost range
// that launches more than one kernel in a call, where the source names it, the edit and the next nsys command; the
// JSON form is nsys/annotationPlan's result, with the edit as an LSP WorkspaceEdit.
//   Figures from sqlite3: SELECT sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL = 10167602 ns (all kernel time);
//   the range 'KernelExecutor::runFusion::intermediates' has 6 instances, 2 kernels launched inside (one call
//   launches both), 2848 ns of GPU time; the mapped share is nvtx_range_kernels' coverage, 3131549 ns.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kPlanSources = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data" / "plan";
constexpr const char* kRange = "KernelExecutor::runFusion::intermediates";

TEST(SuggestCli, ListsTheRangeToRefineWithItsLineTheEditAndTheNextCommand) {
  NSYS_REQUIRE_FIXTURES();
  const auto r =
      RunCli({"--no-cache", "suggest", Fixture("h200_nvfuser_nvtx.sqlite"), "--source", kPlanSources.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Mapping coverage: 30.8% of kernel time (3.132 ms of 10.168 ms); 7.036 ms is not mapped one "
                        "kernel per call.\n",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\n1. KernelExecutor::runFusion::intermediates  (2.8 µs GPU, 0.028%, 0.333 kernels/call of 1 "
                       "kind, 6 calls)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("\n2. "), std::string::npos) << "one range to refine: " << r.out;
  EXPECT_NE(r.out.find("   at " + (kPlanSources / "executor.cpp").string() + ":18:22\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   Add NVTX ranges inside 'KernelExecutor::runFusion::intermediates':\n"
                       "     line 19     KernelExecutor::runFusion::intermediates/IntermediateSizes\n"
                       "     line 20     KernelExecutor::runFusion::intermediates/intermediates.push_back:20\n"
                       "     line 21     KernelExecutor::runFusion::intermediates/intermediates.push_back:21\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nNext: nsys profile -t cuda,nvtx -o h200_nvfuser_nvtx_refined <your command> && nsys export "
                       "--type sqlite h200_nvfuser_nvtx_refined.nsys-rep\n"),
            std::string::npos)
      << r.out;
}

TEST(SuggestCli, JsonIsTheAnnotationPlanWithTheEditAsAWorkspaceEdit) {
  NSYS_REQUIRE_FIXTURES();
  const auto r = RunCli({"--no-cache", "suggest", Fixture("h200_nvfuser_nvtx.sqlite"), "--source",
                         kPlanSources.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["coverage"]["kernelNs"], 10167602);
  EXPECT_EQ(j["coverage"]["mappedNs"], 3131549);
  EXPECT_EQ(j["filesIndexed"], 1);
  ASSERT_EQ(j["items"].size(), 1u);
  const auto& item = j["items"][0];
  EXPECT_EQ(item["name"], kRange);
  EXPECT_EQ(item["instances"], 6);
  EXPECT_EQ(item["kernels"], 2);
  EXPECT_EQ(item["maxKernelsPerCall"], 2);
  EXPECT_EQ(item["distinctKernels"], 1);
  EXPECT_EQ(item["gpuNs"], 2848);
  const std::string uri = "file://" + (kPlanSources / "executor.cpp").string();
  EXPECT_EQ(item["location"]["uri"], uri);
  EXPECT_EQ(item["location"]["range"]["start"]["line"], 17);  // 0-based: line 18, the FUSER_PERF_SCOPE's name
  ASSERT_EQ(item["edit"]["changes"].size(), 1u);              // one document
  const auto& edits = item["edit"]["changes"][uri];
  ASSERT_EQ(edits.size(), 3u);  // each statement of the body: lines 19, 20, 21
  // The declaration keeps its scope (a push/pop pair around it); the calls get a scope of the file's own macro.
  EXPECT_EQ(edits[0]["newText"],
            "    nvtxRangePushA(\"KernelExecutor::runFusion::intermediates/IntermediateSizes\");\n"
            "    const std::vector<int> sizes = IntermediateSizes();\n    nvtxRangePop();");
  EXPECT_EQ(edits[1]["newText"],
            "    {\n      FUSER_PERF_SCOPE(\"KernelExecutor::runFusion::intermediates/intermediates.push_back:20\");\n"
            "      intermediates.push_back(AllocateZeros(sizes[0]));\n    }");
  for (size_t k = 0; k < edits.size(); ++k) {
    EXPECT_EQ(edits[k]["range"]["start"]["line"], 18 + static_cast<int>(k));
    EXPECT_EQ(edits[k]["range"]["start"]["character"], 0);
  }
}

TEST(SuggestCli, NoSourceNamingTheRangeStillListsItAndABadLimitIsAUsageError) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path empty = fs::temp_directory_path() / ("nsys_ai_suggest_empty_" + std::to_string(::getpid()));
  fs::create_directories(empty);
  const auto r = RunCli(
      {"--no-cache", "suggest", Fixture("h200_nvfuser_nvtx.sqlite"), "--source", empty.string(), "--format", "json"});
  fs::remove_all(empty);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["items"].size(), 1u);
  EXPECT_EQ(j["items"][0]["name"], kRange);
  EXPECT_FALSE(j["items"][0].contains("edit") && !j["items"][0]["edit"].is_null()) << "no source, no edit";
  const auto bad =
      RunCli({"suggest", Fixture("h200_nvfuser_nvtx.sqlite"), "--source", kPlanSources.string(), "--limit", "lots"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.err.find("--limit must be a whole number"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace nsys::testing
