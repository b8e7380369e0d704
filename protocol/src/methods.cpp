// Conversions of the nsys/ methods' params and results.
#include "nsys/protocol/methods.h"

#include <cmath>
#include <string>
#include <utility>

#include "by_fields.h"
#include "json_read.h"

namespace nsys::protocol {
namespace {

constexpr std::pair<const char*, WindowClock> kClockNames[] = {{"relative_s", WindowClock::kRelativeSeconds},
                                                               {"capture_ns", WindowClock::kCaptureNs}};
constexpr std::pair<const char*, ValueType> kValueTypeNames[] = {{"int", ValueType::kInt},
                                                                 {"double", ValueType::kDouble},
                                                                 {"string", ValueType::kString},
                                                                 {"bool", ValueType::kBool}};

Json RowsToJson(const std::vector<std::vector<Scalar>>& rows) {
  Json out = Json::array();
  for (const auto& row : rows) out.push_back(RowToJson(row));
  return out;
}

}  // namespace

Json RowToJson(const std::vector<Scalar>& row) {
  Json cells = Json::array();
  for (const auto& cell : row) cells.push_back(ScalarToJson(cell));
  return cells;
}

void FromJson(const Json& j, WindowClock& out, const std::string& path) {
  out = ReadEnum(j, path, kClockNames);
}
void FromJson(const Json& j, ValueType& out, const std::string& path) {
  out = ReadEnum(j, path, kValueTypeNames);
}
std::string_view ToString(WindowClock clock) {
  return EnumName(clock, kClockNames);
}
std::string_view ToString(ValueType type) {
  return EnumName(type, kValueTypeNames);
}

NSYS_CONVERSIONS_BY_FIELDS(Window)

void FromJson(const Json& j, Filter& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("window", out.window);
  r.Optional("devices", out.devices);
  r.Optional("processes", out.processes);
  r.Optional("threads", out.threads);
  const auto non_negative = [&r](const char* key, const std::optional<std::vector<int64_t>>& ids) {
    for (size_t i = 0; ids && i < ids->size(); ++i) {
      if ((*ids)[i] < 0) FailAt(IndexPath(r.PathOf(key), i), "must not be negative");
    }
  };
  non_negative("processes", out.processes);
  non_negative("threads", out.threads);
}
void to_json(Json& j, const Filter& v) {
  j = Json::object();
  SetIfPresent(j, "window", v.window);
  SetIfPresent(j, "devices", v.devices);
  SetIfPresent(j, "processes", v.processes);
  SetIfPresent(j, "threads", v.threads);
}

void FromJson(const Json& j, OpenProfileParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("path", out.path);
  if (out.path.empty()) FailAt(r.PathOf("path"), "must not be empty");
  r.Optional("noCache", out.no_cache);
}
void to_json(Json& j, const OpenProfileParams& v) {
  WriteFields(j, v);
}

NSYS_CONVERSIONS_BY_FIELDS(ProfileIdParams)
NSYS_CONVERSIONS_BY_FIELDS(EmptyParams)

void FromJson(const Json& j, NullResult&, const std::string& path) {
  // Parse reads an absent (null) value as {}: both stand for "no result".
  if (!j.is_null() && !(j.is_object() && j.empty())) FailExpected(j, path, "null");
}
void to_json(Json& j, const NullResult&) {
  j = nullptr;
}

NSYS_CONVERSIONS_BY_FIELDS(DeviceInfo)
NSYS_CONVERSIONS_BY_FIELDS(ProcessInfo)
NSYS_CONVERSIONS_BY_FIELDS(TableRows)
NSYS_CONVERSIONS_BY_FIELDS(DamagedRows)

void FromJson(const Json& j, ProfileInfo& out, const std::string& path) {
  ObjectReader r(j, path);
  r.OptionalOr("sourcePath", out.source_path);
  r.OptionalOr("fileSize", out.file_size);
  r.OptionalOr("nsysVersion", out.nsys_version);
  r.OptionalOr("schemaVersion", out.schema_version);
  r.Required("startNs", out.start_ns);
  r.Required("endNs", out.end_ns);
  r.OptionalOr("sessionStartUtcNs", out.session_start_utc_ns);
  r.OptionalOr("fromCache", out.from_cache);
  r.OptionalOr("paged", out.paged);
  r.OptionalOr("modelBytes", out.model_bytes);
  r.OptionalOr("capabilities", out.capabilities);
  r.OptionalOr("devices", out.devices);
  r.OptionalOr("processes", out.processes);
  r.OptionalOr("processCount", out.process_count);
  r.OptionalOr("threadCount", out.thread_count);
  r.OptionalOr("streamCount", out.stream_count);
  r.OptionalOr("tables", out.tables);
  r.OptionalOr("metadata", out.metadata);
  r.OptionalOr("damagedRows", out.damaged_rows);
  r.OptionalOr("rowsChecked", out.rows_checked);
}
void to_json(Json& j, const ProfileInfo& v) {
  j = Json::object();
  j["sourcePath"] = v.source_path;
  j["fileSize"] = v.file_size;
  j["nsysVersion"] = v.nsys_version;
  j["schemaVersion"] = v.schema_version;
  j["startNs"] = v.start_ns;
  j["endNs"] = v.end_ns;
  j["durationNs"] = v.end_ns - v.start_ns;  // derived, for readers; ignored when parsing
  j["sessionStartUtcNs"] = v.session_start_utc_ns;
  j["fromCache"] = v.from_cache;
  j["paged"] = v.paged;
  j["modelBytes"] = v.model_bytes;
  j["capabilities"] = v.capabilities;
  j["devices"] = v.devices;
  j["processes"] = v.processes;
  j["processCount"] = v.process_count;
  j["threadCount"] = v.thread_count;
  j["streamCount"] = v.stream_count;
  j["tables"] = v.tables;
  j["metadata"] = v.metadata;
  j["damagedRows"] = v.damaged_rows;
  j["rowsChecked"] = v.rows_checked;
}

NSYS_CONVERSIONS_BY_FIELDS(MappingCoverage)

void FromJson(const Json& j, ProfileSummary& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Required("path", out.path);
  r.Required("info", out.info);
  r.Optional("mappingCoverage", out.mapping_coverage);
}
void to_json(Json& j, const ProfileSummary& v) {
  j = {{"profileId", v.profile_id}, {"path", v.path}, {"info", v.info}, {"mappingCoverage", nullptr}};
  if (v.mapping_coverage) j["mappingCoverage"] = *v.mapping_coverage;
}

void FromJson(const Json& j, CliProfileSummary& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("path", out.path);
  r.Required("info", out.info);
  r.Optional("mappingCoverage", out.mapping_coverage);
}
void to_json(Json& j, const CliProfileSummary& v) {
  j = {{"path", v.path}, {"info", v.info}, {"mappingCoverage", nullptr}};
  if (v.mapping_coverage) j["mappingCoverage"] = *v.mapping_coverage;
}

void FromJson(const Json& j, ArgDescription& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  r.Required("type", out.type);
  r.OptionalOr("description", out.description);
  r.OptionalOr("default", out.default_value);
  r.OptionalOr("required", out.required);
  r.OptionalOr("choices", out.choices);
  r.Optional("min", out.min);
  r.Optional("max", out.max);
}
void to_json(Json& j, const ArgDescription& v) {
  j = {{"name", v.name},
       {"type", std::string(ToString(v.type))},
       {"description", v.description},
       {"default", ScalarToJson(v.default_value)},
       {"required", v.required}};
  if (!v.choices.empty()) j["choices"] = v.choices;
  // An int argument's bounds are written as integers ("min": 0, not 0.0).
  auto bound = [&](const char* key, const std::optional<double>& b) {
    if (!b) return;
    if (v.type == ValueType::kInt && std::trunc(*b) == *b && std::fabs(*b) < 9.0e15) {
      j[key] = static_cast<int64_t>(*b);
    } else {
      j[key] = *b;
    }
  };
  bound("min", v.min);
  bound("max", v.max);
}

NSYS_CONVERSIONS_BY_FIELDS(SkillDescription)
NSYS_CONVERSIONS_BY_FIELDS(ListSkillsResult)
NSYS_CONVERSIONS_BY_FIELDS(RunSkillParams)

void FromJson(const Json& j, ColumnDescription& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("name", out.name);
  r.Required("type", out.type);
  r.OptionalOr("description", out.description);
}
void to_json(Json& j, const ColumnDescription& v) {
  j = {{"name", v.name}, {"type", std::string(ToString(v.type))}};
  if (!v.description.empty()) j["description"] = v.description;
}

void FromJson(const Json& j, RunSkillResult& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("columns", out.columns);
  r.Required("rows", out.rows);
  for (size_t i = 0; i < out.rows.size(); ++i) {
    if (out.rows[i].size() != out.columns.size()) {
      FailAt(IndexPath(r.PathOf("rows"), i), "expected " + std::to_string(out.columns.size()) +
                                                 " cells (one per column), got " + std::to_string(out.rows[i].size()));
    }
  }
  r.OptionalOr("notes", out.notes);
  r.OptionalOr("declined", out.declined);
  r.Optional("streamedRows", out.streamed_rows);
}
void to_json(Json& j, const RunSkillResult& v) {
  j = {{"columns", v.columns}, {"rows", RowsToJson(v.rows)}, {"notes", v.notes}, {"declined", v.declined}};
  SetIfPresent(j, "streamedRows", v.streamed_rows);
}

NSYS_CONVERSIONS_BY_FIELDS(RunSkillPartialResult)
NSYS_CONVERSIONS_BY_FIELDS(ReloadSkillsResult)

void FromJson(const Json& j, ExportTraceParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Required("profileId", out.profile_id);
  r.Optional("filter", out.filter);
  r.Optional("window", out.window);
  r.Optional("devices", out.devices);
  r.Optional("pids", out.pids);
  r.Optional("minDurationNs", out.min_duration_ns);
  if (out.min_duration_ns && *out.min_duration_ns < 0) FailAt(r.PathOf("minDurationNs"), "must not be negative");
  r.Optional("gzip", out.gzip);
  r.Optional("output", out.output);
}
void to_json(Json& j, const ExportTraceParams& v) {
  WriteFields(j, v);
}

NSYS_CONVERSIONS_BY_FIELDS(TraceSliceCounts)
NSYS_CONVERSIONS_BY_FIELDS(TraceValidationResult)
NSYS_CONVERSIONS_BY_FIELDS(ExportTraceResult)

void FromJson(const Json& j, OpenInPerfettoParams& out, const std::string& path) {
  ObjectReader r(j, path);
  r.Optional("jobId", out.job_id);
  if (!out.job_id) r.Optional("runId", out.job_id);  // its name before "job" named the multi-rank noun
  if (out.job_id) {
    r.OptionalOr("profileId", out.profile_id);
  } else {
    r.Required("profileId", out.profile_id);
  }
  r.Optional("window", out.window);
  r.Optional("ranksPerNode", out.ranks_per_node);
}
void to_json(Json& j, const OpenInPerfettoParams& v) {
  j = Json::object();
  if (!v.profile_id.empty() || !v.job_id) j["profileId"] = v.profile_id;
  SetIfPresent(j, "jobId", v.job_id);
  SetIfPresent(j, "window", v.window);
  SetIfPresent(j, "ranksPerNode", v.ranks_per_node);
}

NSYS_CONVERSIONS_BY_FIELDS(OpenInPerfettoResult)

}  // namespace nsys::protocol
