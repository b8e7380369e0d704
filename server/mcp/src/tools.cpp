#include "tools.h"

#include <fmt/format.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analyze_tools.h"
#include "ask_tools.h"
#include "diff_tools.h"
#include "explain_tools.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/skill_args.h"
#include "run_tools.h"
#include "trace_tools.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

Json ObjectSchema(Json properties, std::vector<std::string> required) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

std::string CommonArgsText() {
  std::string text;
  const protocol::ListSkillsResult listing = wire::ToListSkillsResult({}, wire::CommonArgs::kSeparate);
  for (const auto& arg : *listing.common_args) {
    text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", arg.name, protocol::ToString(arg.type));
  }
  return text;
}

// ---- the tools ------------------------------------------------------------------------------------------------
// Each reads its arguments with protocol::mcp::ParseToolArgs (an error there is an input error: RunTool reports it
// as "Invalid arguments for <tool>: ..."), makes one Workspace call, and converts the result with server/wire.

// The LSP shape of a profile summary, with the id under the name the MCP tools take it back as.
std::string SummaryText(const core::OpenedProfile& opened) {
  Json summary = wire::ToProfileSummary(opened);
  summary.erase("profileId");
  summary["profile_id"] = opened.id;
  return Dump(summary);
}

Expected<ToolResult> OpenProfile(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::OpenProfileArgs>(arguments, "open_profile");
  if (!args) return args.error();
  engine::OpenOptions options = workspace.config().open;
  if (args->no_cache) options.use_cache = !*args->no_cache;
  auto opened = workspace.Open(support::PathFromText(args->path), options, cancel);  // a path or its file:// URI
  if (!opened) return ToolResult{opened.error().message, true};
  return ToolResult{SummaryText(*opened), false};
}

Expected<ToolResult> ProfileInfo(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::ProfileIdArgs>(arguments, "profile_info");
  if (!args) return args.error();
  auto described = workspace.Describe(args->profile_id);
  if (!described) return ToolResult{described.error().message, true};
  return ToolResult{SummaryText(*described), false};
}

// Frees the id (and the loaded profile once no other id shares it): a long agent session would otherwise reach the
// workspace's bound on open ids (WorkspaceConfig::max_open_ids) and be refused every later open.
Expected<ToolResult> CloseProfile(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::ProfileIdArgs>(arguments, "close_profile");
  if (!args) return args.error();
  if (auto closed = workspace.Close(args->profile_id); !closed) return ToolResult{closed.error().message, true};
  return ToolResult{Dump(Json{{"profile_id", args->profile_id}, {"closed", true}}), false};
}

// Agents see every argument run_skill accepts for each skill, the common ones first.
Expected<ToolResult> ListSkills(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::NoArgs>(arguments, "list_skills");
  if (!args) return args.error();
  return ToolResult{Dump(Json(wire::ToListSkillsResult(workspace.Skills(), wire::CommonArgs::kFolded))), false};
}

Expected<ToolResult> RunSkill(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::RunSkillArgs>(arguments, "run_skill");
  if (!args) return args.error();
  const auto skill = workspace.FindSkill(args->skill);  // unknown: the runner's error names the known skills
  auto skill_args = wire::ToolSkillArgs(args->args, skill ? skill.value().get() : nullptr);
  if (!skill_args) return skill_args.error();
  auto table = workspace.RunSkill(args->profile_id, args->skill, *skill_args, cancel);
  if (!table) return ToolResult{table.error().message, true};
  return ToolResult{Dump(Json(wire::ToRunSkillResult(std::move(table.value())))), false};
}

struct Tool {
  const char* name;
  bool cheap;                                                          // see IsCheapTool
  std::function<Json(const core::Workspace&)> description_and_schema;  // {"description", "inputSchema"}
  std::function<Expected<ToolResult>(core::Workspace&, const Json&, const CancelToken&)> call;
};

const std::vector<Tool>& Tools() {
  static const std::vector<Tool> tools = {
      {"open_profile", false,
       [](const core::Workspace&) {
         return Json{
             {"description",
              "Open an NVIDIA Nsight Systems profile read-only, a .sqlite export or a .nsys-rep / .qdrep report "
              "(converted once with the installed nsys), and return its profile_id and a summary: devices, processes, "
              "time range (capture-clock ns), tables and capabilities. Pass the id to profile_info and run_skill."},
             {"inputSchema",
              ObjectSchema({{"path", Property("string",
                                              "Path of the .sqlite export or the .nsys-rep / .qdrep report "
                                              "(absolute, or relative to the server's working directory).")},
                            {"no_cache", Property("boolean", "Neither read nor write the warm-reopen cache.")}},
                           {"path"})}};
       },
       OpenProfile},
      {"profile_info", true,
       [](const core::Workspace&) {
         return Json{{"description",
                      "Summary of an open profile: devices, processes, time range (capture-clock ns), tables and "
                      "capabilities."},
                     {"inputSchema",
                      ObjectSchema({{"profile_id", Property("string", "The id open_profile returned (\"p1\").")}},
                                   {"profile_id"})}};
       },
       ProfileInfo},
      {"close_profile", true,
       [](const core::Workspace&) {
         return Json{{"description",
                      "Close an open profile: its id stops working, and its memory is freed once no other id of the "
                      "same file is open. Close profiles you are done with; the server holds a bounded number."},
                     {"inputSchema",
                      ObjectSchema({{"profile_id", Property("string", "The id open_profile returned (\"p1\").")}},
                                   {"profile_id"})}};
       },
       CloseProfile},
      {"list_skills", true,
       [](const core::Workspace&) {
         return Json{{"description",
                      "List the analyses run_skill can run, with every argument each accepts (name, type, default, "
                      "whether required, allowed values) and the nsys report or rule it mirrors."},
                     {"inputSchema", ObjectSchema(Json::object(), {})}};
       },
       ListSkills},
      {"run_skill", false,
       [](const core::Workspace& workspace) {
         Json names = Json::array();
         for (const auto& skill : workspace.Skills()) names.push_back(skill->name());
         Json skill_property = Property("string", "The analysis to run (see list_skills).");
         skill_property["enum"] = std::move(names);
         Json args_property = Property(
             "object", "Arguments of the skill by name (see list_skills). Every skill accepts " + CommonArgsText() +
                           "; start/end are seconds from the profile start unless clock is \"capture_ns\".");
         // anyOf rather than a "type" array: some schema consumers (MCP inspector --strict) accept only one type.
         Json scalar_types = Json::array();
         for (const char* type : {"integer", "number", "string", "boolean", "null"}) {
           scalar_types.push_back({{"type", type}});
         }
         args_property["additionalProperties"] = {{"anyOf", std::move(scalar_types)}};
         return Json{
             {"description",
              "Run one analysis on an open profile. Returns columns, rows, notes (coverage, the window used, "
              "caveats) and declined (true when the profile lacks the data the skill needs; the notes say why)."},
             {"inputSchema", ObjectSchema({{"profile_id", Property("string", "The id open_profile returned (\"p1\").")},
                                           {"skill", std::move(skill_property)},
                                           {"args", std::move(args_property)}},
                                          {"profile_id", "skill"})}};
       },
       RunSkill},
      {"ask", false, AskToolDefinition, AskTool},
  };
  return tools;
}

}  // namespace

protocol::Json ToolDefinitions(const core::Workspace& workspace) {
  Json tools = Json::array();
  for (const auto& tool : Tools()) {
    Json definition = tool.description_and_schema(workspace);
    definition["name"] = tool.name;
    tools.push_back(std::move(definition));
  }
  for (auto& definition : TraceToolDefinitions()) tools.push_back(std::move(definition));
  for (auto& definition : AnalyzeToolDefinitions()) tools.push_back(std::move(definition));
  for (auto& definition : DiffToolDefinitions()) tools.push_back(std::move(definition));
  tools.push_back(ExplainToolDefinition());
  for (auto& definition : RunToolDefinitions()) tools.push_back(std::move(definition));
  return tools;
}

std::optional<ToolResult> RunTool(core::Workspace& workspace, core::TracePublisher* publisher, const std::string& name,
                                  const protocol::Json& arguments, const CancelToken& cancel) {
  if (IsTraceTool(name)) return RunTraceTool(workspace, publisher, name, arguments, cancel);
  if (IsAnalyzeTool(name)) return RunAnalyzeTool(workspace, name, arguments, cancel);
  if (IsDiffTool(name)) return RunDiffTool(workspace, name, arguments, cancel);
  if (IsExplainTool(name)) return RunExplainTool(workspace, arguments, cancel);
  if (IsRunTool(name)) return RunRunTool(workspace, name, arguments, cancel);
  for (const auto& tool : Tools()) {
    if (name != tool.name) continue;
    auto result = tool.call(workspace, arguments, cancel);
    if (!result) return ToolResult{fmt::format("Invalid arguments for {}: {}", name, result.error().message), true};
    return std::move(*result);
  }
  return std::nullopt;
}

bool IsCheapTool(const std::string& name) {
  // These load tables or run many skills: never on the reader thread.
  if (IsTraceTool(name) || IsAnalyzeTool(name) || IsDiffTool(name) || IsExplainTool(name) || IsRunTool(name))
    return false;
  for (const auto& tool : Tools()) {
    if (name == tool.name) return tool.cheap;
  }
  return true;
}

}  // namespace nsys::mcp
