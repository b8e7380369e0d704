// Declarative user skills: loading, validation of bad files, read-only enforcement, and the shipped examples run
// on fixtures (expected values from nsys stats and the fixtures' README).
#include "nsys/skills/user_skills.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

std::string ExamplesDir() {
  return (fs::path(NSYS_AI_SOURCE_DIR) / "skills" / "examples").string();
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("nsys-ai-user-skills-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string Write(const std::string& file, const std::string& text) const {
    std::ofstream(path_ / file) << text;
    return (path_ / file).string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::shared_ptr<const skills::Skill> LoadExample(const std::string& name) {
  auto load = skills::LoadUserSkills({ExamplesDir()});
  EXPECT_TRUE(load.warnings.empty()) << (load.warnings.empty() ? "" : load.warnings[0]);
  for (auto& s : load.skills) {
    if (s->name() == name) return s;
  }
  ADD_FAILURE() << "example " << name << " not found in " << ExamplesDir();
  return nullptr;
}

Expected<skills::Table> RunOn(const skills::Skill& skill, const std::string& fixture, const skills::Args& args = {}) {
  auto profile = OpenFixture(fixture);
  if (!profile) return MakeError(ErrorKind::kInternal, "no fixture");
  return skills::Run(skill, *profile, args);
}

TEST(UserSkills, ExamplesLoadCleanly) {
  auto load = skills::LoadUserSkills({ExamplesDir()});
  EXPECT_TRUE(load.warnings.empty()) << (load.warnings.empty() ? "" : load.warnings[0]);
  ASSERT_EQ(load.skills.size(), 2u);
  for (const auto& s : load.skills) {
    EXPECT_TRUE(skills::IsUserSkill(*s));
    EXPECT_TRUE(Contains(skills::UserSkillOrigin(*s), ".skill.json"));
  }
  skills::Registry registry;
  skills::RegisterBuiltins(registry);
  EXPECT_FALSE(skills::IsUserSkill(*registry.Find("top_kernels")));
  for (const auto& s : load.skills) registry.Add(s);
  registry.RemoveIf([](const skills::Skill& s) { return skills::IsUserSkill(s); });
  EXPECT_EQ(registry.Find("memcpy_by_stream"), nullptr);
  EXPECT_NE(registry.Find("top_kernels"), nullptr);
}

TEST(UserSkills, MemcpyByStreamOnH100) {
  NSYS_REQUIRE_FIXTURES();
  auto skill = LoadExample("memcpy_by_stream");
  ASSERT_NE(skill, nullptr);
  auto result = RunOn(*skill, "h100_2gpu_1s.sqlite");
  ASSERT_TRUE(result.ok()) << result.error().message;
  const skills::Table& t = *result;
  ASSERT_FALSE(t.declined);
  int64_t copies = 0, htod_bytes = 0, htod_time = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    copies += IntCell(t, r, "copies");
    if (StringCell(t, r, "direction") == "HtoD") {
      htod_bytes += IntCell(t, r, "total_bytes");
      htod_time += IntCell(t, r, "total_time_ns");
    }
  }
  EXPECT_EQ(copies, 904);  // fixtures/README: 904 memcpys
  // gpumemsizesum: 50950.508 MB HtoD; gpumemtimesum: 1841630798 ns HtoD.
  EXPECT_NEAR(static_cast<double>(htod_bytes) / 1e6, 50950.508, 0.0005);
  EXPECT_EQ(htod_time, 1841630798);
  EXPECT_TRUE(Contains(JoinNotes(t), "User skill from")) << JoinNotes(t);

  // The window, device and process filters reach the SQL as parameters.
  auto first_half = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"start", Value(0.0)}, {"end", Value(0.5)}});
  ASSERT_TRUE(first_half.ok()) << first_half.error().message;
  auto second_half = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"start", Value(0.5)}});
  ASSERT_TRUE(second_half.ok()) << second_half.error().message;
  auto copies_of = [](const skills::Table& table) {
    int64_t n = 0;
    for (size_t r = 0; r < table.rows.size(); ++r) n += IntCell(table, r, "copies");
    return n;
  };
  EXPECT_EQ(copies_of(*first_half) + copies_of(*second_half), 904);
  EXPECT_GT(copies_of(*first_half), 0);
  EXPECT_FALSE(Contains(JoinNotes(*first_half), "not applied")) << JoinNotes(*first_half);
  auto device1 = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"device", Value(int64_t{1})}});
  ASSERT_TRUE(device1.ok()) << device1.error().message;
  ASSERT_FALSE(device1->rows.empty());
  for (size_t r = 0; r < device1->rows.size(); ++r) EXPECT_EQ(IntCell(*device1, r, "device"), 1);

  // A skill whose SQL takes no window says the window was not applied.
  auto whole = skills::ParseUserSkill(
      R"js({"name": "all_copies", "description": "x", "sql": "SELECT count(*) AS n FROM CUPTI_ACTIVITY_KIND_MEMCPY"})js",
      "all_copies.skill.json");
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  auto unwindowed = RunOn(**whole, "h100_2gpu_1s.sqlite", {{"start", Value(0.0)}, {"end", Value(0.5)}});
  ASSERT_TRUE(unwindowed.ok()) << unwindowed.error().message;
  EXPECT_EQ(IntCell(*unwindowed, 0, "n"), 904);
  EXPECT_TRUE(Contains(JoinNotes(*unwindowed), "window was not applied")) << JoinNotes(*unwindowed);

  // Declines, naming the table, where the export has none (v100_julia has no memcpy table).
  auto declined = RunOn(*skill, "v100_julia.sqlite");
  ASSERT_TRUE(declined.ok()) << declined.error().message;
  EXPECT_TRUE(declined->declined);
  EXPECT_TRUE(Contains(JoinNotes(*declined), "CUPTI_ACTIVITY_KIND_MEMCPY")) << JoinNotes(*declined);
}

TEST(UserSkills, LongestKernelsBindsItsArguments) {
  NSYS_REQUIRE_FIXTURES();
  auto skill = LoadExample("longest_kernels");
  ASSERT_NE(skill, nullptr);
  auto result = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"limit", Value(int64_t{3})}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const skills::Table& t = *result;
  ASSERT_EQ(t.rows.size(), 3u);
  // gpukernsum's largest Max: 306210 ns, grid 2 48 5, block 128 1 1 (short name from gpukernsum:base).
  EXPECT_EQ(IntCell(t, 0, "duration_ns"), 306210);
  EXPECT_EQ(StringCell(t, 0, "grid"), "2x48x5");
  EXPECT_EQ(StringCell(t, 0, "block"), "128x1x1");
  EXPECT_EQ(StringCell(t, 0, "name"),
            "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_"
            "execute_kernel__5x_cublas");
  auto only_dev1 = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"device", Value(int64_t{1})}, {"limit", Value(int64_t{50})}});
  ASSERT_TRUE(only_dev1.ok()) << only_dev1.error().message;
  for (size_t r = 0; r < only_dev1->rows.size(); ++r) EXPECT_EQ(IntCell(*only_dev1, r, "device"), 1);
  auto long_only = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"min_ns", Value(int64_t{300000})}});
  ASSERT_TRUE(long_only.ok());
  EXPECT_EQ(long_only->rows.size(), 8u);  // gpukernsum: the only row with Min >= 300000 has 8 instances (min 304224)
  auto wrong = RunOn(*skill, "h100_2gpu_1s.sqlite", {{"limit", Value(std::string("3"))}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_TRUE(Contains(wrong.error().message, "'limit'")) << wrong.error().message;
}

TEST(UserSkills, BadFilesGiveWarningsNamingTheFile) {
  TempDir dir;
  dir.Write("good.skill.json", R"js({"name": "good", "description": "ok", "sql": "SELECT 1 AS one"})js");
  dir.Write("notjson.skill.json", "{ this is not json");
  dir.Write("nosql.skill.json", R"js({"name": "nosql", "description": "x"})js");
  dir.Write("insert.skill.json",
            R"js({"name": "ins", "description": "x", "sql": "INSERT INTO StringIds VALUES (1, 'x')"})js");
  dir.Write("cte_delete.skill.json",
            R"js({"name": "cte", "description": "x", "sql": "WITH a AS (SELECT 1) DELETE FROM StringIds"})js");
  dir.Write("attach.skill.json", R"js({"name": "att", "description": "x", "sql": "SELECT 1; ATTACH 'x' AS y"})js");
  dir.Write("pragma.skill.json", R"js({"name": "prag", "description": "x", "sql": "PRAGMA query_only = 0"})js");
  dir.Write("badparam.skill.json", R"js({"name": "badp", "description": "x", "sql": "SELECT :nope"})js");
  dir.Write(
      "badtype.skill.json",
      R"js({"name": "badt", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "integer"}]})js");
  dir.Write(
      "baddefault.skill.json",
      R"js({"name": "badd", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "int", "default": "5"}]})js");
  dir.Write(
      "reserved.skill.json",
      R"js({"name": "resv", "description": "x", "sql": "SELECT 1", "args": [{"name": "device", "type": "int"}]})js");
  dir.Write("BadName.skill.json", R"js({"name": "Bad Name", "description": "x", "sql": "SELECT 1"})js");
  dir.Write("typo.skill.json", R"js({"name": "typo", "description": "x", "sqll": "SELECT 1"})js");
  dir.Write("ignored.json", "not a skill file: wrong suffix");
  auto load = skills::LoadUserSkills({dir.path(), "/nonexistent/nsys-ai/skills"});
  ASSERT_EQ(load.skills.size(), 1u);
  EXPECT_EQ(load.skills[0]->name(), "good");
  ASSERT_EQ(load.warnings.size(), 12u);
  auto warning_for = [&](const std::string& file) {
    for (const auto& w : load.warnings) {
      if (Contains(w, file)) return w;
    }
    return std::string();
  };
  EXPECT_TRUE(Contains(warning_for("notjson.skill.json"), "not valid JSON"));
  EXPECT_TRUE(Contains(warning_for("nosql.skill.json"), "'sql' is missing"));
  EXPECT_TRUE(Contains(warning_for("insert.skill.json"), "starts with INSERT"));
  EXPECT_TRUE(Contains(warning_for("cte_delete.skill.json"), "DELETE"));
  EXPECT_TRUE(Contains(warning_for("attach.skill.json"), "more than one statement"));
  EXPECT_TRUE(Contains(warning_for("pragma.skill.json"), "PRAGMA"));
  EXPECT_TRUE(Contains(warning_for("badparam.skill.json"), ":nope"));
  EXPECT_TRUE(Contains(warning_for("badtype.skill.json"), "'type' must be one of"));
  EXPECT_TRUE(Contains(warning_for("baddefault.skill.json"), "must be an int"));
  EXPECT_TRUE(Contains(warning_for("reserved.skill.json"), "common argument"));
  EXPECT_TRUE(Contains(warning_for("BadName.skill.json"), "snake_case"));
  EXPECT_TRUE(Contains(warning_for("typo.skill.json"), "unknown field 'sqll'"));
}

TEST(UserSkills, LaterFolderWinsWithAWarning) {
  TempDir global, local;
  global.Write("a.skill.json", R"js({"name": "same", "description": "global", "sql": "SELECT 1"})js");
  local.Write("b.skill.json", R"js({"name": "same", "description": "local", "sql": "SELECT 2"})js");
  auto load = skills::LoadUserSkills({global.path(), local.path()});
  ASSERT_EQ(load.skills.size(), 1u);
  EXPECT_EQ(load.skills[0]->description(), "local");
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_TRUE(Contains(load.warnings[0], "replaces")) << load.warnings[0];
}

TEST(UserSkills, BadSqlFailsAtRunNamingTheSkill) {
  NSYS_REQUIRE_FIXTURES();
  auto bad = skills::ParseUserSkill(
      R"js({"name": "broken", "description": "x", "sql": "SELECT nosuchcolumn FROM StringIds"})js",
      "broken.skill.json");
  ASSERT_TRUE(bad.ok()) << bad.error().message;
  auto result = RunOn(**bad, "h100_2gpu_1s.sqlite");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(Contains(result.error().message, "broken")) << result.error().message;
  EXPECT_TRUE(Contains(result.error().message, "nosuchcolumn")) << result.error().message;
  auto syntax =
      skills::ParseUserSkill(R"js({"name": "syntax", "description": "x", "sql": "SELECT FROM WHERE"})js", "s");
  ASSERT_TRUE(syntax.ok());
  EXPECT_FALSE(RunOn(**syntax, "h100_2gpu_1s.sqlite").ok());
  auto missing = skills::ParseUserSkill(
      R"js({"name": "missing", "description": "x", "sql": "SELECT * FROM NO_SUCH_TABLE"})js", "m");
  ASSERT_TRUE(missing.ok());
  auto declined = RunOn(**missing, "h100_2gpu_1s.sqlite");
  ASSERT_TRUE(declined.ok()) << declined.error().message;
  EXPECT_TRUE(declined->declined);
}

TEST(UserSkills, EngineRefusesWhatTheLoaderCannotSee) {
  NSYS_REQUIRE_FIXTURES();
  // A read-looking statement that would load code or read pragma state: the loader lets it through (no write
  // keyword), the engine's authorizer refuses it when it runs.
  for (const char* sql :
       {"SELECT load_extension('/tmp/nsys-ai-no-such-extension')", "SELECT * FROM pragma_compile_options"}) {
    auto skill = skills::ParseUserSkill(
        std::string(R"js({"name": "sneaky", "description": "x", "sql": ")js") + sql + "\"}", "sneaky.skill.json");
    ASSERT_TRUE(skill.ok()) << skill.error().message;
    auto result = RunOn(**skill, "h100_2gpu_1s.sqlite");
    ASSERT_FALSE(result.ok()) << sql;
    EXPECT_TRUE(Contains(result.error().message, "sneaky")) << result.error().message;
  }
}

TEST(UserSkills, MaxRowsIsCapped) {
  auto with_max_rows = [](const std::string& value) {
    return skills::ParseUserSkill(
        R"js({"name": "capped", "description": "x", "sql": "SELECT 1", "max_rows": )js" + value + "}",
        "capped.skill.json");
  };
  EXPECT_TRUE(with_max_rows("100000").ok());
  for (const char* over : {"100001", "2000000000", "18446744073709551615"}) {
    auto r = with_max_rows(over);
    ASSERT_FALSE(r.ok()) << over;
    EXPECT_TRUE(Contains(r.error().message, "over the cap of 100000 rows")) << r.error().message;
    EXPECT_TRUE(Contains(r.error().message, "capped.skill.json")) << r.error().message;
  }
  for (const char* bad : {"0", "-5", "1.5", "\"10\"", "1e30", "null"}) {
    auto r = with_max_rows(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(Contains(r.error().message, "'max_rows' must be a positive integer")) << r.error().message;
  }
  EXPECT_EQ(skills::kMaxUserSkillRows, 100000);
}

TEST(UserSkills, MalformedFieldsAreErrorsNotExceptions) {
  // Each of these used to reach a nlohmann::json type_error (which would end the process) or a wrapped integer.
  for (
      const char* text : {
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": 5}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "int", "default": 18446744073709551615}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": ["int"]}]})js",
      }) {
    auto r = skills::ParseUserSkill(text, "t.skill.json");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_TRUE(Contains(r.error().message, "t.skill.json")) << r.error().message;
  }
}

// min/max/choices in a skill file land on the ArgSpec (so describe shows them) and the runner enforces them.
TEST(UserSkills, BoundsAndChoicesAreDeclaredAndEnforced) {
  NSYS_REQUIRE_FIXTURES();
  auto skill = skills::ParseUserSkill(
      R"js({"name": "bounded", "description": "x", "sql": "SELECT :n AS n, :unit AS unit",
            "args": [{"name": "n", "type": "int", "default": 5, "min": 1, "max": 10},
                     {"name": "unit", "type": "string", "default": "ns", "choices": ["ns", "us"]}]})js",
      "b.skill.json");
  ASSERT_TRUE(skill.ok()) << skill.error().message;
  const auto specs = (*skill)->args();
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].min, 1.0);
  EXPECT_EQ(specs[0].max, 10.0);
  EXPECT_EQ(specs[1].choices, (std::vector<std::string>{"ns", "us"}));
  auto ok = RunOn(**skill, "h100_2gpu_1s.sqlite", {{"n", Value(int64_t{10})}, {"unit", Value(std::string("us"))}});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(IntCell(*ok, 0, "n"), 10);
  EXPECT_EQ(StringCell(*ok, 0, "unit"), "us");
  auto high = RunOn(**skill, "h100_2gpu_1s.sqlite", {{"n", Value(int64_t{11})}});
  ASSERT_FALSE(high.ok());
  EXPECT_EQ(high.error().message, "Argument 'n' of skill 'bounded' must be between 1 and 10, got 11.");
  auto unit = RunOn(**skill, "h100_2gpu_1s.sqlite", {{"unit", Value(std::string("ms"))}});
  ASSERT_FALSE(unit.ok());
  EXPECT_EQ(unit.error().message, "Argument 'unit' of skill 'bounded' must be one of \"ns\", \"us\", got \"ms\".");
  for (
      const char* bad : {
          R"js({"name": "t", "description": "x", "sql": "SELECT :s", "args": [{"name": "s", "type": "string", "min": 1}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "int", "min": "1"}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "int", "min": 2, "max": 1}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :n", "args": [{"name": "n", "type": "int", "choices": ["a"]}]})js",
          R"js({"name": "t", "description": "x", "sql": "SELECT :s", "args": [{"name": "s", "type": "string", "choices": []}]})js",
      }) {
    auto r = skills::ParseUserSkill(bad, "t.skill.json");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(Contains(r.error().message, "t.skill.json: args[0]")) << r.error().message;
  }
}

Expected<skills::Table> RunWithTimeout(const std::string& json, std::chrono::milliseconds timeout) {
  auto skill = skills::ParseUserSkill(json, "limits.skill.json");
  if (!skill) return skill.error();
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  if (!profile) return MakeError(ErrorKind::kInternal, "no fixture");
  skills::RunOptions options;
  options.user_skill_timeout = timeout;
  return skills::Run(**skill, *profile, {}, {}, {}, options);
}

TEST(UserSkills, EndlessSkillStopsAtItsTimeBudget) {
  NSYS_REQUIRE_FIXTURES();
  const auto t0 = std::chrono::steady_clock::now();
  auto r = RunWithTimeout(
      R"js({"name": "endless", "description": "x",
            "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"})js",
      std::chrono::milliseconds(250));
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_EQ(r.error().message,
            "User skill 'endless' (limits.skill.json): The query stopped after 0.25 s (its time budget; see "
            "--skill-timeout).");
  EXPECT_LT(elapsed, std::chrono::milliseconds(250 + 1500));  // includes opening the fixture
  EXPECT_EQ(skills::kDefaultUserSkillTimeout, std::chrono::seconds(5));
}

TEST(UserSkills, HugeResultIsRefusedNamingTheLimit) {
  NSYS_REQUIRE_FIXTURES();
  auto r = RunWithTimeout(
      R"js({"name": "huge", "description": "x", "max_rows": 100000,
            "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x, printf('%.1000c', 'a') AS pad FROM c"})js",
      std::chrono::seconds(30));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_TRUE(Contains(r.error().message, "User skill 'huge'")) << r.error().message;
  EXPECT_TRUE(Contains(r.error().message, "its result passed 64 MiB (the result size limit)")) << r.error().message;
  EXPECT_EQ(skills::kUserSkillResultBytes, size_t{64} << 20);
}

TEST(UserSkills, TokenizerPointerIsRefusedNamingTheFunction) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* sql :
       {"SELECT hex(fts3_tokenizer('simple')) AS p", "SELECT fts3_tokenizer('simple', x'4141414141414141') AS p"}) {
    auto r = RunWithTimeout(std::string(R"js({"name": "tok", "description": "x", "sql": ")js") + sql + R"js("})js",
                            std::chrono::seconds(5));
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_TRUE(Contains(r.error().message, "User skill 'tok'")) << r.error().message;
    EXPECT_TRUE(Contains(r.error().message, "it calls fts3_tokenizer(), which is not among the functions"))
        << r.error().message;
  }
}

TEST(UserSkills, ReadOnlyCheck) {
  EXPECT_EQ(skills::CheckReadOnlySql("SELECT replace(value, 'a', 'b') FROM StringIds"), "");
  EXPECT_EQ(skills::CheckReadOnlySql("SELECT 'DROP TABLE x; DELETE' AS text -- INSERT\n"), "");
  EXPECT_EQ(skills::CheckReadOnlySql("/* UPDATE */ WITH a AS (SELECT 1) SELECT * FROM a;"), "");
  EXPECT_NE(skills::CheckReadOnlySql("SELECT 1; SELECT 2"), "");
  EXPECT_NE(skills::CheckReadOnlySql("REPLACE INTO t VALUES (1)"), "");
  EXPECT_NE(skills::CheckReadOnlySql("SELECT * FROM t WHERE a = ?"), "");
  EXPECT_NE(skills::CheckReadOnlySql("SELECT 'unterminated"), "");
  EXPECT_NE(skills::CheckReadOnlySql("VACUUM"), "");
  EXPECT_NE(skills::CheckReadOnlySql(""), "");
}

TEST(UserSkills, DefaultDirsEndWithTheWorkspaceFolder) {
  const auto dirs = skills::DefaultUserSkillDirs();
  ASSERT_FALSE(dirs.empty());
  EXPECT_TRUE(dirs.back().ends_with(".nsys-ai/skills")) << dirs.back();
}

}  // namespace
}  // namespace nsys::testing
