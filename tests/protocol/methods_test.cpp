#include "nsys/protocol/methods.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nsys/protocol/annotation_plan.h"
#include "params_test_util.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::ErrorOf;
using ::nsys::protocol::testing::ExpectRoundTrip;

TEST(MethodsTest, MethodNamesAreUnderNsys) {
  EXPECT_EQ(method::kOpenProfile, "nsys/openProfile");
  EXPECT_EQ(method::kCloseProfile, "nsys/closeProfile");
  EXPECT_EQ(method::kProfileInfo, "nsys/profileInfo");
  EXPECT_EQ(method::kListSkills, "nsys/listSkills");
  EXPECT_EQ(method::kRunSkill, "nsys/runSkill");
  EXPECT_EQ(method::kReloadSkills, "nsys/reloadSkills");
  EXPECT_EQ(method::kExportTrace, "nsys/exportTrace");
  EXPECT_EQ(method::kOpenInPerfetto, "nsys/openInPerfetto");
}

TEST(MethodsTest, WindowRoundTripsAndDefaultsToRelativeSeconds) {
  ExpectRoundTrip(Window{0.25, 0.5, WindowClock::kRelativeSeconds}, R"({"clock":"relative_s","end":0.5,"start":0.25})");
  ExpectRoundTrip(Window{1555800000000000.0, std::nullopt, WindowClock::kCaptureNs},
                  R"({"clock":"capture_ns","start":1.5558e+15})");
  const auto parsed = Parse<Window>(Json::parse(R"({"end":2})"), "params.window");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->clock, WindowClock::kRelativeSeconds);
  EXPECT_FALSE(parsed->start);
  EXPECT_EQ(*parsed->end, 2.0);
}

TEST(MethodsTest, OpenProfileRoundTrips) {
  ExpectRoundTrip(OpenProfileParams{"/data/run.sqlite", true}, R"({"noCache":true,"path":"/data/run.sqlite"})");
  ExpectRoundTrip(OpenProfileParams{"/data/run.sqlite", std::nullopt}, R"({"path":"/data/run.sqlite"})");
  EXPECT_EQ(ErrorOf<OpenProfileParams>(R"({"path":""})"), "params.path: must not be empty");
  EXPECT_EQ(ErrorOf<OpenProfileParams>(R"({"path":"/x","noCache":"yes"})"),
            "params.noCache: expected a boolean, got a string");
}

TEST(MethodsTest, ProfileIdParamsRoundTrip) {
  ExpectRoundTrip(CloseProfileParams{"p1"}, R"({"profileId":"p1"})");
  EXPECT_EQ(ErrorOf<ProfileInfoParams>(R"({"profileId":1})"), "params.profileId: expected a string, got a number");
}

TEST(MethodsTest, AbsentParamsReadAsAnEmptyObject) {
  EXPECT_TRUE(Parse<EmptyParams>(nullptr).ok());
  EXPECT_TRUE(Parse<EmptyParams>(Json::object()).ok());
  EXPECT_EQ(Parse<ProfileIdParams>(nullptr).error().message, "params.profileId: missing required field");
  EXPECT_EQ(Parse<EmptyParams>(Json::array()).error().message, "params: expected an object, got an array");
  ExpectRoundTrip(EmptyParams{}, "{}");
}

ProfileSummary SampleSummary() {
  ProfileSummary s;
  s.profile_id = "p1";
  s.path = "/f/h100.sqlite";
  s.info.source_path = "/f/h100.nsys-rep";
  s.info.file_size = 123456;
  s.info.nsys_version = "2024.2.1";
  s.info.schema_version = "3.11.1";
  s.info.start_ns = 1000;
  s.info.end_ns = 1001000;
  s.info.session_start_utc_ns = 1700000000000000000;
  s.info.from_cache = true;
  s.info.paged = true;
  s.info.model_bytes = 7927215104;  // the x5000 export's columns
  s.info.capabilities = {{"kernels", true}, {"nvtx", false}};
  s.info.devices = {DeviceInfo{0, "NVIDIA H100 80GB HBM3", "GH100", 85899345920, 3352320000000, 132, 1980000}};
  s.info.processes = {ProcessInfo{4242, "python3"}};
  s.info.process_count = 70;
  s.info.thread_count = 12;
  s.info.stream_count = 3;
  s.info.tables = {TableRows{"CUPTI_ACTIVITY_KIND_KERNEL", 3440000}};
  s.info.metadata = {{"EXPORT_SCHEMA_VERSION", "3.11.1"}};
  s.info.damaged_rows = {DamagedRows{"CUPTI_ACTIVITY_KIND_KERNEL", 5, 3, 1, 1, 0}};
  s.info.rows_checked = true;
  return s;
}

TEST(MethodsTest, ProfileSummaryRoundTrips) {
  ExpectRoundTrip(
      SampleSummary(),
      R"({"info":{"capabilities":{"kernels":true,"nvtx":false},)"
      R"("damagedRows":[{"badSpan":1,"badTime":3,"skipped":5,"table":"CUPTI_ACTIVITY_KIND_KERNEL","unnamed":0,)"
      R"("unreadable":1}],"devices":[{"chip":"GH100","clockRate":1980000,)"
      R"("id":0,"memoryBandwidth":3352320000000,"name":"NVIDIA H100 80GB HBM3","smCount":132,"totalMemory":85899345920}],)"
      R"("durationNs":1000000,"endNs":1001000,"fileSize":123456,"fromCache":true,)"
      R"("metadata":{"EXPORT_SCHEMA_VERSION":"3.11.1"},"modelBytes":7927215104,"nsysVersion":"2024.2.1","paged":true,)"
      R"("processCount":70,)"
      R"("processes":[{"name":"python3","pid":4242}],"rowsChecked":true,"schemaVersion":"3.11.1",)"
      R"("sessionStartUtcNs":1700000000000000000,"sourcePath":"/f/h100.nsys-rep","startNs":1000,"streamCount":3,)"
      R"("tables":[{"name":"CUPTI_ACTIVITY_KIND_KERNEL","rows":3440000}],"threadCount":12},)"
      R"("mappingCoverage":null,"path":"/f/h100.sqlite","profileId":"p1"})");
  // The mapping coverage once computed.
  ProfileSummary covered;
  covered.profile_id = "p2";
  covered.path = "/f/a.sqlite";
  covered.mapping_coverage = MappingCoverage{0.25, 250, 1000};
  const Json json = covered;
  EXPECT_EQ(json["mappingCoverage"].dump(), R"({"kernelNs":1000,"mappedNs":250,"share":0.25})");
  auto back = Parse<ProfileSummary>(json);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, covered);
  EXPECT_EQ(ErrorOf<ProfileSummary>(R"({"profileId":"p1","path":"/x","info":{"startNs":0,"endNs":1,)"
                                    R"("devices":[{"id":0},{"id":"1"}]}})",
                                    "result"),
            "result.info.devices[1].id: expected an integer, got a string");
}

TEST(MethodsTest, ListSkillsRoundTrips) {
  ListSkillsResult result;
  result.skills.push_back(SkillDescription{
      "top_kernels",
      "Kernels ranked by total GPU time",
      {ArgDescription{"limit", ValueType::kInt, "rows to return", int64_t{10}, false},
       ArgDescription{"name_filter", ValueType::kString, "substring", std::monostate{}, false},
       ArgDescription{"min_share", ValueType::kDouble, "", 0.5, true},
       ArgDescription{"demangle", ValueType::kBool, "", true, false},
       ArgDescription{"clock", ValueType::kString, "", std::string("relative_s"), false, {"relative_s", "capture_ns"}}},
      "gpukernsum"});
  ExpectRoundTrip(
      result, R"({"skills":[{"args":[{"default":10,"description":"rows to return","name":"limit","required":false,)"
              R"("type":"int"},{"default":null,"description":"substring","name":"name_filter","required":false,)"
              R"("type":"string"},{"default":0.5,"description":"","name":"min_share","required":true,"type":"double"},)"
              R"({"default":true,"description":"","name":"demangle","required":false,"type":"bool"},)"
              R"({"choices":["relative_s","capture_ns"],"default":"relative_s","description":"","name":"clock",)"
              R"("required":false,"type":"string"}],)"
              R"("description":"Kernels ranked by total GPU time","name":"top_kernels","reference":"gpukernsum"}]})");
  EXPECT_EQ(ErrorOf<ListSkillsResult>(R"({"skills":[{"name":"a","args":[{"name":"x","type":"float"}]}]})", "result"),
            R"(result.skills[0].args[0].type: expected one of "int", "double", "string", "bool", got "float")");
}

TEST(MethodsTest, RunSkillParamsRoundTrip) {
  RunSkillParams params{"p2",
                        "top_kernels",
                        {{"limit", int64_t{5}},
                         {"device", int64_t{0}},
                         {"start_s", 0.25},
                         {"name", std::string("gemm")},
                         {"demangle", false},
                         {"pid", std::monostate{}}}};
  ExpectRoundTrip(params, R"({"args":{"demangle":false,"device":0,"limit":5,"name":"gemm","pid":null,"start_s":0.25},)"
                          R"("profileId":"p2","skill":"top_kernels"})");
  // args is optional and defaults to none.
  const auto bare = Parse<RunSkillParams>(Json::parse(R"({"profileId":"p1","skill":"s"})"));
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(bare->args.empty());
  // An integral value stays an integer, a fractional one a double.
  const auto typed = Parse<RunSkillParams>(Json::parse(R"({"profileId":"p1","skill":"s","args":{"a":3,"b":3.5}})"));
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ(std::get<int64_t>(typed->args.at("a")), 3);
  EXPECT_EQ(std::get<double>(typed->args.at("b")), 3.5);
}

TEST(MethodsTest, RunSkillErrorsNameTheArgument) {
  EXPECT_EQ(ErrorOf<RunSkillParams>(R"({"profileId":"p1","skill":"s","args":{"limit":{"value":3}}})"),
            "params.args.limit: expected a number, string, boolean or null, got an object");
  EXPECT_EQ(ErrorOf<RunSkillParams>(R"({"profileId":"p1","skill":"s","args":[1]})"),
            "params.args: expected an object, got an array");
  EXPECT_EQ(ErrorOf<RunSkillParams>(R"({"profileId":"p1"})"), "params.skill: missing required field");
}

TEST(MethodsTest, RunSkillResultRoundTrips) {
  RunSkillResult result;
  result.columns = {ColumnDescription{"name", ValueType::kString, ""},
                    ColumnDescription{"total_time_ns", ValueType::kInt, "sum of durations"},
                    ColumnDescription{"time_pct", ValueType::kDouble, ""},
                    ColumnDescription{"nccl", ValueType::kBool, ""}};
  result.rows = {{std::string("gemm"), int64_t{1500}, 75.5, false},
                 {std::string("nccl_ar"), int64_t{500}, 24.5, true},
                 {std::monostate{}, int64_t{0}, 0.0, std::monostate{}}};
  result.notes = {"Window: whole profile."};
  result.declined = false;
  ExpectRoundTrip(result, R"({"columns":[{"name":"name","type":"string"},{"description":"sum of durations",)"
                          R"("name":"total_time_ns","type":"int"},{"name":"time_pct","type":"double"},)"
                          R"({"name":"nccl","type":"bool"}],"declined":false,"notes":["Window: whole profile."],)"
                          R"("rows":[["gemm",1500,75.5,false],["nccl_ar",500,24.5,true],[null,0,0.0,null]]})");
  EXPECT_EQ(ErrorOf<RunSkillResult>(R"({"columns":[{"name":"a","type":"int"}],"rows":[[1],[1,2]]})", "result"),
            "result.rows[1]: expected 1 cells (one per column), got 2");
  RunSkillResult declined;
  declined.declined = true;
  declined.notes = {"This profile has no NVTX ranges."};
  ExpectRoundTrip(declined, R"({"columns":[],"declined":true,"notes":["This profile has no NVTX ranges."],"rows":[]})");
}

TEST(MethodsTest, ReloadSkillsRoundTrips) {
  ExpectRoundTrip(ReloadSkillsResult{14, {"bad.json: missing \"sql\""}},
                  R"({"skillCount":14,"warnings":["bad.json: missing \"sql\""]})");
}

TEST(MethodsTest, ExportTraceRoundTripsAndNamesBadFields) {
  ExportTraceParams params;
  params.profile_id = "p1";
  params.window = Window{0.1, 0.2, WindowClock::kRelativeSeconds};
  params.devices = std::vector<int32_t>{0, 1};
  params.pids = std::vector<int64_t>{4242};
  params.min_duration_ns = 1000;
  params.gzip = true;
  params.output = "/tmp/t.pftrace.gz";
  ExpectRoundTrip(params,
                  R"({"devices":[0,1],"gzip":true,"minDurationNs":1000,"output":"/tmp/t.pftrace.gz","pids":[4242],)"
                  R"("profileId":"p1","window":{"clock":"relative_s","end":0.2,"start":0.1}})");
  ExportTraceParams minimal;
  minimal.profile_id = "p1";
  ExpectRoundTrip(minimal, R"({"profileId":"p1"})");

  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","window":{"start":"0.1"}})"),
            "params.window.start: expected a number, got a string");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","window":{"clock":"utc"}})"),
            R"(params.window.clock: expected one of "relative_s", "capture_ns", got "utc")");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","window":[0,1]})"),
            "params.window: expected an object, got an array");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","devices":[0,"1"]})"),
            "params.devices[1]: expected an integer, got a string");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","devices":[4294967296]})"),
            "params.devices[0]: integer out of range");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","minDurationNs":2.5})"),
            "params.minDurationNs: expected an integer, got a fractional number");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","minDurationNs":-1})"),
            "params.minDurationNs: must not be negative");
  // Integral floats are integers (JavaScript prints 1e21 that way); null is absent.
  const auto lenient = Parse<ExportTraceParams>(Json::parse(R"({"profileId":"p1","minDurationNs":1e9,"gzip":null})"));
  ASSERT_TRUE(lenient.ok()) << (lenient.ok() ? "" : lenient.error().message);
  EXPECT_EQ(*lenient->min_duration_ns, 1000000000);
  EXPECT_FALSE(lenient->gzip);
}

TEST(MethodsTest, ExportTraceResultRoundTrips) {
  ExpectRoundTrip(ExportTraceResult{2048, "ab12", true, "/tmp/t.pftrace.gz", {"Window: whole profile."}},
                  R"({"bytes":2048,"gzip":true,"notes":["Window: whole profile."],"path":"/tmp/t.pftrace.gz",)"
                  R"("sha256":"ab12"})");
}

TEST(MethodsTest, OpenInPerfettoRoundTrips) {
  ExpectRoundTrip(OpenInPerfettoParams{"p1", Window{std::nullopt, 3.0, WindowClock::kRelativeSeconds}},
                  R"({"profileId":"p1","window":{"clock":"relative_s","end":3.0}})");
  // A job's trace, without a profile id.
  ExpectRoundTrip(OpenInPerfettoParams{"", std::nullopt, "j2", 4}, R"({"jobId":"j2","ranksPerNode":4})");
  EXPECT_EQ(ErrorOf<OpenInPerfettoParams>(R"({"window":{"end":1}})", "params"),
            "params.profileId: missing required field");
  ExpectRoundTrip(OpenInPerfettoResult{"http://127.0.0.1:41234/p/0123abcd/", 41234, "0123abcd", "2025-01-31T12:00:00Z"},
                  R"({"expiresAt":"2025-01-31T12:00:00Z","port":41234,"token":"0123abcd",)"
                  R"("url":"http://127.0.0.1:41234/p/0123abcd/"})");
  EXPECT_EQ(ErrorOf<OpenInPerfettoResult>(R"({"url":"u","port":70000.5,"token":"t","expiresAt":"e"})", "result"),
            "result.port: expected an integer, got a fractional number");
}

// Parse never throws: a bad nested field comes back as kInvalidArgument naming its path from the given root.
TEST(MethodsTest, ParseReportsNestedFieldsAsInvalidArgument) {
  const auto bad = Parse<ExportTraceParams>(Json::parse(R"({"profileId":"p1","window":{"end":true}})"), "$");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(bad.error().message, "$.window.end: expected a number, got a boolean");
  const auto good = Parse<ProfileIdParams>(Json::parse(R"({"profileId":"p9"})"));
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->profile_id, "p9");
}

TEST(MethodsTest, ScalarToJsonCoversEveryAlternative) {
  EXPECT_EQ(ScalarToJson(std::monostate{}).dump(), "null");
  EXPECT_EQ(ScalarToJson(true).dump(), "true");
  EXPECT_EQ(ScalarToJson(int64_t{-7}).dump(), "-7");
  EXPECT_EQ(ScalarToJson(2.5).dump(), "2.5");
  EXPECT_EQ(ScalarToJson(std::string("s")).dump(), "\"s\"");
}

TEST(MethodsTest, ListSkillsCommonArgsAreWrittenOnlyWhenPresent) {
  ListSkillsResult result;
  EXPECT_EQ(Json(result).dump(), R"({"skills":[]})");
  result.common_args = std::vector<ArgDescription>{ArgDescription{"device", ValueType::kInt, "GPU", {}, false}};
  ExpectRoundTrip(result, R"({"commonArgs":[{"default":null,"description":"GPU","name":"device","required":false,)"
                          R"("type":"int"}],"skills":[]})");
}

TEST(MethodsTest, StreamedRunSkillResultAndPartialResults) {
  RunSkillResult streamed;
  streamed.columns = {ColumnDescription{"n", ValueType::kInt, ""}};
  streamed.notes = {"Window: whole profile."};
  streamed.streamed_rows = 3;
  ExpectRoundTrip(streamed, R"({"columns":[{"name":"n","type":"int"}],"declined":false,)"
                            R"("notes":["Window: whole profile."],"rows":[],"streamedRows":3})");
  RunSkillPartialResult first;
  first.columns = streamed.columns;
  first.rows = {{int64_t{1}}, {int64_t{2}}};
  ExpectRoundTrip(first, R"({"columns":[{"name":"n","type":"int"}],"rows":[[1],[2]]})");
  RunSkillPartialResult rest;
  rest.rows = {{std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_EQ(Json(rest).dump(), R"({"rows":[[null]]})");  // NaN has no JSON form
}

TEST(MethodsTest, FilterRoundTripsInRunSkillAndExportTrace) {
  Filter filter;
  filter.window = Window{1.5, 2.5, WindowClock::kRelativeSeconds};
  filter.devices = std::vector<int32_t>{0};
  filter.processes = std::vector<int64_t>{4242};
  filter.threads = std::vector<int64_t>{};
  ExpectRoundTrip(filter, R"({"devices":[0],"processes":[4242],"threads":[],)"
                          R"("window":{"clock":"relative_s","end":2.5,"start":1.5}})");
  const auto run = Parse<RunSkillParams>(
      Json::parse(R"({"profileId":"p1","skill":"s","filter":{"devices":[1],"window":{"start":0}}})"));
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(run->filter);
  EXPECT_EQ(*run->filter->devices, std::vector<int32_t>{1});
  EXPECT_EQ(*run->filter->window->start, 0.0);
  EXPECT_FALSE(run->filter->processes);
  const auto trace = Parse<ExportTraceParams>(Json::parse(R"({"profileId":"p1","filter":{"processes":[7]}})"));
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(*trace->filter->processes, std::vector<int64_t>{7});
  EXPECT_EQ(ErrorOf<RunSkillParams>(R"({"profileId":"p1","skill":"s","filter":{"threads":[1,-2]}})"),
            "params.filter.threads[1]: must not be negative");
  EXPECT_EQ(ErrorOf<RunSkillParams>(R"({"profileId":"p1","skill":"s","filter":{"devices":"0"}})"),
            "params.filter.devices: expected an array, got a string");
  EXPECT_EQ(ErrorOf<ExportTraceParams>(R"({"profileId":"p1","filter":{"window":{"clock":"utc"}}})"),
            R"(params.filter.window.clock: expected one of "relative_s", "capture_ns", got "utc")");
}

TEST(MethodsTest, NullResultIsJsonNull) {
  EXPECT_TRUE(Json(NullResult{}).is_null());
  EXPECT_TRUE(Parse<NullResult>(nullptr, "result").ok());
  EXPECT_EQ(ErrorOf<NullResult>("5", "result"), "result: expected null, got a number");
}

}  // namespace
}  // namespace nsys::protocol

namespace nsys::protocol {
namespace {

// nsys/annotationPlan's params and result, edits as LSP WorkspaceEdits keyed by URI.
TEST(MethodsTest, AnnotationPlanShapesRoundTrip) {
  auto params = Parse<AnnotationPlanParams>(Json::parse(R"({"profileId":"p1","sourceRoots":["/src"],"limit":5})"));
  ASSERT_TRUE(params.ok()) << params.error().message;
  EXPECT_EQ(params->source_roots, std::vector<std::string>{"/src"});
  EXPECT_EQ(params->limit, 5);
  EXPECT_EQ(Parse<AnnotationPlanParams>(Json::parse(R"({"profileId":"p1","limit":-1})"), "params").error().message,
            "params.limit: must not be negative");
  AnnotationPlanResult result;
  result.coverage = {0.5, 5, 10};
  result.unmapped_ns = 5;
  result.total_items = 1;
  result.next_command = "nsys profile ...";
  AnnotationPlanItem item;
  item.name = "step";
  item.location = Location{"file:///a.py", {{3, 4}, {3, 10}}};
  item.edit_title = "Add NVTX ranges inside 'step'";
  item.edit = WorkspaceEdit{{{"file:///a.py", {TextEdit{{{4, 0}, {4, 9}}, "    with nvtx.annotate(\"step/f\"):\n"}}}}};
  item.ranges = {{"step/f", 4, 4}};
  item.reason = "because";
  result.items.push_back(item);
  const Json json = result;
  EXPECT_EQ(json["items"][0]["edit"]["changes"]["file:///a.py"][0]["range"]["end"]["character"], 9);
  EXPECT_EQ(json["items"][0]["location"]["uri"], "file:///a.py");
  auto back = Parse<AnnotationPlanResult>(json);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, result);
}

}  // namespace
}  // namespace nsys::protocol
