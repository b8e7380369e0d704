// The refinement loop's edits (server/source/edits.h) on small sources of every supported language
// (tests/source/data/edits/) and on the real EfficientCenterFormer script: each edited file must equal its golden
// file (NSYS_AI_UPDATE_GOLDEN=1 rewrites them; review the diff), and must still parse: Python through
// `python3 -m py_compile`, C++ through `g++ -fsyntax-only` against the CUDA toolkit's NVTX headers (each check is
// skipped, saying so, when its tool is absent). Julia is not supported by the edits (kUnsupported).
#include "nsys/source/edits.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "nsys/source/scanner.h"
#include "source/source_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using source::Annotation;

const fs::path kEditsData = fs::path(NSYS_AI_TEST_DATA_DIR) / "source" / "data" / "edits";
const fs::path kEvalModels =
    fs::path(NSYS_AI_FIXTURES_DIR) / "sources" / "efficientcenterformer" / "tools" / "eval_models.py";

Annotation FindRange(const std::string& text, source::Language language, const std::string& name) {
  for (const auto& a : source::ScanSource(text, language, "f")) {
    if (a.name == name) return a;
  }
  ADD_FAILURE() << "no range named " << name;
  return {};
}

bool HavePython() {
  return std::system("python3 --version > /dev/null 2>&1") == 0;
}

// The NVTX headers of an installed CUDA toolkit, or "" when none is installed.
std::string NvtxInclude() {
  for (const char* dir : {"/usr/local/cuda/include", "/usr/local/cuda-13.0/include", "/usr/local/cuda-12.0/include"}) {
    if (fs::exists(fs::path(dir) / "nvtx3" / "nvtx3.hpp")) return dir;
  }
  return {};
}

// Whether `text` still parses as `language`; skips (returns true) when the checker is absent.
void ExpectParses(const std::string& text, source::Language language, const std::string& what) {
  TempTree tree;
  if (language == source::Language::kPython) {
    if (!HavePython()) {
      std::cout << "python3 is absent: " << what << " was not compiled\n";
      return;
    }
    const fs::path file = tree.Write("edited.py", text);
    const std::string cmd = "python3 -m py_compile '" + file.string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << what << " does not compile:\n" << text;
  } else if (language == source::Language::kCpp) {
    const std::string include = NvtxInclude();
    if (include.empty() || std::system("g++ --version > /dev/null 2>&1") != 0) {
      std::cout << "g++ or the NVTX headers are absent: " << what << " was not compiled\n";
      return;
    }
    const fs::path file = tree.Write("edited.cpp", text);
    const std::string cmd = "g++ -std=c++17 -fsyntax-only -I'" + include + "' '" + file.string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << what << " does not compile:\n" << text;
  }
}

// The golden of one edit: the edited file, then one line per nested range ("line name", 1-based).
void ExpectGolden(const std::string& edited, const source::SourceEdit& edit, const fs::path& golden) {
  std::string rendered = edited + "----\n" + edit.title + "\n";
  for (const auto& r : edit.ranges)
    rendered += std::to_string(r.line + 1) + "-" + std::to_string(r.end_line + 1) + " " + r.name + "\n";
  if (std::getenv("NSYS_AI_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << rendered;
  EXPECT_EQ(rendered, ReadText(golden)) << "golden " << golden;
}

void CheckRefine(const std::string& file, const std::string& range) {
  SCOPED_TRACE(file + " " + range);
  const fs::path path = kEditsData / file;
  const std::string text = ReadText(path);
  const auto language = source::LanguageOfPath(path.string());
  ExpectParses(text, language, file);  // the input itself parses
  auto edit = source::RefineRangeEdit(text, language, FindRange(text, language, range));
  ASSERT_TRUE(edit.ok()) << edit.error().message;
  auto edited = source::ApplyEdits(text, edit->edits);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  ExpectGolden(*edited, *edit, kEditsData / (file + "." + range + ".golden"));
  ExpectParses(*edited, language, file + " refined inside " + range);
}

void CheckAnnotate(const std::string& file, int line, const std::string& golden_name) {
  SCOPED_TRACE(file + " line " + std::to_string(line));
  const fs::path path = kEditsData / file;
  const std::string text = ReadText(path);
  const auto language = source::LanguageOfPath(path.string());
  auto edit = source::AnnotateFunctionEdit(text, language, line);
  ASSERT_TRUE(edit.ok()) << edit.error().message;
  auto edited = source::ApplyEdits(text, edit->edits);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  ExpectGolden(*edited, *edit, kEditsData / (file + "." + golden_name + ".golden"));
  ExpectParses(*edited, language, file + " with " + golden_name + " annotated");
}

// Python: a decorated function (docstring kept, multi-line call re-indented, return wrapped).
TEST(Edits, PythonDecoratedFunction) {
  CheckRefine("model.py", "train_step");
}
// A lone `for` is descended into; comments, a string with colons, a triple-quoted string (left as written), nested
// if/else.
TEST(Edits, PythonLoopBodyWithStringsAndNestedBlocks) {
  CheckRefine("model.py", "evaluate");
}
// Repeated callees get their line; an operator statement is named by its target; assignments of constants and
// `del` are left alone; two statements on one line stay together.
TEST(Edits, PythonRepeatedCalleesAndOperators) {
  CheckRefine("model.py", "steps");
}
// push/pop: a statement that returns is not bracketed (its pop would be skipped).
TEST(Edits, PythonTorchPushPop) {
  CheckRefine("torch_push.py", "block");
}
TEST(Edits, PythonTorchNvtxRange) {
  CheckRefine("torch_push.py", "decode");
}
// A project's own scope used in a `with` is reused for the nested ranges.
TEST(Edits, PythonProjectScope) {
  CheckRefine("scope_macro.py", "forward");
}
TEST(Edits, PythonAnnotateFunctionUsesTheFilesApi) {
  CheckAnnotate("torch_push.py", 23, "unannotated");  // inside `def unannotated` (0-based line 23)
}
TEST(Edits, PythonAnnotateFunctionAddsTheImport) {
  CheckAnnotate("scope_macro.py", 12, "plain");
}
TEST(Edits, PythonAnnotatedFunctionIsRefused) {
  const std::string text = ReadText(kEditsData / "model.py");
  auto edit = source::AnnotateFunctionEdit(text, source::Language::kPython, 9);  // inside train_step
  ASSERT_FALSE(edit.ok());
  EXPECT_EQ(edit.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(edit.error().message.find("train_step"), std::string::npos) << edit.error().message;
  EXPECT_EQ(source::AnnotateFunctionEdit(text, source::Language::kPython, 2).error().kind, ErrorKind::kNotFound);
}

// C++: scoped_range blocks; a declaration bracketed by push/pop; a statement that returns in a block; two
// statements on one line edited in place.
TEST(Edits, CppScopedRange) {
  CheckRefine("engine.cpp", "step");
}
TEST(Edits, CppPushPop) {
  CheckRefine("engine.cpp", "pushed");
}
// A project's scope macro (a candidate) opens the nested blocks; its lone inner block is descended into.
TEST(Edits, CppProjectScopeMacro) {
  CheckRefine("engine.cpp", "segment");
}
TEST(Edits, CppAnnotateFunction) {
  CheckAnnotate("engine.cpp", 43, "Plain");
}
TEST(Edits, CudaKernelLaunches) {
  CheckRefine("kernels.cu", "run");
}
TEST(Edits, CudaAnnotateOneLineFunction) {
  CheckAnnotate("kernels.cu", 14, "Host");
}

TEST(Edits, JuliaIsNotSupported) {
  const std::string text = "using NVTX\nfunction f(x)\n    NVTX.@range \"f\" begin\n        g(x)\n    end\nend\n";
  const auto range = FindRange(text, source::Language::kJulia, "f");
  EXPECT_EQ(source::RefineRangeEdit(text, source::Language::kJulia, range).error().kind, ErrorKind::kUnsupported);
  EXPECT_EQ(source::AnnotateFunctionEdit(text, source::Language::kJulia, 1).error().kind, ErrorKind::kUnsupported);
}

TEST(Edits, CrlfFilesKeepTheirLineBreaks) {
  const std::string text =
      "import nvtx\r\n\r\ndef f(m, x):\r\n    with nvtx.annotate(\"f\"):\r\n        a = m.a(x)\r\n"
      "        b = m.b(a)\r\n    return b\r\n";
  auto edit = source::RefineRangeEdit(text, source::Language::kPython, FindRange(text, source::Language::kPython, "f"));
  ASSERT_TRUE(edit.ok()) << edit.error().message;
  auto edited = source::ApplyEdits(text, edit->edits);
  ASSERT_TRUE(edited.ok());
  EXPECT_EQ(
      *edited,
      "import nvtx\r\n\r\ndef f(m, x):\r\n    with nvtx.annotate(\"f\"):\r\n        with nvtx.annotate(\"f/m.a\"):\r\n"
      "            a = m.a(x)\r\n        with nvtx.annotate(\"f/m.b\"):\r\n            b = m.b(a)\r\n    return b\r\n");
}

TEST(Edits, NamesAreEscapedInTheLiterals) {
  const std::string text = "import nvtx\nwith nvtx.annotate('say \"hi\"\\\\'):\n    a = f(1)\n    b = g(2)\n";
  auto edit = source::RefineRangeEdit(text, source::Language::kPython,
                                      FindRange(text, source::Language::kPython, "say \"hi\"\\"));
  ASSERT_TRUE(edit.ok()) << edit.error().message;
  auto edited = source::ApplyEdits(text, edit->edits);
  ASSERT_TRUE(edited.ok());
  EXPECT_NE(edited->find("with nvtx.annotate(\"say \\\"hi\\\"\\\\/f\"):"), std::string::npos) << *edited;
  ExpectParses(*edited, source::Language::kPython, "escaped names");
}

// Every range of the real script refines into a file that still compiles, with one nested range per statement
// that calls something. 3D_backbone's body is a lone if/else (after an unpacking without a call): its branches'
// statements are wrapped, five in the if branch (the comment line is kept) and one in the else branch.
TEST(Edits, EvalModelsEveryRangeRefinesAndStillCompiles) {
  if (!fs::exists(kEvalModels)) GTEST_SKIP() << kEvalModels << " is absent";
  const std::string text = ReadText(kEvalModels);
  size_t refined = 0;
  for (const auto& a : source::ScanSource(text, source::Language::kPython, kEvalModels.string())) {
    if (a.kind == source::Kind::kCandidate) continue;
    SCOPED_TRACE(a.name);
    auto edit = source::RefineRangeEdit(text, source::Language::kPython, a);
    ASSERT_TRUE(edit.ok()) << edit.error().message;
    auto edited = source::ApplyEdits(text, edit->edits);
    ASSERT_TRUE(edited.ok()) << edited.error().message;
    ExpectParses(*edited, source::Language::kPython, "eval_models.py refined inside " + a.name);
    ++refined;
    if (a.name == "3D_backbone") {
      std::vector<std::string> names;
      for (const auto& r : edit->ranges) names.push_back(std::to_string(r.line + 1) + " " + r.name);
      EXPECT_EQ(names,
                (std::vector<std::string>{"156 3D_backbone/voxels.cpu", "157 3D_backbone/coors.cpu",
                                          "158 3D_backbone/shape.tolist", "159 3D_backbone/backbone_model.forward",
                                          "160 3D_backbone/torch.from_numpy", "162 3D_backbone/model.backbone"}));
    }
  }
  EXPECT_EQ(refined, 6u);
}

}  // namespace
}  // namespace nsys::testing
