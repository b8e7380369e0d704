#pragma once
// Typed params and results of nsys-ai's methods (all under "nsys/"), and the LSP base types the server uses.
//
// Reading: Parse<T>(json, "params") returns the value, or an nsys::Error (kInvalidArgument) whose message names the
// bad field by its JSON path ("params.window.start: expected a number"); it never throws. Writing: ADL to_json, so
// `Json j = value;` works. Most structs list their JSON members once, in WireFields() (wire_fields.h), and their
// reader and writer follow from that list; the others say why theirs are hand-written.
//
// Conventions: protocol field names are camelCase (LSP); skill column and argument names stay snake_case. Unknown
// members are ignored (clients send more than we read). An optional member that is null counts as absent. Params
// that are absent altogether (null) read as {} so that the error names the missing field. Integers may be sent as
// integral floats (1e9); numbers that do not fit the field are refused.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/wire_fields.h"
#include "nsys/support/expected.h"
#include "nsys/support/value.h"

namespace nsys::protocol {

// Method names, for the bind table and the docs test.
namespace method {
inline constexpr std::string_view kOpenProfile = "nsys/openProfile";
inline constexpr std::string_view kCloseProfile = "nsys/closeProfile";
inline constexpr std::string_view kProfileInfo = "nsys/profileInfo";
inline constexpr std::string_view kListSkills = "nsys/listSkills";
inline constexpr std::string_view kRunSkill = "nsys/runSkill";
inline constexpr std::string_view kReloadSkills = "nsys/reloadSkills";
inline constexpr std::string_view kExportTrace = "nsys/exportTrace";
inline constexpr std::string_view kOpenInPerfetto = "nsys/openInPerfetto";
inline constexpr std::string_view kAnalyze = "nsys/analyze";
inline constexpr std::string_view kDiff = "nsys/diff";
inline constexpr std::string_view kAsk = "nsys/ask";
inline constexpr std::string_view kQuery = "nsys/query";
inline constexpr std::string_view kExplainKernel = "nsys/explainKernel";
inline constexpr std::string_view kNvtxTree = "nsys/nvtxTree";
inline constexpr std::string_view kReport = "nsys/report";
}  // namespace method

// A skill argument or a table cell. Same alternatives as the engine's Value, so converting is a copy.
using Scalar = std::variant<std::monostate, bool, int64_t, double, std::string>;
Json ScalarToJson(const Scalar& value);
// A table row: one JSON value per cell (NaN and infinities become null: JSON cannot carry them). The one row
// conversion: results, partial results and the CLI's --format json all go through it.
Json RowToJson(const std::vector<Scalar>& row);

// ---- nsys/ methods --------------------------------------------------------------------------------------------

// {start?: number, end?: number, clock?: "relative_s" | "capture_ns"}; clock defaults to relative_s (seconds from
// the profile start). Whether start < end and lies inside the profile is the engine's check, not the parser's.
enum class WindowClock { kRelativeSeconds, kCaptureNs };
struct Window {
  std::optional<double> start;
  std::optional<double> end;
  WindowClock clock = WindowClock::kRelativeSeconds;
  static constexpr auto WireFields() {
    using S = Window;
    return std::tuple{Field("start", &S::start), Field("end", &S::end), OptionalField("clock", &S::clock)};
  }
  bool operator==(const Window&) const = default;
};

// What a request looks at: one shape for skills and traces. An absent or empty member means "all"; devices are CUDA
// device ids, processes are pids, threads are global thread ids (as in the export). A consumer that cannot honour
// a member says so (an error naming it) rather than ignoring it.
// Hand-written reader and writer: processes and threads must not be negative.
struct Filter {
  std::optional<Window> window;
  std::optional<std::vector<int32_t>> devices;
  std::optional<std::vector<int64_t>> processes;
  std::optional<std::vector<int64_t>> threads;
  bool operator==(const Filter&) const = default;
};

// Written by its field list; hand-written reader: path must not be empty, checked before noCache is read. Its members
// are listed for the open_profile tool (mcp.h).
struct OpenProfileParams {  // nsys/openProfile
  std::string path;
  std::optional<bool> no_cache;
  static constexpr auto WireFields() {
    using S = OpenProfileParams;
    return std::tuple{Field("path", &S::path), Field("noCache", &S::no_cache)};
  }
  bool operator==(const OpenProfileParams&) const = default;
};

struct ProfileIdParams {  // nsys/closeProfile (result null), nsys/profileInfo
  std::string profile_id;
  static constexpr auto WireFields() {
    using S = ProfileIdParams;
    return std::tuple{Field("profileId", &S::profile_id)};
  }
  bool operator==(const ProfileIdParams&) const = default;
};
using CloseProfileParams = ProfileIdParams;
using ProfileInfoParams = ProfileIdParams;

struct EmptyParams {  // nsys/listSkills, nsys/reloadSkills: {} or absent
  static constexpr auto WireFields() { return std::tuple{}; }
  bool operator==(const EmptyParams&) const = default;
};

// Hand-written reader and writer: null, not an object.
struct NullResult {                  // the result of shutdown and nsys/closeProfile: JSON null
  using WireShape = std::monostate;  // its JSON (shape.h)
  bool operator==(const NullResult&) const = default;
};

struct DeviceInfo {
  int32_t id = 0;
  std::string name;
  std::string chip;
  int64_t total_memory = 0;      // bytes, 0 when unknown
  int64_t memory_bandwidth = 0;  // bytes/s, 0 when unknown
  int32_t sm_count = 0;
  int64_t clock_rate = 0;
  static constexpr auto WireFields() {
    using S = DeviceInfo;
    return std::tuple{Field("id", &S::id),
                      OptionalField("name", &S::name),
                      OptionalField("chip", &S::chip),
                      OptionalField("totalMemory", &S::total_memory),
                      OptionalField("memoryBandwidth", &S::memory_bandwidth),
                      OptionalField("smCount", &S::sm_count),
                      OptionalField("clockRate", &S::clock_rate)};
  }
  bool operator==(const DeviceInfo&) const = default;
};

struct ProcessInfo {
  int64_t pid = 0;
  std::string name;
  static constexpr auto WireFields() {
    using S = ProcessInfo;
    return std::tuple{Field("pid", &S::pid), OptionalField("name", &S::name)};
  }
  bool operator==(const ProcessInfo&) const = default;
};

struct TableRows {
  std::string name;
  int64_t rows = 0;
  static constexpr auto WireFields() {
    using S = TableRows;
    return std::tuple{Field("name", &S::name), Field("rows", &S::rows)};
  }
  bool operator==(const TableRows&) const = default;
};

// Rows one event table's load skipped as damaged (docs/protocol.md, "Damaged rows").
struct DamagedRows {
  std::string table;
  int64_t skipped = 0;  // the sum of the four reasons
  int64_t bad_time = 0;
  int64_t bad_span = 0;
  int64_t unreadable = 0;
  int64_t unnamed = 0;
  static constexpr auto WireFields() {
    using S = DamagedRows;
    return std::tuple{Field("table", &S::table),
                      OptionalField("skipped", &S::skipped),
                      OptionalField("badTime", &S::bad_time),
                      OptionalField("badSpan", &S::bad_span),
                      OptionalField("unreadable", &S::unreadable),
                      OptionalField("unnamed", &S::unnamed)};
  }
  bool operator==(const DamagedRows&) const = default;
};

// Hand-written reader and writer: writes the derived durationNs.
struct ProfileInfo {
  std::string source_path;  // what the user gave (may be a .nsys-rep)
  int64_t file_size = 0;
  std::string nsys_version;
  std::string schema_version;
  int64_t start_ns = 0;  // capture clock
  int64_t end_ns = 0;
  int64_t session_start_utc_ns = 0;
  bool from_cache = false;
  bool paged = false;       // the tables are paged by the OS (the export's model is over half the memory budget)
  int64_t model_bytes = 0;  // what the event tables' columns take ("modelBytes")
  std::map<std::string, bool> capabilities;  // {"kernels": true, "nvtx": false, ...}
  std::vector<DeviceInfo> devices;
  std::vector<ProcessInfo> processes;  // the first wire::kListedProcesses of them
  int64_t process_count = 0;           // all of them ("processCount")
  int64_t thread_count = 0;
  int64_t stream_count = 0;
  std::vector<TableRows> tables;
  std::map<std::string, std::string> metadata;
  std::vector<DamagedRows> damaged_rows;  // "damagedRows": tables whose loads skipped rows, so far
  bool rows_checked = false;              // "rowsChecked": every event table has loaded, damagedRows is final
  bool operator==(const ProfileInfo&) const = default;
};

// The share of kernel time launched inside an innermost NVTX range whose calls each launch exactly one
// kernel ({share, mappedNs, kernelNs}).
struct MappingCoverage {
  double share = 0;  // mappedNs / kernelNs; 0 without kernels
  int64_t mapped_ns = 0;
  int64_t kernel_ns = 0;  // all kernel time
  static constexpr auto WireFields() {
    using S = MappingCoverage;
    return std::tuple{Field("share", &S::share), Field("mappedNs", &S::mapped_ns), Field("kernelNs", &S::kernel_ns)};
  }
  bool operator==(const MappingCoverage&) const = default;
};

// Hand-written reader and writer: writes mappingCoverage as null when absent.
struct ProfileSummary {  // result of nsys/openProfile and nsys/profileInfo: {profileId, path, info, mappingCoverage}
  std::string profile_id;
  std::string path;  // as opened (the .sqlite)
  ProfileInfo info;
  // "mappingCoverage": null until computed (the warm-up computes it once the attribution tables have loaded;
  // profileInfo never loads them).
  std::optional<MappingCoverage> mapping_coverage;
  bool operator==(const ProfileSummary&) const = default;
};
using OpenProfileResult = ProfileSummary;
using ProfileInfoResult = ProfileSummary;
// The CLI's `info --format json`: a ProfileSummary without the session's handle (profileId), which a one-shot
// command has none of: {path, info, mappingCoverage}.
// Hand-written reader and writer: writes mappingCoverage as null when absent.
struct CliProfileSummary {
  std::string path;
  ProfileInfo info;
  std::optional<MappingCoverage> mapping_coverage;  // "mappingCoverage", null until computed (`info --check`)
  bool operator==(const CliProfileSummary&) const = default;
};

using ValueType = ::nsys::ValueType;  // "int" | "double" | "string" | "bool" (support/value.h)

// Hand-written reader and writer: type by name, choices left out when empty, an int argument's bounds written as
// integers.
struct ArgDescription {
  std::string name;  // snake_case
  ValueType type = ValueType::kString;
  std::string description;
  Scalar default_value;  // "default": null when there is none
  bool required = false;
  std::vector<std::string> choices = {};  // string arguments: the allowed values; written only when non-empty
  std::optional<double> min = {};         // numeric arguments: inclusive bounds; written only when set
  std::optional<double> max = {};
  bool operator==(const ArgDescription&) const = default;
};

struct SkillDescription {
  std::string name;
  std::string description;
  std::vector<ArgDescription> args;
  std::string reference;  // the nsys report or rule it mirrors, "" when none
  static constexpr auto WireFields() {
    using S = SkillDescription;
    return std::tuple{Field("name", &S::name), OptionalField("description", &S::description),
                      OptionalField("args", &S::args), OptionalField("reference", &S::reference)};
  }
  bool operator==(const SkillDescription&) const = default;
};

struct ListSkillsResult {  // nsys/listSkills
  std::vector<SkillDescription> skills;
  // The arguments every skill accepts (device, pid, window). nsys/listSkills sends them; MCP's
  // list_skills folds them into each skill's args instead, so they are written only when present.
  std::optional<std::vector<ArgDescription>> common_args;
  static constexpr auto WireFields() {
    using S = ListSkillsResult;
    return std::tuple{Field("skills", &S::skills), Field("commonArgs", &S::common_args)};
  }
  bool operator==(const ListSkillsResult&) const = default;
};

struct RunSkillParams {  // nsys/runSkill
  std::string profile_id;
  std::string skill;
  std::map<std::string, Scalar> args;  // snake_case names; values are scalars
  // Also accepted: the common args device/pid/start/end/clock in `args`; naming the same thing both ways is an
  // error (wire::FilterToSkillArgs).
  std::optional<Filter> filter;
  static constexpr auto WireFields() {
    using S = RunSkillParams;
    return std::tuple{Field("profileId", &S::profile_id), Field("skill", &S::skill), OptionalField("args", &S::args),
                      Field("filter", &S::filter)};
  }
  bool operator==(const RunSkillParams&) const = default;
};

// Hand-written reader and writer: type by name, description left out when empty.
struct ColumnDescription {
  std::string name;  // snake_case
  ValueType type = ValueType::kString;
  std::string description;  // omitted from JSON when empty
  bool operator==(const ColumnDescription&) const = default;
};

// Hand-written reader and writer: checks that every row has one cell per column.
struct RunSkillResult {
  std::vector<ColumnDescription> columns;
  std::vector<std::vector<Scalar>> rows;  // each row has one cell per column; empty when streamed
  std::vector<std::string> notes;
  bool declined = false;
  // "streamedRows": set when the rows went out as partial results ($/progress on the partialResultToken) rather
  // than here: how many rows were sent.
  std::optional<int64_t> streamed_rows;
  bool operator==(const RunSkillResult&) const = default;
};

// One partial result of nsys/runSkill (the value of a $/progress on its partialResultToken): the first carries the
// columns, each carries up to ServerOptions::partial_result_rows rows.
struct RunSkillPartialResult {
  std::optional<std::vector<ColumnDescription>> columns;
  std::vector<std::vector<Scalar>> rows;
  static constexpr auto WireFields() {
    using S = RunSkillPartialResult;
    return std::tuple{Field("columns", &S::columns), Field("rows", &S::rows)};
  }
  bool operator==(const RunSkillPartialResult&) const = default;
};

struct ReloadSkillsResult {  // nsys/reloadSkills
  int64_t skill_count = 0;
  std::vector<std::string> warnings;  // user skill files that could not be loaded, and why
  static constexpr auto WireFields() {
    using S = ReloadSkillsResult;
    return std::tuple{Field("skillCount", &S::skill_count), OptionalField("warnings", &S::warnings)};
  }
  bool operator==(const ReloadSkillsResult&) const = default;
};

// Written by its field list; hand-written reader: minDurationNs must not be negative, checked before gzip and output
// are read. Its members are listed for the export_trace tool (mcp.h).
struct ExportTraceParams {  // nsys/exportTrace
  std::string profile_id;
  std::optional<Filter> filter;  // the one filter shape; window/devices/pids below stay accepted
  std::optional<Window> window;
  std::optional<std::vector<int32_t>> devices;
  std::optional<std::vector<int64_t>> pids;
  std::optional<int64_t> min_duration_ns;
  std::optional<bool> gzip;
  std::optional<std::string> output;  // a file path to write; absent = the server picks one in its cache
  static constexpr auto WireFields() {
    using S = ExportTraceParams;
    return std::tuple{Field("profileId", &S::profile_id),
                      Field("filter", &S::filter),
                      Field("window", &S::window),
                      Field("devices", &S::devices),
                      Field("pids", &S::pids),
                      Field("minDurationNs", &S::min_duration_ns),
                      Field("gzip", &S::gzip),
                      Field("output", &S::output)};
  }
  bool operator==(const ExportTraceParams&) const = default;
};

// Slices written, by kind (exportTrace's `slices`).
struct TraceSliceCounts {
  int64_t kernels = 0;
  int64_t memcpys = 0;
  int64_t memsets = 0;
  int64_t cuda_api = 0;
  int64_t nvtx_ranges = 0;
  int64_t nvtx_marks = 0;
  static constexpr auto WireFields() {
    using S = TraceSliceCounts;
    return std::tuple{OptionalField("kernels", &S::kernels),        OptionalField("memcpys", &S::memcpys),
                      OptionalField("memsets", &S::memsets),        OptionalField("cudaApi", &S::cuda_api),
                      OptionalField("nvtxRanges", &S::nvtx_ranges), OptionalField("nvtxMarks", &S::nvtx_marks)};
  }
  bool operator==(const TraceSliceCounts&) const = default;
};

// `nsys-ai export --validate --format json`: the written trace read back through the validator.
struct TraceValidationResult {
  bool ok = false;
  std::string summary;
  static constexpr auto WireFields() {
    using S = TraceValidationResult;
    return std::tuple{Field("ok", &S::ok), OptionalField("summary", &S::summary)};
  }
  bool operator==(const TraceValidationResult&) const = default;
};

struct ExportTraceResult {
  int64_t bytes = 0;
  std::string sha256;  // lower-case hex of the bytes written
  bool gzip = false;   // always false: traces are written uncompressed (a gzip request gets a note)
  std::optional<std::string> path;
  std::vector<std::string> notes;  // the window used, clamped events, ...
  // The writer's counts: the server always sends them (optional so that older results still parse).
  std::optional<int64_t> packets;
  std::optional<int64_t> tracks;
  std::optional<TraceSliceCounts> slices;
  std::optional<int64_t> flows;
  std::optional<int64_t> counter_values;
  std::optional<int64_t> clamped_slices;
  std::optional<int64_t> skipped_short;
  std::optional<std::string> window;  // the window's description
  std::optional<double> seconds;      // wall time of the write, to the millisecond
  std::optional<double> cpu_seconds;
  std::optional<bool> streamed;  // the bytes came as partial results (no `path`)
  // Only `nsys-ai export --format json`:
  std::optional<double> open_seconds;
  std::optional<double> load_seconds;
  std::optional<TraceValidationResult> validation;
  static constexpr auto WireFields() {
    using S = ExportTraceResult;
    return std::tuple{Field("bytes", &S::bytes),
                      Field("sha256", &S::sha256),
                      OptionalField("gzip", &S::gzip),
                      Field("path", &S::path),
                      OptionalField("notes", &S::notes),
                      Field("packets", &S::packets),
                      Field("tracks", &S::tracks),
                      Field("slices", &S::slices),
                      Field("flows", &S::flows),
                      Field("counterValues", &S::counter_values),
                      Field("clampedSlices", &S::clamped_slices),
                      Field("skippedShort", &S::skipped_short),
                      Field("window", &S::window),
                      Field("seconds", &S::seconds),
                      Field("cpuSeconds", &S::cpu_seconds),
                      Field("streamed", &S::streamed),
                      Field("openSeconds", &S::open_seconds),
                      Field("loadSeconds", &S::load_seconds),
                      Field("validation", &S::validation)};
  }
  bool operator==(const ExportTraceResult&) const = default;
};

// Hand-written reader and writer: profileId is required only without jobId (so it is listed as an OptionalField),
// and "runId" is read as jobId. Its members are listed for the open_in_perfetto tool (mcp.h).
struct OpenInPerfettoParams {             // nsys/openInPerfetto
  std::string profile_id;                 // a profile's trace, or
  std::optional<Window> window;           // (a profile's only)
  std::optional<std::string> job_id;      // a job's: one of the two
  std::optional<int64_t> ranks_per_node;  // a job's only (as nsys/exportJobTrace's)
  static constexpr auto WireFields() {
    using S = OpenInPerfettoParams;
    return std::tuple{OptionalField("profileId", &S::profile_id), Field("window", &S::window),
                      Field("jobId", &S::job_id), Field("ranksPerNode", &S::ranks_per_node)};
  }
  bool operator==(const OpenInPerfettoParams&) const = default;
};

struct OpenInPerfettoResult {
  std::string url;  // http://127.0.0.1:<port>/p/<token>/
  int32_t port = 0;
  std::string token;
  std::string expires_at;  // ISO 8601 UTC, "2025-01-31T12:00:00Z"
  // The server always sends these but deepLink (optional so that older results still parse):
  std::optional<std::string> trace_url;  // the trace bytes: <url>trace.pftrace
  std::optional<std::string> deep_link;  // Perfetto's #!/?url= link, when the deep-link port is served
  std::optional<std::string> ssh_hint;   // "ssh -L PORT:127.0.0.1:PORT <this host>"
  std::optional<int64_t> bytes;
  std::optional<std::string> sha256;
  std::optional<int64_t> clamped_slices;
  std::optional<std::string> window;
  std::optional<bool> show_document;  // whether the server asked the client to open `url` (window/showDocument)
  static constexpr auto WireFields() {
    using S = OpenInPerfettoResult;
    return std::tuple{Field("url", &S::url),
                      Field("port", &S::port),
                      Field("token", &S::token),
                      Field("expiresAt", &S::expires_at),
                      Field("traceUrl", &S::trace_url),
                      Field("deepLink", &S::deep_link),
                      Field("sshHint", &S::ssh_hint),
                      Field("bytes", &S::bytes),
                      Field("sha256", &S::sha256),
                      Field("clampedSlices", &S::clamped_slices),
                      Field("window", &S::window),
                      Field("showDocument", &S::show_document)};
  }
  bool operator==(const OpenInPerfettoResult&) const = default;
};

// ---- LSP base types -------------------------------------------------------------------------------------------

struct ClientInfo {
  std::string name;
  std::optional<std::string> version;
  static constexpr auto WireFields() {
    using S = ClientInfo;
    return std::tuple{Field("name", &S::name), Field("version", &S::version)};
  }
  bool operator==(const ClientInfo&) const = default;
};

enum class LogLevel { kError, kWarning, kInfo, kDebug };  // "error" | "warning" | "info" | "debug"

// initializationOptions.llm: the session's LLM for nsys/ask. Either one of the server's endpoints by name
// (`endpoint`, with its own URL and key), or the client's own (`provider`, `model`, `baseUrl`) with the client's own
// key (`apiKey`, sent only to that baseUrl) or a key variable of the server's (`apiKeyEnv`, under the rules of
// llm::ResolveClientLlm: NSYS_AI_* only, an endpoint's key only to that endpoint).
enum class LlmProvider { kNone, kOpenAI, kAnthropic };  // "none" | "openai" | "anthropic"
// Hand-written reader and writer: endpoint excludes provider and the key members; provider by name; checks across
// members.
struct LlmOptions {
  std::optional<std::string> endpoint;  // "endpoint": a server endpoint's name; excludes provider, baseUrl and keys
  LlmProvider provider = LlmProvider::kNone;  // required without endpoint
  std::optional<std::string> model;
  std::optional<std::string> base_url;     // "baseUrl": http(s)://...
  std::optional<std::string> api_key;      // "apiKey": the client's own key (printable ASCII, at most 4096 bytes)
  std::optional<std::string> api_key_env;  // "apiKeyEnv": the name of a variable of the server's environment
  bool operator==(const LlmOptions&) const = default;
};

// Hand-written reader and writer: checks each member (origin, absolute nsysPath, timeout range); logLevel by name.
struct InitializationOptions {
  std::optional<bool> no_cache;
  std::optional<std::vector<std::string>> skill_dirs;
  std::optional<LogLevel> log_level;
  std::optional<std::string> perfetto_origin;  // this session's Perfetto UI; a web origin (see CheckWebOrigin)
  std::optional<std::string> nsys_path;  // the nsys that converts .nsys-rep reports: an absolute path or file: URI
  std::optional<double> skill_timeout_seconds;  // this session's user-skill time budget: more than 0, at most 86400
  std::optional<LlmOptions> llm;
  std::optional<Scalar> memory_budget;  // "memoryBudget": the byte budget of runs (bytes, or a size such as "4G")
  // Source folders to index besides the workspace folders (paths or file:// URIs).
  std::optional<std::vector<std::string>> source_roots;
  // "runLauncher", the command that runs a job's report as a batch task (["srun", "-N", "8"]): argv, no shell.
  std::optional<std::vector<std::string>> run_launcher;
  bool operator==(const InitializationOptions&) const = default;
};

// The subset of InitializeParams we read; capabilities.window.{workDoneProgress, showDocument.support} are flattened.
// Hand-written reader and writer: reads and writes nested capabilities and workspaceFolders.
struct InitializeParams {
  std::optional<int64_t> process_id;  // null or absent when the client has no process
  std::optional<ClientInfo> client_info;
  bool work_done_progress = false;  // capabilities.window.workDoneProgress
  bool show_document = false;       // capabilities.window.showDocument.support
  bool code_lens_refresh = false;   // capabilities.workspace.codeLens.refreshSupport
  std::optional<InitializationOptions> initialization_options;
  // The source roots, in LSP's order of preference: workspaceFolders[].uri, else rootUri, else rootPath.
  std::vector<std::string> workspace_folders;  // their uris
  std::optional<std::string> root_uri;
  std::optional<std::string> root_path;
  bool operator==(const InitializeParams&) const = default;
};

// What `initialize` answers: the server's own methods and skills, under "experimental" (LSP's place for
// extensions): {"experimental": {"nsysMethods": ["nsys/openProfile", ...], "skills": ["gpu_kern_sum", ...]}}.
// Hand-written reader and writer: nested provider objects, each left out when empty.
struct ServerCapabilities {
  std::vector<std::string> execute_commands;   // "executeCommandProvider": {commands}, written only when non-empty
  std::vector<std::string> nsys_methods;       // "experimental.nsysMethods", every bound nsys/ method, sorted
  std::vector<std::string> skills;             // "experimental.skills", the skill names
  bool hover_provider = false;                 // "hoverProvider", written only when true
  bool code_lens_provider = false;             // "codeLensProvider": {resolveProvider: false}, when true
  std::vector<std::string> code_action_kinds;  // "codeActionProvider": {codeActionKinds}, when non-empty
  // "textDocumentSync": {openClose: true, change: N} when set (1 = full text on each change); absent = none.
  std::optional<int32_t> text_document_sync_change;
  bool operator==(const ServerCapabilities&) const = default;
};

struct ServerInfo {
  std::string name;
  std::optional<std::string> version;
  static constexpr auto WireFields() {
    using S = ServerInfo;
    return std::tuple{Field("name", &S::name), Field("version", &S::version)};
  }
  bool operator==(const ServerInfo&) const = default;
};

struct InitializeResult {
  ServerCapabilities capabilities;
  ServerInfo server_info;
  static constexpr auto WireFields() {
    using S = InitializeResult;
    return std::tuple{Field("capabilities", &S::capabilities), Field("serverInfo", &S::server_info)};
  }
  bool operator==(const InitializeResult&) const = default;
};

using ProgressToken = std::variant<int64_t, std::string>;
Json ProgressTokenToJson(const ProgressToken& token);

struct WorkDoneProgressCreateParams {  // window/workDoneProgress/create
  ProgressToken token;
  static constexpr auto WireFields() {
    using S = WorkDoneProgressCreateParams;
    return std::tuple{Field("token", &S::token)};
  }
  bool operator==(const WorkDoneProgressCreateParams&) const = default;
};

struct ProgressParams {  // $/progress
  ProgressToken token;
  Json value;  // a WorkDoneProgressBegin/Report/End, or a partial result; required, null included
  static constexpr auto WireFields() {
    using S = ProgressParams;
    return std::tuple{Field("token", &S::token), Field("value", &S::value)};
  }
  bool operator==(const ProgressParams&) const = default;
};

// Hand-written reader and writer: checks kind; percentage between 0 and 100.
struct WorkDoneProgressBegin {  // kind "begin"
  std::string title;
  std::optional<bool> cancellable;
  std::optional<std::string> message;
  std::optional<int32_t> percentage;  // 0..100
  bool operator==(const WorkDoneProgressBegin&) const = default;
};

// Hand-written reader and writer: checks kind; percentage between 0 and 100.
struct WorkDoneProgressReport {  // kind "report"
  std::optional<bool> cancellable;
  std::optional<std::string> message;
  std::optional<int32_t> percentage;
  bool operator==(const WorkDoneProgressReport&) const = default;
};

// Hand-written reader and writer: checks kind.
struct WorkDoneProgressEnd {  // kind "end"
  std::optional<std::string> message;
  bool operator==(const WorkDoneProgressEnd&) const = default;
};

// The progress tokens any request may carry in its params (LSP's workDoneToken and partialResultToken), read once
// by the dispatcher. Lenient: a member that is not an integer or a string counts as absent, as LSP clients expect
// of optional features.
struct RequestTokens {
  std::optional<ProgressToken> work_done_token;
  std::optional<ProgressToken> partial_result_token;
  bool operator==(const RequestTokens&) const = default;
};
RequestTokens ReadRequestTokens(const Json& params);

struct CancelParams {  // $/cancelRequest
  RequestId id;        // int or string (never null once parsed)
  static constexpr auto WireFields() {
    using S = CancelParams;
    return std::tuple{Field("id", &S::id)};
  }
  bool operator==(const CancelParams&) const = default;
};

enum class MessageType { kError = 1, kWarning = 2, kInfo = 3, kLog = 4, kDebug = 5 };

struct LogMessageParams {  // window/logMessage, window/showMessage
  MessageType type = MessageType::kInfo;
  std::string message;
  static constexpr auto WireFields() {
    using S = LogMessageParams;
    return std::tuple{Field("type", &S::type), Field("message", &S::message)};
  }
  bool operator==(const LogMessageParams&) const = default;
};
using ShowMessageParams = LogMessageParams;

struct ShowDocumentParams {  // window/showDocument
  std::string uri;
  std::optional<bool> external;
  std::optional<bool> take_focus;
  static constexpr auto WireFields() {
    using S = ShowDocumentParams;
    return std::tuple{Field("uri", &S::uri), Field("external", &S::external), Field("takeFocus", &S::take_focus)};
  }
  bool operator==(const ShowDocumentParams&) const = default;
};

struct ShowDocumentResult {
  bool success = false;
  static constexpr auto WireFields() {
    using S = ShowDocumentResult;
    return std::tuple{Field("success", &S::success)};
  }
  bool operator==(const ShowDocumentResult&) const = default;
};

// ---- conversions ----------------------------------------------------------------------------------------------

// FromJson is the reader Parse<T> uses (it unwinds with an exception private to protocol/src: call Parse instead).
#define NSYS_PROTOCOL_CONVERSIONS(Type)                                \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);

NSYS_PROTOCOL_CONVERSIONS(Window)
NSYS_PROTOCOL_CONVERSIONS(Filter)
NSYS_PROTOCOL_CONVERSIONS(OpenProfileParams)
NSYS_PROTOCOL_CONVERSIONS(ProfileIdParams)
NSYS_PROTOCOL_CONVERSIONS(EmptyParams)
NSYS_PROTOCOL_CONVERSIONS(NullResult)
NSYS_PROTOCOL_CONVERSIONS(DeviceInfo)
NSYS_PROTOCOL_CONVERSIONS(ProcessInfo)
NSYS_PROTOCOL_CONVERSIONS(TableRows)
NSYS_PROTOCOL_CONVERSIONS(DamagedRows)
NSYS_PROTOCOL_CONVERSIONS(ProfileInfo)
NSYS_PROTOCOL_CONVERSIONS(MappingCoverage)
NSYS_PROTOCOL_CONVERSIONS(ProfileSummary)
NSYS_PROTOCOL_CONVERSIONS(CliProfileSummary)
NSYS_PROTOCOL_CONVERSIONS(ArgDescription)
NSYS_PROTOCOL_CONVERSIONS(SkillDescription)
NSYS_PROTOCOL_CONVERSIONS(ListSkillsResult)
NSYS_PROTOCOL_CONVERSIONS(RunSkillParams)
NSYS_PROTOCOL_CONVERSIONS(ColumnDescription)
NSYS_PROTOCOL_CONVERSIONS(RunSkillResult)
NSYS_PROTOCOL_CONVERSIONS(RunSkillPartialResult)
NSYS_PROTOCOL_CONVERSIONS(ReloadSkillsResult)
NSYS_PROTOCOL_CONVERSIONS(ExportTraceParams)
NSYS_PROTOCOL_CONVERSIONS(TraceSliceCounts)
NSYS_PROTOCOL_CONVERSIONS(TraceValidationResult)
NSYS_PROTOCOL_CONVERSIONS(ExportTraceResult)
NSYS_PROTOCOL_CONVERSIONS(OpenInPerfettoParams)
NSYS_PROTOCOL_CONVERSIONS(OpenInPerfettoResult)
NSYS_PROTOCOL_CONVERSIONS(ClientInfo)
NSYS_PROTOCOL_CONVERSIONS(LlmOptions)
NSYS_PROTOCOL_CONVERSIONS(InitializationOptions)
NSYS_PROTOCOL_CONVERSIONS(InitializeParams)
NSYS_PROTOCOL_CONVERSIONS(ServerCapabilities)
NSYS_PROTOCOL_CONVERSIONS(ServerInfo)
NSYS_PROTOCOL_CONVERSIONS(InitializeResult)
NSYS_PROTOCOL_CONVERSIONS(WorkDoneProgressCreateParams)
NSYS_PROTOCOL_CONVERSIONS(ProgressParams)
NSYS_PROTOCOL_CONVERSIONS(WorkDoneProgressBegin)
NSYS_PROTOCOL_CONVERSIONS(WorkDoneProgressReport)
NSYS_PROTOCOL_CONVERSIONS(WorkDoneProgressEnd)
NSYS_PROTOCOL_CONVERSIONS(CancelParams)
NSYS_PROTOCOL_CONVERSIONS(LogMessageParams)
NSYS_PROTOCOL_CONVERSIONS(ShowDocumentParams)
NSYS_PROTOCOL_CONVERSIONS(ShowDocumentResult)
#undef NSYS_PROTOCOL_CONVERSIONS

// Enum names as they appear in JSON.
std::string_view ToString(WindowClock clock);
std::string_view ToString(ValueType type);
std::string_view ToString(LogLevel level);

// OK when `origin` is a web origin ("https://host[:port]" or "http://host[:port]", nothing after the authority;
// the host a DNS name of letters, digits, '.' and '-', or a bracketed IPv6 address; the port 1-5 digits) of at most
// kMaxWebOriginBytes; else kInvalidArgument saying why. initializationOptions.perfettoOrigin and the Perfetto side
// channel (--perfetto-origin) share it. Linear, hand-written: no regex runs on a client's origin.
inline constexpr size_t kMaxWebOriginBytes = 2048;
Status CheckWebOrigin(const std::string& origin);

namespace detail {
// Runs `read` and turns the reader's failure into kInvalidArgument with its "path: problem" message.
Status RunReader(const std::function<void()>& read);
}  // namespace detail

// Absent (null) params read as {} so that the error names the missing field.
template <typename T>
Expected<T> Parse(const Json& json, const std::string& root = "params") {
  T value{};
  Status status = detail::RunReader([&] { FromJson(json.is_null() ? Json::object() : json, value, root); });
  if (!status) return status.error();
  return value;
}

}  // namespace nsys::protocol
