#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session.h"
#include "nsys/protocol/framing.h"

namespace nsys::testing {
namespace {

TEST(LspInput, ClientPathsAcceptFileUris) {
  EXPECT_EQ(lsp::PathFromClient("/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("rel/a.sqlite"), "rel/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///data/my%20run.sqlite"), "/data/my run.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file://localhost/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///bad%zzescape"), "/bad%zzescape");
}

// The code comes from the decoder's typed problem, whatever the message says.
int CodeFor(std::string_view bytes, protocol::FramingLimits limits = {}) {
  protocol::FrameDecoder decoder(limits);
  const auto frames = decoder.Feed(bytes);
  if (frames.empty() || frames.front().kind != protocol::Frame::Kind::kError) return 0;
  return lsp::FramingErrorCode(frames.front().problem);
}

TEST(LspInput, FramingErrorsMapToParseErrorOrInvalidRequest) {
  EXPECT_EQ(CodeFor("Content-Length: 2147483648\r\n\r\n"), -32600);
  EXPECT_EQ(CodeFor(std::string(100, 'x'), {.max_header_bytes = 64}), -32600);
  EXPECT_EQ(CodeFor("Content-Type: text/plain\r\n\r\n"), -32700);  // missing Content-Length
  EXPECT_EQ(CodeFor("{\"jsonrpc\":\"2.0\"}\n"), -32700);           // a raw JSON line: no header
  // A malformed frame whose text happens to contain " exceeds " is still a parse error.
  EXPECT_EQ(CodeFor("Content-Length: exceeds \r\n\r\n"), -32700);
  EXPECT_EQ(lsp::FramingErrorCode(protocol::Frame::Problem::kTooLarge), -32600);
  EXPECT_EQ(lsp::FramingErrorCode(protocol::Frame::Problem::kMalformed), -32700);
}

}  // namespace
}  // namespace nsys::testing
