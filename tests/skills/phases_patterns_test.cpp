// phases' "re:" patterns run on RE2: linear in the name whatever the pattern (std::regex crashed with `(a|b)*c` on a
// long NVTX name and never ended `(.*)*Z`), what RE2 cannot do is refused naming the pattern, and each regex gets a
// share of the map's memory. On a copy of examples/h100_2gpu_1s.sqlite with one NVTX range's name made 200 KB long.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

class PhasePatterns : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("nsys-phase-patterns-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const fs::path copy = dir_ / "h100_long_name.sqlite";
    fs::copy_file(fs::path(NSYS_AI_SOURCE_DIR) / "examples/h100_2gpu_1s.sqlite", copy,
                  fs::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(copy.c_str(), &db), SQLITE_OK);
    // One NVTX range (the export names them inline, in NVTX_EVENTS.text) gets a name of 200,000 'a's and a 'c'.
    const std::string sql = "update NVTX_EVENTS set text = '" + std::string(200'000, 'a') +
                            "c' where rowid = (select min(rowid) from NVTX_EVENTS where eventType = 59)";
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    EXPECT_EQ(sqlite3_changes(db), 1);
    sqlite3_close(db);
    engine::OpenOptions options;
    options.use_cache = false;
    auto opened = engine::Profile::Open(copy.string(), options);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    profile_ = opened.value();
  }
  static void TearDownTestSuite() {
    profile_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static Expected<skills::Table> Phases(const std::string& map) {
    return skills::RunByName(Builtins(), "phases", *profile_, {{"phase_map", Value{map}}});
  }
  static inline fs::path dir_;
  static inline std::shared_ptr<engine::Profile> profile_;
};

TEST_F(PhasePatterns, BacktrackingPatternsOnAHugeNameAnswerInLinearTime) {
  ASSERT_TRUE(profile_);
  const auto t0 = std::chrono::steady_clock::now();
  // (a|b)*c matches what contains a 'c'; (.*)*Z what contains a 'Z': each is checked against that substring.
  auto t = Phases(R"({"ab_c": ["re:(a|b)*c"], "c": ["c"], "any_Z": ["re:(.*)*Z"], "Z": ["Z"], )"
                  R"("huge": ["aaaaaaaaaaaaaaaaaaaac"], "huge_re": ["re:^a{1000}(a|b)*c$"]})");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_LT(seconds, 10.0);
  ASSERT_EQ(t->rows.size(), 6u);
  for (const char* column : {"ranges", "wall_ns", "gpu_ns", "kernels", "in_phase_ns"}) {
    EXPECT_EQ(IntCell(*t, 0, column), IntCell(*t, 1, column)) << column;
    EXPECT_EQ(IntCell(*t, 2, column), IntCell(*t, 3, column)) << column;
    EXPECT_EQ(IntCell(*t, 4, column), IntCell(*t, 5, column)) << column;
  }
  EXPECT_GT(IntCell(*t, 0, "ranges"), IntCell(*t, 4, "ranges"));
  EXPECT_GT(IntCell(*t, 4, "ranges"), 0) << "the 200 KB name is in the profile";
}

TEST_F(PhasePatterns, WhatRe2CannotMatchIsRefusedNamingThePattern) {
  ASSERT_TRUE(profile_);
  const std::pair<std::string, std::string> cases[] = {
      {R"j({"a": ["re:(x)\\1"]})j", R"j(phase "a": bad regex "(x)\1": invalid escape sequence: \1)j"},
      {R"j({"a": ["x", "re:x(?=y)"]})j", R"j(phase "a": bad regex "x(?=y)": invalid perl operator: (?=)j"},
      {R"j({"a": ["re:(?<=x)y"]})j", R"j(phase "a": bad regex "(?<=x)y": invalid perl operator: (?<)j"},
      {R"j({"b": ["re:(unclosed"]})j", R"j(phase "b": bad regex "(unclosed": missing ): (unclosed)j"},
  };
  for (const auto& [map, message] : cases) {
    auto r = Phases(map);
    ASSERT_FALSE(r.ok()) << map;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument) << map;
    EXPECT_EQ(r.error().message.rfind("phase_map: " + message + " (RE2 syntax: no backreferences or lookaround)", 0),
              0u)
        << r.error().message;
  }
}

TEST_F(PhasePatterns, EachRegexGetsAShareOfTheMapsMemory) {
  ASSERT_TRUE(profile_);
  // 26 alternatives of 1000 repeats: about 26,000 instructions, more than a 256 KiB share holds.
  std::string big;
  for (char c = 'a'; c <= 'z'; ++c) big += std::string(big.empty() ? "" : "|") + c + "{1000}";
  const std::string big_pattern = "\"re:" + big + "\"";
  auto alone = Phases("{\"big\": [" + big_pattern + "]}");
  ASSERT_TRUE(alone.ok()) << alone.error().message;  // alone it has RE2's default 8 MiB
  // With 255 other regexes each has 64 MiB / 256 = 256 KiB.
  std::string map = "{\"big\": [" + big_pattern + "]";
  for (int phase = 0; phase < 4; ++phase) {
    map += ", \"p" + std::to_string(phase) + "\": [";
    for (int i = 0; i < (phase == 3 ? 63 : 64); ++i)
      map += std::string(i ? ", " : "") + "\"re:x" + std::to_string(i) + "\"";
    map += "]";
  }
  map += "}";
  auto shared = Phases(map);
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(shared.error().message.find("phase \"big\": bad regex \"a{1000}|b{1000}"), std::string::npos)
      << shared.error().message;
  EXPECT_NE(shared.error().message.find("pattern too large - compile failed"), std::string::npos)
      << shared.error().message;
}

// The map is read by the one parse of untrusted JSON: a phase given twice is refused (parsers disagree on which
// counts), bytes that are not UTF-8 are refused with their offset, and the phases keep the map's order.
TEST_F(PhasePatterns, TheMapIsReadByTheOneJsonParse) {
  ASSERT_TRUE(profile_);
  auto twice = Phases(R"({"decode": ["a"], "prefill": ["b"], "decode": ["c"]})");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("the phase \"decode\" is given twice"), std::string::npos)
      << twice.error().message;
  auto bytes = Phases("{\"a\": [\"\xff\"]}");
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.error().message.find("invalid UTF-8"), std::string::npos) << bytes.error().message;
  auto ordered = Phases(R"({"zeta": ["a"], "alpha": ["b"]})");
  ASSERT_TRUE(ordered.ok()) << ordered.error().message;
  const int zeta = FindRow(*ordered, "phase", "zeta"), alpha = FindRow(*ordered, "phase", "alpha");
  ASSERT_GE(zeta, 0);
  ASSERT_GE(alpha, 0);
  EXPECT_LT(zeta, alpha);  // the map's order, not the names' (a JSON object's value sorts them)
}

}  // namespace
}  // namespace nsys::testing
