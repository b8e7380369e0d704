// Readers of the MCP params and tool arguments (nsys/protocol/mcp.h), on the same ObjectReader as methods.cpp.
#include "nsys/protocol/mcp.h"

#include <algorithm>

#include "json_read.h"

namespace nsys::protocol::mcp {

namespace {
constexpr auto kToolArguments = ObjectReader::Style::kToolArguments;
}  // namespace

Status CheckArgNames(const Json& arguments, const std::string& tool, const std::vector<std::string>& known) {
  if (!arguments.is_object()) return {};
  for (const auto& [key, value] : arguments.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string valid;
    for (const auto& k : known) valid += (valid.empty() ? "" : ", ") + k;
    return MakeError(ErrorKind::kInvalidArgument, "unknown argument '" + key + "' for tool " + tool +
                                                      " (valid: " + (valid.empty() ? "none" : valid) + ")");
  }
  return {};
}

void FromJson(const Json& j, InitializeParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("protocolVersion", out.protocol_version);
  // clientInfo is only logged: a malformed one is ignored rather than refused.
  if (const Json* info = r.Find("clientInfo"); info && info->is_object()) {
    if (const auto name = info->find("name"); name != info->end() && name->is_string()) {
      out.client_name = name->get<std::string>();
    }
  }
}

void FromJson(const Json& j, CallToolParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  const Json* arguments = r.Find("arguments");
  out.arguments = arguments ? *arguments : Json();
}

void FromJson(const Json& j, OpenProfileArgs& out, const std::string& path) {
  ObjectReader r(j, path, kToolArguments);
  r.Required("path", out.path);
  r.Optional("no_cache", out.no_cache);
}

void FromJson(const Json& j, ProfileIdArgs& out, const std::string& path) {
  ObjectReader(j, path, kToolArguments).Required("profile_id", out.profile_id);
}

void FromJson(const Json& j, NoArgs&, const std::string& path) {
  ObjectReader(j, path, kToolArguments);
}

void FromJson(const Json& j, RunSkillArgs& out, const std::string& path) {
  ObjectReader r(j, path, kToolArguments);
  r.Required("profile_id", out.profile_id);
  r.Required("skill", out.skill);
  r.OptionalOr("args", out.args);
}

}  // namespace nsys::protocol::mcp
