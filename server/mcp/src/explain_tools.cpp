#include "explain_tools.h"

#include <fmt/format.h>

#include "nsys/protocol/explain.h"
#include "nsys/protocol/mcp.h"
#include "nsys/wire/explain.h"

namespace nsys::mcp {

namespace {
constexpr const char* kTool = "explain_kernel";
}  // namespace

protocol::Json ExplainToolDefinition() {
  using protocol::Json;
  return {
      {"name", kTool},
      {"description",
       "Explain one CUDA kernel of an open profile: what it is (library, GEMM/attention/elementwise/..., "
       "precision, tile, tensor cores, decoded from its name), its calls, GPU time and share per device, p50/p90, "
       "launch overhead, grid/block/registers/shared memory, an occupancy estimate when the GPU is known, the "
       "NVTX ranges that launch it, and what to look at. Returns the result with a Markdown rendering."},
      {"inputSchema",
       {{"type", "object"},
        {"properties",
         {{"profile_id", {{"type", "string"}, {"description", "The id open_profile returned (\"p1\")."}}},
          {"kernel",
           {{"type", "string"},
            {"description",
             "The kernel: its demangled name, its short name, or a unique part of the name (case-insensitive)."}}}}},
        {"additionalProperties", false},
        {"required", Json::array({"profile_id", "kernel"})}}}};
}

bool IsExplainTool(const std::string& name) {
  return name == kTool;
}

ToolResult RunExplainTool(core::Workspace& workspace, const protocol::Json& arguments, const CancelToken& cancel) {
  auto args = protocol::mcp::ParseToolArgs<protocol::mcp::ExplainKernelArgs>(arguments, kTool);
  if (!args) return {fmt::format("Invalid arguments for {}: {}", kTool, args.error().message), true};
  auto explanation = workspace.ExplainKernel(args->profile_id, args->kernel, cancel);
  if (!explanation) return {explanation.error().message, true};
  const protocol::Json result = wire::ToExplainKernelResult(*explanation);
  return {result.dump(-1, ' ', false, protocol::Json::error_handler_t::replace), false};
}

}  // namespace nsys::mcp
