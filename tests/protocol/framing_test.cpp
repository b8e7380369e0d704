#include "nsys/protocol/framing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nsys::protocol {
namespace {

using Kind = Frame::Kind;

// Frames as "B:<body>" / "E:<error>" strings, so a whole decode is compared in one assertion.
std::vector<std::string> Render(const std::vector<Frame>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(f.kind == Kind::kBody ? "B:" + f.body : "E:" + f.error);
  return out;
}

std::vector<std::string> DecodeAll(std::string_view input, FramingLimits limits = {}) {
  FrameDecoder decoder(limits);
  return Render(decoder.Feed(input));
}

std::vector<std::string> DecodeByteByByte(std::string_view input, FramingLimits limits = {}) {
  FrameDecoder decoder(limits);
  std::vector<Frame> frames;
  for (char c : input) {
    for (auto& f : decoder.Feed(std::string_view(&c, 1))) frames.push_back(std::move(f));
  }
  return Render(frames);
}

using Frames = std::vector<std::string>;

TEST(FramingTest, DecodesOneCrlfFrame) {
  EXPECT_EQ(DecodeAll("Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}"), Frames({"B:{\"jsonrpc\":\"2.0\"}"}));
}

TEST(FramingTest, EncodeFrameIsExactAndRoundTrips) {
  EXPECT_EQ(EncodeFrame("{}"), "Content-Length: 2\r\n\r\n{}");
  EXPECT_EQ(EncodeFrame(""), "Content-Length: 0\r\n\r\n");
  const std::string body = "{\"text\":\"h\xC3\xA9llo\"}";  // Content-Length counts bytes, not characters
  EXPECT_EQ(EncodeFrame(body).substr(0, 20), "Content-Length: 17\r\n");
  EXPECT_EQ(DecodeAll(EncodeFrame(body)), Frames({"B:" + body}));
}

TEST(FramingTest, CoalescedAndSplitReadsGiveIdenticalFrames) {
  const std::string stream = EncodeFrame("{\"id\":1}") +
                             "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 8\r\n\r\n"
                             "{\"id\":2}" +
                             EncodeFrame("[\"Content-Length: 5\\r\\n\\r\\n\"]") + EncodeFrame("");
  const Frames expected = {"B:{\"id\":1}", "B:{\"id\":2}", "B:[\"Content-Length: 5\\r\\n\\r\\n\"]", "B:"};
  EXPECT_EQ(DecodeAll(stream), expected);
  EXPECT_EQ(DecodeByteByByte(stream), expected);

  // Every random split of the stream yields the same frames.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    FrameDecoder decoder;
    std::vector<Frame> frames;
    size_t pos = 0;
    while (pos < stream.size()) {
      const size_t n = std::min(stream.size() - pos, static_cast<size_t>(rng() % 23));
      for (auto& f : decoder.Feed(std::string_view(stream).substr(pos, n))) frames.push_back(std::move(f));
      pos += n;
    }
    ASSERT_EQ(Render(frames), expected) << "trial " << trial;
    EXPECT_FALSE(decoder.HasPartial());
    EXPECT_EQ(decoder.buffered_bytes(), 0u);
  }
}

TEST(FramingTest, HeaderNamesAreCaseInsensitiveAndValuesTrimmed) {
  EXPECT_EQ(DecodeAll("content-length: 2\r\n\r\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("CONTENT-LENGTH:2\r\n\r\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: \t 2 \t\r\n\r\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("X-Unknown: whatever\r\nContent-Length: 2\r\n\r\n{}"), Frames({"B:{}"}));
}

TEST(FramingTest, BareLfLineEndingsAreAccepted) {
  EXPECT_EQ(DecodeAll("Content-Length: 2\n\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 2\r\n\n{}Content-Length: 3\n\r\n[1]"), Frames({"B:{}", "B:[1]"}));
  EXPECT_EQ(DecodeByteByByte("Content-Length: 2\n\n{}"), Frames({"B:{}"}));
}

TEST(FramingTest, BlankLinesBeforeAHeaderBlockAreIgnored) {
  EXPECT_EQ(DecodeAll("\r\n\r\n\nContent-Length: 2\r\n\r\n{}\r\nContent-Length: 2\r\n\r\n[]"),
            Frames({"B:{}", "B:[]"}));
}

TEST(FramingTest, MissingContentLengthIsAnErrorThenResyncs) {
  const std::string input =
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"lost\":true}\r\n" + EncodeFrame("{\"id\":2}");
  const Frames expected = {"E:missing Content-Length header", "B:{\"id\":2}"};
  EXPECT_EQ(DecodeAll(input), expected);
  EXPECT_EQ(DecodeByteByByte(input), expected);
}

TEST(FramingTest, DuplicateContentLengthWithTheSameValueIsAccepted) {
  EXPECT_EQ(DecodeAll("Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}"), Frames({"B:{}"}));
}

TEST(FramingTest, ConflictingContentLengthsAreAnErrorThenResync) {
  const std::string input = "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}\n" + EncodeFrame("[2]");
  const Frames expected = {"E:conflicting Content-Length headers: 2 and 3", "B:[2]"};
  EXPECT_EQ(DecodeAll(input), expected);
  EXPECT_EQ(DecodeByteByByte(input), expected);
}

TEST(FramingTest, BadContentLengthValuesAreErrors) {
  const std::string next = EncodeFrame("{}");
  EXPECT_EQ(DecodeAll("Content-Length: abc\r\n\r\nxyz\n" + next),
            Frames({"E:Content-Length is not a number: \"abc\"", "B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: -5\r\n\r\n" + next), Frames({"E:negative Content-Length: \"-5\"", "B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: +5\r\n\r\n" + next),
            Frames({"E:Content-Length is not a number: \"+5\"", "B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 1.5\r\n\r\n" + next),
            Frames({"E:Content-Length is not a number: \"1.5\"", "B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length:\r\n\r\n" + next), Frames({"E:empty Content-Length header", "B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 99999999999999999999999\r\n\r\n" + next),
            Frames({"E:Content-Length is too large: \"99999999999999999999999\"", "B:{}"}));
  // 2^64 - 1 fits the parser but not the body limit: refused and skipped, not resynced.
  FrameDecoder decoder;
  EXPECT_EQ(Render(decoder.Feed("Content-Length: 18446744073709551615\r\n\r\n")),
            Frames({"E:body of 18446744073709551615 bytes exceeds the limit of 16777216 bytes; skipping it"}));
}

TEST(FramingTest, MalformedHeaderLinesAreReportedRightAwayThenResync) {
  // Raw JSON typed on stdio without headers: reported at its newline, not after a blank line that never comes.
  FrameDecoder decoder;
  EXPECT_EQ(
      Render(decoder.Feed("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n")),
      Frames({"E:malformed header name in line \"{\\x22jsonrpc\\x22:\\x222.0\\x22,\\x22method\\x22:\\x22x\\x22}\""}));
  EXPECT_EQ(Render(decoder.Feed("more junk\nContent-Le")), Frames());
  EXPECT_EQ(decoder.buffered_bytes(), 10u);  // only the possible start of the next header is kept
  EXPECT_EQ(Render(decoder.Feed("ngth: 2\r\n\r\n{}")), Frames({"B:{}"}));

  EXPECT_EQ(DecodeAll("hello world\r\n" + EncodeFrame("{}")),
            Frames({"E:malformed header line (no ':'): \"hello world\"", "B:{}"}));
}

TEST(FramingTest, ResyncFindsContentLengthAnywhereInALine) {
  const std::string input = "garbage\nnot a Content-Length: 2 here\n" + EncodeFrame("{}");
  EXPECT_EQ(DecodeAll(input), Frames({"E:malformed header line (no ':'): \"garbage\"",
                                      "E:Content-Length is not a number: \"2 here\"", "B:{}"}));
}

// A body shorter than its Content-Length said, then frames sent back to back. The next header is in the middle of the
// "line" the decoder is reading, and every later request used to be lost.
TEST(FramingTest, BackToBackFramesAfterABadFrameAreAllDecoded) {
  const std::string bad = "Content-Length: 3\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}";  // 3 is too short
  const std::string input = bad + EncodeFrame("{\"id\":2}") + EncodeFrame("{\"id\":3}") + EncodeFrame("{\"id\":4}");
  const Frames expected = {"B:{\"j",
                           "E:malformed header name in line \"sonrpc\\x22:\\x222.0\\x22,\\x22id\\x22:1}Content-"
                           "Length: 8\"",
                           "B:{\"id\":2}", "B:{\"id\":3}", "B:{\"id\":4}"};
  EXPECT_EQ(DecodeAll(input), expected);
  EXPECT_EQ(DecodeByteByByte(input), expected);
  // The same with the next header split across reads at every possible place, and in other letter cases.
  for (const std::string name : {"Content-Length", "content-length", "CONTENT-LENGTH", "Content-Length  "}) {
    const std::string next = name + ": 8\r\n\r\n{\"id\":2}";
    const std::string stream = "{\x01 ]" + next;  // not a header line: its name is no HTTP token
    for (size_t cut = 0; cut <= stream.size(); ++cut) {
      FrameDecoder decoder;
      Frames frames = Render(decoder.Feed(std::string_view(stream).substr(0, cut)));
      for (auto& f : Render(decoder.Feed(std::string_view(stream).substr(cut)))) frames.push_back(f);
      ASSERT_EQ(frames.size(), 2u) << "cut " << cut << " name '" << name << "'";
      EXPECT_EQ(frames[0].rfind("E:malformed header name", 0), 0u) << frames[0];
      EXPECT_EQ(frames[1], "B:{\"id\":2}") << "cut " << cut << " name '" << name << "'";
    }
  }
}

TEST(FramingTest, ResyncSkipsLookalikesAndKeepsOnlyAPossibleNameStart) {
  FrameDecoder decoder;
  EXPECT_EQ(Render(decoder.Feed("{oops}\n")), Frames({"E:malformed header line (no ':'): \"{oops}\""}));
  // "Content-Lengthy:" and "Content-Length=" are not the header; nothing is buffered but a possible name start.
  EXPECT_EQ(Render(decoder.Feed("Content-Lengthy: 2 Content-Length= 3 xx cOnTeNt-")), Frames());
  EXPECT_EQ(decoder.buffered_bytes(), 8u);
  EXPECT_EQ(Render(decoder.Feed("LENGTH\t")), Frames());
  EXPECT_EQ(Render(decoder.Feed(": 2\r\n\r\n[]")), Frames({"B:[]"}));
  // Megabytes of junk without a newline: one error, and the buffer stays empty.
  FrameDecoder flooded;
  EXPECT_EQ(Render(flooded.Feed("{\n")).size(), 1u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(flooded.Feed(std::string(10000, 'C')).empty());
    EXPECT_EQ(flooded.buffered_bytes(), 1u);  // "C" could begin "Content-Length"
  }
  EXPECT_EQ(Render(flooded.Feed(EncodeFrame("{}"))), Frames({"B:{}"}));
}

TEST(FramingTest, OverlongHeaderBlockIsAnErrorAndMemoryStaysBounded) {
  FramingLimits limits;
  limits.max_header_bytes = 64;
  FrameDecoder decoder(limits);
  // A header line that never ends: the error comes as soon as the limit is passed.
  EXPECT_EQ(Render(decoder.Feed("X-Long: " + std::string(50, 'a'))), Frames());
  EXPECT_EQ(Render(decoder.Feed(std::string(50, 'a'))), Frames({"E:header block exceeds 64 bytes"}));
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(decoder.Feed(std::string(1000, 'b')).empty());
    EXPECT_EQ(decoder.buffered_bytes(), 0u);
  }
  EXPECT_EQ(Render(decoder.Feed("\n" + EncodeFrame("{}"))), Frames({"B:{}"}));

  // Many short header lines past the limit.
  std::string many;
  for (int i = 0; i < 10; ++i) many += "X-Header-" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(DecodeAll(many + "Content-Length: 2\r\n\r\n{}" + EncodeFrame("[]"), limits),
            Frames({"E:header block exceeds 64 bytes", "B:{}", "B:[]"}));
}

TEST(FramingTest, TwoGigabyteBodyIsRefusedAndSkippedWithoutBuffering) {
  FrameDecoder decoder;
  const size_t announced = 2147483648u;
  EXPECT_EQ(Render(decoder.Feed("Content-Length: 2147483648\r\n\r\n")),
            Frames({"E:body of 2147483648 bytes exceeds the limit of 16777216 bytes; skipping it"}));
  EXPECT_TRUE(decoder.HasPartial());

  // Feed the whole 2 GB in 1 MiB chunks (no copies are made of skipped bytes), checking the buffer stays empty.
  const std::string chunk(1 << 20, 'x');
  size_t fed = 0;
  size_t max_buffered = 0;
  while (fed + chunk.size() <= announced) {
    ASSERT_TRUE(decoder.Feed(chunk).empty());
    max_buffered = std::max(max_buffered, decoder.buffered_bytes());
    fed += chunk.size();
  }
  EXPECT_EQ(fed, announced);
  EXPECT_EQ(max_buffered, 0u);
  // The skip ends exactly at the announced length: the next message follows in the same read.
  EXPECT_EQ(Render(decoder.Feed(EncodeFrame("{\"after\":1}"))), Frames({"B:{\"after\":1}"}));
  EXPECT_FALSE(decoder.HasPartial());
}

TEST(FramingTest, OversizedBodyFollowedByJunkInOneReadKeepsTheBufferSmall) {
  FrameDecoder decoder;
  std::string read = "Content-Length: 2147483648\r\n\r\n" + std::string(4 << 20, 'j');  // a few MB of the body
  EXPECT_EQ(Render(decoder.Feed(read)),
            Frames({"E:body of 2147483648 bytes exceeds the limit of 16777216 bytes; skipping it"}));
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(decoder.Feed(std::string(1 << 20, 'k')).empty());
    EXPECT_EQ(decoder.buffered_bytes(), 0u);
  }
}

TEST(FramingTest, SmallLimitSkipsExactlyTheAnnouncedBytes) {
  FramingLimits limits;
  limits.max_body_bytes = 4;
  const std::string input = "Content-Length: 10\r\n\r\n0123456789" + EncodeFrame("{}") + EncodeFrame("1234");
  const Frames expected = {"E:body of 10 bytes exceeds the limit of 4 bytes; skipping it", "B:{}", "B:1234"};
  EXPECT_EQ(DecodeAll(input, limits), expected);
  EXPECT_EQ(DecodeByteByByte(input, limits), expected);
}

TEST(FramingTest, CharsetUtf8IsAcceptedOthersSkipTheBody) {
  EXPECT_EQ(DecodeAll("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}"),
            Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 2\r\nContent-Type: application/json;charset=UTF8\r\n\r\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 2\r\nContent-Type: text/plain; charset=\"Utf-8\"\r\n\r\n{}"), Frames({"B:{}"}));
  EXPECT_EQ(DecodeAll("Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n{}"), Frames({"B:{}"}));
  const std::string latin1 = "Content-Type: application/json; charset=latin1\r\nContent-Length: 3\r\n\r\n\xE9\xE9\xE9";
  EXPECT_EQ(DecodeAll(latin1 + EncodeFrame("{}")),
            Frames({"E:unsupported charset \"latin1\" (only utf-8 is supported); message skipped", "B:{}"}));
}

TEST(FramingTest, HasPartialTracksIncompleteFrames) {
  FrameDecoder decoder;
  EXPECT_FALSE(decoder.HasPartial());
  decoder.Feed("\r\n");
  EXPECT_FALSE(decoder.HasPartial());  // a stray blank line is not a message
  decoder.Feed("Content-Len");
  EXPECT_TRUE(decoder.HasPartial());
  decoder.Feed("gth: 4\r\n\r\n{}");
  EXPECT_TRUE(decoder.HasPartial());
  EXPECT_EQ(decoder.buffered_bytes(), 2u);
  EXPECT_EQ(Render(decoder.Feed("[]")), Frames({"B:{}[]"}));
  EXPECT_FALSE(decoder.HasPartial());
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
}

TEST(FramingTest, ZeroLengthBodyIsAFrame) {
  EXPECT_EQ(DecodeAll("Content-Length: 0\r\n\r\nContent-Length: 2\r\n\r\n{}"), Frames({"B:", "B:{}"}));
}

TEST(FramingTest, RandomMixesOfGoodAndBadInputDecodeTheSameUnderAnySplit) {
  FramingLimits limits;
  limits.max_header_bytes = 48;
  limits.max_body_bytes = 16;
  const std::vector<std::string> pieces = {EncodeFrame("{\"a\":1}"),
                                           EncodeFrame(""),
                                           EncodeFrame(std::string(16, 'x')),
                                           "Content-Length: 40\r\n\r\n" + std::string(40, 'y'),
                                           "Content-Length: 2\nContent-Length: 3\n\n{}\n",
                                           "junk line\n",
                                           "\r\n",
                                           "Content-Type: x; charset=latin1\r\nContent-Length: 1\r\n\r\nz",
                                           "X-A: " + std::string(60, 'h') + "\r\n",
                                           "Content-Length: 2\r\n",
                                           "{}",
                                           "content-LENGTH:  3 \r\n\r\n[1]",
                                           "Content-Length: -1\r\n\r\n",
                                           "\n"};
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    std::string input;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 12); k < n; ++k) input += pieces[rng() % pieces.size()];
    const Frames whole = DecodeAll(input, limits);
    ASSERT_EQ(DecodeByteByByte(input, limits), whole) << "trial " << trial;
    FrameDecoder decoder(limits);
    std::vector<Frame> frames;
    for (size_t pos = 0; pos < input.size();) {
      const size_t n = std::min(input.size() - pos, static_cast<size_t>(1 + rng() % 40));
      for (auto& f : decoder.Feed(std::string_view(input).substr(pos, n))) frames.push_back(std::move(f));
      EXPECT_LE(decoder.buffered_bytes(), limits.max_header_bytes + limits.max_body_bytes + 40);
      pos += n;
    }
    ASSERT_EQ(Render(frames), whole) << "trial " << trial;
  }
}

// Each error frame carries its problem as a value; the session maps it to a JSON-RPC code without reading text.
TEST(FramingTest, ErrorFramesCarryTheirProblem) {
  const auto problems = [](std::string_view input, FramingLimits limits = {}) {
    FrameDecoder decoder(limits);
    std::vector<Frame::Problem> out;
    for (const auto& f : decoder.Feed(input)) out.push_back(f.problem);
    return out;
  };
  using P = Frame::Problem;
  EXPECT_EQ(problems("Content-Length: 2\r\n\r\n{}"), std::vector<P>({P::kNone}));
  EXPECT_EQ(problems("Content-Length: 10\r\n\r\n", {.max_body_bytes = 4}), std::vector<P>({P::kTooLarge}));
  EXPECT_EQ(problems(std::string(50, 'a'), {.max_header_bytes = 16}), std::vector<P>({P::kTooLarge}));
  EXPECT_EQ(problems("Content-Length: -1\r\n"), std::vector<P>({P::kMalformed}));
  EXPECT_EQ(problems("X: y\r\n\r\n"), std::vector<P>({P::kMalformed}));
  EXPECT_EQ(problems("Content-Type: a; charset=latin1\r\nContent-Length: 2\r\n\r\n{}"),
            std::vector<P>({P::kMalformed}));
}

}  // namespace
}  // namespace nsys::protocol
