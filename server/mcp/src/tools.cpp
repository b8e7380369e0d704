#include "tools.h"

namespace nsys::mcp {

protocol::Json ToolDefinitions(const core::Workspace& workspace) {
  return Tools().Definitions(workspace);
}

std::optional<ToolResult> RunTool(core::Workspace& workspace, core::TracePublisher* publisher, const std::string& name,
                                  const protocol::Json& arguments, const CancelToken& cancel) {
  ToolContext ctx{workspace, publisher, cancel, ""};
  return Tools().Call(name, arguments, ctx);
}

bool IsCheapTool(const std::string& name) {
  return Tools().IsCheap(name);
}

}  // namespace nsys::mcp
