#pragma once
// Internal to nsys_mcp: every MCP tool's handler, bound in bind_tools.cpp. Each reads typed arguments, makes one
// Workspace call and converts its result with server/wire; the table does the rest (tool_table.h).
#include "nsys/protocol/analyze.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/mcp.h"
#include "nsys/protocol/query.h"
#include "tool_table.h"

namespace nsys::mcp {

namespace args = protocol::mcp;

// Profiles and skills (profile_tools.cpp).
Expected<protocol::ProfileSummary> OnOpenProfile(const args::OpenProfileArgs& a, ToolContext& ctx);
Expected<protocol::ProfileSummary> OnProfileInfo(const args::ProfileIdArgs& a, ToolContext& ctx);
Expected<args::ClosedProfile> OnCloseProfile(const args::ProfileIdArgs& a, ToolContext& ctx);
Expected<protocol::ListSkillsResult> OnListSkills(const args::NoArgs& a, ToolContext& ctx);
Expected<protocol::RunSkillResult> OnRunSkill(const args::RunSkillArgs& a, ToolContext& ctx);

// Perfetto traces (trace_tools.cpp).
Expected<protocol::ExportTraceResult> OnExportTrace(const args::ExportTraceArgs& a, ToolContext& ctx);
Expected<protocol::OpenInPerfettoResult> OnOpenInPerfetto(const args::OpenInPerfettoArgs& a, ToolContext& ctx);

// The agent (agent_tools.cpp).
Expected<protocol::AnalyzeResult> OnAnalyze(const args::AnalyzeArgs& a, ToolContext& ctx);
Expected<protocol::DiffResult> OnDiff(const args::DiffArgs& a, ToolContext& ctx);
Expected<protocol::AskResult> OnAsk(const protocol::AskToolArgs& a, ToolContext& ctx);
Expected<protocol::AskResult> OnQuery(const protocol::QueryToolArgs& a, ToolContext& ctx);
Expected<protocol::ExplainKernelResult> OnExplainKernel(const args::ExplainKernelArgs& a, ToolContext& ctx);

// Jobs: the per-rank exports of one multi-process job (job_tools.cpp).
Expected<protocol::OpenJobResult> OnOpenJob(const args::OpenJobArgs& a, ToolContext& ctx);
Expected<protocol::JobReportResult> OnJobReport(const args::JobIdArgs& a, ToolContext& ctx);
Expected<protocol::AnalyzeResult> OnAnalyzeJob(const args::AnalyzeJobArgs& a, ToolContext& ctx);
Expected<args::ClosedJob> OnCloseJob(const args::JobIdArgs& a, ToolContext& ctx);

}  // namespace nsys::mcp
