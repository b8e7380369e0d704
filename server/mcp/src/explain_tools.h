#pragma once
// Internal to nsys_mcp: explain_kernel, the MCP face of nsys/explainKernel over the same core call and the same wire
// conversion. tools.cpp lists and dispatches it.
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tools.h"

namespace nsys::mcp {

// The tool's definition (name, description, inputSchema), for tools/list.
protocol::Json ExplainToolDefinition();
bool IsExplainTool(const std::string& name);
// Runs explain_kernel: the nsys/explainKernel result as JSON text, or an isError result with the message.
ToolResult RunExplainTool(core::Workspace& workspace, const protocol::Json& arguments, const CancelToken& cancel);

}  // namespace nsys::mcp
