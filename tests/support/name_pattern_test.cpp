// The name pattern: a part of a name, any case, '*' any run; and its cost on hostile input (no backtracking beyond the
// last '*').
#include "nsys/support/name_pattern.h"

#include <gtest/gtest.h>

#include <string>

namespace nsys {
namespace {

TEST(NamePattern, APartOfANameAnyCaseWithStars) {
  EXPECT_TRUE(NamePatternMatches("layer_3_computation", "layer_*_computation"));
  EXPECT_TRUE(NamePatternMatches("ensure_layer_12_computation_v2", "LAYER_*_COMPUTATION"));
  EXPECT_TRUE(NamePatternMatches("layer__computation", "layer_*_computation"));  // '*' matches no character too
  EXPECT_FALSE(NamePatternMatches("layer_3_weights", "layer_*_computation"));
  EXPECT_TRUE(NamePatternMatches("ampere_sgemm_128x64_nn", "sgemm"));  // no '*': a plain substring
  EXPECT_FALSE(NamePatternMatches("sgem", "sgemm"));
  EXPECT_TRUE(NamePatternMatches("anything", ""));
  EXPECT_TRUE(NamePatternMatches("a_b_c_d", "a*c*d"));
  EXPECT_FALSE(NamePatternMatches("a_b_c", "a*d"));
  EXPECT_TRUE(IsNamePattern("layer_*"));
  EXPECT_FALSE(IsNamePattern("layer_0"));
}

// '|' separates alternatives, any of which may match: two kernels summed ("nchwToNhwc|nhwcToNchw"); an empty
// alternative matches nothing, each alternative keeps its stars.
TEST(NamePattern, AlternativesAnyOfWhichMayMatch) {
  EXPECT_TRUE(NamePatternMatches("void cudnn::nchwToNhwcKernel<float>", "nchwToNhwc|nhwcToNchw"));
  EXPECT_TRUE(NamePatternMatches("void cudnn::nhwcToNchwKernel<float>", "nchwToNhwc|nhwcToNchw"));
  EXPECT_FALSE(NamePatternMatches("sgemm_128x64", "nchwToNhwc|nhwcToNchw"));
  EXPECT_FALSE(NamePatternMatches("anything", "|"));
  EXPECT_TRUE(NamePatternMatches("layer_3_computation", "attention|layer_*_comp"));
  EXPECT_TRUE(IsNamePattern("a|b"));
  // Many alternatives against a long name: each once.
  std::string many;
  for (int i = 0; i < 500; ++i) many += "a*a*b|";
  EXPECT_FALSE(NamePatternMatches(std::string(5000, 'a'), many));
}

// A pattern built to make a backtracking matcher explode ("a*a*...a*b" against 20,000 a's: a recursive matcher tries
// every split, about 20,000^200 of them) is answered, because this one goes back only to the last '*'.
TEST(NamePattern, AHostilePatternIsAnsweredWithoutExploring) {
  const std::string name(20000, 'a');
  std::string pattern;
  for (int i = 0; i < 200; ++i) pattern += "a*";
  EXPECT_FALSE(NamePatternMatches(name, pattern + "b"));
  EXPECT_TRUE(NamePatternMatches(name + "b", pattern + "b"));
}

}  // namespace
}  // namespace nsys
