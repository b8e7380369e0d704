#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "commands.h"
#include "nsys/support/human_bytes.h"
#include "nsys/support/human_numbers.h"
#include "nsys/wire/converters.h"
#include "open_profile.h"
#include "table_format.h"

namespace nsys::cli {
namespace {

// Rows the loads skipped as damaged (or left unnamed), per table; known for every table once all have loaded.
std::string DamagedRowsText(const engine::ProfileInfo& info) {
  const engine::RowChecks::Report report = info.row_checks ? info.row_checks->Get() : engine::RowChecks::Report{};
  std::string out;
  if (report.tables.empty()) {
    out = report.complete ? "none" : "not checked yet (tables are checked as they load; `--check` loads them now)";
  } else {
    int64_t skipped = 0;
    for (const auto& d : report.tables) skipped += d.skipped();
    out = fmt::format("{} skipped{}", support::Thousands(skipped),
                      report.complete ? "" : " so far (not every table loaded)");
  }
  for (const auto& d : report.tables) out += fmt::format("\n{:<13}  {}: {}", "", d.table, d.Describe());
  return out;
}

std::string RenderInfo(const engine::ProfileInfo& info, const std::optional<skills::NvtxCoverage>& coverage) {
  std::string out;
  auto line = [&out](std::string_view key, const std::string& value) { out += fmt::format("{:<13}{}\n", key, value); };
  line("File", fmt::format("{} ({})", info.path, support::HumanBytes(info.file_size)));
  if (info.source_path != info.path && !info.source_path.empty()) line("Source", info.source_path);
  line("Nsight", fmt::format("{} (export schema {})", info.nsys_version.empty() ? "unknown" : info.nsys_version,
                             info.schema_version.empty() ? "unknown" : info.schema_version));
  line("Duration", fmt::format("{:.6f} s (capture clock {} to {} ns)",
                               static_cast<double>(info.end_ns - info.start_ns) / 1e9, info.start_ns, info.end_ns));
  std::string devices = fmt::format("{}", info.devices.size());
  for (const auto& d : info.devices) {
    devices += fmt::format("\n{:<13}  GPU {}: {}", "", d.id, d.name.empty() ? "(no name in the export)" : d.name);
    if (d.sm_count > 0) {
      devices +=
          fmt::format(", {} SMs{}", d.sm_count, d.sm_count_from_model ? " (its model's: the export does not say)" : "");
    }
    if (d.total_memory > 0) devices += fmt::format(", {}", support::HumanBytes(d.total_memory));
  }
  line("Devices", devices);
  std::string processes = fmt::format("{}", info.processes.size());
  for (size_t i = 0; i < info.processes.size() && i < 10; ++i) {
    const std::string& name = info.processes[i].name;
    processes +=
        fmt::format("\n{:<13}  pid {}: {}", "", info.processes[i].pid, name.empty() ? "(no name in the export)" : name);
  }
  if (info.processes.size() > 10) processes += fmt::format("\n{:<13}  ... and {} more", "", info.processes.size() - 10);
  line("Processes", processes);
  line("Threads", fmt::format("{}", info.threads.size()));
  line("Streams", fmt::format("{}", info.streams.size()));
  const auto& c = info.caps;
  std::string caps;
  auto cap = [&caps](bool present, const char* name) {
    if (present) caps += (caps.empty() ? "" : " ") + std::string(name);
  };
  cap(c.kernels, "kernels"), cap(c.runtime, "cuda-api"), cap(c.memcpy, "memcpy"), cap(c.memset, "memset");
  cap(c.sync, "sync"), cap(c.nvtx, "nvtx"), cap(c.gpu_info, "gpu-info"), cap(c.cuda_streams, "streams");
  cap(c.profiler_overhead, "overhead"), cap(c.osrt, "osrt"), cap(c.nccl, "nccl");
  line("Contents", caps.empty() ? "(no GPU or NVTX activity)" : caps);
  std::string tables;
  for (const auto& t : info.tables) {
    // ENUM_* tables are lookup tables of the export format: listed by `--format json`, not here.
    if (t.rows > 0 && t.name.rfind("ENUM_", 0) != 0) {
      tables += fmt::format("\n{:<13}  {:<44} {:>12}", "", t.name, support::Thousands(t.rows));
    }
  }
  line("Tables",
       fmt::format("{} ({} with rows){}", info.tables.size(),
                   std::count_if(info.tables.begin(), info.tables.end(), [](const auto& t) { return t.rows > 0; }),
                   tables));
  line("Damaged rows", DamagedRowsText(info));
  line("NVTX mapping",
       coverage ? fmt::format("{:.1f}% of kernel time launched inside an innermost range of one kernel per call ({} of "
                              "{} ns)",
                              100.0 * coverage->share, coverage->mapped_ns, coverage->kernel_ns_total)
                : std::string("not computed (`--check` loads the tables it needs)"));
  line("From cache", info.from_cache ? "yes" : "no");
  line("Memory", fmt::format("{} of columns{}", support::HumanBytes(info.model_bytes),
                             info.paged ? ", paged from the cache directory (over half the memory budget)" : ""));
  return out;
}

int RunInfo(const CommandContext& ctx) {
  const auto format_value = FormatValue(ctx.args, kTableOrJson);
  if (!format_value) return UsageError("info", format_value.error().message);
  const auto format = ParseOutputFormat(*format_value);
  core::Workspace workspace(ctx.config);
  auto opened = OpenWithProgress(workspace, ctx.args.positionals()[0]);
  if (!opened) return FailWith(opened.error());
  if (ctx.args.Has("--check")) {
    // Every event table loaded, so that the damaged-row counts cover the whole export, and the NVTX mapping coverage.
    opened = workspace.CheckTables(opened->id, {}, TerminalProgress("checking"));
    ClearTerminalProgress();
    if (!opened) return FailWith(opened.error());
  }
  const auto& info = opened->info;
  if (*format == OutputFormat::kJson) {
    std::printf("%s\n", JsonText(protocol::Json(wire::ToCliProfileSummary(*opened))).c_str());
  } else {
    PrintText(RenderInfo(info, opened->coverage));
  }
  return kExitOk;
}

}  // namespace

Command InfoCommand() {
  Command command;
  command.name = "info";
  command.synopsis = "FILE [--format table|json] [--check]";
  command.summary = "describe a profile: versions, duration, devices, processes, tables";
  command.options = {FormatOption(kTableOrJson),
                     {"--check", 0, "",
                      "load every event table, count the rows skipped as damaged, compute the NVTX mapping coverage"}};
  command.min_positionals = command.max_positionals = 1;
  command.run = RunInfo;
  return command;
}

}  // namespace nsys::cli
