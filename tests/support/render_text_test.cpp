// One escaping function per target for text from a profile or a model (issue 38): Markdown text and code spans, HTML,
// the terminal. Each case is the exact output; what the Markdown renders to is checked with markdown-it itself in
// extensions/vscode/test (hostile names through the real server).
#include "nsys/support/render_text.h"

#include <gtest/gtest.h>

#include <string>

namespace nsys::support {
namespace {

const std::string kImg = "<img src=x onerror=alert(1)>";

TEST(RenderText, MarkdownTextEscapesWhatOpensMarkupAndShowsControls) {
  EXPECT_EQ(MarkdownText("gemm_128 *x*"), "gemm_128 *x*");  // emphasis changes the look only: left as it is
  EXPECT_EQ(MarkdownText(kImg), "\\<img src=x onerror=alert(1)\\>");
  EXPECT_EQ(MarkdownText("[x](y) ![i](z) [r][1] `c` a|b &lt; \\"),
            "[x\\](y) ![i\\](z) [r\\][1] \\`c\\` a\\|b \\&lt; \\\\");
  EXPECT_EQ(MarkdownText("[CUDA memcpy HtoD]"), "[CUDA memcpy HtoD]");
  EXPECT_EQ(MarkdownText("see http://e.vil/a|b and www.e.vil (https://x)"),
            "see `http://e.vil/a`\\|b and `www.e.vil` (`https://x)`");
  EXPECT_EQ(MarkdownText("two\nlines\r\n"), "two lines  ");
  EXPECT_EQ(MarkdownText("\x1b]0;title\x07 \x1b[2J"), "\\\\x1b]0;title\\\\x07 \\\\x1b[2J");
}

TEST(RenderText, CodeSpansHoldTheTextExactly) {
  EXPECT_EQ(MarkdownCode("void k<float*>(float*)"), "`void k<float*>(float*)`");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("a``b`"), "``` a``b` ```");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");
  EXPECT_EQ(MarkdownCode(" x"), "`  x `");
  EXPECT_EQ(MarkdownCode("a|b"), "`a|b`");
  EXPECT_EQ(MarkdownCode("a|b", /*in_table=*/true), "`a\\|b`");
  EXPECT_EQ(MarkdownCode("two\nlines"), "`two lines`");
  EXPECT_EQ(MarkdownCode(""), "` `");
  EXPECT_EQ(MarkdownCode("  "), "`  `");
  EXPECT_EQ(MarkdownCode("\x1b[31mred"), "`\\x1b[31mred`");
}

TEST(RenderText, AModelsMarkdownKeepsItsFormattingButNoHtmlLinkOrImage) {
  EXPECT_EQ(MarkdownFromModel("**gemm** takes *41%*:\n- a\n- `x<y>`\n"), "**gemm** takes *41%*:\n- a\n- `x<y>`\n");
  EXPECT_EQ(MarkdownFromModel(kImg + " [click](javascript:alert(1)) ![i](http://e.vil/p.png)"),
            "\\<img src=x onerror=alert(1)\\> [click\\](javascript:alert(1)) ![i\\](`http://e.vil/p.png)`");
  EXPECT_EQ(MarkdownFromModel("see https://e.vil/x or WWW.e.vil, &lt;b&gt;"),
            "see `https://e.vil/x` or `WWW.e.vil,` \\&lt;b\\&gt;");
  EXPECT_EQ(MarkdownFromModel("```\n<b>code</b>\n```\nafter <b>"), "```\n<b>code</b>\n```\nafter \\<b\\>");
  EXPECT_EQ(MarkdownFromModel("a ` lone <b>"), "a ` lone \\<b\\>");
  EXPECT_EQ(MarkdownFromModel("[x]\n\n[x]: javascript:alert(1)"), "[x]\n\n[x\\]: javascript:alert(1)");
  EXPECT_EQ(MarkdownFromModel("\x1b[2Jx"), "\\x1b[2Jx");
}

TEST(RenderText, HtmlEscapesTheFiveAndShowsControls) {
  EXPECT_EQ(HtmlText(kImg + "\"'&"), "&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;");
  EXPECT_EQ(HtmlText("a\x01"
                     "b"),
            "a\\x01b");
}

TEST(RenderText, TerminalTextLetsNoSequenceThrough) {
  // OSC 0 (title), OSC 8 (a link), CSI 2J (clear screen), CR, C1 CSI (U+009B), RLO/PDI (bidi), DEL, a stray byte.
  EXPECT_EQ(
      TerminalText("\x1b]0;owned\x07|\x1b]8;;http://e.vil\x1b\\x\x1b]8;;\x1b\\|\x1b[2J|a\rb|\xc2\x9b"
                   "31m|"
                   "\xe2\x80\xae"
                   "cba\xe2\x81\xa9|\x7f|\xff|tab\tand\nline"),
      "\\x1b]0;owned\\x07|\\x1b]8;;http://e.vil\\x1b\\x\\x1b]8;;\\x1b\\|\\x1b[2J|a\\x0db|\\u009b31m|\\u202ecba\\u2069|"
      "\\x7f|\\xff|tab\tand\nline");
  EXPECT_EQ(TerminalText("a\nb", /*keep_newlines=*/false), "a\\x0ab");
  EXPECT_EQ(TerminalText("ünïcödé 名前 ✓"), "ünïcödé 名前 ✓");  // printable text stays as it is
}

TEST(RenderText, InvalidUtf8AndOverlongFormsAreBytes) {
  EXPECT_EQ(VisibleControls("\xc0\xaf|\xed\xa0\x80|\xe2\x82", ""), "\\xc0\\xaf|\\xed\\xa0\\x80|\\xe2\\x82");
}

}  // namespace
}  // namespace nsys::support
