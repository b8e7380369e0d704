// Hostile and careless export targets against the real binary: the profile, links to
// it, devices, FIFOs and other people's files are never overwritten; exportTrace's cache stays bounded; .nsys-rep
// reports convert with the right nsys or say plainly why not.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"
#include "fixtures.h"
#include "nsys/support/sha256.h"
#include "read_all_util.h"
#include "serve_session.h"

namespace nsys::testing {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::string Sha(const fs::path& path) {
  return support::Sha256::Hex(ReadAll(path));
}

bool StartsLikeTrace(const fs::path& path) {
  const std::string bytes = ReadAll(path);
  return !bytes.empty() && bytes[0] == 0x0A;
}

void Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class ExportTargets : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
    dir_ = fs::temp_directory_path() / ("nsys-ai-export-targets-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cache");
    profile_ = dir_ / "p.sqlite";
    fs::copy_file(Fixture("mock.sqlite"), profile_);
    profile_sha_ = Sha(profile_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  CliResult Export(const fs::path& output, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"export", profile_.string(), "-o", output.string(), "--no-cache"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunCli(args);
  }
  std::vector<std::string> Env() const { return {"XDG_CACHE_HOME=" + (dir_ / "cache").string()}; }

  fs::path dir_;
  fs::path profile_;
  std::string profile_sha_;
};

TEST_F(ExportTargets, CliRefusesTheProfileAndLinksToIt) {
  const auto onto_profile = Export(profile_);
  EXPECT_EQ(onto_profile.exit_code, 2) << onto_profile.err;
  EXPECT_NE(onto_profile.err.find("is a profile opened in this session"), std::string::npos) << onto_profile.err;
  EXPECT_EQ(Sha(profile_), profile_sha_);

  fs::create_symlink(profile_, dir_ / "link.pftrace");
  const auto through_link = Export(dir_ / "link.pftrace", {"--force"});
  EXPECT_EQ(through_link.exit_code, 2) << through_link.err;
  EXPECT_NE(through_link.err.find("profile"), std::string::npos) << through_link.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.pftrace"));
  EXPECT_EQ(Sha(profile_), profile_sha_);

  fs::create_hard_link(profile_, dir_ / "hard.pftrace");
  EXPECT_EQ(Export(dir_ / "hard.pftrace", {"--force"}).exit_code, 2);
  EXPECT_EQ(Sha(profile_), profile_sha_);

  // Another SQLite file that is not open: a profile all the same, even with --force.
  fs::copy_file(Fixture("mock.sqlite"), dir_ / "other.sqlite");
  const auto onto_sqlite = Export(dir_ / "other.sqlite", {"--force"});
  EXPECT_EQ(onto_sqlite.exit_code, 2) << onto_sqlite.err;
  EXPECT_NE(onto_sqlite.err.find("SQLite database"), std::string::npos) << onto_sqlite.err;
  EXPECT_EQ(Sha(dir_ / "other.sqlite"), profile_sha_);
}

TEST_F(ExportTargets, CliRefusesDevicesFifosAndDirectories) {
  const auto devnull = Export("/dev/null", {"--force"});
  EXPECT_EQ(devnull.exit_code, 2) << devnull.err;
  EXPECT_NE(devnull.err.find("character device, not a regular file"), std::string::npos) << devnull.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));

  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  const auto fifo = Export(dir_ / "fifo", {"--force"});  // must not block opening it either
  EXPECT_EQ(fifo.exit_code, 2) << fifo.err;
  EXPECT_NE(fifo.err.find("FIFO"), std::string::npos) << fifo.err;
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo"));

  const auto directory = Export(dir_, {"--force"});
  EXPECT_EQ(directory.exit_code, 2) << directory.err;
  EXPECT_NE(directory.err.find("directory"), std::string::npos) << directory.err;

  fs::create_symlink(dir_ / "missing.pftrace", dir_ / "dangling");
  EXPECT_EQ(Export(dir_ / "dangling").exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "missing.pftrace"));
}

TEST_F(ExportTargets, CliReplacesOnlyTracesUnlessForced) {
  const fs::path notes = dir_ / "notes.txt";
  Write(notes, "my notes\n");
  const auto refused = Export(notes);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("is not a Perfetto trace"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(ReadAll(notes), "my notes\n");

  const auto forced = Export(notes, {"--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_TRUE(StartsLikeTrace(notes));

  // An existing trace is replaced without --force; through a symlink the link stays and its target is replaced.
  const fs::path trace = dir_ / "t.pftrace";
  ASSERT_EQ(Export(trace).exit_code, 0);
  const auto first = fs::last_write_time(trace);
  const auto again = Export(trace, {"--no-flows"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(StartsLikeTrace(trace));
  fs::create_symlink(trace, dir_ / "link.pftrace");
  const auto via_link = Export(dir_ / "link.pftrace");
  EXPECT_EQ(via_link.exit_code, 0) << via_link.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.pftrace"));
  EXPECT_TRUE(StartsLikeTrace(trace));
  EXPECT_GE(fs::last_write_time(trace), first);
  // No temporary file is left anywhere.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".t.pftrace."), std::string::npos) << entry.path();
  }
  EXPECT_EQ(Sha(profile_), profile_sha_);
}

TEST_F(ExportTargets, ExportTraceOverStdioRefusesTheSameTargets) {
  ServeSession server({"serve", "--stdio", "--no-cache"}, Env());
  ASSERT_TRUE(server.ok());
  const Json opened = server.Call("nsys/openProfile", {{"path", profile_.string()}});
  ASSERT_TRUE(opened.contains("result")) << opened.dump();
  const std::string id = opened["result"]["profileId"];
  auto export_to = [&](const std::string& output) {
    return server.Call("nsys/exportTrace", {{"profileId", id}, {"output", output}});
  };
  fs::create_symlink(profile_, dir_ / "link.pftrace");
  const fs::path notes = dir_ / "notes.txt";
  Write(notes, "my notes\n");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  for (const std::string& target : {profile_.string(), (dir_ / "link.pftrace").string(), std::string("/dev/null"),
                                    (dir_ / "fifo").string(), notes.string()}) {
    const Json reply = export_to(target);
    ASSERT_TRUE(reply.contains("error")) << target << ": " << reply.dump();
    EXPECT_EQ(reply["error"]["code"], -32602) << target;
    EXPECT_NE(reply["error"]["message"].get<std::string>().find("Refusing to write the trace"), std::string::npos)
        << reply.dump();
  }
  EXPECT_EQ(Sha(profile_), profile_sha_);
  EXPECT_EQ(ReadAll(notes), "my notes\n");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.pftrace"));
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo"));

  // A closed profile stays protected (it was opened in this session), and a trace is still replaced.
  ASSERT_TRUE(server.Call("nsys/closeProfile", {{"profileId", id}}).contains("result"));
  const Json reopened = server.Call("nsys/openProfile", {{"path", Fixture("mock.sqlite")}});
  ASSERT_TRUE(reopened.contains("result")) << reopened.dump();
  const std::string id2 = reopened["result"]["profileId"];
  const Json onto_closed = server.Call("nsys/exportTrace", {{"profileId", id2}, {"output", profile_.string()}});
  EXPECT_TRUE(onto_closed.contains("error")) << onto_closed.dump();
  const fs::path trace = dir_ / "t.pftrace";
  for (int i = 0; i < 2; ++i) {
    const Json ok = server.Call("nsys/exportTrace", {{"profileId", id2}, {"output", trace.string()}});
    ASSERT_TRUE(ok.contains("result")) << ok.dump();
  }
  EXPECT_TRUE(StartsLikeTrace(trace));
  EXPECT_EQ(Sha(profile_), profile_sha_);
}

// exportTrace without `output`: the cache keeps at most 8 traces of this server and removes them when it stops.
TEST_F(ExportTargets, ExportTraceCacheIsBoundedAndCleaned) {
  const fs::path traces = dir_ / "cache" / "nsys-ai" / "exported-traces";
  auto count = [&] {
    size_t files = 0;
    uint64_t bytes = 0;
    std::error_code ec;
    for (fs::directory_iterator it(traces, ec), end; !ec && it != end; it.increment(ec)) {
      ++files;
      bytes += fs::file_size(it->path());
    }
    return std::make_pair(files, bytes);
  };
  {
    ServeSession server({"serve", "--stdio", "--no-cache"}, Env());
    ASSERT_TRUE(server.ok());
    const Json opened = server.Call("nsys/openProfile", {{"path", profile_.string()}});
    ASSERT_TRUE(opened.contains("result")) << opened.dump();
    std::vector<std::string> paths;
    uint64_t one_trace = 0;
    for (int i = 0; i < 12; ++i) {
      const Json reply = server.Call("nsys/exportTrace", {{"profileId", opened["result"]["profileId"]}});
      ASSERT_TRUE(reply.contains("result")) << reply.dump();
      paths.push_back(reply["result"]["path"].get<std::string>());
      one_trace = reply["result"]["bytes"].get<uint64_t>();
      ASSERT_TRUE(fs::exists(paths.back()));  // the one just written is always there for the client to read
    }
    const auto [files, bytes] = count();
    EXPECT_EQ(files, 8u);
    EXPECT_LE(bytes, 8 * one_trace);
    EXPECT_FALSE(fs::exists(paths.front()));  // the oldest went first
    EXPECT_TRUE(fs::exists(paths[4]));
  }
  EXPECT_EQ(count().first, 0u) << "the server's traces outlived it";
  EXPECT_EQ(Sha(profile_), profile_sha_);
}

// a100_2proc_mpi.nsys-rep converts with the nsys installed here and gives exactly the shipped export's numbers.
TEST_F(ExportTargets, ReportConvertsToTheNumbersOfItsExport) {
  if (::access("/usr/bin/nsys", X_OK) != 0 && std::system("command -v nsys >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no nsys installed";
  }
  setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
  for (const std::string skill : {"top_kernels", "cuda_api_summary"}) {
    const auto from_report =
        RunCli({"skill", "run", skill, Fixture("a100_2proc_mpi.nsys-rep"), "--format", "json", "--arg", "limit=1000"});
    ASSERT_EQ(from_report.exit_code, 0) << from_report.err;
    const auto from_sqlite = RunCli({"skill", "run", skill, Fixture("a100_2proc_mpi.sqlite"), "--no-cache", "--format",
                                     "json", "--arg", "limit=1000"});
    ASSERT_EQ(from_sqlite.exit_code, 0) << from_sqlite.err;
    const Json a = Json::parse(from_report.out), b = Json::parse(from_sqlite.out);
    EXPECT_FALSE(b["rows"].empty());
    EXPECT_EQ(a["rows"], b["rows"]) << skill;
    EXPECT_EQ(a["columns"], b["columns"]) << skill;
  }
  unsetenv("XDG_CACHE_HOME");
}

// A report newer than every nsys here: the message names the report's writer and the nsys, and what to do.
TEST_F(ExportTargets, ReportNewerThanNsysSaysBothVersions) {
  if (::access("/usr/lib/nsight-systems/bin/nsys", X_OK) != 0) GTEST_SKIP() << "Debian's nsys 2022.4.2 absent";
  setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
  const auto info = RunCli({"info", Fixture("nvfuser_2024_6.nsys-rep")});
  const auto chosen =
      RunCli({"info", Fixture("nvfuser_2024_6.nsys-rep"), "--nsys", "/usr/lib/nsight-systems/bin/nsys"});
  unsetenv("XDG_CACHE_HOME");
  for (const auto& run : {info, chosen}) {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find("written by Nsight Systems 2024.6.2"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("Nsight Systems 2022.4.2"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("nsys export --type sqlite -o nvfuser_2024_6.sqlite"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("Version number is invalid"), std::string::npos) << run.err;
  }
  EXPECT_NE(chosen.err.find("the chosen nsys"), std::string::npos) << chosen.err;
}

// initializationOptions.nsysPath: the session's conversions use that binary (here one that is not there).
TEST_F(ExportTargets, NsysPathInitializationOption) {
  ServeSession bad({"serve", "--stdio"}, Env(), {{"nsysPath", "relative/nsys"}});
  EXPECT_FALSE(bad.ok());  // -32602 at initialize: not an absolute path
  fs::copy_file(Fixture("nvfuser_2024_6.nsys-rep"), dir_ / "r.nsys-rep");
  ServeSession server({"serve", "--stdio"}, Env(), {{"nsysPath", (dir_ / "no-such-nsys").string()}});
  ASSERT_TRUE(server.ok());
  const Json reply = server.Call("nsys/openProfile", {{"path", (dir_ / "r.nsys-rep").string()}});
  ASSERT_TRUE(reply.contains("error")) << reply.dump();
  EXPECT_NE(reply["error"]["message"].get<std::string>().find((dir_ / "no-such-nsys").string() +
                                                              "`, which is not an executable file"),
            std::string::npos)
      << reply.dump();

  // A stand-in nsys named by nsysPath converts this session's report (it "converts" into mock.sqlite).
  const fs::path fake = dir_ / "fake-nsys";
  Write(fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'NVIDIA Nsight Systems version 2030.1.0.1'; exit 0; }\n"
        "out=\nprev=\nfor a in \"$@\"; do [ \"$prev\" = --output ] && out=\"$a\"; prev=\"$a\"; done\ncp '" +
            Fixture("mock.sqlite") + "' \"$out\"\n");
  ::chmod(fake.c_str(), 0755);
  ServeSession chosen({"serve", "--stdio"}, Env(), {{"nsysPath", fake.string()}});
  ASSERT_TRUE(chosen.ok());
  const Json converted = chosen.Call("nsys/openProfile", {{"path", (dir_ / "r.nsys-rep").string()}});
  ASSERT_TRUE(converted.contains("result")) << converted.dump();
  EXPECT_EQ(converted["result"]["info"]["sourcePath"], (dir_ / "r.nsys-rep").string()) << converted.dump();
  EXPECT_NE(converted.dump().find("RTX 3080"), std::string::npos) << converted.dump();  // mock.sqlite's GPU
}

}  // namespace
}  // namespace nsys::testing
