// The source mapping (the profile's numbers on the user's source lines) through the dispatcher on real fixtures: the
// session indexes its roots after `initialized`, answers textDocument/codeLens, hover and nsys/kernelSources against
// its active profile, publishes source diagnostics when the profile opens (and clears them when it closes), follows
// didOpen/didChange/didClose and watched-file changes, and explainKernel's Markdown links the kernel's sources. Figures
// are those of tests/core/source_mapping_test.cpp (checked there against sqlite3).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "fixtures.h"
#include "in_memory_client.h"
#include "nsys/wire/documents.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data" / "mapping";

std::string Uri(const fs::path& path) {
  return wire::FileUri(fs::weakly_canonical(path).string());
}

class SourceMethods : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    client_ = std::make_unique<InMemoryClient>();
    Json params = {{"rootUri", Uri(kData / "cpp")},
                   {"capabilities", {{"workspace", {{"codeLens", {{"refreshSupport", true}}}}}}},
                   {"initializationOptions", {{"sourceRoots", {(kData / "cuda").string()}}}}};
    init_ = client_->Initialize(params);
  }
  Json Call(const std::string& method, Json params) {
    return client_->AwaitReply(client_->Request(method, std::move(params)));
  }
  std::string OpenProfile(const std::string& fixture) {
    const Json open = Call("nsys/openProfile", {{"path", Fixture(fixture)}});
    EXPECT_TRUE(open.contains("result")) << open.dump();
    return open.value("result", Json::object()).value("profileId", "");
  }
  Json Lenses(const std::string& uri) { return Call("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}}); }
  Json Hover(const std::string& uri, int line, int character) {
    return Call("textDocument/hover",
                {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}});
  }
  // The last publishDiagnostics on `uri` received after `after` messages, waiting for one that satisfies `want`.
  Json WaitForDiagnostics(const std::string& uri, const std::function<bool(const Json&)>& want) {
    auto found = client_->WaitFor([&](const Json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
             want(m["params"]["diagnostics"]);
    });
    EXPECT_TRUE(found.has_value()) << "no diagnostics on " << uri;
    return found ? (*found)["params"]["diagnostics"] : Json::array();
  }

  std::unique_ptr<InMemoryClient> client_;
  Json init_;
  const std::string cpp_ = Uri(kData / "cpp" / "executor.cpp");
  const std::string cu_ = Uri(kData / "cuda" / "launch.cu");
};

TEST_F(SourceMethods, CapabilitiesAnnounceLensesAndTheRevealCommand) {
  const Json& caps = init_["result"]["capabilities"];
  EXPECT_EQ(caps["codeLensProvider"], Json({{"resolveProvider", false}})) << caps.dump();
  EXPECT_EQ(caps["executeCommandProvider"]["commands"], Json::array({"nsys-ai.revealRange"}));
  EXPECT_EQ(caps["hoverProvider"], true);
  const Json& methods = caps["experimental"]["nsysMethods"];
  EXPECT_NE(std::find(methods.begin(), methods.end(), "nsys/kernelSources"), methods.end());
}

TEST_F(SourceMethods, WithoutAProfileLensesAreEmptyAndHoversNull) {
  EXPECT_EQ(Lenses(cpp_)["result"], Json::array());
  EXPECT_TRUE(Hover(cpp_, 16, 20)["result"].is_null());
}

TEST_F(SourceMethods, LensesHoverDiagnosticsAndKernelSourcesFollowTheActiveProfile) {
  const std::string p = OpenProfile("h200_nvfuser_nvtx.sqlite");
  // Opening the profile refreshes the lenses and publishes the source diagnostics.
  EXPECT_TRUE(client_->WaitFor([](const Json& m) { return m.value("method", "") == "workspace/codeLens/refresh"; }));
  const Json diagnostics = WaitForDiagnostics(cpp_, [](const Json& d) { return d.size() == 2; });
  ASSERT_EQ(diagnostics.size(), 2u) << diagnostics.dump();
  // KernelExecutor::runFusion::intermediates (line 12): innermost, one instance launches 2 kernels.
  EXPECT_EQ(diagnostics[0]["code"], "nvtx-refine");
  EXPECT_EQ(diagnostics[0]["severity"], 3);
  EXPECT_EQ(diagnostics[0]["range"]["start"]["line"], 11);
  EXPECT_EQ(diagnostics[1]["code"], "nvtx-not-run");
  EXPECT_EQ(diagnostics[1]["severity"], 4);
  EXPECT_EQ(diagnostics[1]["message"], "'KernelExecutor::neverLaunched' did not run in this profile");

  const Json lenses = Lenses(cpp_)["result"];
  ASSERT_TRUE(lenses.is_array()) << lenses.dump();
  const Json* launch = nullptr;
  for (const Json& lens : lenses) {
    if (lens["range"]["start"]["line"] == 16) launch = &lens;
  }
  ASSERT_NE(launch, nullptr) << lenses.dump();
  EXPECT_EQ((*launch)["command"]["title"], "6 calls · 155 µs · 1 kernel/call · 3.1 ms GPU");
  EXPECT_EQ((*launch)["command"]["command"], "nsys-ai.revealRange");
  const Json& arg = (*launch)["command"]["arguments"][0];
  EXPECT_EQ(arg["profileId"], p);
  EXPECT_EQ(arg["name"], "ExecutorRunFusion::cuLaunchKernel");
  EXPECT_EQ(arg["end"].get<int64_t>() - arg["start"].get<int64_t>(), 42960);  // the longest instance

  const Json hover = Hover(cpp_, 16, 20)["result"];
  ASSERT_TRUE(hover.is_object()) << hover.dump();
  const std::string md = hover["contents"]["value"];
  EXPECT_NE(md.find("6 kernels of 6 kinds (1 per call, at most 1) · 3.1 ms GPU"), std::string::npos) << md;
  // Per call (one kernel each; sqlite3: 10527, 380732, 383931, 694040, 761016, 901303 ns), nearest rank: p50 is the
  // third, p90 the sixth; each kernel's row with its own GPU time, calls and percentiles.
  EXPECT_NE(md.find("(per call p50 384 µs, p90 901 µs) · innermost"), std::string::npos) << md;
  EXPECT_NE(md.find("| [`nvfuser_inner_persistent_f1_c1_r0_g2`](nsys-ai://explain/" + p +
                    "/nvfuser_inner_persistent_f1_c1_r0_g2) | 901 µs | 1 | 901 µs | 901 µs |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| [`nvfuser_reduction_f0_c1_r0_g3`](nsys-ai://explain/" + p +
                    "/nvfuser_reduction_f0_c1_r0_g3) | 10.5 µs | 1 | 10.5 µs | 10.5 µs |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("](nsys-ai://explain/" + p + "/"), std::string::npos) << md;
  EXPECT_EQ(hover["range"]["start"], Json({{"line", 16}, {"character", 19}}));

  // The first kernel of the hover's table: launched only inside cuLaunchKernel, which both files annotate.
  const size_t at = md.find("| [`") + 4;
  const std::string kernel = md.substr(at, md.find('`', at) - at);
  const Json sources = Call("nsys/kernelSources", {{"profileId", p}, {"kernel", kernel}});
  ASSERT_TRUE(sources.contains("result")) << sources.dump();
  const Json& locations = sources["result"]["locations"];
  ASSERT_EQ(locations.size(), 2u) << sources.dump();
  EXPECT_EQ(locations[0]["uri"], cpp_);
  EXPECT_EQ(locations[1]["uri"], cu_);
  EXPECT_EQ(locations[0]["share"], 1.0);
  EXPECT_EQ(locations[0]["name"], "ExecutorRunFusion::cuLaunchKernel");
  const Json explained = Call("nsys/explainKernel", {{"profileId", p}, {"kernel", kernel}});
  EXPECT_NE(explained["result"]["markdown"].get<std::string>().find("**In your source**"), std::string::npos);

  // No Perfetto side channel in this server: the lens command says so; other commands are refused by name.
  const Json reveal = Call("workspace/executeCommand", {{"command", "nsys-ai.revealRange"}, {"arguments", {arg}}});
  EXPECT_EQ(reveal["error"]["code"], -32803) << reveal.dump();
  const Json other = Call("workspace/executeCommand", {{"command", "rm -rf"}, {"arguments", Json::array()}});
  EXPECT_EQ(other["error"]["code"], -32602) << other.dump();
  const Json bad =
      Call("workspace/executeCommand", {{"command", "nsys-ai.revealRange"},
                                        {"arguments", {{{"profileId", p}, {"name", "x"}, {"start", 5}, {"end", 1}}}}});
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("params.arguments[0].end"), std::string::npos);

  // Closing the profile: no active profile, so no lenses and the diagnostics are cleared.
  Call("nsys/closeProfile", {{"profileId", p}});
  WaitForDiagnostics(cpp_, [](const Json& d) { return d.empty(); });
  EXPECT_EQ(Lenses(cpp_)["result"], Json::array());
}

TEST_F(SourceMethods, EditorBuffersAndWatchedFilesKeepTheSetCurrent) {
  OpenProfile("h200_nvfuser_nvtx.sqlite");
  WaitForDiagnostics(cpp_, [](const Json& d) { return d.size() == 2; });
  // The buffer's text wins over the disk: one range, now on line 2, that never ran.
  client_->Notify("textDocument/didOpen", {{"textDocument",
                                            {{"uri", cpp_},
                                             {"languageId", "cpp"},
                                             {"version", 1},
                                             {"text", "void f() {\n  nvtxRangePushA(\"not_a_range\");\n}\n"}}}});
  const Json changed = WaitForDiagnostics(cpp_, [](const Json& d) { return d.size() == 1; });
  EXPECT_EQ(changed[0]["range"]["start"]["line"], 1);
  ASSERT_EQ(Lenses(cpp_)["result"].size(), 1u);
  EXPECT_EQ(Lenses(cpp_)["result"][0]["command"]["title"], "not in this profile");
  // Closed: the disk's text again.
  client_->Notify("textDocument/didClose", {{"textDocument", {{"uri", cpp_}}}});
  WaitForDiagnostics(cpp_, [](const Json& d) { return d.size() == 2; });
  EXPECT_GT(Lenses(cpp_)["result"].size(), 5u);

  // A new file under a root, announced by the client's watcher.
  const fs::path extra = fs::temp_directory_path() / ("nsys_ai_watch_" + std::to_string(::getpid()));
  fs::create_directories(extra);
  const fs::path file = extra / "more.py";
  std::ofstream(file) << "import nvtx\nwith nvtx.annotate(\"generateCudaKernel\"):\n    pass\n";
  client_->Notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", Uri(file)}, {"type", 1}}}}});
  Json lenses;
  for (int i = 0; i < 100 && (lenses = Lenses(Uri(file))["result"]).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(lenses.size(), 1u);
  EXPECT_EQ(lenses[0]["command"]["title"].get<std::string>().rfind("6 calls · ", 0), 0u) << lenses.dump();
  fs::remove_all(extra);
  client_->Notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", Uri(file)}, {"type", 3}}}}});
  for (int i = 0; i < 100 && !(lenses = Lenses(Uri(file))["result"]).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(lenses.empty());
}

}  // namespace
}  // namespace nsys::testing
