#pragma once
// Internal to nsys_mcp: the trace tools (export_trace, open_in_perfetto), the MCP faces of nsys/exportTrace and
// nsys/openInPerfetto over the same core calls and the same wire conversions. tools.cpp lists and dispatches them.
#include <optional>
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/cancel.h"
#include "tools.h"

namespace nsys::mcp {

// The trace tools' definitions (name, description, inputSchema), for tools/list.
protocol::Json TraceToolDefinitions();
bool IsTraceTool(const std::string& name);
// Runs a trace tool; nullopt when `name` is not one. Without a publisher, open_in_perfetto is an isError result.
std::optional<ToolResult> RunTraceTool(core::Workspace& workspace, core::TracePublisher* publisher,
                                       const std::string& name, const protocol::Json& arguments,
                                       const CancelToken& cancel);

}  // namespace nsys::mcp
