// The JSON of the job methods' params and results (nsys/protocol/job.h): exact texts, which members are left out,
// which are required, and the checks of the three hand-written readers.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nsys/protocol/job.h"
#include "params_test_util.h"

namespace nsys::protocol {
namespace {

using ::nsys::protocol::testing::ErrorOf;
using ::nsys::protocol::testing::ExpectRoundTrip;

TEST(JobTypesTest, OpenJobResultRoundTrips) {
  ExpectRoundTrip(OpenJobResult{"job-1", {JobRankInfo{"rank0", "/d/rank0.sqlite", 4096}}, 1 << 20, 2},
                  R"({"jobId":"job-1","memoryBudgetBytes":1048576,)"
                  R"("ranks":[{"fileSize":4096,"path":"/d/rank0.sqlite","rank":"rank0"}],"threads":2})");
  EXPECT_EQ(ErrorOf<OpenJobResult>(R"({"jobId":"j","ranks":[{"rank":"a","path":"p"}],"memoryBudgetBytes":1})"),
            "params.ranks[0].fileSize: missing required field");
  EXPECT_EQ(ErrorOf<JobIdParams>(R"({"jobId":null})"), "params.jobId: expected a string, got null");
  ExpectRoundTrip(JobIdParams{"job-2"}, R"({"jobId":"job-2"})");
}

TEST(JobTypesTest, RunSkillOnJobParamsWritesArgsAlwaysAndFilterWhenGiven) {
  RunSkillOnJobParams params{"j", "gpu_kern_sum", {}, std::nullopt};
  ExpectRoundTrip(params, R"({"args":{},"jobId":"j","skill":"gpu_kern_sum"})");
  params.args = {{"limit", int64_t{5}}, {"name", std::string("gemm")}, {"none", std::monostate{}}};
  params.filter = Filter{};
  ExpectRoundTrip(params, R"({"args":{"limit":5,"name":"gemm","none":null},"filter":{},"jobId":"j",)"
                          R"("skill":"gpu_kern_sum"})");
  // A cell's NaN goes out as null (ScalarToJson), as every skill argument's.
  params.args = {{"x", std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_EQ(Json(params)["args"].dump(), R"({"x":null})");
  const auto absent = Parse<RunSkillOnJobParams>(Json::parse(R"({"jobId":"j","skill":"s","args":null})"));
  ASSERT_TRUE(absent.ok()) << absent.error().message;
  EXPECT_TRUE(absent->args.empty());
  EXPECT_EQ(ErrorOf<RunSkillOnJobParams>(R"({"jobId":"j"})"), "params.skill: missing required field");
  EXPECT_EQ(ErrorOf<RunSkillOnJobParams>(R"({"jobId":"j","skill":"s","filter":{"threads":[-1]}})"),
            "params.filter.threads[0]: must not be negative");
}

TEST(JobTypesTest, JobReportLeavesOutAbsentStepTimesAndErrors) {
  const RankSummaryInfo read{"rank0", "/d/rank0.sqlite", 10, 2000, 3, 500, 150, 12, std::nullopt};
  const RankSummaryInfo failed{"rank1", "/d/rank1.sqlite", 0, 0, 0, 0, std::nullopt, 0, "not an export"};
  ExpectRoundTrip(read, R"({"gpuTimeNs":2000,"kernels":10,"ncclKernels":3,"ncclTimeNs":500,"path":"/d/rank0.sqlite",)"
                        R"("rank":"rank0","stepTimeNs":150,"steps":12})");
  ExpectRoundTrip(failed, R"({"error":"not an export","gpuTimeNs":0,"kernels":0,"ncclKernels":0,"ncclTimeNs":0,)"
                          R"("path":"/d/rank1.sqlite","rank":"rank1","steps":0})");
  RunSkillResult table;
  table.columns = {{"rank", ValueType::kString, ""}};
  table.rows = {{std::string("rank0")}};
  ExpectRoundTrip(JobReportResult{"j", {read}, {{"job_imbalance", table}}, {"note"}, {100, 60, 2, 1, 0}},
                  R"({"analyses":[{"result":{"columns":[{"name":"rank","type":"string"}],"declined":false,)"
                  R"("notes":[],"rows":[["rank0"]]},"skill":"job_imbalance"}],"jobId":"j",)"
                  R"("memory":{"budgetBytes":100,"evictions":1,"loads":2,"overBudgetRanks":0,)"
                  R"("peakAccountedBytes":60},"notes":["note"],"ranks":[{"gpuTimeNs":2000,"kernels":10,)"
                  R"("ncclKernels":3,"ncclTimeNs":500,"path":"/d/rank0.sqlite","rank":"rank0","stepTimeNs":150,)"
                  R"("steps":12}]})");
  EXPECT_EQ(ErrorOf<JobReportResult>(R"({"jobId":"j","ranks":[],"analyses":[],"memory":{}})"),
            "params.notes: missing required field");
  EXPECT_EQ(ErrorOf<JobMemoryInfo>(R"({"budgetBytes":1,"peakAccountedBytes":2,"loads":3,"evictions":4})"),
            "params.overBudgetRanks: missing required field");
  EXPECT_EQ(ErrorOf<RankSummaryInfo>(R"({"rank":"r","path":"p","kernels":1,"gpuTimeNs":2,"ncclKernels":3,)"
                                     R"("ncclTimeNs":4,"stepTimeNs":"x","steps":5})"),
            "params.stepTimeNs: expected an integer, got a string");
}

TEST(JobTypesTest, ExportJobTraceResultWritesNotesAlwaysAndReadsThemAsOptional) {
  const ExportJobTraceResult result{"/t/job.pftrace",
                                    1234,
                                    "ab12",
                                    5,
                                    TraceSliceCounts{7, 1, 0, 9, 2, 0},
                                    3,
                                    {JobTraceRankInfo{"rank0", 0, std::nullopt, "reference", 19, std::nullopt},
                                     JobTraceRankInfo{"rank1", -40, 5, "nccl_ends", 0, "unreadable"}},
                                    {}};
  ExpectRoundTrip(result, R"({"bytes":1234,"flows":3,"notes":[],"path":"/t/job.pftrace","ranks":[{"method":)"
                          R"("reference","offsetNs":0,"rank":"rank0","slices":19},{"error":"unreadable","method":)"
                          R"("nccl_ends","offsetNs":-40,"rank":"rank1","slices":0,"uncertaintyNs":5}],"sha256":"ab12",)"
                          R"("slices":{"cudaApi":9,"kernels":7,"memcpys":1,"memsets":0,"nvtxMarks":0,"nvtxRanges":2},)"
                          R"("tracks":5})");
  const auto without_notes = Parse<ExportJobTraceResult>(
      Json::parse(R"({"path":"p","bytes":1,"sha256":"s","tracks":2,"slices":{},"flows":3,"ranks":[]})"));
  ASSERT_TRUE(without_notes.ok()) << without_notes.error().message;
  EXPECT_TRUE(without_notes->notes.empty());
  EXPECT_EQ(ErrorOf<JobTraceRankInfo>(R"({"rank":"r","offsetNs":1,"slices":2})"),
            "params.method: missing required field");
}

TEST(JobTypesTest, HandWrittenReadersCheckAcrossAndWithinMembers) {
  EXPECT_EQ(ErrorOf<OpenJobParams>(R"({})"),
            "params: give `paths` (a list of rank exports) or `directory`, one of the two");
  EXPECT_EQ(ErrorOf<OpenJobParams>(R"({"paths":["a"],"directory":"d"})"),
            "params: give `paths` (a list of rank exports) or `directory`, one of the two");
  ExpectRoundTrip(OpenJobParams{std::nullopt, "/d", Scalar{std::string("4G")}, 2},
                  R"({"directory":"/d","memoryBudget":"4G","threads":2})");
  EXPECT_EQ(ErrorOf<ExportJobTraceParams>(R"({"jobId":"j","minDurationNs":-1})"),
            "params.minDurationNs: must not be negative");
  EXPECT_EQ(ErrorOf<AnalyzeJobParams>(R"({"jobId":"j","ranksPerNode":-2})"),
            "params.ranksPerNode: must not be negative");
  ExpectRoundTrip(AnalyzeJobParams{"j", std::nullopt}, R"({"jobId":"j"})");
}

}  // namespace
}  // namespace nsys::protocol
