#pragma once
// THE capability catalogue: one row per thing the product does for a client, with its name on every face (the
// editor method, the MCP tool, the CLI verb), the one description every face shows, and how the server runs it.
// The LSP bind table (server/lsp/src/bind_table.cpp) and the MCP tool table (server/mcp/src/bind_tools.cpp) bind each
// handler by its row, so a tool's description and a method's progress title and lane are written here only;
// docs/protocol.md's "Capabilities" table is generated from it (tests/protocol/capabilities_test.cpp renders it and
// fails on a difference; run that test with NSYS_AI_WRITE_DOCS=1 to rewrite the table). Protocol plumbing
// (initialize, shutdown, cancellation, document sync notifications) has no row: it is not a capability.
#include <span>
#include <string>
#include <string_view>

#include "nsys/protocol/shape.h"

namespace nsys::protocol {

struct Capability {
  std::string_view method;  // the editor protocol's method (nsys/openProfile, textDocument/hover)
  std::string_view tool;    // the MCP tool; empty when agents do not get it
  std::string_view verb;    // the CLI command line that does it (`skill run`, `ask --query`); empty when none does
  // What it does, in the words tools/list gives agents and docs/protocol.md's table gives readers.
  std::string_view summary;
  std::string_view progress;  // the editor's work-done progress title; empty for none
  // Answers in well under a millisecond whatever the workspace holds (no table loads, no skill runs, no per-profile
  // lock): both faces run it on their reader's own lane, ahead of ordinary work.
  bool cheap = false;
  // The request's params and result: their C++ types and JSON shapes (shape.h). The LSP bind table refuses a
  // handler of other types, and the clients' generated declarations (ClientDeclarationsTypeScript) come from them.
  ShapeFn params = nullptr;
  ShapeFn result = nullptr;
};

// Every row, in the order docs/protocol.md lists them.
std::span<const Capability> Capabilities();
// The row of an editor method or of an MCP tool; nullptr when the catalogue has none.
const Capability* CapabilityOfMethod(std::string_view method);
const Capability* CapabilityOfTool(std::string_view tool);
// docs/protocol.md's generated table: one Markdown row per capability (method, tool, verb, summary's first sentence).
std::string CapabilityTableMarkdown();
// extensions/vscode/src/protocol/generated.ts: a TypeScript interface for every object the rows' params and results
// hold (from the field lists), and NsysMethods, each row's method with its params and result.
std::string ClientDeclarationsTypeScript();

}  // namespace nsys::protocol
