// The JSON shapes of protocol types (nsys/protocol/shape.h), every capability row's params and result, and the
// clients' generated declarations rendered from them (extensions/vscode/src/protocol/generated.ts, held equal to
// the rendering here: NSYS_AI_WRITE_DOCS=1 rewrites it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nsys/protocol/analyze.h"
#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/documents.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/shape.h"
#include "nsys/protocol/sources.h"

namespace nsys::protocol {
namespace {

using ShapeKind = Shape::Kind;

std::vector<std::string> MemberNames(const Shape& shape) {
  std::vector<std::string> names;
  for (const auto& member : shape.members) names.push_back(member.name);
  return names;
}

TEST(Shapes, AStructWithAFieldListIsAnObjectOfItsMembers) {
  const Shape& params = ShapeOf<AnalyzeParams>();
  EXPECT_EQ(params.kind, ShapeKind::kObject);
  EXPECT_EQ(params.name, "AnalyzeParams");
  EXPECT_EQ(*params.type, typeid(AnalyzeParams));
  ASSERT_EQ(MemberNames(params), (std::vector<std::string>{"profileId", "window"}));
  EXPECT_EQ(params.members[0].shape().kind, ShapeKind::kString);
  EXPECT_FALSE(params.members[0].omitted_when_absent);
  // std::optional<Window>: the member may be absent, its shape is the Window's own.
  EXPECT_TRUE(params.members[1].omitted_when_absent);
  EXPECT_EQ(params.members[1].shape().name, "Window");

  const Shape& result = ShapeOf<AnalyzeResult>();
  const auto& ranking = result.members[3];
  EXPECT_EQ(ranking.name, "ranking");
  EXPECT_TRUE(ranking.defaulted);  // OptionalField
  EXPECT_EQ(ranking.shape().kind, ShapeKind::kArray);
  EXPECT_EQ(ranking.shape().elements[0]().kind, ShapeKind::kString);
  EXPECT_EQ(result.members[5].shape().kind, ShapeKind::kInteger);  // rootCausesChecked
}

TEST(Shapes, HandWrittenStructsAreOpaqueUnlessTheyNameTheirJson) {
  EXPECT_EQ(ShapeOf<ProfileSummary>().kind, ShapeKind::kOpaque);
  EXPECT_EQ(ShapeOf<ProfileSummary>().name, "ProfileSummary");
  EXPECT_EQ(ShapeOf<NullResult>().kind, ShapeKind::kNull);
  const Shape& hover = ShapeOf<HoverResult>();  // a Hover or null
  ASSERT_EQ(hover.kind, ShapeKind::kUnion);
  EXPECT_EQ(hover.elements[0]().name, "Hover");
  EXPECT_EQ(hover.elements[1]().kind, ShapeKind::kNull);
  EXPECT_EQ(*hover.type, typeid(HoverResult));
  const Shape& lenses = ShapeOf<CodeLensResult>();
  ASSERT_EQ(lenses.kind, ShapeKind::kArray);
  EXPECT_EQ(lenses.elements[0]().name, "CodeLens");
  // A cell: null, a boolean, an integer, a number or a string.
  const Shape& scalar = ShapeOf<Scalar>();
  ASSERT_EQ(scalar.kind, ShapeKind::kUnion);
  ASSERT_EQ(scalar.elements.size(), 5u);
  EXPECT_EQ(scalar.elements[0]().kind, ShapeKind::kNull);
  EXPECT_EQ(scalar.elements[4]().kind, ShapeKind::kString);
}

TEST(Shapes, EveryRowGivesItsParamsAndResult) {
  for (const Capability& row : Capabilities()) {
    ASSERT_NE(row.params, nullptr) << row.method;
    ASSERT_NE(row.result, nullptr) << row.method;
  }
  const Capability* query = CapabilityOfMethod(method::kQuery);
  ASSERT_NE(query, nullptr);
  EXPECT_EQ(query->params().name, "QueryParams");
  EXPECT_EQ(query->result().name, "AskResult");
}

TEST(ClientDeclarations, TypeScriptDeclaresEveryObjectAndMethod) {
  const std::string ts = ClientDeclarationsTypeScript();
  // An object a result holds, with its members; a member the server may leave out is marked `?`.
  EXPECT_NE(
      ts.find("export interface AnalyzeResult {\n  summary: string;\n  window: string;\n  findings: Finding[];\n"),
      std::string::npos)
      << ts;
  EXPECT_NE(ts.find("  streamedFindings?: number;\n"), std::string::npos);
  // In params, a defaulted member may be left out (OptionalField).
  EXPECT_NE(ts.find("export interface Window {\n"), std::string::npos);
  EXPECT_NE(ts.find("export type ProfileSummary = unknown;\n"), std::string::npos);
  EXPECT_NE(ts.find("  'nsys/query': { params: QueryParams; result: AskResult };\n"), std::string::npos);
  EXPECT_NE(ts.find("  'textDocument/hover': { params: HoverParams; result: Hover | null };\n"), std::string::npos);
  EXPECT_NE(ts.find("  'nsys/closeProfile': { params: ProfileIdParams; result: null };\n"), std::string::npos);
  // Every object once.
  EXPECT_EQ(ts.find("export interface Finding {"), ts.rfind("export interface Finding {"));
}

std::string GeneratedPath() {
  return std::string(NSYS_AI_SOURCE_DIR) + "/extensions/vscode/src/protocol/generated.ts";
}

TEST(ClientDeclarations, TheVsCodeClientHoldsTheRendering) {
  const std::string expected = ClientDeclarationsTypeScript();
  std::ifstream in(GeneratedPath());
  std::stringstream held;
  held << in.rdbuf();
  if (std::getenv("NSYS_AI_WRITE_DOCS") && held.str() != expected) {
    std::ofstream(GeneratedPath(), std::ios::trunc) << expected;
    return;
  }
  EXPECT_EQ(held.str(), expected) << GeneratedPath() << " differs from the protocol's types: run "
                                  << "NSYS_AI_WRITE_DOCS=1 protocol_tests --gtest_filter=ClientDeclarations.*";
}

}  // namespace
}  // namespace nsys::protocol
