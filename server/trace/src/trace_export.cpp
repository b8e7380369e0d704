// Public entry points: option checks, table loading through the engine, and the atomic file export.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "nsys/trace/trace_output.h"
#include "nsys/trace/trace_writer.h"
#include "trace_builder.h"

namespace nsys::trace {

Expected<TraceStats> WriteTrace(const TraceInput& input, const TraceOptions& options, const ChunkSink& sink,
                                const CancelToken& cancel, const ProgressSink& progress) {
  if (input.info == nullptr || input.strings == nullptr) {
    return MakeError(ErrorKind::kInvalidArgument, "The trace writer needs the profile's info and string table.");
  }
  if (!sink) return MakeError(ErrorKind::kInvalidArgument, "The trace writer needs somewhere to write.");
  const engine::ResolvedWindow& window = options.filter.window;
  if (!window.whole && window.end <= window.begin) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("The trace window is empty: it ends ({} ns) at or before it starts ({} ns).",
                                 window.end, window.begin));
  }
  if (!options.filter.threads.empty()) {
    return MakeError(ErrorKind::kUnsupported,
                     "The trace writer cannot select threads; leave the filter's threads empty.");
  }
  if (options.min_duration_ns < 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("The minimum duration must not be negative (got {} ns).", options.min_duration_ns));
  }
  if (options.counter_bucket_ns < 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("The counter bucket must not be negative (got {} ns).", options.counter_bucket_ns));
  }
  internal::TraceBuilder builder(input, options, sink);
  return builder.Run(cancel, progress);
}

engine::Need NeedsFor(const TraceOptions& options) {
  engine::Need needs = engine::Need::kKernels;  // also for the device filter of a CPU-only trace
  if (options.gpu) needs = needs | engine::Need::kMemcpy | engine::Need::kMemset;
  if (options.cpu) needs = needs | engine::Need::kRuntime | engine::Need::kNvtx;
  if (options.gpu && options.cpu && options.flows) needs = needs | engine::Need::kAttribution;
  return needs;
}

Expected<TraceStats> ExportTrace(engine::Profile& profile, const TraceOptions& options, const ChunkSink& sink,
                                 const CancelToken& cancel, const ProgressSink& progress) {
  ProgressSink load_progress;
  ProgressSink write_progress;
  if (progress) {
    load_progress = [&](double pct, const std::string& msg) { progress(pct / 2, msg); };
    write_progress = [&](double pct, const std::string& msg) { progress(50 + pct / 2, msg); };
  }
  const engine::Need needs = NeedsFor(options);
  if (Status loaded = profile.Require(needs, cancel, load_progress); !loaded.ok()) return loaded.error();

  TraceInput input;
  input.info = &profile.info();
  input.strings = &profile.strings();
  if (engine::Has(needs, engine::Need::kKernels)) {
    input.kernels = &profile.kernels();
    input.graphs = &profile.graphs();  // loaded with the kernels
  }
  if (engine::Has(needs, engine::Need::kMemcpy)) input.memcpys = &profile.memcpys();
  if (engine::Has(needs, engine::Need::kMemset)) input.memsets = &profile.memsets();
  if (engine::Has(needs, engine::Need::kRuntime)) input.runtime = &profile.runtime();
  if (engine::Has(needs, engine::Need::kNvtx)) {
    input.nvtx = &profile.nvtx();
    input.nvtx_marks = &profile.nvtx_marks();
  }
  return WriteTrace(input, options, sink, cancel, write_progress);
}

OutputPolicy WithProfile(OutputPolicy policy, const engine::Profile& profile) {
  for (const std::string* path : {&profile.info().path, &profile.info().source_path}) {
    if (auto id = FileIdOf(*path)) policy.profiles.push_back(*id);
  }
  return policy;
}

Expected<TraceStats> ExportTraceToFile(engine::Profile& profile, const TraceOptions& options, const std::string& path,
                                       const CancelToken& cancel, const ProgressSink& progress,
                                       const OutputPolicy& policy) {
  const OutputPolicy guarded = WithProfile(policy, profile);
  auto target = CheckTraceOutput(path, guarded);
  if (!target) return target.error();
  auto writer = TraceFileWriter::Create(std::move(*target), guarded);
  if (!writer) return writer.error();
  Expected<TraceStats> stats = ExportTrace(
      profile, options, [&](std::string_view chunk) { return writer->Write(chunk); }, cancel, progress);
  if (!stats) return stats;  // the writer removes its temporary file
  if (Status moved = writer->Commit(); !moved.ok()) return moved.error();
  return stats;
}

}  // namespace nsys::trace
