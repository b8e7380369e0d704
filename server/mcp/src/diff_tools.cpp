#include "diff_tools.h"

#include <fmt/format.h>

#include "nsys/protocol/diff.h"
#include "nsys/protocol/mcp.h"
#include "nsys/wire/diff.h"

namespace nsys::mcp {
namespace {

using protocol::Json;

constexpr const char* kDiffTool = "diff";

ToolResult Diff(core::Workspace& workspace, const Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::DiffArgs>(arguments, kDiffTool);
  if (!args) return {fmt::format("Invalid arguments for {}: {}", kDiffTool, args.error().message), true};
  auto options = wire::ToDiffOptions(args->phase_map, args->max_rows, "arguments.max_rows", args->metric);
  if (!options) return {fmt::format("Invalid arguments for {}: {}", kDiffTool, options.error().message), true};
  auto report = workspace.Diff(args->base_profile_id, args->new_profile_id, *options, cancel);
  if (!report) return {report.error().message, true};
  return {Json(wire::ToProtocolDiff(*report)).dump(-1, ' ', false, Json::error_handler_t::replace), false};
}

}  // namespace

protocol::Json DiffToolDefinitions() {
  Json schema = {
      {"type", "object"},
      {"properties",
       {{"base_profile_id", Property("string", "The id open_profile returned for the base (before) profile.")},
        {"new_profile_id", Property("string", "The id open_profile returned for the new (after) profile.")},
        {"phase_map", Property("string",
                               "JSON text mapping phase names to NVTX range patterns (substrings, or \"re:\" "
                               "regexes), e.g. {\"prefill\": [\"prefill\"], \"decode\": [\"re:^decode\"]}.")},
        {"max_rows", Property("integer",
                              "Kernels and NVTX ranges listed per class (shared, appeared, "
                              "disappeared); 0 = all. Default 15.")},
        {"metric", Property("string",
                            "The measure the verdict covers: step (the median iteration time), gpu (the GPU work "
                            "per step), or kernel:NAME (one kernel's time per call). Default: step and gpu.")}}},
      {"additionalProperties", false},
      {"required", Json::array({"base_profile_id", "new_profile_id"})}};
  return Json::array(
      {{{"name", kDiffTool},
        {"description",
         "Compare two open profiles (before → after): a verdict (improved / regressed / neutral) on the median "
         "iteration time or per-call kernel time against a stated noise floor, a comparability score (0..1) with "
         "reasons, per-call and per-iteration deltas of kernels and NVTX ranges, kernels that appear or disappear, "
         "GPU idle, communication overlap and memory operations, and the verdict as an answer with evidence rows and "
         "verify commands for both files."},
        {"inputSchema", std::move(schema)}}});
}

bool IsDiffTool(const std::string& name) {
  return name == kDiffTool;
}

std::optional<ToolResult> RunDiffTool(core::Workspace& workspace, const std::string& name,
                                      const protocol::Json& arguments, const CancelToken& cancel) {
  if (!IsDiffTool(name)) return std::nullopt;
  return Diff(workspace, arguments, cancel);
}

}  // namespace nsys::mcp
