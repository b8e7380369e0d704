// CheckWebOrigin (initializationOptions.perfettoOrigin, --perfetto-origin): the table of what is a web origin was
// written against the std::regex check it replaced, ^https?://(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$,
// and holds for the hand-written one; a long origin is refused by its length (the regex overflowed the stack on
// about 100 KB, which killed the server from one initialize).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "nsys/protocol/methods.h"

namespace nsys::protocol {
namespace {

TEST(WebOrigin, AcceptsExactlyWhatTheOriginPatternAccepted) {
  for (const std::string& ok : std::vector<std::string>{
           "https://ui.perfetto.dev", "http://127.0.0.1:10000", "http://[::1]:9000", "http://localhost", "http://[::1]",
           "https://UI.Perfetto.DEV:8443", "http://a", "http://1", "http://a-b.c-d", "http://-", "http://...",
           "http://a:0", "http://a:99999", "http://a:00001", "http://[:]", "http://[fe80::1]:1", "http://[ABCDEF]",
           "https://[0]:65535"}) {
    EXPECT_TRUE(CheckWebOrigin(ok).ok()) << ok;
  }
  for (const std::string& bad : std::vector<std::string>{"",
                                                         "HTTP://a",
                                                         "Https://a",
                                                         "https://",
                                                         "http://",
                                                         "http:/a",
                                                         "https//a",
                                                         "ftp://a",
                                                         "ui.perfetto.dev",
                                                         "javascript:alert(1)",
                                                         "http://a:",
                                                         "http://a:123456",
                                                         "http://a:1a",
                                                         "http://a:-1",
                                                         "http://a:1:2",
                                                         "http://[::1",
                                                         "http://[]",
                                                         "http://[]:1",
                                                         "http://[g::1]",
                                                         "http://[::1]x",
                                                         "http://[::1]:",
                                                         "http://[::1]]",
                                                         "http://[::1%eth0]",
                                                         "http://a[::1]",
                                                         "http://a_b",
                                                         "http://a b",
                                                         " http://a",
                                                         "http://a ",
                                                         "http://a\n",
                                                         "\nhttp://a",
                                                         "http://a\r",
                                                         "http://a/",
                                                         "https://ui.perfetto.dev/#!/",
                                                         "http://a?x",
                                                         "http://a#x",
                                                         "http://user@a",
                                                         "http://user:pw@a",
                                                         "https://x.dev'",
                                                         "http://a\"",
                                                         "http://é.dev",
                                                         "http://a\xff",
                                                         std::string("http://a\0b", 10),
                                                         std::string("http://a\0", 9)}) {
    const Status checked = CheckWebOrigin(bad);
    ASSERT_FALSE(checked.ok()) << bad;
    EXPECT_EQ(checked.error().kind, ErrorKind::kInvalidArgument) << bad;
  }
}

TEST(WebOrigin, ALongOriginIsRefusedByItsLengthNamingTheLimit) {
  const std::string at_limit = "http://" + std::string(kMaxWebOriginBytes - 7, 'a');
  EXPECT_TRUE(CheckWebOrigin(at_limit).ok());
  const auto t0 = std::chrono::steady_clock::now();
  const Status big = CheckWebOrigin("http://" + std::string(100'000, 'a'));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(big.error().message,
            "an origin of 100007 bytes, over the limit of 2048 bytes; a web origin is a scheme, a host and an optional "
            "port, like https://ui.perfetto.dev");
  // Through initialize, with the field's path; the origin itself is not echoed.
  const auto parsed = Parse<InitializeParams>(
      Json{{"initializationOptions", {{"perfettoOrigin", "https://" + std::string(100'000, '[')}}}});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(parsed.error().message,
            "params.initializationOptions.perfettoOrigin: an origin of 100008 bytes, over the limit of 2048 bytes; a "
            "web origin is a scheme, a host and an optional port, like https://ui.perfetto.dev");
}

}  // namespace
}  // namespace nsys::protocol
