#pragma once
// Internal to nsys_mcp: runs (issue 13) as MCP tools, the faces of nsys/openRun, nsys/runReport, nsys/analyzeRun and
// nsys/closeRun (same core calls, same wire conversions): an agent opens a directory of rank exports and asks
// which rank the others wait for.
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tools.h"

namespace nsys::mcp {

protocol::Json RunToolDefinitions();
bool IsRunTool(const std::string& name);  // all of them may load ranks: never cheap
// nullopt when `name` is not a run tool.
std::optional<ToolResult> RunRunTool(core::Workspace& workspace, const std::string& name,
                                     const protocol::Json& arguments, const CancelToken& cancel);

}  // namespace nsys::mcp
