// The byte bounds of open documents, so that no client can fill the server's memory: per session and per server,
// didChange growth included; a refused document answers requests with the refusal (-32803 naming the limit) until its
// didClose.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "nsys/lsp/documents.h"

namespace nsys::lsp {
namespace {

bool Mentions(const Status& s, const std::string& text) {
  return !s.ok() && s.error().message.find(text) != std::string::npos;
}

TEST(DocumentBytes, ASessionKeepsAtMostItsBytesAndSaysWhichLimitRefused) {
  auto server = std::make_shared<DocumentBytes>(10000);
  SessionDocuments docs(1000, server);
  EXPECT_TRUE(docs.Open("file:///a.py", std::string(600, 'a')).ok());
  const Status refused = docs.Open("file:///b.py", std::string(500, 'b'));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kLimitExceeded);  // -32803
  EXPECT_TRUE(Mentions(refused, "textDocument/didOpen: 'file:///b.py' is not kept")) << refused.error().message;
  EXPECT_TRUE(Mentions(refused, "the limit on a session's open documents")) << refused.error().message;
  EXPECT_FALSE(docs.Text("file:///b.py"));
  EXPECT_EQ(docs.bytes(), 600u);
  EXPECT_EQ(server->used(), 600u);
  // Requests on the refused document get the same error until its didClose.
  EXPECT_EQ(docs.Refusal("file:///b.py").error().message, refused.error().message);
  EXPECT_TRUE(docs.Refusal("file:///a.py").ok());
  docs.Close("file:///b.py");
  EXPECT_TRUE(docs.Refusal("file:///b.py").ok());
  docs.Close("file:///a.py");
  EXPECT_EQ(docs.bytes(), 0u);
  EXPECT_EQ(server->used(), 0u);
  EXPECT_TRUE(docs.Open("file:///b.py", std::string(500, 'b')).ok());  // room again
}

TEST(DocumentBytes, DidChangeGrowthCountsOnceAndAChangePastTheBoundDropsTheDocument) {
  auto server = std::make_shared<DocumentBytes>(10000);
  SessionDocuments docs(1000, server);
  ASSERT_TRUE(docs.Open("file:///a.py", std::string(900, 'a')).ok());
  EXPECT_TRUE(docs.Change("file:///a.py", std::string(950, 'b')).ok());  // counted at its new size, not 1850
  EXPECT_EQ(docs.bytes(), 950u);
  const Status grown = docs.Change("file:///a.py", std::string(5000, 'c'));
  ASSERT_FALSE(grown.ok());
  EXPECT_TRUE(Mentions(grown, "textDocument/didChange")) << grown.error().message;
  EXPECT_TRUE(Mentions(grown, "the limit on a session's open documents")) << grown.error().message;
  EXPECT_FALSE(docs.Text("file:///a.py"));  // never the stale text
  EXPECT_EQ(docs.bytes(), 0u);
  EXPECT_EQ(server->used(), 0u);
  EXPECT_FALSE(docs.Refusal("file:///a.py").ok());
  EXPECT_TRUE(docs.Change("file:///a.py", "small").ok());  // not open: ignored, still refused
  EXPECT_FALSE(docs.Text("file:///a.py"));
  EXPECT_TRUE(docs.Open("file:///a.py", "reopened").ok());  // a didOpen that fits clears the refusal
  EXPECT_TRUE(docs.Refusal("file:///a.py").ok());
}

TEST(DocumentBytes, TheServerBoundHoldsOverEverySessionAndAGoneSessionGivesItsBytesBack) {
  auto server = std::make_shared<DocumentBytes>(1500);
  auto first = std::make_unique<SessionDocuments>(1000, server);
  SessionDocuments second(1000, server);
  ASSERT_TRUE(first->Open("file:///a.py", std::string(900, 'a')).ok());
  const Status refused = second.Open("file:///b.py", std::string(900, 'b'));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(Mentions(refused, "the server's limit on open documents")) << refused.error().message;
  EXPECT_EQ(server->used(), 900u);
  first.reset();  // a session that ends gives its documents back
  EXPECT_EQ(server->used(), 0u);
  EXPECT_TRUE(second.Open("file:///b.py", std::string(900, 'b')).ok());
}

TEST(DocumentBytes, TheDefaultsHoldThirtyFifteenMebibyteOpensToFourAndNameTheLimit) {
  EXPECT_EQ(SessionDocuments::kSessionBytes, size_t{64} << 20);
  EXPECT_EQ(SessionDocuments::kServerBytes, size_t{256} << 20);
  auto server = std::make_shared<DocumentBytes>(SessionDocuments::kServerBytes);
  SessionDocuments docs(SessionDocuments::kSessionBytes, server);
  const std::string text(size_t{15} << 20, 'x');
  int kept = 0;
  Status last;
  for (int i = 0; i < 30; ++i) {
    Status s = docs.Open("file:///big" + std::to_string(i) + ".py", text);
    kept += s.ok();
    if (!s.ok()) last = s;
  }
  EXPECT_EQ(kept, 4);
  EXPECT_EQ(docs.bytes(), size_t{60} << 20);
  EXPECT_TRUE(Mentions(last, "15.0 MiB of text would pass 64.0 MiB")) << last.error().message;
}

TEST(DocumentBytes, TooManyOpenDocumentsIsARefusalToo) {
  SessionDocuments docs(size_t{1} << 20, std::make_shared<DocumentBytes>(size_t{1} << 20));
  for (size_t i = 0; i < SessionDocuments::kMaxOpenDocuments; ++i)
    ASSERT_TRUE(docs.Open("file:///f" + std::to_string(i), "x").ok());
  const Status refused = docs.Open("file:///one-more", "x");
  EXPECT_TRUE(Mentions(refused, "256 open documents")) << (refused.ok() ? "kept" : refused.error().message);
  EXPECT_TRUE(docs.Open("file:///f0", "replaced").ok());  // an open document may be opened again
}

}  // namespace
}  // namespace nsys::lsp
