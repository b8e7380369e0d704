// support/path_text.h: the one JSON form of a path on every face, and what messages quote of their input.
#include "nsys/support/path_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace nsys::support {
namespace {

TEST(PathText, ValidUtf8IsTheShortestFormOfAScalarValue) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("/tmp/profile.sqlite"));
  EXPECT_TRUE(IsValidUtf8("/tmp/\xC3\xA9t\xC3\xA9/\xE2\x82\xAC/\xF0\x9F\x98\x80"));  // é, €, U+1F600
  EXPECT_FALSE(IsValidUtf8("/tmp/prof\xFF.sqlite"));
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // a surrogate (U+D800)
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));          // cut short
  EXPECT_FALSE(IsValidUtf8("\x80"));              // a lone continuation byte
}

TEST(PathText, AValidPathIsItselfAndAnyOtherPathItsUriAndBothComeBack) {
  EXPECT_EQ(PathToText("/tmp/a b/\xC3\xA9.sqlite"), "/tmp/a b/\xC3\xA9.sqlite");
  EXPECT_EQ(PathToText("/tmp/prof\xFF.sqlite"), "file:///tmp/prof%FF.sqlite");
  // A path that would read as a URI is sent as one, so that it comes back as itself.
  EXPECT_EQ(PathToText("file:x"), PathToText(std::filesystem::current_path().string() + "/file:x"));
  EXPECT_EQ(PathToText("/tmp/100%/x y"), "/tmp/100%/x y");
  for (const std::string path : {std::string("/tmp/prof\xFF.sqlite"), std::string("/a/%41%/\x01\x7F\x80\xFE"),
                                 std::string("/tmp/plain.sqlite"), std::string("/tmp/\xE2\x82\xAC \xC3\xA9")}) {
    EXPECT_EQ(PathFromText(PathToText(path)), path);
    const std::string text = PathToText(path);
    EXPECT_TRUE(IsValidUtf8(text)) << text;
  }
  // Relative: made absolute, the same file.
  const std::string relative = "run\xFF/r0.sqlite";
  EXPECT_EQ(PathFromText(PathToText(relative)), std::filesystem::absolute(relative).string());
  // Client forms: a host part is dropped; a stray % stays.
  EXPECT_EQ(PathFromText("file://localhost/tmp/a%20b"), "/tmp/a b");
  EXPECT_EQ(PathFromText("file:///tmp/100%"), "/tmp/100%");
  EXPECT_EQ(PathFromText("/tmp/file:///x"), "/tmp/file:///x");
}

TEST(PathText, MessagesQuoteValidUtf8AndAtMostTheBound) {
  EXPECT_EQ(DisplayText("prof\xFF.sqlite"), "prof\\xFF.sqlite");
  EXPECT_EQ(DisplayText("\xC3\xA9\xC3"), "\xC3\xA9\\xC3");
  EXPECT_EQ(QuoteInput("short"), "short");
  const std::string huge(20 << 20, 'a');
  const std::string quoted = QuoteInput(huge);
  EXPECT_EQ(quoted, std::string(256, 'a') + "\u2026 (20971520 bytes)");
  // Never cut inside a character: 255 ASCII bytes then é (2 bytes) straddles the bound.
  const std::string straddle = std::string(255, 'a') + "\xC3\xA9" + std::string(10, 'b');
  EXPECT_EQ(QuoteInput(straddle), std::string(255, 'a') + "\u2026 (267 bytes)");
  EXPECT_TRUE(IsValidUtf8(QuoteInput(std::string(300, '\xFF'))));
  EXPECT_LT(QuoteInput(std::string(300, '\xFF')).size(), 256u * 4 + 32);
}

}  // namespace
}  // namespace nsys::support
