#include "tool_table.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "nsys/protocol/json_parse.h"

namespace nsys::mcp {

using protocol::Json;

Error ToolContext::Refuse(const Error& error) const {
  return MakeError(error.kind, fmt::format("Invalid arguments for {}: {}", tool, error.message));
}

std::string SnakeCase(const std::string& name) {
  std::string snake(protocol::mcp::SnakeCaseSize(name), '\0');
  protocol::mcp::WriteSnakeCase(name, snake.data());
  return snake;
}

Json ToolResultJson(Json result, const char* omit) {
  if (!result.is_object()) return result;
  Json written = Json::object();
  for (auto& [key, value] : result.items()) {
    if (omit != nullptr && key == omit) continue;
    written[SnakeCase(key)] = std::move(value);
  }
  return written;
}

void ToolTable::Alias(std::string old_name, std::string current,
                      std::vector<std::pair<std::string, std::string>> renamed_keys) {
  if (Find(current) == nullptr) throw std::logic_error("alias of an unbound tool: " + current);
  aliases_.emplace(std::move(old_name), AliasOf{std::move(current), std::move(renamed_keys)});
}

const ToolTable::Entry* ToolTable::Find(const std::string& name) const {
  for (const auto& entry : entries_) {
    if (name == entry.name) return &entry;
  }
  auto alias = aliases_.find(name);
  return alias == aliases_.end() ? nullptr : Find(alias->second.current);
}

Json ToolTable::Definitions(const core::Workspace& workspace) const {
  Json tools = Json::array();
  for (const auto& entry : entries_) {
    tools.push_back(
        {{"name", entry.name}, {"description", entry.description}, {"inputSchema", entry.schema(workspace)}});
  }
  return tools;
}

std::optional<ToolResult> ToolTable::Call(const std::string& name, const Json& arguments, ToolContext& ctx) const {
  const Entry* entry = Find(name);
  if (entry == nullptr) return std::nullopt;
  ctx.tool = entry->name;
  auto alias = aliases_.find(name);
  const Json renamed =
      alias == aliases_.end() ? arguments : protocol::WithOldKeysRenamed(arguments, alias->second.renamed_keys);
  auto result = entry->call(renamed, ctx);
  if (!result) return ToolResult{result.error().message, true};
  // Invalid UTF-8 from a profile is replaced, never thrown on.
  const Json written = ToolResultJson(std::move(*result), entry->options.omit);
  return ToolResult{written.dump(-1, ' ', false, Json::error_handler_t::replace), false};
}

bool ToolTable::IsCheap(const std::string& name) const {
  const Entry* entry = Find(name);
  return entry == nullptr || entry->options.cheap;
}

std::vector<std::string> ToolTable::Names() const {
  std::vector<std::string> names;
  for (const auto& entry : entries_) names.emplace_back(entry.name);
  return names;
}

const ToolTable& Tools() {
  static const ToolTable table = [] {
    ToolTable t;
    BindTools(t);
    return t;
  }();
  return table;
}

}  // namespace nsys::mcp
