#include "commands.h"
#include "nsys/mcp/mcp_server.h"

namespace nsys::cli {

Command McpCommand() {
  Command command;
  command.name = "mcp";
  command.summary = "run the MCP server on stdio, for coding agents (tools: open_profile, run_skill, ...)";
  command.details =
      "Speaks the Model Context Protocol's stdio transport: one JSON-RPC message per line on stdin/stdout, logs on\n"
      "stderr. Requests run concurrently (replies may come in any order); notifications/cancelled stops one.\n"
      "Runs until stdin closes (requests in progress are answered first) or SIGTERM/SIGINT (they are cancelled);\n"
      "both exit with status 0.";
  command.options = {SkillTimeoutOption()};
  command.run = [](const CommandContext& ctx) {
    core::WorkspaceConfig config = ctx.config;
    config.warm_skills = core::DefaultWarmSkills();  // agents ask the heavy NVTX questions first
    return mcp::RunMcpStdio(config);
  };
  return command;
}

}  // namespace nsys::cli
