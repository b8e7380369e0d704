// The annotation index on a generated tree: 100,000 lines of Python, C++, CUDA and Julia (with comments,
// docstrings and strings), in a temporary directory. Prints the cold index time, a one-file re-index time, and
// the annotations found against the number generated. Usage: nsys-ai-index-bench [total_lines]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "nsys/source/annotation_index.h"

namespace {

namespace fs = std::filesystem;

// One unit of ~25 lines in the file's language, with `ranges` range names; appended to `out`.
std::string Unit(int lang, int n, int& ranges) {
  const std::string id = std::to_string(n);
  switch (lang) {
    case 0:
      ranges += 3;
      return "\n\n@nvtx.annotate(\"decorated_" + id + "\")\ndef step_" + id +
             "(model, batch):\n    \"\"\"Runs one step. nvtx.annotate(\"doc\") is not a range.\"\"\"\n"
             "    # with nvtx.annotate(\"commented\"):\n    with nvtx.annotate(\"forward_" +
             id +
             "\"):\n        out = model(batch)\n        loss = out.sum()\n        if loss > 0:\n"
             "            loss = loss * 2\n    torch.cuda.nvtx.range_push(f\"backward {batch}\")\n"
             "    loss.backward()\n    torch.cuda.nvtx.range_pop()\n    values = [x * 2 for x in range(10)]\n"
             "    table = {'a': 1, 'b': 2}\n    text = 'a string with (parens) and \"quotes\"'\n"
             "    for k, v in table.items():\n        print(k, v, text)\n    return loss\n\n";
    case 1:
    case 2:
      ranges += 3;
      return "\n// A comment: nvtxRangePushA(\"commented\")\nint Compute" + id +
             "(const float* x, int n) {\n  NVTX3_FUNC_RANGE();\n  nvtxRangePushA(\"compute_" + id +
             "\");\n  int total = 0;\n  for (int i = 0; i < n; ++i) {\n    total += static_cast<int>(x[i]);\n"
             "  }\n  /* block\n     comment */\n  const char* s = \"a string\";\n  {\n    nvtx3::scoped_range "
             "r{\"inner_" +
             id +
             "\"};\n    total *= 2;\n  }\n  nvtxRangePop();\n  return total + s[0];\n}\n\n"
             "struct Holder" +
             id + " {\n  int value = 0;\n  int Get() const { return value; }\n};\n";
    default:
      ranges += 2;
      return "\n# comment: NVTX.@range \"commented\"\nfunction work" + id + "(x)\n    NVTX.@range \"work_" + id +
             "\" begin\n        y = x .* 2\n        for i in 1:10\n            y[i] += 1\n        end\n    end\n"
             "    @range \"tail $x\" sum(y)\n    s = \"a string $(x)\"\n    return y'\nend\n\n"
             "#= block\n   comment =#\nstruct Point" +
             id + "\n    x::Float64\n    y::Float64\nend\n\n\n\n";
  }
}

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const int target_lines = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::string tmpl = (fs::temp_directory_path() / "nsys-index-bench-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return 1;
  const fs::path root = tmpl;
  static const char* kExt[] = {".py", ".cpp", ".cu", ".jl"};
  int lines = 0, ranges = 0, files = 0, unit = 0;
  fs::path one_file;
  while (lines < target_lines) {
    const int lang = files % 4;
    std::string text;
    while (CountLines(text) < 500) text += Unit(lang, unit++, ranges);
    const fs::path path = root / ("pkg" + std::to_string(files % 20)) / ("mod" + std::to_string(files) + kExt[lang]);
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    lines += CountLines(text);
    if (files == 0) one_file = path;
    ++files;
  }
  std::ofstream(root / ".gitignore") << "*.tmp\n/ignored/\n";
  using Clock = std::chrono::steady_clock;
  nsys::source::AnnotationIndex index;
  const auto t0 = Clock::now();
  const auto stats = index.AddRoot(root.string(), nsys::CancelToken());
  const auto t1 = Clock::now();
  if (!stats.ok()) return 1;
  size_t ranges_found = 0;
  for (const auto& f : index.Files()) {
    for (const auto& a : index.InFile(f)) ranges_found += a.kind != nsys::source::Kind::kCandidate;
  }
  std::ifstream in(one_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto t2 = Clock::now();
  index.SetText(one_file.string(), text + "\nwith nvtx.annotate(\"added\"):\n    pass\n");
  const auto t3 = Clock::now();
  const double cold_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double one_ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
  std::printf("files %d lines %d\ncold index %.1f ms (%zu files scanned, %zu annotations, %zu ranges; generated %d)\n",
              files, lines, cold_ms, stats->files, stats->annotations, ranges_found, ranges);
  std::printf("one-file re-index %.3f ms (found 'added': %zu)\n", one_ms, index.FindByName("added").size());
  std::error_code ec;
  fs::remove_all(root, ec);
  return ranges_found == static_cast<size_t>(ranges) ? 0 : 2;
}
