// docs/protocol.md must document every method of the bind table, and nothing the server does not answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "nsys/lsp/context.h"
#include "nsys/lsp/method_table.h"
#include "nsys/protocol/analyze.h"
#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"

namespace nsys::testing {
namespace {

using lsp::MethodTable;

std::string ReadDoc() {
  std::ifstream in(std::string(NSYS_AI_SOURCE_DIR) + "/docs/protocol.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The "### `method`" headings of the section that starts with `section` ("## Client to server") and ends at the
// next "## " heading.
std::set<std::string> DocumentedMethods(const std::string& doc, const std::string& section) {
  std::set<std::string> methods;
  const size_t start = doc.find("\n" + section);
  if (start == std::string::npos) return methods;
  const size_t end = doc.find("\n## ", start + 1);
  const std::string body = doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
  static const std::regex heading(R"(\n### `([^`]+)`)");
  for (std::sregex_iterator it(body.begin(), body.end(), heading), last; it != last; ++it) methods.insert((*it)[1]);
  return methods;
}

TEST(ProtocolDoc, EveryBoundMethodIsDocumented) {
  const std::string doc = ReadDoc();
  ASSERT_FALSE(doc.empty()) << "docs/protocol.md is missing";
  const auto documented = DocumentedMethods(doc, "## Client to server");
  ASSERT_FALSE(documented.empty()) << "no '## Client to server' section with '### `method`' headings";
  for (const auto& method : lsp::BoundMethodNames()) {
    EXPECT_TRUE(documented.count(method)) << "docs/protocol.md does not document '" << method << "' (add a '### `"
                                          << method << "`' section under '## Client to server')";
  }
}

TEST(ProtocolDoc, EveryDocumentedClientMethodIsBound) {
  const auto bound = lsp::BoundMethodNames();
  for (const auto& method : DocumentedMethods(ReadDoc(), "## Client to server")) {
    EXPECT_NE(std::find(bound.begin(), bound.end(), method), bound.end())
        << "docs/protocol.md documents '" << method << "', which the bind table does not have";
  }
}

// The bind table is the catalogue's method column: each row's method is a bound request whose progress title and
// lane are the row's, and each bound request is a row's or protocol plumbing (protocol/capabilities.h).
TEST(ProtocolDoc, BoundRequestsAreTheCataloguesMethods) {
  const MethodTable& table = lsp::ProductMethods();
  for (const auto& row : protocol::Capabilities()) {
    const MethodTable::Entry* entry = table.Find(row.method);
    ASSERT_NE(entry, nullptr) << row.method << " has a capability row but is not bound";
    EXPECT_TRUE(entry->is_request()) << row.method;
    EXPECT_EQ(entry->options.progress_title, row.progress) << row.method;
    EXPECT_EQ(entry->options.cheap, row.cheap) << row.method;
  }
  const std::set<std::string> plumbing{"initialize", "shutdown"};
  for (const auto& method : lsp::BoundMethodNames()) {
    const MethodTable::Entry* entry = table.Find(method);
    if (!entry->is_request() || plumbing.count(method)) continue;
    EXPECT_NE(protocol::CapabilityOfMethod(method), nullptr)
        << method << " is bound with no row in protocol/src/capabilities.cpp";
  }
  EXPECT_EQ(table.Find("nsys/openProfile")->options.progress_title, "Opening profile");
  EXPECT_TRUE(table.Find("nsys/profileInfo")->options.cheap);
}

Expected<protocol::NullResult> HandlerOfOtherParams(const protocol::AnalyzeParams&, lsp::RequestContext&) {
  return protocol::NullResult{};
}
Expected<protocol::AnalyzeResult> HandlerOfTheRowsTypes(const protocol::AnalyzeParams&, lsp::RequestContext&) {
  return protocol::AnalyzeResult{};
}

// A handler binds only to the row whose params and result it takes and returns (the row's ShapeOf<...>).
TEST(ProtocolDoc, AHandlerBindsOnlyToTheRowOfItsTypes) {
  MethodTable table;
  EXPECT_THROW(table.Bind(protocol::method::kCloseProfile, &HandlerOfOtherParams), std::logic_error);
  EXPECT_THROW(table.Bind(protocol::method::kAnalyze, &HandlerOfOtherParams), std::logic_error);
  EXPECT_EQ(table.Find(protocol::method::kAnalyze), nullptr);
  table.Bind(protocol::method::kAnalyze, &HandlerOfTheRowsTypes);
  EXPECT_NE(table.Find(protocol::method::kAnalyze), nullptr);
}

TEST(ProtocolDoc, ServerToClientMessagesAreDocumented) {
  const auto documented = DocumentedMethods(ReadDoc(), "## Server to client");
  for (const char* method : {"$/progress", "window/workDoneProgress/create", "window/logMessage", "window/showMessage",
                             "window/showDocument"}) {
    EXPECT_TRUE(documented.count(method)) << method;
  }
}

}  // namespace
}  // namespace nsys::testing
