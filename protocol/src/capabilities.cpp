// The capability catalogue (capabilities.h): every row's names, description and lane.
#include "nsys/protocol/capabilities.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "nsys/protocol/analyze.h"
#include "nsys/protocol/annotation_plan.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/documents.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/job.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/nvtx_tree.h"
#include "nsys/protocol/query.h"
#include "nsys/protocol/shape.h"
#include "nsys/protocol/sources.h"

namespace nsys::protocol {
namespace {

// The summaries are the tools/list descriptions agents have read since each tool was added; a change to one is a
// change to what agents are told.
constexpr Capability kCatalogue[] = {
    {.method = method::kOpenProfile,
     .tool = "open_profile",
     .verb = "info FILE",
     .summary = "Open an NVIDIA Nsight Systems profile read-only, a .sqlite export or a .nsys-rep / .qdrep report "
                "(converted once with the installed nsys), and return its profile_id and a summary: devices, "
                "processes, time range (capture-clock ns), tables and capabilities. Pass the id to profile_info and "
                "run_skill.",
     .progress = "Opening profile",
     .cheap = false,
     .params = &ShapeOf<OpenProfileParams>,
     .result = &ShapeOf<ProfileSummary>},
    {.method = method::kCloseProfile,
     .tool = "close_profile",
     .verb = "",
     .summary = "Close an open profile: its id stops working, and its memory is freed once no other id of the same "
                "file is open. Close profiles you are done with; the server holds a bounded number.",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<ProfileIdParams>,
     .result = &ShapeOf<NullResult>},
    {.method = method::kProfileInfo,
     .tool = "profile_info",
     .verb = "info FILE",
     .summary = "Summary of an open profile: devices, processes, time range (capture-clock ns), tables and "
                "capabilities.",
     .progress = "",
     .cheap = true,
     .params = &ShapeOf<ProfileIdParams>,
     .result = &ShapeOf<ProfileSummary>},
    {.method = method::kListSkills,
     .tool = "list_skills",
     .verb = "skill list",
     .summary = "List the analyses run_skill can run, with every argument each accepts (name, type, default, whether "
                "required, allowed values) and the nsys report or rule it mirrors.",
     .progress = "",
     .cheap = true,
     .params = &ShapeOf<EmptyParams>,
     .result = &ShapeOf<ListSkillsResult>},
    {.method = method::kRunSkill,
     .tool = "run_skill",
     .verb = "skill run",
     .summary = "Run one analysis on an open profile. Returns columns, rows, notes (coverage, the window used, "
                "caveats) and declined (true when the profile lacks the data the skill needs; the notes say why).",
     .progress = "Running skill",
     .cheap = false,
     .params = &ShapeOf<RunSkillParams>,
     .result = &ShapeOf<RunSkillResult>},
    {.method = method::kReloadSkills,
     .tool = "",
     .verb = "",
     .summary = "Re-read the user skill folders (the default ones, --skill-dir folders and the client's skillDirs) "
                "and return how many skills there are, with a warning per file that could not be loaded.",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<EmptyParams>,
     .result = &ShapeOf<ReloadSkillsResult>},
    {.method = method::kOpenJob,
     .tool = "open_job",
     .verb = "job-report DIR",
     .summary = "Open a job: the per-rank exports of one multi-process job (nsys profile -o rank%q{RANK}) as one, by "
                "directory or files. Nothing loads yet; ranks load when a tool needs them, under a memory budget. "
                "Returns job_id and the ranks (named by file).",
     .progress = "Opening job",
     .cheap = false,
     .params = &ShapeOf<OpenJobParams>,
     .result = &ShapeOf<OpenJobResult>},
    {.method = method::kCloseJob,
     .tool = "close_job",
     .verb = "",
     .summary = "Close a job: its id stops working and its loaded ranks are freed.",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<JobIdParams>,
     .result = &ShapeOf<NullResult>},
    {.method = method::kRunSkillOnJob,
     .tool = "",
     .verb = "",
     .summary = "Run one analysis on every rank of an open job: the skill's table with a first column naming the "
                "rank, rows in rank order.",
     .progress = "Running skill on every rank",
     .cheap = false,
     .params = &ShapeOf<RunSkillOnJobParams>,
     .result = &ShapeOf<RunSkillResult>},
    {.method = method::kJobReport,
     .tool = "job_report",
     .verb = "job-report DIR",
     .summary = "One line per rank (kernels, GPU time, NCCL kernels and time, median step time) and every cross-rank "
                "analysis: clock alignment per node, step times and their spread, stragglers, NCCL per collective, "
                "compute/communication overlap, kernel-time imbalance, the ranks x steps heat map.",
     .progress = "Reporting job",
     .cheap = false,
     .params = &ShapeOf<JobIdParams>,
     .result = &ShapeOf<JobReportResult>},
    {.method = method::kExportJobTrace,
     .tool = "",
     .verb = "job-trace DIR",
     .summary = "Write every rank of an open job into one Perfetto trace on the job's aligned clock, a track group "
                "per rank, and return the file's path, size and counts.",
     .progress = "Writing the job's trace",
     .cheap = false,
     .params = &ShapeOf<ExportJobTraceParams>,
     .result = &ShapeOf<ExportJobTraceResult>},
    {.method = method::kAnalyzeJob,
     .tool = "analyze_job",
     .verb = "analyze DIR",
     .summary = "The causes that only show across ranks, ranked by time at stake: the straggler the others wait for "
                "at the collectives (on the aligned clocks), kernel-time imbalance, step-time spread. Each finding "
                "has evidence rows and a command that reproduces it.",
     .progress = "Analyzing job",
     .cheap = false,
     .params = &ShapeOf<AnalyzeJobParams>,
     .result = &ShapeOf<AnalyzeResult>},
    {.method = method::kExportTrace,
     .tool = "export_trace",
     .verb = "export FILE",
     .summary = "Write a native Perfetto trace (protobuf) of an open profile, or of a window of it: GPU work per GPU "
                "and stream, CUDA API calls and NVTX on their threads, launch arrows, utilisation counters. Returns "
                "the file's path, size, sha256 and counts (slices by kind, tracks, flows). Without output, the file "
                "goes to the server's trace cache (bounded; removed when the server stops).",
     .progress = "Exporting trace",
     .cheap = false,
     .params = &ShapeOf<ExportTraceParams>,
     .result = &ShapeOf<ExportTraceResult>},
    {.method = method::kOpenInPerfetto,
     .tool = "open_in_perfetto",
     .verb = "perfetto FILE",
     .summary = "Write the trace of an open profile, or of an open job (job_id: every rank on the job's aligned "
                "clock, a track group per rank), and serve it on a local, token-protected link (127.0.0.1) that hands "
                "it to the Perfetto UI in a browser on this machine (over SSH, forward the port: see ssh_hint). Give "
                "profile_id or job_id. Returns url, trace_url, port, expires_at and the trace's size.",
     .progress = "Opening in Perfetto",
     .cheap = false,
     .params = &ShapeOf<OpenInPerfettoParams>,
     .result = &ShapeOf<OpenInPerfettoResult>},
    {.method = method::kAnalyze,
     .tool = "analyze",
     .verb = "analyze FILE",
     .summary = "Check an open profile against nsys-ai's Book of Root Causes (launch storms, synchronization, "
                "pageable or synchronous copies, idle GPU, serialized NCCL, stragglers, module loading, allocator "
                "pauses, tensor-core use, iteration outliers, ...). Returns findings ranked by the time at stake, "
                "each with severity, evidence rows, what to do, confidence and a `nsys-ai skill run` command that "
                "reproduces it, plus the root causes that could not be checked on this profile and why.",
     .progress = "Analyzing",
     .cheap = false,
     .params = &ShapeOf<AnalyzeParams>,
     .result = &ShapeOf<AnalyzeResult>},
    {.method = method::kDiff,
     .tool = "diff",
     .verb = "diff BEFORE AFTER",
     .summary =
         "Compare two open profiles (before \u2192 after): a verdict (improved / regressed / neutral) on the median "
         "iteration time or per-call kernel time against a stated noise floor, a comparability score (0..1) "
         "with reasons, per-call and per-iteration deltas of kernels and NVTX ranges, kernels that appear or "
         "disappear, GPU idle, communication overlap and memory operations, and the verdict as an answer with "
         "evidence rows and verify commands for both files.",
     .progress = "Comparing profiles",
     .cheap = false,
     .params = &ShapeOf<DiffParams>,
     .result = &ShapeOf<DiffResult>},
    {.method = method::kAsk,
     .tool = "ask",
     .verb = "ask FILE QUESTION",
     .summary = "Ask a question in plain words about an open profile (which kernels take the time, how much memcpy, "
                "how many syncs, why the GPU idles, compare GPU 0 and GPU 1, is X more than Y; devices, pids, time "
                "windows and NVTX range names are understood). Returns the answer (summary, evidence rows with the "
                "skill call behind them, confidence, hypotheses, recommendations, a runnable verify command, or a "
                "refusal naming the missing data), the conversation_id for follow-ups, and the skills used.",
     .progress = "Answering",
     .cheap = false,
     .params = &ShapeOf<AskParams>,
     .result = &ShapeOf<AskResult>},
    {.method = method::kQuery,
     .tool = "query",
     .verb = "ask FILE --query JSON",
     .summary = "Ask typed questions: a list of Query objects (measures such as total, count, share, median, p99, "
                "bytes, idle; a subject: kernels, api, memcpy, memset or nvtx, by a part of the name; a scope: "
                "devices, pids, a stream, inside an NVTX range, a window in seconds; groupBy with rank and limit; a "
                "versus side for comparisons). Each is answered from the event_stats skill: the answer opens with how "
                "each Query was read, and every figure is a cell of an evidence row. Use it when you know exactly "
                "what to measure; ask takes plain words.",
     .progress = "Answering",
     .cheap = false,
     .params = &ShapeOf<QueryParams>,
     .result = &ShapeOf<AskResult>},
    {.method = method::kExplainKernel,
     .tool = "explain_kernel",
     .verb = "explain FILE KERNEL",
     .summary = "Explain one CUDA kernel of an open profile: what it is (library, GEMM/attention/elementwise/..., "
                "precision, tile, tensor cores, decoded from its name), its calls, GPU time and share per device, "
                "p50/p90, launch overhead, grid/block/registers/shared memory, an occupancy estimate when the GPU is "
                "known, the NVTX ranges that launch it, and what to look at. Returns the result with a Markdown "
                "rendering.",
     .progress = "Explaining kernel",
     .cheap = false,
     .params = &ShapeOf<ExplainKernelParams>,
     .result = &ShapeOf<ExplainKernelResult>},
    {.method = method::kNvtxTree,
     .tool = "",
     .verb = "",
     .summary = "One level of an open profile's NVTX hierarchy, read lazily for an editor tree view: first the "
                "threads, then the children of the node the client expands, each with its time, calls and GPU time.",
     .progress = "Reading NVTX ranges",
     .cheap = false,
     .params = &ShapeOf<NvtxTreeParams>,
     .result = &ShapeOf<NvtxTreeResult>},
    {.method = method::kReport,
     .tool = "",
     .verb = "",
     .summary = "An open profile as one text document for an editor buffer: the summary, the top kernels and the "
                "findings, with the spans of kernel and finding names that hover explains.",
     .progress = "Rendering report",
     .cheap = false,
     .params = &ShapeOf<ReportParams>,
     .result = &ShapeOf<ReportResult>},
    {.method = method::kHover,
     .tool = "",
     .verb = "",
     .summary = "On a report document, explain the kernel or the finding under the cursor (the kernel's explanation "
                "with its source locations when the session has sources).",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<HoverParams>,
     .result = &ShapeOf<HoverResult>},
    {.method = method::kCodeLens,
     .tool = "",
     .verb = "",
     .summary = "On a source file, one lens per annotated NVTX range name with its GPU time and calls in the active "
                "profile, and a lens on every range name that never ran.",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<CodeLensParams>,
     .result = &ShapeOf<CodeLensResult>},
    {.method = method::kExecuteCommand,
     .tool = "",
     .verb = "",
     .summary = "Run a lens's command: open the range instance's window in Perfetto and name the range's top kernels.",
     .progress = "Revealing range",
     .cheap = false,
     .params = &ShapeOf<ExecuteCommandParams>,
     .result = &ShapeOf<RevealRangeResult>},
    {.method = method::kKernelSources,
     .tool = "",
     .verb = "",
     .summary = "The source locations of the innermost annotated NVTX ranges that launch a kernel, each with the "
                "kernel's GPU time, launches and share inside it.",
     .progress = "Finding kernel sources",
     .cheap = false,
     .params = &ShapeOf<KernelSourcesParams>,
     .result = &ShapeOf<KernelSourcesResult>},
    {.method = method::kAnnotationPlan,
     .tool = "",
     .verb = "suggest FILE",
     .summary = "The NVTX refinement loop's next step: the innermost ranges that launch more than one kernel, most "
                "GPU time first, where the sources name each, the edit that adds finer ranges inside it and the "
                "command to profile again.",
     .progress = "Planning NVTX refinement",
     .cheap = false,
     .params = &ShapeOf<AnnotationPlanParams>,
     .result = &ShapeOf<AnnotationPlanResult>},
    {.method = method::kCodeAction,
     .tool = "",
     .verb = "",
     .summary = "On a Python, C/C++ or CUDA source file, the refinement loop's edits at the selection as code actions "
                "that add finer NVTX ranges.",
     .progress = "",
     .cheap = false,
     .params = &ShapeOf<CodeActionParams>,
     .result = &ShapeOf<CodeActionResult>},
};

// The summary up to the end of its first sentence (". " followed by a capital letter), for the table.
std::string_view FirstSentence(std::string_view text) {
  for (size_t at = text.find(". "); at != std::string_view::npos; at = text.find(". ", at + 1)) {
    if (at + 2 < text.size() && text[at + 2] >= 'A' && text[at + 2] <= 'Z') return text.substr(0, at + 1);
  }
  return text;
}

std::string Cell(std::string_view text) {
  if (text.empty()) return "";
  return "`" + std::string(text) + "`";
}

}  // namespace

std::span<const Capability> Capabilities() {
  return kCatalogue;
}

const Capability* CapabilityOfMethod(std::string_view method) {
  const auto* it = std::find_if(std::begin(kCatalogue), std::end(kCatalogue),
                                [method](const Capability& c) { return c.method == method; });
  return it == std::end(kCatalogue) ? nullptr : it;
}

const Capability* CapabilityOfTool(std::string_view tool) {
  if (tool.empty()) return nullptr;
  const auto* it = std::find_if(std::begin(kCatalogue), std::end(kCatalogue),
                                [tool](const Capability& c) { return c.tool == tool; });
  return it == std::end(kCatalogue) ? nullptr : it;
}

std::string CapabilityTableMarkdown() {
  std::string out = "| Editor method | MCP tool | CLI | What it does |\n|---|---|---|---|\n";
  for (const auto& c : kCatalogue) {
    std::string anchor(c.method);
    anchor.erase(std::remove_if(anchor.begin(), anchor.end(), [](char ch) { return ch == '/' || ch == '$'; }),
                 anchor.end());
    std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                   [](char ch) { return static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch); });
    out += "| [`" + std::string(c.method) + "`](#" + anchor + ") | " + Cell(c.tool) + " | " + Cell(c.verb) + " | " +
           std::string(FirstSentence(c.summary)) + " |\n";
  }
  return out;
}

}  // namespace nsys::protocol
