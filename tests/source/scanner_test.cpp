// The scanners on small sources of every language (tests/source/data/): each file's annotations, rendered one per
// line, must equal its golden file (NSYS_AI_UPDATE_GOLDEN=1 rewrites them; review the diff). Traps (names in
// comments, docstrings, strings, raw strings, #if 0) must not appear.
#include "nsys/source/scanner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ios>
#include <set>
#include <string>
#include <vector>

#include "source/source_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using source::Annotation;
using source::Api;
using source::Kind;

const fs::path kData = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data";

std::vector<Annotation> ScanFile(const fs::path& path) {
  const std::string text = ReadText(path);
  EXPECT_FALSE(text.empty()) << path;
  return source::ScanSource(text, source::LanguageOfPath(path.string()), path.filename().string());
}

void ExpectGolden(const std::string& rel) {
  const fs::path path = kData / rel;
  std::string rendered;
  for (const auto& a : ScanFile(path)) rendered += Render(a) + "\n";
  const fs::path golden = path.string() + ".golden";
  if (std::getenv("NSYS_AI_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << rendered;
  EXPECT_EQ(rendered, ReadText(golden)) << "golden " << golden;
}

std::set<std::string> Names(const std::vector<Annotation>& all, bool candidates) {
  std::set<std::string> out;
  for (const auto& a : all) {
    if ((a.kind == Kind::kCandidate) == candidates) out.insert(a.name);
  }
  return out;
}

const Annotation* Find(const std::vector<Annotation>& all, const std::string& name) {
  for (const auto& a : all) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

TEST(Scanner, PythonGolden) {
  ExpectGolden("python/train.py");
}
TEST(Scanner, CppGolden) {
  ExpectGolden("cpp/engine.cpp");
}
TEST(Scanner, CudaGolden) {
  ExpectGolden("cuda/kernels.cu");
}
TEST(Scanner, JuliaGolden) {
  ExpectGolden("julia/model.jl");
}

TEST(Scanner, PythonFindsEveryFormAndNoTrap) {
  const auto all = ScanFile(kData / "python/train.py");
  EXPECT_EQ(Names(all, false),
            (std::set<std::string>{"train_step", "forward", "backward", "evaluate", "eval_loop", "eval_step ", "epoch ",
                                   "optimizer", "zero_grad", "data", "multi_", "fmt ", "async_serve", "bare_push"}));
  for (const char* trap :
       {"not_a_range", "commented_out", "in_a_string", "docstring_push", "after_raw", "inside_triple"}) {
    EXPECT_EQ(Find(all, trap), nullptr) << trap;
  }
  const Annotation* step = Find(all, "train_step");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->kind, Kind::kDecorator);
  EXPECT_EQ(step->function, "train_step");
  EXPECT_EQ(step->body.first, 13);  // the decorated def, 0-based
  EXPECT_EQ(step->body.last, 21);
  const Annotation* eval = Find(all, "eval_step ");
  ASSERT_NE(eval, nullptr);
  EXPECT_TRUE(eval->prefix_only);
  EXPECT_EQ(eval->api, Api::kTorchNvtxRange);
  const Annotation* custom = Find(all, "custom scope");
  ASSERT_NE(custom, nullptr);
  EXPECT_EQ(custom->kind, Kind::kCandidate);
  EXPECT_EQ(custom->callee, "log");
}

TEST(Scanner, CppFindsEveryFormAndNoTrap) {
  const auto all = ScanFile(kData / "cpp/engine.cpp");
  EXPECT_EQ(Names(all, false),
            (std::set<std::string>{"prepare", "prepare_wide", "construct", "Run", "async_work", "lambda_body",
                                   "trailing joined", "layer_", "raw \"quoted\" name"}));
  for (const char* trap :
       {"in_a_comment", "in_a_block_comment", "in_a_raw_string", "disabled", "not the first argument"}) {
    EXPECT_EQ(Find(all, trap), nullptr) << trap;
  }
  const Annotation* scope = Find(all, "run_kernels");
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(scope->kind, Kind::kCandidate);
  EXPECT_EQ(scope->callee, "FUSER_PERF_SCOPE");
  EXPECT_EQ(scope->function, "Run");
  const Annotation* lambda = Find(all, "lambda_body");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(lambda->function, "Run");  // a lambda's body belongs to its function
  const Annotation* layer = Find(all, "layer_");
  ASSERT_NE(layer, nullptr);
  EXPECT_TRUE(layer->prefix_only);  // "layer_" + std::to_string(i)
  EXPECT_EQ(layer->function, "Layers");
  const Annotation* construct = Find(all, "construct");
  ASSERT_NE(construct, nullptr);
  EXPECT_EQ(construct->function, "Runner");  // through the member initializer list
}

TEST(Scanner, JuliaFindsEveryFormAndNoTrap) {
  const auto all = ScanFile(kData / "julia/model.jl");
  EXPECT_EQ(Names(all, false), (std::set<std::string>{"train", "step ", "loss", "top_level"}));
  const Annotation* train = Find(all, "train");
  ASSERT_NE(train, nullptr);
  EXPECT_EQ(train->function, "train!");
  EXPECT_EQ(train->body.first, 9);
  EXPECT_EQ(train->body.last, 13);
}

TEST(Scanner, ColumnsAreUtf16) {
  // "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
  const std::string text = "x = 'é😀'; nvtx.push_range(\"é😀\")\n";
  const auto all = source::ScanSource(text, source::Language::kPython, "u.py");
  const Annotation* a = Find(all, "é😀");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->column, 27);  // x = 'é😀' is 9 units, then "; nvtx.push_range(" 18
  EXPECT_EQ(a->end_column, 32);
}

TEST(Scanner, HostileInputNeverCrashes) {
  const std::string cases[] = {"\"",
                               "'''",
                               "f\"{",
                               "R\"(",
                               "R\"abc",
                               "#if 0\n",
                               "/*",
                               "#=",
                               "@range",
                               "nvtx.annotate(",
                               "nvtxRangePushA(\"",
                               "with nvtx.annotate(\"x\"):",
                               "}}}}{{{",
                               "\\",
                               "@range \"x\" begin"};
  size_t found = 0;
  for (const auto& text : cases) {
    for (auto language : {source::Language::kPython, source::Language::kCpp, source::Language::kJulia}) {
      found += source::ScanSource(text, language, "h").size();
    }
  }
  // Only complete forms name a range: the with-statement (as Python, and as a C++ candidate call annotate("x")) and
  // Julia's `@range "x" begin` (its block never closes, so its body stays unknown).
  EXPECT_EQ(found, 3u);
  const auto with = source::ScanSource("with nvtx.annotate(\"x\"):", source::Language::kPython, "h");
  ASSERT_EQ(with.size(), 1u);
  EXPECT_EQ(with[0].body.first, 0);
}

std::string Repeat(const std::string& unit, size_t times) {
  std::string out;
  out.reserve(unit.size() * times);
  for (size_t i = 0; i < times; ++i) out += unit;
  return out;
}

TEST(Scanner, PathologicalInputsStayLinear) {
  // Each about 0.5-1 MiB; a quadratic step would take minutes. Bounded by 3 s each (sanitizer builds too).
  struct Case {
    const char* what;
    source::Language language;
    std::string text;
    size_t expected;
  };
  const Case cases[] = {
      {"unbalanced ') {'", source::Language::kCpp, "(" + Repeat(") {", 150000), 0},
      {"one long line of pushes", source::Language::kCpp, Repeat("nvtxRangePushA(\"a\"); ", 30000), 30000},
      {"a wall of decorators", source::Language::kPython, Repeat("@nvtx.annotate\n", 50000) + "def f(): pass\n",
       63},  // the 63 nearest the def
      {"nested annotate calls", source::Language::kPython, Repeat("nvtx.annotate(", 50000), 0},
      {"function function ...", source::Language::kJulia, Repeat("function ", 100000), 0},
      {"scoped_range <", source::Language::kCpp, Repeat("scoped_range < ", 100000), 0},
  };
  for (const auto& c : cases) {
    const auto start = std::chrono::steady_clock::now();
    const auto found = source::ScanSource(c.text, c.language, "p");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 3.0) << c.what;
    EXPECT_EQ(found.size(), c.expected) << c.what;
  }
}

}  // namespace
}  // namespace nsys::testing
