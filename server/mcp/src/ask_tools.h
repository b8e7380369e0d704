#pragma once
// Internal to nsys_mcp: the `ask` tool, the MCP face of nsys/ask over the same core call (Workspace::Ask) and the
// same wire conversion. tools.cpp lists it in its tool table.
#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "tools.h"

namespace nsys::mcp {

// {"description", "inputSchema"} of the ask tool.
protocol::Json AskToolDefinition(const core::Workspace& workspace);
// Runs it: kInvalidArgument for bad arguments (the table reports "Invalid arguments for ask: ..."); other failures
// (unknown profile, empty question) are an isError result with the message.
Expected<ToolResult> AskTool(core::Workspace& workspace, const protocol::Json& arguments, const CancelToken& cancel);

}  // namespace nsys::mcp
