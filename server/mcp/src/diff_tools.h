#pragma once
// Internal to nsys_mcp: the `diff` tool, the MCP face of nsys/diff over the same core call (Workspace::Diff) and
// the same wire conversion. tools.cpp lists and dispatches it.
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tools.h"

namespace nsys::mcp {

protocol::Json DiffToolDefinitions();  // name, description, inputSchema
bool IsDiffTool(const std::string& name);
// Runs the diff tool; nullopt when `name` is not it.
std::optional<ToolResult> RunDiffTool(core::Workspace& workspace, const std::string& name,
                                      const protocol::Json& arguments, const CancelToken& cancel);

}  // namespace nsys::mcp
