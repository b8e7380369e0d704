#include "nsys/wire/converters.h"

#include <cmath>
#include <utility>

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
  return protocol::ResponseError{ErrorCodeFor(error.kind), error.message, nullptr};
}

protocol::ProfileInfo ToProtocolInfo(const engine::ProfileInfo& info) {
  protocol::ProfileInfo out;
  out.source_path = info.source_path;
  out.file_size = info.file_size;
  out.nsys_version = info.nsys_version;
  out.schema_version = info.schema_version;
  out.start_ns = info.start_ns;
  out.end_ns = info.end_ns;
  out.session_start_utc_ns = info.session_start_utc_ns;
  out.from_cache = info.from_cache;
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
  out.thread_count = static_cast<int64_t>(info.threads.size());
  out.stream_count = static_cast<int64_t>(info.streams.size());
  for (const auto& t : info.tables) out.tables.push_back({t.name, t.rows});
  out.metadata = info.metadata;
  return out;
}

protocol::Json ProfileSummaryJson(const std::string& profile_id, const engine::ProfileInfo& info) {
  protocol::ProfileSummary summary{profile_id, info.path, ToProtocolInfo(info)};
  protocol::Json json = summary;
  json["info"]["processCount"] = info.processes.size();
  // Rows the loads skipped as damaged, per table (issue 8); rowsChecked once every event table has loaded.
  const engine::RowChecks::Report checks = info.row_checks ? info.row_checks->Get() : engine::RowChecks::Report{};
  protocol::Json damaged = protocol::Json::array();
  for (const auto& d : checks.tables) {
    damaged.push_back({{"table", d.table},
                       {"skipped", d.skipped()},
                       {"badTime", d.bad_time},
                       {"badSpan", d.bad_span},
                       {"unreadable", d.unreadable},
                       {"unnamed", d.unnamed}});
  }
  json["info"]["damagedRows"] = std::move(damaged);
  json["info"]["rowsChecked"] = checks.complete;
  return json;
}

protocol::ValueType ToProtocolType(ValueType type) {
  switch (type) {
    case ValueType::kInt:
      return protocol::ValueType::kInt;
    case ValueType::kDouble:
      return protocol::ValueType::kDouble;
    case ValueType::kString:
      return protocol::ValueType::kString;
    case ValueType::kBool:
      return protocol::ValueType::kBool;
  }
  return protocol::ValueType::kString;
}

protocol::ArgDescription DescribeArg(const skills::ArgSpec& spec) {
  protocol::ArgDescription out;
  out.name = spec.name;
  out.type = ToProtocolType(spec.type);
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

protocol::RunSkillResult ToRunSkillResult(skills::Table table) {
  protocol::RunSkillResult out;
  for (auto& column : table.columns) {
    out.columns.push_back({std::move(column.name), ToProtocolType(column.type), std::move(column.description)});
  }
  out.rows = std::move(table.rows);  // Value and protocol::Scalar are the same variant
  out.notes = std::move(table.notes);
  out.declined = table.declined;
  return out;
}

protocol::Json RowJson(const std::vector<Value>& row) {
  protocol::Json cells = protocol::Json::array();
  for (const auto& cell : row) cells.push_back(protocol::ScalarToJson(cell));
  return cells;
}

}  // namespace nsys::wire
