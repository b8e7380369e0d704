#include <gtest/gtest.h>

#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session.h"

namespace nsys::testing {
namespace {

TEST(LspInput, ClientPathsAcceptFileUris) {
  EXPECT_EQ(lsp::PathFromClient("/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("rel/a.sqlite"), "rel/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///data/my%20run.sqlite"), "/data/my run.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file://localhost/data/a.sqlite"), "/data/a.sqlite");
  EXPECT_EQ(lsp::PathFromClient("file:///bad%zzescape"), "/bad%zzescape");
}

TEST(LspInput, FramingErrorsMapToParseErrorOrInvalidRequest) {
  EXPECT_EQ(lsp::FramingErrorCode("body of 2147483648 bytes exceeds the limit of 268435456 bytes; skipping it"),
            -32600);
  EXPECT_EQ(lsp::FramingErrorCode("header block exceeds 8192 bytes"), -32600);
  EXPECT_EQ(lsp::FramingErrorCode("missing Content-Length header"), -32700);
}

}  // namespace
}  // namespace nsys::testing
