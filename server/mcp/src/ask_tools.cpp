#include "ask_tools.h"

#include "nsys/protocol/ask.h"
#include "nsys/protocol/mcp.h"
#include "nsys/wire/ask.h"

namespace nsys::mcp {

protocol::Json AskToolDefinition(const core::Workspace& /*workspace*/) {
  return protocol::Json{
      {"description",
       "Ask a question in plain words about an open profile (which kernels take the time, how much memcpy, how "
       "many syncs, why the GPU idles, compare GPU 0 and GPU 1, is X more than Y; devices, pids, time windows and "
       "NVTX range names are understood). Returns the answer (summary, evidence rows with the skill call behind "
       "them, confidence, hypotheses, recommendations, a runnable verify command, or a refusal naming the missing "
       "data), the conversation_id for follow-ups, and the skills used."},
      {"inputSchema",
       {{"type", "object"},
        {"properties",
         {{"profile_id", Property("string", "The id open_profile returned (\"p1\").")},
          {"question", Property("string", "The question.")},
          {"conversation_id", Property("string", "From a previous ask result, so that follow-ups work.")}}},
        {"additionalProperties", false},
        {"required", protocol::Json::array({"profile_id", "question"})}}}};
}

Expected<ToolResult> AskTool(core::Workspace& workspace, const protocol::Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::AskToolArgs>(arguments, "ask");
  if (!args) return args.error();
  core::AskRequest request{args->profile_id, args->question, args->conversation_id.value_or("")};
  auto result = workspace.Ask(request, {}, cancel);
  if (!result) return ToolResult{result.error().message, true};
  const protocol::Json json = wire::ToProtocolAskResult(*result);
  return ToolResult{json.dump(-1, ' ', false, protocol::Json::error_handler_t::replace), false};
}

}  // namespace nsys::mcp
