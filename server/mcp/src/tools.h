#pragma once
// Internal to nsys_mcp: the MCP tools over a Workspace.
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"

namespace nsys::mcp {

struct ToolResult {
  std::string text;  // compact JSON on success, a full sentence on failure
  bool is_error = false;
};

// The tools/list "tools" array: name, description and a JSON Schema inputSchema for each tool. run_skill's `skill`
// property carries the current skill names as an enum.
protocol::Json ToolDefinitions(const core::Workspace& workspace);

// Runs the named tool; nullopt when no tool has that name. `arguments` is the tools/call "arguments" member
// (null when absent). `cancel` stops a slow tool (opening, a skill's SQL); its result is then an error nobody reads.
// `publisher` serves open_in_perfetto's traces (nullptr: that tool fails).
std::optional<ToolResult> RunTool(core::Workspace& workspace, core::TracePublisher* publisher, const std::string& name,
                                  const protocol::Json& arguments, const CancelToken& cancel = {});

// Whether the tool answers in well under a millisecond whatever the profile (no loading, no analysis), so the reader
// thread runs it itself. Unknown names are cheap too: they are refused at once.
bool IsCheapTool(const std::string& name);

// Shared by every tool group. A tool's JSON text (invalid UTF-8 from a profile is replaced, never thrown on).
inline std::string Dump(const protocol::Json& j) {
  return j.dump(-1, ' ', false, protocol::Json::error_handler_t::replace);
}
// A schema property: {"type", "description"}.
inline protocol::Json Property(const char* type, const std::string& description) {
  return {{"type", type}, {"description", description}};
}

}  // namespace nsys::mcp
