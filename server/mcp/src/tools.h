#pragma once
// Internal to nsys_mcp: what McpServer asks of the tools (the table in bind_tools.cpp).
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tool_table.h"

namespace nsys::mcp {

// The tools/list "tools" array: name, description and a JSON Schema inputSchema for each tool. run_skill's `skill`
// property carries the current skill names as an enum.
protocol::Json ToolDefinitions(const core::Workspace& workspace);

// Runs the named tool; nullopt when no tool has that name. `arguments` is the tools/call "arguments" member
// (null when absent). `cancel` stops a slow tool (opening, a skill's SQL); its result is then an error nobody reads.
// `publisher` serves open_in_perfetto's traces (nullptr: that tool fails).
std::optional<ToolResult> RunTool(core::Workspace& workspace, core::TracePublisher* publisher, const std::string& name,
                                  const protocol::Json& arguments, const CancelToken& cancel = {});

// Whether the reader thread runs the tool itself (ToolOptions::cheap). Unknown names are cheap too: they are
// refused at once.
bool IsCheapTool(const std::string& name);

}  // namespace nsys::mcp
