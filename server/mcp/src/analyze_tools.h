#pragma once
// Internal to nsys_mcp: the `analyze` tool, the MCP face of nsys/analyze (same core call, same wire conversion).
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tools.h"

namespace nsys::mcp {

protocol::Json AnalyzeToolDefinitions();
bool IsAnalyzeTool(const std::string& name);  // never cheap: it runs many skills
// nullopt when `name` is not an analyze tool.
std::optional<ToolResult> RunAnalyzeTool(core::Workspace& workspace, const std::string& name,
                                         const protocol::Json& arguments, const CancelToken& cancel);

}  // namespace nsys::mcp
