// .nsys-rep conversion through a stand-in `nsys` script: the real fork/exec, argv, progress, cache reuse,
// failure and cancellation plumbing runs; only the converter itself is a copy of a fixture.
#include "../../server/engine/src/nsys_rep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Fixture;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class NsysRepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(bin_);
    fs::create_directories(reports_);
    // A report is known by its first bytes; the stand-in nsys ignores the rest.
    testing::WriteFile(report_, "NVIDIA Tegra Profiler Report 1.\na pretend report");
  }
  // Writes bin/nsys: records its argv, prints a progress line, then runs `body`.
  void FakeNsys(const std::string& body) {
    const std::string script = bin_ + "/nsys";
    testing::WriteFile(script,
                       "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > " + bin_ +
                           "/argv.txt\nout=\nprev=\nfor a in \"$@\"; do [ \"$prev\" = --output ] && out=\"$a\"; "
                           "prev=\"$a\"; done\necho 'Processing [=====     ] 50%'\n" +
                           body + "\n");
    chmod(script.c_str(), 0755);
  }
  OpenOptions Options() {
    OpenOptions o = TestOptions(cache_);
    o.nsys_binary = bin_ + "/nsys";
    return o;
  }
  TempDir dir_;
  std::string bin_ = dir_ / "bin";
  std::string reports_ = dir_ / "reports";
  std::string report_ = reports_ + "/run 1.nsys-rep";  // a space, to prove no shell is involved
  std::string cache_ = dir_ / "cache";
};

TEST_F(NsysRepTest, ConvertsIntoTheCacheAndOpens) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  FakeNsys("cp '" + Fixture("h100_2gpu_1s.sqlite") + "' \"$out\"");
  std::vector<std::pair<double, std::string>> progress;
  auto p = Profile::Open(report_, Options(), [&](double pct, const std::string& m) { progress.emplace_back(pct, m); });
  ASSERT_TRUE(p.ok()) << p.error().message;
  const std::vector<std::string> argv = Lines(bin_ + "/argv.txt");
  ASSERT_EQ(argv.size(), 6u);
  EXPECT_EQ(argv[0], "export");
  EXPECT_EQ(argv[1], "--type");
  EXPECT_EQ(argv[2], "sqlite");
  EXPECT_EQ(argv[3], "--output");
  EXPECT_THAT(argv[4], ::testing::StartsWith(cache_ + "/"));
  EXPECT_THAT(argv[4], ::testing::EndsWith(".sqlite"));
  EXPECT_EQ(argv[5], report_);
  EXPECT_EQ((*p)->info().source_path, report_);
  EXPECT_THAT((*p)->info().path, ::testing::StartsWith(cache_ + "/"));
  EXPECT_TRUE(fs::exists((*p)->info().path));
  ASSERT_TRUE((*p)->Require(Need::kKernels).ok());
  EXPECT_EQ((*p)->kernels().size(), 3442u);
  EXPECT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().first, 100.0);
  // Nothing was written next to the report.
  EXPECT_EQ(Listing(reports_), (std::vector<std::string>{"run 1.nsys-rep"}));

  // A second open reuses the conversion: the converter does not run again.
  fs::remove(bin_ + "/argv.txt");
  auto again = Profile::Open(report_, Options());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(fs::exists(bin_ + "/argv.txt"));
  EXPECT_EQ((*again)->info().path, (*p)->info().path);
}

TEST_F(NsysRepTest, FindsNsysOnPath) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  FakeNsys("cp '" + Fixture("mock.sqlite") + "' \"$out\"");
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (bin_ + ":" + old_path).c_str(), 1);
  OpenOptions o = Options();
  o.nsys_binary = "nsys";
  auto p = Profile::Open(report_, o);
  setenv("PATH", old_path.c_str(), 1);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(fs::exists(bin_ + "/argv.txt"));
  EXPECT_EQ((*p)->info().rows("CUPTI_ACTIVITY_KIND_KERNEL"), 2);
}

TEST_F(NsysRepTest, FailedConversionShowsNsysOutput) {
  FakeNsys("echo 'ERROR: the report is from a newer version' >&2\nexit 3");
  auto p = Profile::Open(report_, Options());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kBadInput);
  EXPECT_THAT(p.error().message, HasSubstr("exit code 3"));
  EXPECT_THAT(p.error().message, HasSubstr("the report is from a newer version"));
  EXPECT_THAT(p.error().message, HasSubstr("run 1.nsys-rep"));
  EXPECT_TRUE(!fs::exists(cache_) || Listing(cache_).empty()) << "a partial conversion was left in the cache";
}

// Issue 38, items 14 and 15: a report named "-h.nsys-rep" (relative) reached nsys as its --help option, and nsys
// inherited every descriptor the server had open without FD_CLOEXEC. Descriptor 100 is such a one here (the shell
// running the stand-in keeps its script open on a descriptor of its own, so only 100 is looked for).
TEST_F(NsysRepTest, TheConverterSeesAPathAndOnlyItsStandardDescriptors) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  FakeNsys("ls /proc/$$/fd > '" + bin_ + "/fds.txt'\ncp '" + Fixture("mock.sqlite") + "' \"$out\"");
  testing::WriteFile(reports_ + "/-h.nsys-rep", "NVIDIA Tegra Profiler Report 1.\na pretend report");
  const fs::path cwd = fs::current_path();
  fs::current_path(reports_);
  ASSERT_EQ(dup2(STDERR_FILENO, 100), 100);
  auto p = Profile::Open("-h.nsys-rep", Options());
  close(100);
  fs::current_path(cwd);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const std::vector<std::string> argv = Lines(bin_ + "/argv.txt");
  ASSERT_EQ(argv.size(), 6u);
  EXPECT_EQ(argv[5], "./-h.nsys-rep");
  const std::vector<std::string> fds = Lines(bin_ + "/fds.txt");
  ASSERT_FALSE(fds.empty());
  EXPECT_EQ(std::count(fds.begin(), fds.end(), "100"), 0) << "the converter kept descriptor 100";
}

TEST_F(NsysRepTest, CancelKillsTheConversion) {
  FakeNsys("sleep 30; cp /dev/null \"$out\"");
  CancelToken cancel;
  std::thread stopper([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto p = Profile::Open(report_, Options(), {}, cancel);
  stopper.join();
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_TRUE(!fs::exists(cache_) || Listing(cache_).empty());
}

TEST(NsysRepVersions, ReadsTheWriterFromTheReportHeader) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  auto head = [](const std::string& name) {
    std::ifstream in(Fixture(name), std::ios::binary);
    std::string bytes(256, '\0');
    in.read(bytes.data(), 256);
    return bytes;
  };
  auto nvfuser = ParseReportHeader(head("nvfuser_2024_6.nsys-rep"));
  ASSERT_TRUE(nvfuser.has_value());
  EXPECT_EQ(nvfuser->text, "2024.6.2");
  EXPECT_EQ(nvfuser->parts, (std::vector<int>{2024, 6, 2}));
  auto old = ParseReportHeader(head("a100_2proc_mpi.nsys-rep"));  // 2022.3.4 wrote no version: "Report 1."
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->parts.empty());
  EXPECT_FALSE(ParseReportHeader(head("mock.sqlite")).has_value());
  EXPECT_FALSE(ParseReportHeader("NVIDIA Tegra Profiler Report ").has_value());

  auto nsys = ParseNsysVersionOutput("NVIDIA Nsight Systems version 2022.4.2.1-df9881f\n");
  ASSERT_TRUE(nsys.has_value());
  EXPECT_EQ(nsys->text, "2022.4.2.1");
  EXPECT_LT(nsys->Compare(*nvfuser), 0);
  EXPECT_EQ(ParseNsysVersionOutput("NVIDIA Nsight Systems version 2024.6.2.225-32...")->Compare(*nvfuser), 0);
  EXPECT_FALSE(ParseNsysVersionOutput("command not found").has_value());
}

// Reports whose header says only "1." name their writer in their session record: the rule (footer ->
// table of sections -> "UI Data" -> field 6) holds for every report in the fixtures, .qdrep and .nsys-rep alike.
TEST(NsysRepVersions, ReadsTheWriterFromTheSessionRecord) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  const std::pair<const char*, const char*> reports[] = {
      {"a100_2proc_mpi.nsys-rep", "2022.3.4.34"},
      {"nvfuser_2024_6.nsys-rep", "2024.6.2.25"},
      {"realworld/gtx1650_keras_tf_darknet53.qdrep", "2019.6.1.85"},
      {"realworld/rtx2080ti_cufcm_cufft.qdrep", "2020.4.3.7"},
      {"realworld/rtx3090_pytorch_brainstorm_sample.qdrep", "2021.1.3.14"},
      {"realworld/titanrtx_pytorch_dnn_colocation_b.qdrep", "2020.3.2.6"},
      {"realworld/rtx3090_jax_xla_small.nsys-rep", "2022.1.3.3"},
      {"realworld/rtx3090_tensorrt_fp16_conv.nsys-rep", "2023.1.2.43"},
      {"realworld/h20_too_new_nsys2023_4.nsys-rep", "2023.4.4.54"},  // "[END]\n": a newline after the footer
      {"realworld/rtx4060ti_pytorch_llama_infer_sim.nsys-rep", "2024.6.2.225"},
      {"realworld/rtx4070laptop_jax_apax_too_new_nsys2026_1.nsys-rep", "2026.1.1.204"},
  };
  for (const auto& [name, version] : reports) {
    auto session = ReadSessionVersion(Fixture(name));
    ASSERT_TRUE(session.has_value()) << name;
    EXPECT_EQ(session->text, version) << name;
  }
  // The header wins when it names the writer; the session record answers when it says "1.".
  EXPECT_EQ(ReportWriter(Fixture("nvfuser_2024_6.nsys-rep"))->text, "2024.6.2");
  auto trt = ReportWriter(Fixture("realworld/rtx3090_tensorrt_fp16_conv.nsys-rep"));
  ASSERT_TRUE(trt.has_value());
  EXPECT_EQ(trt->parts, (std::vector<int>{2023, 1, 2, 43}));
  EXPECT_EQ(ReportWriter(Fixture("realworld/gtx1650_keras_tf_darknet53.qdrep"))->text, "2019.6.1.85");
  EXPECT_FALSE(ReportWriter(Fixture("mock.sqlite")).has_value());
  EXPECT_FALSE(ReadSessionVersion(Fixture("mock.sqlite")).has_value());

  EXPECT_EQ(ParseWriterVersion("2023.1.2.43-32377213v0")->text, "2023.1.2.43");
  EXPECT_FALSE(ParseWriterVersion("report1").has_value());
  EXPECT_FALSE(ParseWriterVersion("1.2").has_value());
}

// Damaged and hostile reports: a cut copy, a footer pointing past the end or at itself, a section table whose
// session record lies outside the file. No version, no crash, and the header's "1." is what remains.
TEST(NsysRepVersions, DamagedSessionRecordsGiveNoVersion) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  TempDir dir;
  std::ifstream in(Fixture("realworld/rtx3090_tensorrt_fp16_conv.nsys-rep"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  const std::string path = dir / "r.nsys-rep";
  auto version_of = [&](const std::string& content) {
    testing::WriteFile(path, content);
    return ReadSessionVersion(path);
  };
  ASSERT_TRUE(version_of(bytes).has_value());
  EXPECT_FALSE(version_of(bytes.substr(0, bytes.size() / 2)).has_value());
  EXPECT_FALSE(version_of(bytes.substr(0, bytes.size() - 1)).has_value());  // "[END" : no footer
  std::string far = bytes;
  far.replace(far.size() - 16, 8, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8));
  EXPECT_FALSE(version_of(far).has_value());
  std::string self = bytes;
  const uint64_t at = self.size() - 16;
  for (int i = 0; i < 8; ++i) self[at + i] = static_cast<char>((at >> (8 * i)) & 0xff);
  EXPECT_FALSE(version_of(self).has_value());
  std::string outside = bytes;  // "UI Data" at offset 309504 (varint 80 f2 12) now says 0x7f7f7f7f7f
  const size_t ui = outside.rfind("UI Data");
  ASSERT_NE(ui, std::string::npos);
  ASSERT_EQ(outside.substr(ui + 7, 4), std::string("\x10\x80\xf2\x12", 4));
  outside.replace(ui + 8, 3, "\xff\xff\x7f");
  EXPECT_FALSE(version_of(outside).has_value());
  EXPECT_FALSE(version_of("NVIDIA Tegra Profiler Report 1.\n").has_value());
  auto writer = ReportWriter(path);
  ASSERT_TRUE(writer.has_value());
  EXPECT_TRUE(writer->parts.empty());
}

class NsysChoiceTest : public NsysRepTest {
 protected:
  // opt/<version>/bin/nsys: prints its version, converts by copying mock.sqlite.
  std::string Install(const std::string& version) {
    const std::string dir = (fs::path(dir_ / "opt") / version / "bin").string();
    fs::create_directories(dir);
    testing::WriteFile(dir + "/nsys",
                       "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'NVIDIA Nsight Systems version " + version +
                           "-abc'; exit 0; fi\necho " + version + " > " + bin_ +
                           "/used.txt\nout=\nprev=\nfor a in "
                           "\"$@\"; do [ \"$prev\" = --output ] && out=\"$a\"; prev=\"$a\"; done\ncp '" +
                           Fixture("mock.sqlite") + "' \"$out\"\n");
    chmod((dir + "/nsys").c_str(), 0755);
    return dir + "/nsys";
  }
  OpenOptions Searching() {
    OpenOptions o = TestOptions(cache_);
    o.nsys_search = {(fs::path(dir_ / "opt") / "*" / "bin" / "nsys").string()};
    return o;
  }
  void ModernReport(const std::string& writer_tag) {
    testing::WriteFile(report_, "NVIDIA Tegra Profiler Report " + writer_tag + ".\n\x0bLocal (CLI)");
  }
};

TEST_F(NsysChoiceTest, PicksTheNewestInstalledNsys) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  Install("2023.1.1.10");
  const std::string newest = Install("2024.7.1.5");
  Install("2024.2.3.1");
  ModernReport("2024@6@2@25-246234924588v0");
  auto chosen = ChooseNsys(report_, Searching());
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(*chosen, newest);
  auto p = Profile::Open(report_, Searching());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(Lines(bin_ + "/used.txt"), (std::vector<std::string>{"2024.7.1.5"}));
}

TEST_F(NsysChoiceTest, TooOldEverywhereSaysBothVersionsAndWhatToDo) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  Install("2023.1.1.10");
  ModernReport("2030@1@0@1v0");
  auto p = Profile::Open(report_, Searching());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kBadInput);
  EXPECT_THAT(p.error().message, HasSubstr("written by Nsight Systems 2030.1.0"));
  EXPECT_THAT(p.error().message, HasSubstr("Nsight Systems 2023.1.1.10"));
  EXPECT_THAT(p.error().message, HasSubstr("--nsys PATH"));
  EXPECT_THAT(p.error().message, HasSubstr("nsys export --type sqlite -o run 1.sqlite"));
  EXPECT_FALSE(fs::exists(bin_ + "/used.txt")) << "an nsys that cannot read the report was run anyway";

  // The user's choice is used as given, and refused with the same plain words when it is too old.
  OpenOptions chosen = Searching();
  chosen.nsys_binary = Install("2029.5.0.1");
  auto q = Profile::Open(report_, chosen);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.error().message, HasSubstr("the chosen nsys (" + chosen.nsys_binary));
}

TEST_F(NsysChoiceTest, NsysOwnVersionErrorIsTranslated) {
  FakeNsys("echo 'Exportation error: Version number is invalid: 2030@1@0@1v0'\nexit 1");
  ModernReport("2030@1@0@1v0");  // the stand-in says no version, so only its own error tells
  auto p = Profile::Open(report_, Options());
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.error().message, HasSubstr("written by Nsight Systems 2030.1.0"));
  EXPECT_THAT(p.error().message, Not(HasSubstr("Version number is invalid")));
}

TEST_F(NsysChoiceTest, AConvertedReportReopensWithoutNsys) {
  if (!testing::HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  Install("2024.7.1.5");
  ASSERT_TRUE(Profile::Open(report_, Searching()).ok());
  fs::remove_all(dir_ / "opt");
  OpenOptions none = TestOptions(cache_);
  none.nsys_binary = "/nonexistent/nsys";
  auto again = Profile::Open(report_, none);
  EXPECT_TRUE(again.ok()) << again.error().message;
}

}  // namespace
}  // namespace nsys::engine
