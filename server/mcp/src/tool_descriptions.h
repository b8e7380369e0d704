#pragma once
// Internal to nsys_mcp: what tools/list tells an agent each tool does (bind_tools.cpp binds them). Arguments are
// described once, by name, in tool_schema.cpp.

namespace nsys::mcp::describe {

inline constexpr const char* kOpenProfile =
    "Open an NVIDIA Nsight Systems profile read-only, a .sqlite export or a .nsys-rep / .qdrep report (converted once "
    "with the installed nsys), and return its profile_id and a summary: devices, processes, time range (capture-clock "
    "ns), tables and capabilities. Pass the id to profile_info and run_skill.";
inline constexpr const char* kProfileInfo =
    "Summary of an open profile: devices, processes, time range (capture-clock ns), tables and capabilities.";
inline constexpr const char* kCloseProfile =
    "Close an open profile: its id stops working, and its memory is freed once no other id of the same file is open. "
    "Close profiles you are done with; the server holds a bounded number.";
inline constexpr const char* kListSkills =
    "List the analyses run_skill can run, with every argument each accepts (name, type, default, whether required, "
    "allowed values) and the nsys report or rule it mirrors.";
inline constexpr const char* kRunSkill =
    "Run one analysis on an open profile. Returns columns, rows, notes (coverage, the window used, caveats) and "
    "declined (true when the profile lacks the data the skill needs; the notes say why).";
inline constexpr const char* kExportTrace =
    "Write a native Perfetto trace (protobuf) of an open profile, or of a window of it: GPU work per GPU and stream, "
    "CUDA API calls and NVTX on their threads, launch arrows, utilisation counters. Returns the file's path, size, "
    "sha256 and counts (slices by kind, tracks, flows). Without output, the file goes to the server's trace cache "
    "(bounded; removed when the server stops).";
inline constexpr const char* kOpenInPerfetto =
    "Write the trace of an open profile, or of an open job (job_id: every rank on the job's aligned clock, a track "
    "group per rank), and serve it on a local, token-protected link (127.0.0.1) that hands it to the Perfetto UI in a "
    "browser on this machine (over SSH, forward the port: see ssh_hint). Give profile_id or job_id. Returns url, "
    "trace_url, port, expires_at and the trace's size.";
inline constexpr const char* kAnalyze =
    "Check an open profile against nsys-ai's Book of Root Causes (launch storms, synchronization, pageable or "
    "synchronous copies, idle GPU, serialized NCCL, stragglers, module loading, allocator pauses, tensor-core use, "
    "iteration outliers, ...). Returns findings ranked by the time at stake, each with severity, evidence rows, what "
    "to do, confidence and a `nsys-ai skill run` command that reproduces it, plus the root causes that could not be "
    "checked on this profile and why.";
inline constexpr const char* kDiff =
    "Compare two open profiles (before → after): a verdict (improved / regressed / neutral) on the median iteration "
    "time or per-call kernel time against a stated noise floor, a comparability score (0..1) with reasons, per-call "
    "and per-iteration deltas of kernels and NVTX ranges, kernels that appear or disappear, GPU idle, communication "
    "overlap and memory operations, and the verdict as an answer with evidence rows and verify commands for both "
    "files.";
inline constexpr const char* kAsk =
    "Ask a question in plain words about an open profile (which kernels take the time, how much memcpy, how many "
    "syncs, why the GPU idles, compare GPU 0 and GPU 1, is X more than Y; devices, pids, time windows and NVTX range "
    "names are understood). Returns the answer (summary, evidence rows with the skill call behind them, confidence, "
    "hypotheses, recommendations, a runnable verify command, or a refusal naming the missing data), the "
    "conversation_id for follow-ups, and the skills used.";
inline constexpr const char* kQuery =
    "Ask typed questions: a list of Query objects (measures such as total, count, share, median, p99, bytes, idle; a "
    "subject: kernels, api, memcpy, memset or nvtx, by a part of the name; a scope: devices, pids, a stream, inside an "
    "NVTX range, a window in seconds; groupBy with rank and limit; a versus side for comparisons). Each is answered "
    "from the event_stats skill: the answer opens with how each Query was read, and every figure is a cell of an "
    "evidence row. Use it when you know exactly what to measure; ask takes plain words.";
inline constexpr const char* kExplainKernel =
    "Explain one CUDA kernel of an open profile: what it is (library, GEMM/attention/elementwise/..., precision, "
    "tile, tensor cores, decoded from its name), its calls, GPU time and share per device, p50/p90, launch overhead, "
    "grid/block/registers/shared memory, an occupancy estimate when the GPU is known, the NVTX ranges that launch it, "
    "and what to look at. Returns the result with a Markdown rendering.";
inline constexpr const char* kOpenJob =
    "Open a job: the per-rank exports of one multi-process job (nsys profile -o rank%q{RANK}) as one, by directory or "
    "files. Nothing loads yet; ranks load when a tool needs them, under a memory budget. Returns job_id and the ranks "
    "(named by file).";
inline constexpr const char* kJobReport =
    "One line per rank (kernels, GPU time, NCCL kernels and time, median step time) and every cross-rank analysis: "
    "clock alignment per node, step times and their spread, stragglers, NCCL per collective, compute/communication "
    "overlap, kernel-time imbalance, the ranks x steps heat map.";
inline constexpr const char* kAnalyzeJob =
    "The causes that only show across ranks, ranked by time at stake: the straggler the others wait for at the "
    "collectives (on the aligned clocks), kernel-time imbalance, step-time spread. Each finding has evidence rows and "
    "a command that reproduces it.";
inline constexpr const char* kCloseJob = "Close a job: its id stops working and its loaded ranks are freed.";

}  // namespace nsys::mcp::describe
