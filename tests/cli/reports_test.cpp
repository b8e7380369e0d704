// Every Nsight Systems report in the shared fixtures against the real binary and Debian's nsys 2022.4.2:
// a report (.nsys-rep or .qdrep, recognised by its bytes) converts and opens with the numbers of the export made from
// it, or, when it is newer than that nsys, gets the plain message naming the version that wrote it, also when only
// its session record names that version. A file named .qdrep that is not a report gets a clear error.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/support/sha256.h"
#include "read_all_util.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr char kDebianNsys[] = "/usr/lib/nsight-systems/bin/nsys";

// The reports whose .sqlite beside them is that report's conversion by nsys 2022.4.2 (the READMEs say so).
const std::map<std::string, std::string>& SameReportExports() {
  static const std::map<std::string, std::string> pairs = {
      {"a100_2proc_mpi.nsys-rep", "a100_2proc_mpi.sqlite"},
      {"realworld/gtx1650_keras_tf_darknet53.qdrep", "realworld/gtx1650_keras_tf_darknet53.sqlite"},
      {"realworld/rtx2080ti_cufcm_cufft.qdrep", "realworld/rtx2080ti_cufcm_cufft.sqlite"},
      {"realworld/rtx3090_jax_xla_small.nsys-rep", "realworld/rtx3090_jax_xla_small.sqlite"},
      {"realworld/rtx3090_pytorch_brainstorm_sample.qdrep", "realworld/rtx3090_pytorch_brainstorm_sample.sqlite"},
      {"realworld/titanrtx_pytorch_dnn_colocation_b.qdrep", "realworld/titanrtx_pytorch_dnn_colocation_b.sqlite"},
  };
  return pairs;
}

// The reports newer than 2022.4.2, with the version that wrote each. The first three say it in their header; the
// TensorRT one's header says "Report 1.", and only its session record names 2023.1.2.43.
const std::map<std::string, std::string>& TooNewReports() {
  static const std::map<std::string, std::string> writers = {
      {"nvfuser_2024_6.nsys-rep", "2024.6.2"},
      {"realworld/h20_too_new_nsys2023_4.nsys-rep", "2023.4.4"},
      {"realworld/rtx4060ti_pytorch_llama_infer_sim.nsys-rep", "2024.6.2"},
      {"realworld/rtx4070laptop_jax_apax_too_new_nsys2026_1.nsys-rep", "2026.1.1"},
      {"realworld/rtx3090_tensorrt_fp16_conv.nsys-rep", "2023.1.2.43"},
  };
  return writers;
}

// info --format json without what names the file, this job or the exporter: everything else must be equal. The
// exporter shows in its version, its schema and the ENUM_ tables it adds (a100_2proc_mpi.sqlite is 2022.3.4's export,
// without them; the conversion here is 2022.4.2's).
Json Numbers(Json info) {
  for (const char* key :
       {"metadata", "sourcePath", "fromCache", "modelBytes", "fileSize", "rowsChecked", "nsysVersion", "schemaVersion"})
    info["info"].erase(key);
  info["info"]["capabilities"].erase("enums");
  Json tables = Json::array();
  for (const Json& t : info["info"]["tables"])
    if (t["name"].get<std::string>().rfind("ENUM_", 0) != 0) tables.push_back(t);
  info["info"]["tables"] = tables;
  info.erase("path");
  return info;
}

class Reports : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    if (::access(kDebianNsys, X_OK) != 0) GTEST_SKIP() << "Debian's nsys 2022.4.2 absent";
    dir_ = fs::temp_directory_path() / ("nsys-ai-reports-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cache");
    setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);  // one cache for the whole test: each report converts once
  }
  void TearDown() override {
    unsetenv("XDG_CACHE_HOME");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  CliResult Run(std::vector<std::string> args) {
    args.insert(args.end(), {"--nsys", kDebianNsys});
    return RunCli(args);
  }
  // The report converts and opens with its export's numbers: info, and two skills' rows.
  void ExpectSameNumbers(const std::string& report, const std::string& sqlite) {
    const auto a = Run({"info", report, "--format", "json"});
    ASSERT_EQ(a.exit_code, 0) << report << ": " << a.err;
    const auto b = RunCli({"info", sqlite, "--format", "json", "--no-cache"});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const Json from_report = Json::parse(a.out), from_sqlite = Json::parse(b.out);
    EXPECT_EQ(from_report["info"]["sourcePath"], report);
    EXPECT_GT(from_sqlite["info"]["tables"].size(), 3u) << sqlite;
    EXPECT_EQ(Numbers(from_report), Numbers(from_sqlite)) << report;
    for (const std::string skill : {"top_kernels", "cuda_api_summary"}) {
      const auto r = Run({"skill", "run", skill, report, "--format", "json", "--arg", "limit=1000"});
      ASSERT_EQ(r.exit_code, 0) << report << ": " << r.err;
      const auto s = RunCli({"skill", "run", skill, sqlite, "--no-cache", "--format", "json", "--arg", "limit=1000"});
      ASSERT_EQ(s.exit_code, 0) << s.err;
      EXPECT_EQ(Json::parse(r.out)["rows"], Json::parse(s.out)["rows"]) << report << " " << skill;
    }
  }
  fs::path dir_;
};

TEST_F(Reports, EveryFixtureReportConvertsOrNamesItsWriter) {
  std::vector<std::string> seen;
  for (const char* sub : {"", "realworld"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(FixturesDir()) / sub)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      if (ext != ".nsys-rep" && ext != ".qdrep") continue;
      seen.push_back(std::string(sub).empty() ? name : std::string(sub) + "/" + name);
    }
  }
  std::sort(seen.begin(), seen.end());
  std::vector<std::string> known;
  for (const auto& [name, _] : SameReportExports()) known.push_back(name);
  for (const auto& [name, _] : TooNewReports()) known.push_back(name);
  std::sort(known.begin(), known.end());
  EXPECT_EQ(seen, known) << "a report in the fixtures that this test does not know";

  for (const auto& [report, sqlite] : SameReportExports()) ExpectSameNumbers(Fixture(report), Fixture(sqlite));
  for (const auto& [report, writer] : TooNewReports()) {
    const auto run = Run({"info", Fixture(report)});
    EXPECT_EQ(run.exit_code, 1) << report;
    EXPECT_NE(
        run.err.find("'" + Fixture(report) + "' was written by Nsight Systems " + writer + ", and the chosen nsys"),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("Nsight Systems 2022.4.2"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("Install Nsight Systems " + writer + " or newer"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("nsys export --type sqlite -o " + fs::path(report).stem().string() + ".sqlite"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("Exception"), std::string::npos) << run.err;  // never nsys's raw ProtobufParseException
    EXPECT_EQ(run.err.find("Version number is invalid"), std::string::npos) << run.err;
  }
  // Nothing was written beside the reports: every conversion is in the cache.
  size_t converted = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "cache"))
    if (e.path().extension() == ".sqlite") ++converted;
  EXPECT_EQ(converted, SameReportExports().size());
}

// A report is known by its bytes: a .qdrep copied to a name without an extension still converts; a file named
// .qdrep or .nsys-rep that is not a report is refused in plain words, without running nsys.
TEST_F(Reports, AReportIsKnownByItsBytesNotItsName) {
  const fs::path renamed = dir_ / "capture from the cluster";
  fs::copy_file(Fixture("realworld/rtx3090_pytorch_brainstorm_sample.qdrep"), renamed);
  const std::string before = support::Sha256::Hex(ReadAll(renamed));
  const auto mtime = fs::last_write_time(renamed);
  ExpectSameNumbers(renamed.string(), Fixture("realworld/rtx3090_pytorch_brainstorm_sample.sqlite"));
  // The report is never written to, and nothing is written beside it.
  EXPECT_EQ(support::Sha256::Hex(ReadAll(renamed)), before);
  EXPECT_EQ(fs::last_write_time(renamed), mtime);
  size_t beside = 0;
  for (const auto& e : fs::directory_iterator(dir_)) beside += e.path().extension() == ".sqlite" ? 1 : 0;
  EXPECT_EQ(beside, 0u);

  for (const char* name : {"notes.qdrep", "notes.nsys-rep", "NOTES.QDREP"}) {
    const fs::path fake = dir_ / name;
    std::ofstream(fake) << "meeting notes, not a profile\n";
    const auto run = Run({"info", fake.string()});
    EXPECT_EQ(run.exit_code, 1) << name;
    EXPECT_NE(run.err.find("'" + fake.string() +
                           "' is not an Nsight Systems report: it does not start with a "
                           "report's header (\"NVIDIA Tegra Profiler Report\")"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("nsys export"), std::string::npos) << run.err;
  }
  // A SQLite export that was given a report's name still opens as the export it is.
  fs::copy_file(Fixture("mock.sqlite"), dir_ / "mock.qdrep");
  const auto opened = RunCli({"info", (dir_ / "mock.qdrep").string(), "--no-cache"});
  EXPECT_EQ(opened.exit_code, 0) << opened.err;
}

// A job is a directory of rank reports: .qdrep files are ranks as .sqlite and .nsys-rep files are.
TEST_F(Reports, AJobOfQdrepRanks) {
  fs::create_directories(dir_ / "run");
  fs::copy_file(Fixture("realworld/rtx3090_pytorch_brainstorm_sample.qdrep"), dir_ / "run" / "rank0.qdrep");
  fs::copy_file(Fixture("realworld/gtx1650_keras_tf_darknet53.qdrep"), dir_ / "run" / "rank1.qdrep");
  const auto run = Run({"job-report", (dir_ / "run").string(), "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json ranks = Json::parse(run.out)["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << run.out;
  EXPECT_EQ(ranks[0]["rank"], "rank0");
  EXPECT_EQ(ranks[0]["kernels"], 114);  // the READMEs' kernel counts of the two exports
  EXPECT_EQ(ranks[1]["rank"], "rank1");
  EXPECT_EQ(ranks[1]["kernels"], 4696);
}

}  // namespace
}  // namespace nsys::testing
