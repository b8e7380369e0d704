// The real pair: EfficientCenterFormer's eval_models.py, whose nvtx.annotate ranges produced
// titanrtx_tensorrt_nvtx.sqlite (see ../shared/fixtures/sources/README.md). The names, lines (0-based here; the
// README's table is 1-based), enclosing function and with-bodies below were read off the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "nsys/source/annotation_index.h"
#include "nsys/source/scanner.h"
#include "source/source_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using source::Annotation;

const fs::path kSources = fs::path(NSYS_AI_FIXTURES_DIR) / "sources" / "efficientcenterformer";

struct ExpectedRange {
  const char* name;
  int line;  // 0-based
  int column;
  int body_first;
  int body_last;
};
// `with nvtx.annotate("reader"):` is line 148 (1-based) at 12 spaces of indent; the literal starts after
// "with nvtx.annotate(" (19 characters).
const ExpectedRange kRanges[] = {
    {"reader", 147, 31, 148, 148},       {"3D_backbone", 150, 31, 151, 161},
    {"find_centers", 166, 35, 167, 190}, {"poolformer_forward", 192, 35, 193, 196},
    {"bbox_head", 198, 31, 199, 202},    {"post_processing", 204, 31, 205, 208},
};

std::vector<Annotation> Ranges(const std::vector<Annotation>& all) {
  std::vector<Annotation> out;
  for (const auto& a : all) {
    if (a.kind != source::Kind::kCandidate) out.push_back(a);
  }
  return out;
}

TEST(FixtureSource, EvalModelsRangesAreFoundOnTheirLines) {
  const fs::path file = kSources / "tools" / "eval_models.py";
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent";
  const auto ranges = Ranges(source::ScanSource(ReadText(file), source::Language::kPython, file.string()));
  ASSERT_EQ(ranges.size(), std::size(kRanges));
  for (size_t i = 0; i < ranges.size(); ++i) {
    const Annotation& a = ranges[i];
    SCOPED_TRACE(kRanges[i].name);
    EXPECT_EQ(a.name, kRanges[i].name);
    EXPECT_EQ(a.line, kRanges[i].line);
    EXPECT_EQ(a.column, kRanges[i].column);
    EXPECT_EQ(a.end_column, kRanges[i].column + static_cast<int>(a.name.size()) + 2);
    EXPECT_EQ(a.api, source::Api::kNvtxAnnotate);
    EXPECT_EQ(a.kind, source::Kind::kContextManager);
    EXPECT_FALSE(a.prefix_only);
    EXPECT_EQ(a.callee, "nvtx.annotate");
    EXPECT_EQ(a.function, "main");
    EXPECT_EQ(a.function_span.first, 36);  // def main(): line 37
    EXPECT_EQ(a.function_span.last, 242);  // its last statement, line 243
    EXPECT_EQ(a.body.first, kRanges[i].body_first);
    EXPECT_EQ(a.body.last, kRanges[i].body_last);
  }
}

TEST(FixtureSource, TheIndexOfTheFolderFindsThemByName) {
  if (!fs::exists(kSources)) GTEST_SKIP() << kSources << " is absent";
  source::AnnotationIndex index;
  const auto stats = index.AddRoot(kSources.string(), CancelToken());
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->files, 1u);  // tools/eval_models.py; LICENSE and README are not source
  for (const auto& r : kRanges) {
    const auto found = index.FindByName(r.name);
    ASSERT_EQ(found.size(), 1u) << r.name;
    EXPECT_EQ(found[0].line, r.line);
    EXPECT_EQ(found[0].file, source::NormalPath((kSources / "tools" / "eval_models.py").string()));
  }
  EXPECT_TRUE(index.FindByName("poolformer").empty());  // a prefix of a full name is not a match
}

}  // namespace
}  // namespace nsys::testing
