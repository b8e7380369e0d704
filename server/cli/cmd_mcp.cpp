#include "commands.h"
#include "nsys/mcp/mcp_server.h"

namespace nsys::cli {

Command McpCommand() {
  Command command;
  command.name = "mcp";
  command.summary = "run the MCP server on stdio, for coding agents (tools: open_profile, run_skill, ...)";
  command.details =
      "Speaks the Model Context Protocol's stdio transport: one JSON-RPC message per line on stdin/stdout, logs on\n"
      "stderr. Runs until stdin closes.";
  command.options = {SkillTimeoutOption()};
  command.run = [](const CommandContext& ctx) {
    core::WorkspaceConfig config = ctx.config;
    config.warm_skills = core::DefaultWarmSkills();  // agents ask the heavy NVTX questions first
    return mcp::RunMcpStdio(config);
  };
  return command;
}

}  // namespace nsys::cli
