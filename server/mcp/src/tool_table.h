#pragma once
// Internal to nsys_mcp: the table every MCP tool is bound in (bind_tools.cpp), shaped like the LSP face's
// MethodTable. A tool is `Expected<Result> OnX(const Args&, ToolContext&)` (tool_handlers.h): the table reads its
// arguments (protocol::mcp::ParseToolArgs<Args>), derives its input schema from Args::Fields() (tool_schema.h),
// converts its result struct to JSON and writes the result's members in snake_case. Nothing else renames.
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/core/traces.h"
#include "nsys/core/workspace.h"
#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/mcp.h"
#include "nsys/support/cancel.h"
#include "tool_schema.h"

namespace nsys::mcp {

struct ToolResult {
  std::string text;  // compact JSON on success, a full sentence on failure
  bool is_error = false;
};

// What a handler may use besides its arguments.
struct ToolContext {
  core::Workspace& workspace;
  core::TracePublisher* publisher;  // nullptr: open_in_perfetto fails
  const CancelToken& cancel;
  const char* tool;  // the tool's name
  // A refusal of arguments the handler has read (their conversion to a core request failed), worded as a reading
  // error is: "Invalid arguments for <tool>: <message>".
  Error Refuse(const Error& error) const;
};

struct ToolOptions {
  // The reader thread runs the tool itself: it answers in well under a millisecond whatever the profile (no loading,
  // no analysis). Every other tool runs on a worker. Set from the capability's row, never by the bind line.
  bool cheap = false;
  // A result member the agent does not get (analyze's markdown: the structured findings, not their text twice).
  const char* omit = nullptr;
};

class ToolTable {
 public:
  // The tool of a capability (protocol/capabilities.h): its name, description and lane come from the row of
  // `method`, the editor method it shares its core call with. A method without a tool in the catalogue throws
  // std::logic_error.
  template <typename Args, typename Result>
  void Tool(std::string_view method, Expected<Result> (*handler)(const Args&, ToolContext&), ToolOptions options = {}) {
    const protocol::Capability* row = protocol::CapabilityOfMethod(method);
    if (!row || row->tool.empty())
      throw std::logic_error("no MCP tool in the capability row of " + std::string(method));
    const char* name = row->tool.data();  // the catalogue's literals: NUL-terminated, static
    options.cheap = row->cheap;
    entries_.push_back({name, row->summary.data(), options, &InputSchema<Args>,
                        [handler, name](const protocol::Json& arguments, ToolContext& ctx) -> Expected<protocol::Json> {
                          auto args = protocol::mcp::ParseToolArgs<Args>(arguments, name);
                          if (!args) return ctx.Refuse(args.error());
                          auto result = handler(*args, ctx);
                          if (!result) return result.error();
                          return protocol::Json(std::move(*result));
                        }});
  }

  // An old name of a bound tool, called as `current` with each of `renamed_keys`' old argument keys read as its new
  // one (when the new key is absent). Never listed: agents discover the current names.
  void Alias(std::string old_name, std::string current, std::vector<std::pair<std::string, std::string>> renamed_keys);

  // The tools/list "tools" array: name, description and inputSchema of each tool, in binding order.
  protocol::Json Definitions(const core::Workspace& workspace) const;
  // Runs the named tool; nullopt when no tool has that name.
  std::optional<ToolResult> Call(const std::string& name, const protocol::Json& arguments, ToolContext& ctx) const;
  // Unknown names are cheap: they are refused at once.
  bool IsCheap(const std::string& name) const;
  std::vector<std::string> Names() const;

 private:
  struct Entry {
    const char* name;
    const char* description;
    ToolOptions options;
    protocol::Json (*schema)(const core::Workspace&);
    std::function<Expected<protocol::Json>(const protocol::Json&, ToolContext&)> call;
  };
  struct AliasOf {
    std::string current;
    std::vector<std::pair<std::string, std::string>> renamed_keys;
  };
  const Entry* Find(const std::string& name) const;
  std::vector<Entry> entries_;
  std::map<std::string, AliasOf> aliases_;
};

// Binds every tool (bind_tools.cpp).
void BindTools(ToolTable& t);
// The product's table, bound once.
const ToolTable& Tools();

// A result as the agent reads it: an object's own members renamed from the editor protocol's camelCase to
// snake_case by the rule that names the tools' arguments (protocol::mcp::WriteSnakeCase: profileId -> profile_id,
// memoryBudgetBytes -> memory_budget_bytes), `omit` left out. Nested objects keep the spelling docs/protocol.md
// gives them under the editor method: their keys may be data (column, table or kernel names), which no rename may
// touch.
protocol::Json ToolResultJson(protocol::Json result, const char* omit);
std::string SnakeCase(const std::string& name);

}  // namespace nsys::mcp
