#include "nsys/wire/converters.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <utility>

#include "nsys/support/path_text.h"

namespace nsys::wire {

int ErrorCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kNotFound:
      return protocol::kInvalidParams;
    case ErrorKind::kBadInput:
    case ErrorKind::kUnsupported:
    case ErrorKind::kLimitExceeded:
      return protocol::kRequestFailed;
    case ErrorKind::kCancelled:
      return protocol::kRequestCancelled;
    case ErrorKind::kInternal:
      return protocol::kInternalError;
  }
  return protocol::kInternalError;
}

protocol::ResponseError ToResponseError(const Error& error) {
  return protocol::ResponseError{ErrorCodeFor(error.kind),
                                 support::QuoteInput(error.message, support::kErrorMessageBytes), nullptr};
}

protocol::ProfileInfo ToProtocolInfo(const engine::ProfileInfo& info) {
  protocol::ProfileInfo out;
  out.source_path = support::PathToText(info.source_path);
  out.file_size = info.file_size;
  out.nsys_version = info.nsys_version;
  out.schema_version = info.schema_version;
  out.start_ns = info.start_ns;
  out.end_ns = info.end_ns;
  out.session_start_utc_ns = info.session_start_utc_ns;
  out.from_cache = info.from_cache;
  out.paged = info.paged;
  out.model_bytes = info.model_bytes;
  const auto& c = info.caps;
  out.capabilities = {{"kernels", c.kernels},
                      {"runtime", c.runtime},
                      {"memcpy", c.memcpy},
                      {"memset", c.memset},
                      {"sync", c.sync},
                      {"nvtx", c.nvtx},
                      {"gpuInfo", c.gpu_info},
                      {"cudaStreams", c.cuda_streams},
                      {"profilerOverhead", c.profiler_overhead},
                      {"osrt", c.osrt},
                      {"enums", c.enums},
                      {"nccl", c.nccl}};
  for (const auto& d : info.devices) {
    out.devices.push_back({d.id, d.name, d.chip, d.total_memory, d.memory_bandwidth, d.sm_count, d.clock_rate});
  }
  for (size_t i = 0; i < info.processes.size() && i < kListedProcesses; ++i) {
    out.processes.push_back({static_cast<int64_t>(info.processes[i].pid), info.processes[i].name});
  }
  out.process_count = static_cast<int64_t>(info.processes.size());
  out.thread_count = static_cast<int64_t>(info.threads.size());
  out.stream_count = static_cast<int64_t>(info.streams.size());
  for (const auto& t : info.tables) out.tables.push_back({t.name, t.rows});
  out.metadata = info.metadata;
  // Rows the loads skipped as damaged, per table; rowsChecked once every event table has loaded.
  const engine::RowChecks::Report checks = info.row_checks ? info.row_checks->Get() : engine::RowChecks::Report{};
  for (const auto& d : checks.tables) {
    out.damaged_rows.push_back({d.table, d.skipped(), d.bad_time, d.bad_span, d.unreadable, d.unnamed});
  }
  out.rows_checked = checks.complete;
  return out;
}

protocol::MappingCoverage ToMappingCoverage(const skills::NvtxCoverage& coverage) {
  return protocol::MappingCoverage{coverage.share, coverage.mapped_ns, coverage.kernel_ns_total};
}

protocol::ProfileSummary ToProfileSummary(const std::string& profile_id, const engine::ProfileInfo& info,
                                          const std::optional<skills::NvtxCoverage>& coverage) {
  protocol::ProfileSummary out{profile_id, support::PathToText(info.path), ToProtocolInfo(info), std::nullopt};
  if (coverage) out.mapping_coverage = ToMappingCoverage(*coverage);
  return out;
}

protocol::ProfileSummary ToProfileSummary(const core::OpenedProfile& opened) {
  return ToProfileSummary(opened.id, opened.info, opened.coverage);
}

protocol::CliProfileSummary ToCliProfileSummary(const core::OpenedProfile& opened) {
  protocol::ProfileSummary summary = ToProfileSummary(opened);
  return {std::move(summary.path), std::move(summary.info), std::move(summary.mapping_coverage)};
}

protocol::ArgDescription DescribeArg(const skills::ArgSpec& spec) {
  protocol::ArgDescription out;
  out.name = spec.name;
  out.type = spec.type;
  out.description = spec.description;
  out.default_value = spec.default_value;
  out.required = spec.required;
  out.choices = spec.choices;
  out.min = spec.min;
  out.max = spec.max;
  return out;
}

protocol::SkillDescription Describe(const skills::Skill& skill) {
  protocol::SkillDescription out;
  out.name = skill.name();
  out.description = skill.description();
  out.reference = skill.reference();
  for (const auto& arg : skill.args()) out.args.push_back(DescribeArg(arg));
  return out;
}

protocol::ListSkillsResult ToListSkillsResult(const std::vector<std::shared_ptr<const skills::Skill>>& skills,
                                              CommonArgs common) {
  protocol::ListSkillsResult result;
  for (const auto& skill : skills) {
    protocol::SkillDescription description = Describe(*skill);
    if (common == CommonArgs::kFolded) {
      description.args.clear();
      for (const auto& spec : skills::AllArgs(*skill)) description.args.push_back(DescribeArg(spec));
    }
    result.skills.push_back(std::move(description));
  }
  if (common == CommonArgs::kSeparate) {
    result.common_args.emplace();
    for (const auto& spec : skills::CommonArgs()) result.common_args->push_back(DescribeArg(spec));
  }
  return result;
}

protocol::RunSkillResult ToRunSkillResult(skills::Table table) {
  protocol::RunSkillResult out;
  for (auto& column : table.columns) {
    out.columns.push_back({std::move(column.name), column.type, std::move(column.description)});
  }
  out.rows = std::move(table.rows);  // Value and protocol::Scalar are the same variant
  out.notes = std::move(table.notes);
  out.declined = table.declined;
  return out;
}

std::vector<protocol::RunSkillPartialResult> StreamRows(protocol::RunSkillResult& result, size_t chunk) {
  chunk = std::max<size_t>(1, chunk);
  auto rows = std::move(result.rows);
  result.rows.clear();
  result.streamed_rows = static_cast<int64_t>(rows.size());
  std::vector<protocol::RunSkillPartialResult> parts;
  for (size_t begin = 0; begin < rows.size(); begin += chunk) {
    protocol::RunSkillPartialResult part;
    if (begin == 0) part.columns = result.columns;
    const size_t end = std::min(rows.size(), begin + chunk);
    part.rows.assign(std::make_move_iterator(rows.begin() + static_cast<std::ptrdiff_t>(begin)),
                     std::make_move_iterator(rows.begin() + static_cast<std::ptrdiff_t>(end)));
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace nsys::wire
