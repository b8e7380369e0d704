// `--format csv` as a spreadsheet reads it: exact bytes from the real binary (RFC 4180 quoting, LF line ends, empty
// cells where JSON has null, notes on stderr).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"
#include "fixtures.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// A user skill whose cells need every CSV rule: a comma, a quote, a newline, +/- infinity (SQLite's 1e999), NULL.
class CsvFormat : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nsys_ai_csv_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "csv_edges.skill.json") << R"({
  "name": "csv_edges",
  "description": "Cells that need CSV quoting, and values JSON writes as null.",
  "sql": ["SELECT 'plain' AS text, 1.5 AS x, 7 AS n, NULL AS missing",
          "UNION ALL SELECT 'a,b', 1e999, -2, NULL",
          "UNION ALL SELECT 'say \"hi\"', -1e999, 0, NULL",
          "UNION ALL SELECT 'two' || char(10) || 'lines', 0.1, 3, NULL"]
})";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(CsvFormat, QuotesEscapesAndEmptiesAsRfc4180) {
  const std::string file = Fixture("mock.sqlite");
  if (!fs::exists(file)) GTEST_SKIP() << "fixture missing: " << file;
  const auto csv =
      RunCli({"skill", "run", "csv_edges", file, "--no-cache", "--skill-dir", dir_.string(), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "text,x,n,missing\n"
            "plain,1.5,7,\n"
            "\"a,b\",,-2,\n"             // +inf: an empty cell, as JSON's null
            "\"say \"\"hi\"\"\",,0,\n"   // -inf too; inner quotes doubled
            "\"two\nlines\",0.1,3,\n");  // a newline inside quotes
  EXPECT_EQ(csv.err, "note: User skill from " + (dir_ / "csv_edges.skill.json").string() + ".\n");

  // The JSON of the same run has null where the CSV has empty cells.
  const auto json =
      RunCli({"skill", "run", "csv_edges", file, "--no-cache", "--skill-dir", dir_.string(), "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"a,b\",\n      null,\n      -2,\n      null"), std::string::npos) << json.out;
}

TEST(CsvFormatFixture, TopKernelsOfTheMockProfile) {
  const std::string file = Fixture("mock.sqlite");
  if (!fs::exists(file)) GTEST_SKIP() << "fixture missing: " << file;
  const auto csv = RunCli({"skill", "run", "top_kernels", file, "--no-cache", "--arg", "limit=3", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "time_pct,total_time_ns,instances,avg_ns,med_ns,min_ns,max_ns,stddev_ns,name,short_name\n"
            "65.1,2689,1,2689,2689,2689,2689,0,\"void at::native::reduce_kernel<(int)512, (int)1, "
            "at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
            "float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, "
            "(int)4>>(T3)\",reduce_kernel\n"
            "34.9,1440,1,1440,1440,1440,1440,0,\"void at::native::vectorized_elementwise_kernel<(int)4, "
            "at::native::FillFunctor<float>, std::array<char *, (unsigned long)1>>(int, T2, T3)\","
            "vectorized_elementwise_kernel\n");
  EXPECT_EQ(csv.err.rfind("note: Kernels grouped by demangled name.", 0), 0u) << csv.err;
}

TEST(CsvFormatFixture, SkillListIsATableToo) {
  const auto csv = RunCli({"skill", "list", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  // Sorted by name: api_in_gaps comes first, then cuda_api_summary with its quoted description.
  EXPECT_EQ(csv.out.rfind("name,mirrors,description\napi_in_gaps,,", 0), 0u) << csv.out.substr(0, 300);
  EXPECT_NE(csv.out.find("\ncuda_api_summary,cudaapisum,\"CUDA API calls by total CPU time: "
                         "calls, average, median, min, max, stddev (nsys stats cudaapisum).\"\n"),
            std::string::npos)
      << csv.out.substr(0, 300);
}

}  // namespace
}  // namespace nsys::testing
