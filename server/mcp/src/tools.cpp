#include "tools.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nsys/protocol/methods.h"
#include "nsys/skills/registry.h"
#include "nsys/wire/converters.h"
#include "trace_tools.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

// A tool input that does not fit the tool's schema; reported to the model as an isError result.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

const char* JsonTypeName(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  return "an object";
}

// Reads the arguments object of one tool, refusing members the tool does not declare.
class Arguments {
 public:
  Arguments(const Json& arguments, const std::string& tool, std::vector<std::string> known) {
    if (arguments.is_null()) {
      args_ = Json::object();
    } else if (!arguments.is_object()) {
      throw InputError(fmt::format("arguments: expected an object, got {}", JsonTypeName(arguments)));
    } else {
      args_ = arguments;
    }
    for (const auto& [key, value] : args_.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string valid;
        for (const auto& k : known) valid += (valid.empty() ? "" : ", ") + k;
        throw InputError(
            fmt::format("unknown argument '{}' for tool {} (valid: {})", key, tool, valid.empty() ? "none" : valid));
      }
    }
  }

  std::string RequiredString(const char* name) const {
    const auto it = args_.find(name);
    if (it == args_.end() || it->is_null())
      throw InputError(fmt::format("arguments.{}: missing required argument", name));
    if (!it->is_string())
      throw InputError(fmt::format("arguments.{}: expected a string, got {}", name, JsonTypeName(*it)));
    return it->get<std::string>();
  }

  std::optional<bool> OptionalBool(const char* name) const {
    const auto it = args_.find(name);
    if (it == args_.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean())
      throw InputError(fmt::format("arguments.{}: expected a boolean, got {}", name, JsonTypeName(*it)));
    return it->get<bool>();
  }

  const Json* Find(const char* name) const {
    const auto it = args_.find(name);
    return it == args_.end() || it->is_null() ? nullptr : &*it;
  }

 private:
  Json args_;
};

Json Property(const char* type, const std::string& description) {
  return {{"type", type}, {"description", description}};
}

Json ObjectSchema(Json properties, std::vector<std::string> required) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

std::string CommonArgsText() {
  std::string text;
  for (const auto& spec : skills::CommonArgs()) {
    text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", spec.name, ValueTypeName(spec.type));
  }
  return text;
}

// ---- the tools ------------------------------------------------------------------------------------------------

// The LSP shape of a profile summary, with the id under the name the MCP tools take it back as.
std::string SummaryText(const std::string& id, const engine::ProfileInfo& info) {
  Json summary = wire::ProfileSummaryJson(id, info);
  summary.erase("profileId");
  summary["profile_id"] = id;
  return Dump(summary);
}

ToolResult OpenProfile(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  const Arguments args(arguments, "open_profile", {"path", "no_cache"});
  const std::string path = args.RequiredString("path");
  engine::OpenOptions options = workspace.config().open;
  if (auto no_cache = args.OptionalBool("no_cache")) options.use_cache = !*no_cache;
  auto opened = workspace.Open(path, options, {}, cancel);
  if (!opened) return {opened.error().message, true};
  return {SummaryText(opened->id, opened->profile->info()), false};
}

ToolResult ProfileInfo(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  const Arguments args(arguments, "profile_info", {"profile_id"});
  const std::string id = args.RequiredString("profile_id");
  auto profile = workspace.Get(id);
  if (!profile) return {profile.error().message, true};
  return {SummaryText(id, (*profile)->info()), false};
}

// Frees the id (and the loaded profile once no other id shares it): a long agent session would otherwise reach the
// workspace's bound on open ids (WorkspaceConfig::max_open_ids) and be refused every later open.
ToolResult CloseProfile(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  const Arguments args(arguments, "close_profile", {"profile_id"});
  const std::string id = args.RequiredString("profile_id");
  if (auto closed = workspace.Close(id); !closed) return {closed.error().message, true};
  return {Dump(Json{{"profile_id", id}, {"closed", true}}), false};
}

protocol::ArgDescription DescribeArg(const skills::ArgSpec& spec) {
  protocol::ArgDescription out{spec.name, wire::ToProtocolType(spec.type), spec.description, spec.default_value,
                               spec.required};
  out.choices = spec.choices;
  return out;
}

ToolResult ListSkills(core::Workspace& workspace, const Json& arguments, const CancelToken&) {
  const Arguments args(arguments, "list_skills", {});
  protocol::ListSkillsResult result;
  for (const auto& skill : workspace.Skills()) {
    protocol::SkillDescription description = wire::Describe(*skill);
    // Agents see every argument run_skill accepts for this skill, the common ones first.
    description.args.clear();
    for (const auto& spec : skills::AllArgs(*skill)) description.args.push_back(DescribeArg(spec));
    result.skills.push_back(std::move(description));
  }
  return {Dump(Json(result)), false};
}

// A JSON argument value as the skill's argument type. Models often send numbers as strings ("5") or integers as
// 5.0: those are converted when the skill declares the argument; anything else is left to the skill runner's
// checks, whose messages name the argument.
Value ToSkillValue(const Json& value, const skills::ArgSpec* spec, const std::string& name) {
  if (value.is_null()) return Value();
  if (value.is_boolean()) return Value(value.get<bool>());
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      throw InputError(fmt::format("arguments.args.{}: integer out of range", name));
    }
    return Value(value.get<int64_t>());
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (spec && spec->type == ValueType::kInt && std::trunc(d) == d && std::fabs(d) < 9007199254740992.0) {
      return Value(static_cast<int64_t>(d));
    }
    return Value(d);
  }
  if (value.is_string()) {
    if (spec && spec->type != ValueType::kString) {
      auto parsed = skills::ParseArgText(*spec, value.get<std::string>());
      if (!parsed) throw InputError(parsed.error().message);
      return parsed.value();
    }
    return Value(value.get<std::string>());
  }
  throw InputError(
      fmt::format("arguments.args.{}: expected a number, string, boolean or null, got {}", name, JsonTypeName(value)));
}

ToolResult RunSkill(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  const Arguments args(arguments, "run_skill", {"profile_id", "skill", "args"});
  const std::string profile_id = args.RequiredString("profile_id");
  const std::string skill_name = args.RequiredString("skill");
  skills::Args skill_args;
  if (const Json* raw = args.Find("args")) {
    if (!raw->is_object())
      throw InputError(fmt::format("arguments.args: expected an object, got {}", JsonTypeName(*raw)));
    std::vector<skills::ArgSpec> specs;
    if (auto skill = workspace.FindSkill(skill_name)) specs = skills::AllArgs(**skill);
    for (const auto& [name, value] : raw->items()) {
      const skills::ArgSpec* spec = nullptr;
      for (const auto& s : specs) {
        if (s.name == name) spec = &s;
      }
      skill_args[name] = ToSkillValue(value, spec, name);
    }
  }
  auto table = workspace.RunSkill(profile_id, skill_name, skill_args, cancel);
  if (!table) return {table.error().message, true};
  return {Dump(Json(wire::ToRunSkillResult(std::move(table.value())))), false};
}

struct Tool {
  const char* name;
  bool cheap;                                                          // see IsCheapTool
  std::function<Json(const core::Workspace&)> description_and_schema;  // {"description", "inputSchema"}
  std::function<ToolResult(core::Workspace&, const Json&, const CancelToken&)> call;
};

const std::vector<Tool>& Tools() {
  static const std::vector<Tool> tools = {
      {"open_profile", false,
       [](const core::Workspace&) {
         return Json{
             {"description",
              "Open an NVIDIA Nsight Systems profile export (.sqlite) read-only and return its profile_id and a "
              "summary: devices, processes, time range (capture-clock ns), tables and capabilities. Pass the id to "
              "profile_info and run_skill."},
             {"inputSchema",
              ObjectSchema({{"path", Property("string",
                                              "Path of the .sqlite export (absolute, or relative to the "
                                              "server's working directory).")},
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
  return tools;
}

std::optional<ToolResult> RunTool(core::Workspace& workspace, core::TracePublisher* publisher, const std::string& name,
                                  const protocol::Json& arguments, const CancelToken& cancel) {
  if (IsTraceTool(name)) return RunTraceTool(workspace, publisher, name, arguments, cancel);
  for (const auto& tool : Tools()) {
    if (name != tool.name) continue;
    try {
      return tool.call(workspace, arguments, cancel);
    } catch (const InputError& e) {
      return ToolResult{fmt::format("Invalid arguments for {}: {}", name, e.what()), true};
    }
  }
  return std::nullopt;
}

bool IsCheapTool(const std::string& name) {
  if (IsTraceTool(name)) return false;
  for (const auto& tool : Tools()) {
    if (name == tool.name) return tool.cheap;
  }
  return true;
}

}  // namespace nsys::mcp
