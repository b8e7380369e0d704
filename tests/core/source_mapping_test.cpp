// Kernel -> source through core::Workspace on real fixtures: a source set's annotations matched to a
// profile's NVTX ranges (lenses, hovers, diagnostics, kernel sources). The real pair (EfficientCenterFormer's
// eval_models.py and titanrtx_tensorrt_nvtx.sqlite, no kernel table) and small sources of every language
// (tests/source/data/mapping/) whose expected lenses and diagnostics are golden files, checked against sqlite3.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data" / "mapping";

fs::path RealPair() {
  return fs::path(FixturesDir()) / "sources" / "efficientcenterformer";
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "L<1-based line>:<col>-<end col> 'name' -> title[ => reveal name start end]"
std::string Render(const std::vector<core::SourceLens>& lenses) {
  std::string out;
  for (const auto& l : lenses) {
    out += "L" + std::to_string(l.span.line + 1) + ":" + std::to_string(l.span.column) + "-" +
           std::to_string(l.span.end_column) + " '" + l.name + "' -> " + l.title;
    if (l.ran) out += " => " + l.range + " " + std::to_string(l.start_ns) + " " + std::to_string(l.end_ns);
    out += "\n";
  }
  return out;
}

std::string Render(const std::vector<core::SourceFileDiagnostics>& files) {
  std::string out;
  for (const auto& f : files) {
    for (const auto& d : f.diagnostics) {
      out += "L" + std::to_string(d.span.line + 1) + ":" + std::to_string(d.span.column) + " " +
             (d.kind == core::SourceDiagnosticKind::kRefine ? "nvtx-refine " : "nvtx-not-run ") + d.message + "\n";
    }
  }
  return out;
}

void ExpectGolden(const fs::path& golden, const std::string& rendered) {
  if (std::getenv("NSYS_AI_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << rendered;
  EXPECT_EQ(rendered, ReadFile(golden)) << "golden " << golden;
}

class SourceMapping : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    auto set = ws_.OpenSourceSet();
    ASSERT_TRUE(set.ok()) << set.error().message;
    set_ = *set;
  }
  std::string Open(const std::string& fixture) {
    auto opened = ws_.Open(Fixture(fixture));
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message);
    return opened.ok() ? opened->id : "";
  }
  void Index(const fs::path& root) {
    auto stats = ws_.IndexSources(set_, {root.string()});
    ASSERT_TRUE(stats.ok()) << stats.error().message;
    ASSERT_TRUE(stats->warnings.empty()) << stats->warnings.front();
  }
  std::vector<core::SourceLens> Lenses(const std::string& profile, const fs::path& file) {
    auto lenses = ws_.SourceLenses({set_, profile, file.string()});
    EXPECT_TRUE(lenses.ok()) << (lenses.ok() ? "" : lenses.error().message);
    return lenses.ok() ? *lenses : std::vector<core::SourceLens>{};
  }
  std::vector<core::SourceFileDiagnostics> Diagnostics(const std::string& profile, const fs::path& file) {
    auto d = ws_.SourceDiagnostics({set_, profile, file.string()});
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
    return d.ok() ? *d : std::vector<core::SourceFileDiagnostics>{};
  }
  void ExpectGoldens(const std::string& profile, const std::string& rel) {
    const fs::path file = kData / rel;
    ExpectGolden(file.string() + ".lenses.golden", Render(Lenses(profile, file)));
    ExpectGolden(file.string() + ".diagnostics.golden", Render(Diagnostics(profile, file)));
  }

  core::Workspace ws_{Hermetic()};
  std::string set_;
};

// The real pair. Calls and wall time per range from sqlite3:
//   SELECT s.value, count(*), sum(e.end-e.start), max(e.end-e.start) FROM NVTX_EVENTS e
//   JOIN StringIds s ON s.id = e.textId WHERE e.eventType = 59 GROUP BY 1;
// reader 188 270222955 4517559 · 3D_backbone 188 3009.1 ms · find_centers 188 2155724660 · poolformer_forward 188
// 117437461 · bbox_head 188 401988590 · post_processing 188 1000147404 (the README's table).
TEST_F(SourceMapping, RealPairLensesLandOnTheAnnotatedLinesWithCallsAndWallTime) {
  if (!fs::exists(RealPair())) GTEST_SKIP() << RealPair() << " is absent";
  const auto started = std::chrono::steady_clock::now();
  Index(RealPair());
  const std::string p = Open("titanrtx_tensorrt_nvtx.sqlite");
  const fs::path file = RealPair() / "tools" / "eval_models.py";
  const auto lenses = Lenses(p, file);
  const double first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::printf("real pair: index + open + first lens %.1f ms\n", first_ms);
  ASSERT_EQ(lenses.size(), 6u) << Render(lenses);
  struct Want {
    int line;  // 1-based, the README's
    const char* name;
    const char* title;
  };
  const Want want[] = {
      {148, "reader", "188 calls · 270 ms wall · no kernel data"},
      {151, "3D_backbone", "188 calls · 3009 ms wall · no kernel data"},
      {167, "find_centers", "188 calls · 2156 ms wall · no kernel data"},
      {193, "poolformer_forward", "188 calls · 117 ms wall · no kernel data"},
      {199, "bbox_head", "188 calls · 402 ms wall · no kernel data"},
      {205, "post_processing", "188 calls · 1000 ms wall · no kernel data"},
  };
  for (size_t i = 0; i < lenses.size(); ++i) {
    SCOPED_TRACE(want[i].name);
    EXPECT_EQ(lenses[i].span.line + 1, want[i].line);
    EXPECT_EQ(lenses[i].name, want[i].name);
    EXPECT_EQ(lenses[i].title, want[i].title);
    EXPECT_TRUE(lenses[i].ran);
    EXPECT_EQ(lenses[i].range, want[i].name);
    EXPECT_EQ(lenses[i].profile_id, p);
  }
  // reader's longest instance: SELECT start, end FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId
  //   WHERE s.value = 'reader' ORDER BY e.end - e.start DESC LIMIT 1;  (4517559 ns long)
  EXPECT_EQ(lenses[0].end_ns - lenses[0].start_ns, 4517559);
  // No kernel table: nothing to refine, and every name ran.
  EXPECT_EQ(Render(Diagnostics(p, file)), "");
  auto hover = ws_.SourceHoverAt({set_, p, file.string()}, 147, 33);
  ASSERT_TRUE(hover.ok() && hover->has_value());
  EXPECT_NE((*hover)->markdown.find("188 calls on 1 thread · 270 ms wall (longest 4.5 ms)"), std::string::npos)
      << (*hover)->markdown;
  EXPECT_NE((*hover)->markdown.find("No kernel data: this profile has no CUDA kernel table"), std::string::npos);
  EXPECT_FALSE(ws_.SourceHoverAt({set_, p, file.string()}, 147, 5)->has_value());  // `with`, not the name
}

TEST_F(SourceMapping, NvfuserScopesInCppMatchTheirRanges) {
  Index(kData / "cpp");
  const std::string p = Open("h200_nvfuser_nvtx.sqlite");
  ExpectGoldens(p, "cpp/executor.cpp");
  const auto lenses = Lenses(p, kData / "cpp" / "executor.cpp");
  auto find = [&](const std::string& name) {
    return std::find_if(lenses.begin(), lenses.end(), [&](const auto& l) { return l.name == name; });
  };
  // ExecutorRunFusion::cuLaunchKernel: 6 instances, 154899 ns in all (sqlite3 over NVTX_EVENTS as above); each
  // launches one kernel (the nvtx_range_kernels row: kernels 6, max 1 per call, innermost).
  auto launch = find("ExecutorRunFusion::cuLaunchKernel");
  ASSERT_NE(launch, lenses.end());
  EXPECT_EQ(launch->title.rfind("6 calls · 155 µs · 1 kernel/call · ", 0), 0u) << launch->title;
  // A project macro's call whose literal is no range name gets no lens; a range name that never ran does.
  EXPECT_EQ(find("FusionKernelRuntime::runWithInputs ran"), lenses.end());
  auto never = find("KernelExecutor::neverLaunched");
  ASSERT_NE(never, lenses.end());
  EXPECT_EQ(never->title, "not in this profile");
  EXPECT_FALSE(never->ran);
  // NVTX3_FUNC_RANGE() is named by its function: generateCudaKernel, 6 calls in the profile.
  auto func = find("generateCudaKernel");
  ASSERT_NE(func, lenses.end());
  EXPECT_EQ(func->title.rfind("6 calls · ", 0), 0u) << func->title;
}

TEST_F(SourceMapping, CudaHostCodeMatchesTheSameRanges) {
  Index(kData / "cuda");
  ExpectGoldens(Open("h200_nvfuser_nvtx.sqlite"), "cuda/launch.cu");
}

TEST_F(SourceMapping, PytorchOperatorNamesMatchTheirRangesWithoutSeqNumbers) {
  Index(kData / "python");
  const std::string p = Open("mfu_2gpu_after.sqlite");
  ExpectGoldens(p, "python/pytorch_ops.py");
  const auto lenses = Lenses(p, kData / "python" / "pytorch_ops.py");
  auto find = [&](const std::string& name) {
    return std::find_if(lenses.begin(), lenses.end(), [&](const auto& l) { return l.name == name; });
  };
  // flash_attn::_flash_attn_forward: 60 ranges, 8444142 ns; 60 kernels inside, 240755667 ns (sqlite3: the pairs
  // view of tests/skills/golden_nvtx_range_kernels_test.cpp, text LIKE 'flash_attn::_flash_attn_forward%').
  auto flash = find("flash_attn::_flash_attn_forward");
  ASSERT_NE(flash, lenses.end());
  EXPECT_EQ(flash->title, "60 calls · 8.4 ms · 1 kernel/call · 241 ms GPU");
  // aten::cat: 90 instances, 5090206 ns: the 60 "aten::cat, op_id = N" ranges (op ids grouped) and the 30
  // "aten::cat, seq = N" ones (sqlite3: count(*), sum(end - start) of NVTX_EVENTS whose text is 'aten::cat' or
  // begins 'aten::cat, op_id' or 'aten::cat, seq = ').
  auto cat = find("aten::cat");
  ASSERT_NE(cat, lenses.end());
  EXPECT_EQ(cat->title.rfind("90 calls · 5.1 ms · ", 0), 0u) << cat->title;
  // ncclSend is in NCCL's own domain (domainId 1): matched by its text.
  auto send = find("ncclSend");
  ASSERT_NE(send, lenses.end());
  EXPECT_EQ(send->title.rfind("120 calls · 278 µs", 0), 0u) << send->title;
  // An f-string matches every "aten::_to_copy, seq = N" range by its literal prefix and says so.
  // 1474 ranges, 45400874 ns (sqlite3: text LIKE 'aten::_to_copy, seq = %').
  auto to_copy = find("aten::_to_copy, seq = ");
  ASSERT_NE(to_copy, lenses.end());
  EXPECT_EQ(to_copy->title.rfind("1474 calls · 45.4 ms · ", 0), 0u) << to_copy->title;
  EXPECT_NE(to_copy->title.find("(prefix)"), std::string::npos) << to_copy->title;
  // log_scope("aten::view") is a candidate call whose literal is a range name: it gets a lens;
  // log_scope("not a range name") gets none.
  EXPECT_EQ(find("not a range name"), lenses.end());
  // aten::view: 1204 ranges (op_id and seq variants), 4874505 ns, no kernels.
  auto view = find("aten::view");
  ASSERT_NE(view, lenses.end());
  EXPECT_EQ(view->title, "1204 calls · 4.9 ms · no kernels");
  EXPECT_EQ(find("optimizer.step")->title, "not in this profile");
}

TEST_F(SourceMapping, JuliaAgainstAProfileWithoutNvtxSaysSo) {
  Index(kData / "julia");
  ExpectGoldens(Open("v100_julia.sqlite"), "julia/solver.jl");
}

TEST_F(SourceMapping, KernelSourcesAreTheInnermostAnnotatedRanges) {
  Index(kData / "cpp");
  Index(kData / "cuda");
  const std::string p = Open("h200_nvfuser_nvtx.sqlite");
  auto table = core::WorkspaceTestAccess::Figures(ws_, p);
  ASSERT_TRUE(table.ok()) << table.error().message;
  const core::RangeFigures& launch = (*table)->ranges[(*table)->Find("ExecutorRunFusion::cuLaunchKernel")->front()];
  ASSERT_EQ(launch.kernel_list.size(), 6u);  // 6 kernels, each its own
  const std::string kernel = launch.kernel_list.front().kernel;
  auto sources = ws_.KernelSourcesOf(set_, p, kernel);
  ASSERT_TRUE(sources.ok()) << sources.error().message;
  // Launched inside ExecutorRunFusion::cuLaunchKernel (innermost), which both files annotate.
  ASSERT_EQ(sources->locations.size(), 2u);
  for (const auto& l : sources->locations) {
    EXPECT_EQ(l.name, "ExecutorRunFusion::cuLaunchKernel");
    EXPECT_DOUBLE_EQ(l.share, 1.0);
    EXPECT_EQ(l.calls, sources->calls);
    EXPECT_EQ(l.gpu_ns, sources->gpu_ns);
  }
  EXPECT_EQ(ws_.KernelSourcesOf(set_, p, "no_such_kernel").error().kind, ErrorKind::kNotFound);
  // The explanation ends with the links.
  auto explained = ws_.ExplainKernelWithSources(p, kernel, set_);
  ASSERT_TRUE(explained.ok()) << explained.error().message;
  EXPECT_NE(explained->markdown.find("**In your source**"), std::string::npos);
  EXPECT_NE(explained->markdown.find("executor.cpp:17 · 100.0% of its GPU time"), std::string::npos)
      << explained->markdown;
}

// The lens's wording when every call of an innermost range launches the same number of kernels. No fixture has
// such a range with more than one kernel, so a copy of h200_nvfuser_nvtx.sqlite keeps only the one instance of
// 'KernelExecutor::runFusion::intermediates' that launches kernels (sqlite3: of its 6 instances, rowid 9266 holds
// both launches of the range's 2 kernels, of one kind; rowids 9198 9216 9239 13480 13505 launch none).
TEST_F(SourceMapping, ARangeWhoseEveryCallLaunchesTheSameKernelsSaysHowManyOfHowManyKinds) {
  const fs::path dir = fs::temp_directory_path() / ("nsys_ai_uniform_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path copy = dir / "h200_one_intermediates.sqlite";
  fs::copy_file(Fixture("h200_nvfuser_nvtx.sqlite"), copy, fs::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, "DELETE FROM NVTX_EVENTS WHERE rowid IN (9198, 9216, 9239, 13480, 13505)", nullptr,
                         nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  EXPECT_EQ(sqlite3_changes(db), 5);
  sqlite3_close(db);
  Index(kData / "cpp");
  const std::string p = Open(copy.string());
  const fs::path file = kData / "cpp" / "executor.cpp";
  EXPECT_EQ(Render(Diagnostics(p, file)),
            "L12:21 nvtx-refine launches 2 kernels of 1 kind per call: add finer ranges\n"
            "L38:17 nvtx-not-run 'KernelExecutor::neverLaunched' did not run in this profile\n");
  const auto lenses = Lenses(p, file);
  auto it = std::find_if(lenses.begin(), lenses.end(),
                         [](const auto& l) { return l.name == "KernelExecutor::runFusion::intermediates"; });
  ASSERT_NE(it, lenses.end());
  EXPECT_EQ(it->title.rfind("1 call · ", 0), 0u) << it->title;
  EXPECT_NE(it->title.find(" · 2 kernels/call · "), std::string::npos) << it->title;
  ASSERT_TRUE(ws_.Close(p).ok());
  fs::remove_all(dir);
}

TEST_F(SourceMapping, BuffersOverrideTheDiskUntilClosed) {
  Index(kData / "python");
  const std::string p = Open("mfu_2gpu_after.sqlite");
  const fs::path file = kData / "python" / "pytorch_ops.py";
  const size_t on_disk = Lenses(p, file).size();
  ASSERT_GT(on_disk, 2u);
  ASSERT_TRUE(ws_.SetSourceText(set_, file.string(), "with nvtx.annotate(\"aten::cat\"):\n    pass\n").ok());
  auto lenses = Lenses(p, file);
  ASSERT_EQ(lenses.size(), 1u);
  EXPECT_EQ(lenses[0].span.line, 0);
  ASSERT_TRUE(ws_.CloseSourceText(set_, file.string()).ok());
  EXPECT_EQ(Lenses(p, file).size(), on_disk);
  ASSERT_TRUE(ws_.RemoveSource(set_, file.string()).ok());
  EXPECT_TRUE(Lenses(p, file).empty());
  ASSERT_TRUE(ws_.RefreshSource(set_, file.string()).ok());
  EXPECT_EQ(Lenses(p, file).size(), on_disk);
  // Files of no known language are not indexed; unknown sets are kNotFound; closing one forgets it.
  EXPECT_TRUE(ws_.SetSourceText(set_, "/tmp/notes.txt", "nvtx.annotate(\"aten::cat\")").ok());
  EXPECT_TRUE(ws_.SourceAnnotations(set_, "/tmp/notes.txt")->empty());
  EXPECT_EQ(ws_.SourceLenses({"s999", p, file.string()}).error().kind, ErrorKind::kNotFound);
  ws_.CloseSourceSet(set_);
  EXPECT_EQ(ws_.SourceFiles(set_).error().kind, ErrorKind::kNotFound);
}

TEST_F(SourceMapping, SourceSetsAreBounded) {
  std::vector<std::string> ids{set_};
  while (ids.size() < core::kMaxSourceSets) ids.push_back(*ws_.OpenSourceSet());
  auto refused = ws_.OpenSourceSet();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kLimitExceeded);
  ws_.CloseSourceSet(ids.back());
  EXPECT_TRUE(ws_.OpenSourceSet().ok());
}

// The latency target: a file with 200 ranges gets its lenses in <= 20 ms once the profile's figures are computed.
TEST_F(SourceMapping, LensesOfAFileWith200RangesTakeUnder20Ms) {
  const std::string p = Open("h200_nvfuser_nvtx.sqlite");
  auto table = core::WorkspaceTestAccess::Figures(ws_, p);
  ASSERT_TRUE(table.ok()) << table.error().message;
  std::vector<std::string> names;
  for (const auto& r : (*table)->ranges) {
    if (r.name.find_first_of("\"\\{}") == std::string::npos) names.push_back(r.name);
  }
  ASSERT_GT(names.size(), 150u);
  std::string text = "import nvtx\n\n\ndef step():\n";
  for (int i = 0; i < 200; ++i) {
    const std::string name =
        i % 10 == 9 ? "never_ran_" + std::to_string(i) : names[static_cast<size_t>(i) % names.size()];
    text += "    with nvtx.annotate(\"" + name + "\"):\n        work(" + std::to_string(i) + ")\n";
  }
  const std::string file = "/nonexistent/bench/step.py";
  ASSERT_TRUE(ws_.SetSourceText(set_, file, text).ok());
  std::vector<double> ms;
  for (int run = 0; run < 20; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    auto lenses = ws_.SourceLenses({set_, p, file});
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ASSERT_TRUE(lenses.ok());
    ASSERT_EQ(lenses->size(), 200u);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("lenses for 200 ranges: median %.3f ms, max %.3f ms\n", ms[ms.size() / 2], ms.back());
  EXPECT_LE(ms[ms.size() / 2], 20.0);
}

}  // namespace
}  // namespace nsys::testing
