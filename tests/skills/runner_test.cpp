// The registry and the runner: argument validation, common arguments, windows, and bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

using skills::Args;

// A skill with every argument type and a required one, to exercise the runner's validation.
class ArgsEcho final : public skills::Skill {
 public:
  std::string name() const override { return "args_echo"; }
  std::string description() const override { return "Echoes its validated arguments."; }
  std::vector<skills::ArgSpec> args() const override {
    return {
        {"count", ValueType::kInt, "an int", Value(int64_t{7})},
        {"ratio", ValueType::kDouble, "a bounded double", Value(0.5), false, {}, 0.0, 10.0},
        {"flag", ValueType::kBool, "a bool", Value(false)},
        {"mode", ValueType::kString, "a choice", Value(std::string("a")), false, {"a", "b"}},
        {"must", ValueType::kString, "required", Value(), true},
    };
  }
  engine::Need needs() const override { return static_cast<engine::Need>(0); }
  Expected<skills::Table> run(const skills::Context& ctx) const override {
    skills::Table t;
    t.columns = {{"name", ValueType::kString, ""}, {"value", ValueType::kString, ""}};
    t.rows.push_back({Value(std::string("count")), Value(std::to_string(skills::ArgInt(ctx, "count")))});
    t.rows.push_back({Value(std::string("ratio")), Value(std::to_string(skills::ArgDouble(ctx, "ratio")))});
    t.rows.push_back({Value(std::string("flag")), Value(std::string(skills::ArgBool(ctx, "flag") ? "1" : "0"))});
    t.rows.push_back({Value(std::string("mode")), Value(skills::ArgString(ctx, "mode"))});
    t.rows.push_back({Value(std::string("window")),
                      Value(std::to_string(ctx.filter.window.begin) + ".." + std::to_string(ctx.filter.window.end))});
    return t;
  }
};

Expected<skills::Table> RunEcho(const Args& args) {
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  if (!profile) return MakeError(ErrorKind::kInternal, "no fixture");
  ArgsEcho echo;
  return skills::Run(echo, *profile, args);
}

TEST(Registry, AddFindListRemove) {
  skills::Registry registry;
  skills::RegisterBuiltins(registry);
  const auto list = registry.List();
  ASSERT_GE(list.size(), 8u);
  for (size_t i = 1; i < list.size(); ++i) EXPECT_LT(list[i - 1]->name(), list[i]->name());
  for (const char* name : {"top_kernels", "cuda_api_summary", "memory_transfers", "nvtx_summary", "nvtx_kernel_map",
                           "nvtx_gpu_projection", "kernel_launch_overhead", "schema_inspect"}) {
    ASSERT_NE(registry.Find(name), nullptr) << name;
    EXPECT_FALSE(registry.Find(name)->description().empty());
  }
  EXPECT_EQ(registry.Find("top_kernels")->reference(), "gpukernsum");
  const size_t before = registry.List().size();
  registry.Add(std::make_shared<ArgsEcho>());
  registry.Add(std::make_shared<ArgsEcho>());  // same name: replaced, not duplicated
  EXPECT_EQ(registry.List().size(), before + 1);
  registry.RemoveIf([](const skills::Skill& s) { return s.name() == "args_echo"; });
  EXPECT_EQ(registry.Find("args_echo"), nullptr);
  EXPECT_EQ(registry.List().size(), before);
}

TEST(Runner, UnknownSkillListsTheKnownOnes) {
  NSYS_REQUIRE_FIXTURES();
  auto r = RunSkill("h100_2gpu_1s.sqlite", "top_kernel");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(Contains(r.error().message, "unknown skill 'top_kernel' (known: ")) << r.error().message;
  EXPECT_TRUE(Contains(r.error().message, "top_kernels")) << r.error().message;
}

TEST(Runner, UnknownArgumentNamesItAndListsValidOnes) {
  NSYS_REQUIRE_FIXTURES();
  auto r = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"limt", Value(int64_t{3})}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(Contains(r.error().message, "'limt'")) << r.error().message;
  EXPECT_TRUE(Contains(r.error().message, "device, pid, start, end, clock, base, limit")) << r.error().message;
}

TEST(Runner, WrongTypesAreNamed) {
  NSYS_REQUIRE_FIXTURES();
  auto s = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"limit", Value(std::string("ten"))}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(Contains(s.error().message, "'limit'")) << s.error().message;
  EXPECT_TRUE(Contains(s.error().message, "must be an int")) << s.error().message;
  auto d = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"limit", Value(2.5)}});
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(Contains(d.error().message, "'limit'")) << d.error().message;
  auto b = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"base", Value(int64_t{1})}});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(Contains(b.error().message, "'base'")) << b.error().message;
  auto dev = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"device", Value(std::string("0"))}});
  ASSERT_FALSE(dev.ok());
  EXPECT_TRUE(Contains(dev.error().message, "'device'")) << dev.error().message;
  auto choice = RunSkill("h100_2gpu_1s.sqlite", "memory_transfers", {{"by", Value(std::string("speed"))}});
  ASSERT_FALSE(choice.ok());
  EXPECT_TRUE(Contains(choice.error().message, "\"time\", \"size\"")) << choice.error().message;
}

// Bounds live on the ArgSpec and the runner checks them, with one message shape for every skill.
TEST(Runner, BoundsAreCheckedByTheRunnerWithOneMessage) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* skill : {"top_kernels", "cuda_api_summary", "nvtx_summary", "nvtx_kernel_map", "nvtx_gpu_projection",
                            "kernel_launch_overhead", "gpu_idle_gaps", "thread_utilization", "sync_apis", "sync_memcpy",
                            "sync_memset", "pageable_memcpy"}) {
    auto r = RunSkill("h100_2gpu_1s.sqlite", skill, {{"limit", Value(int64_t{-1})}});
    ASSERT_FALSE(r.ok()) << skill;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_EQ(r.error().message, fmt::format("Argument 'limit' of skill '{}' must be at least 0, got -1.", skill));
    EXPECT_TRUE(RunSkill("h100_2gpu_1s.sqlite", skill, {{"limit", Value(int64_t{0})}}).ok()) << skill;
  }
  auto chunks = RunSkill("h100_2gpu_1s.sqlite", "gpu_utilization", {{"chunks", Value(int64_t{1001})}});
  ASSERT_FALSE(chunks.ok());
  EXPECT_EQ(chunks.error().message,
            "Argument 'chunks' of skill 'gpu_utilization' must be between 1 and 1000, got 1001.");
  auto threshold = RunSkill("h100_2gpu_1s.sqlite", "gpu_idle_gaps", {{"threshold_ms", Value(-0.5)}});
  ASSERT_FALSE(threshold.ok());
  EXPECT_EQ(threshold.error().message,
            "Argument 'threshold_ms' of skill 'gpu_idle_gaps' must be at least 0, got -0.5.");
  auto ratio = RunEcho({{"must", Value(std::string("x"))}, {"ratio", Value(int64_t{11})}});  // widened, then bounded
  ASSERT_FALSE(ratio.ok());
  EXPECT_EQ(ratio.error().message, "Argument 'ratio' of skill 'args_echo' must be between 0 and 10, got 11.");
  EXPECT_TRUE(RunEcho({{"must", Value(std::string("x"))}, {"ratio", Value(10.0)}}).ok());
}

// The common arguments fill one-element sets of the one filter shape: the same call both ways gives the same table.
TEST(Runner, FilterSetsMatchTheCommonArguments) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  ASSERT_NE(profile, nullptr);
  auto skill = Builtins().Find("top_kernels");
  auto by_arg = skills::Run(*skill, *profile, {{"device", Value(int64_t{1})}, {"start", Value(0.25)}});
  engine::FilterSpec filter;
  filter.devices = {1};
  filter.window.start = 0.25;
  auto by_filter = skills::Run(*skill, *profile, {}, filter);
  ASSERT_TRUE(by_arg.ok() && by_filter.ok());
  ASSERT_FALSE(by_arg->rows.empty());
  EXPECT_EQ(by_arg->rows, by_filter->rows);
  EXPECT_EQ(by_arg->notes, by_filter->notes);
  filter.devices = {0, 1};
  auto both_devices = skills::Run(*skill, *profile, {}, filter);
  ASSERT_TRUE(both_devices.ok());
  EXPECT_NE(std::find(both_devices->notes.begin(), both_devices->notes.end(), "Only devices 0, 1."),
            both_devices->notes.end());
  auto twice = skills::Run(*skill, *profile, {{"device", Value(int64_t{0})}}, filter);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "Give 'device' either as an argument or as filter.devices, not both.");
  filter.devices = {7};
  auto unknown = skills::Run(*skill, *profile, {}, filter);
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(Contains(unknown.error().message, "Device 7 does not exist in this profile")) << unknown.error().message;
}

TEST(Runner, DefaultsWideningAndRequired) {
  NSYS_REQUIRE_FIXTURES();
  auto missing = RunEcho({});
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.error().message, "'must'")) << missing.error().message;
  EXPECT_TRUE(Contains(missing.error().message, "required")) << missing.error().message;
  auto ok = RunEcho({{"must", Value(std::string("x"))}, {"ratio", Value(int64_t{2})}});  // int widens to double
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(StringCell(*ok, 0, "value"), "7");  // default
  EXPECT_EQ(StringCell(*ok, 1, "value"), "2.000000");
  EXPECT_EQ(StringCell(*ok, 2, "value"), "0");
  EXPECT_EQ(StringCell(*ok, 3, "value"), "a");
  auto null_is_absent = RunEcho({{"must", Value(std::string("x"))}, {"count", Value()}});
  ASSERT_TRUE(null_is_absent.ok());
  EXPECT_EQ(StringCell(*null_is_absent, 0, "value"), "7");
}

TEST(Runner, NonexistentDeviceListsTheDevices) {
  NSYS_REQUIRE_FIXTURES();
  auto r = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"device", Value(int64_t{5})}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(Contains(r.error().message, "Device 5 does not exist")) << r.error().message;
  EXPECT_TRUE(Contains(r.error().message, "0, 1")) << r.error().message;
  auto p = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"pid", Value(int64_t{4242})}});
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Contains(p.error().message, "Process 4242 does not exist")) << p.error().message;
  EXPECT_TRUE(Contains(p.error().message, "111, 112")) << p.error().message;
}

TEST(Runner, WindowOutsideTheProfileIsAnError) {
  NSYS_REQUIRE_FIXTURES();
  auto r = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"start", Value(50.0)}, {"end", Value(60.0)}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  auto reversed = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"start", Value(0.5)}, {"end", Value(0.25)}});
  ASSERT_FALSE(reversed.ok());
  // A capture-clock window taken for seconds would silently select nothing: it must be refused instead.
  auto clock = RunSkill("h100_2gpu_1s.sqlite", "top_kernels",
                        {{"start", Value(155357647753.0)}, {"clock", Value(std::string("relative_s"))}});
  ASSERT_FALSE(clock.ok());
  auto bad_clock = RunSkill("h100_2gpu_1s.sqlite", "top_kernels", {{"clock", Value(std::string("seconds"))}});
  ASSERT_FALSE(bad_clock.ok());
  EXPECT_TRUE(Contains(bad_clock.error().message, "'clock'")) << bad_clock.error().message;
}

TEST(Runner, WindowIsStatedAndNarrowsTheRows) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  ASSERT_NE(profile, nullptr);
  NSYS_RUN_SKILL(whole, "h100_2gpu_1s.sqlite", "top_kernels");
  NSYS_RUN_SKILL(half, "h100_2gpu_1s.sqlite", "top_kernels", {{"start", Value(0.0)}, {"end", Value(0.5)}});
  NSYS_RUN_SKILL(half_ns, "h100_2gpu_1s.sqlite", "top_kernels",
                 {{"start", Value(static_cast<double>(profile->info().start_ns))},
                  {"end", Value(static_cast<double>(profile->info().start_ns + 500000000))},
                  {"clock", Value(std::string("capture_ns"))}});
  auto instances = [](const skills::Table& t) {
    int64_t n = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) n += IntCell(t, r, "instances");
    return n;
  };
  EXPECT_LT(instances(half), instances(whole));
  EXPECT_EQ(instances(half), instances(half_ns));
  ASSERT_FALSE(half.notes.empty());
  EXPECT_EQ(half.notes[0].rfind("Window: ", 0), 0u) << half.notes[0];
  EXPECT_FALSE(Contains(JoinNotes(whole), "Window: "));
}

TEST(Runner, CancelledBeforeRunning) {
  NSYS_REQUIRE_FIXTURES();
  auto profile = OpenFixture("h100_2gpu_1s.sqlite");
  ASSERT_NE(profile, nullptr);
  CancelToken cancel;
  cancel.cancel();
  auto r = skills::RunByName(Builtins(), "top_kernels", *profile, {}, cancel);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
}

TEST(Runner, ParseArgText) {
  const skills::ArgSpec int_spec{"limit", ValueType::kInt, "", Value()};
  const skills::ArgSpec bool_spec{"base", ValueType::kBool, "", Value()};
  const skills::ArgSpec double_spec{"start", ValueType::kDouble, "", Value()};
  EXPECT_EQ(std::get<int64_t>(skills::ParseArgText(int_spec, "12").value()), 12);
  EXPECT_FALSE(skills::ParseArgText(int_spec, "12x").ok());
  EXPECT_FALSE(skills::ParseArgText(int_spec, "").ok());
  EXPECT_TRUE(std::get<bool>(skills::ParseArgText(bool_spec, "true").value()));
  EXPECT_FALSE(skills::ParseArgText(bool_spec, "maybe").ok());
  EXPECT_DOUBLE_EQ(std::get<double>(skills::ParseArgText(double_spec, "0.25").value()), 0.25);
  EXPECT_FALSE(skills::ParseArgText(double_spec, "nan").ok());
}

// Every registered skill on every fixture with default arguments: a table whose rows fit its snake_case columns,
// or a decline with its reason, or a clear error; never a crash.
TEST(Registry, EverySkillOnEveryFixture) {
  NSYS_REQUIRE_FIXTURES();
  auto snake = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
  };
  for (const char* fixture : {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "mock.sqlite", "a100_2proc_mpi.sqlite",
                              "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite"}) {
    auto profile = OpenFixture(fixture);
    ASSERT_NE(profile, nullptr);
    for (const auto& skill : Builtins().List()) {
      SCOPED_TRACE(skill->name() + " on " + fixture);
      EXPECT_TRUE(snake(skill->name()));
      for (const auto& arg : skills::AllArgs(*skill)) EXPECT_TRUE(snake(arg.name)) << arg.name;
      auto result = skills::Run(*skill, *profile, {});
      if (!result.ok()) {
        EXPECT_FALSE(result.error().message.empty());
        continue;
      }
      const skills::Table& t = *result;
      if (t.declined) {
        EXPECT_TRUE(t.rows.empty());
        EXPECT_FALSE(t.notes.empty()) << "a decline must say why";
        continue;
      }
      for (const auto& column : t.columns) EXPECT_TRUE(snake(column.name)) << column.name;
      for (const auto& row : t.rows) ASSERT_EQ(row.size(), t.columns.size());
      EXPECT_FALSE(t.notes.empty()) << "notes state coverage and caveats";
    }
  }
}

TEST(SchemaInspect, H100TablesAndVersions) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "h100_2gpu_1s.sqlite", "schema_inspect");
  const int kernels = FindRow(t, "table", "CUPTI_ACTIVITY_KIND_KERNEL");
  ASSERT_GE(kernels, 0);
  EXPECT_EQ(IntCell(t, kernels, "rows"), 3442);  // fixtures/README: 3,442 kernels
  EXPECT_TRUE(Contains(StringCell(t, kernels, "columns"), "correlationId"));
  const int nvtx = FindRow(t, "table", "NVTX_EVENTS");
  ASSERT_GE(nvtx, 0);
  EXPECT_EQ(IntCell(t, nvtx, "rows"), 16782);  // 16,782 push/pop ranges
  EXPECT_TRUE(Contains(JoinNotes(t), "schema version 3.25.0")) << JoinNotes(t);
  NSYS_RUN_SKILL(filtered, "h100_2gpu_1s.sqlite", "schema_inspect", {{"table", Value(std::string("cupti"))}});
  EXPECT_LT(filtered.rows.size(), t.rows.size());
  for (size_t r = 0; r < filtered.rows.size(); ++r) {
    EXPECT_TRUE(Contains(StringCell(filtered, r, "table"), "CUPTI")) << StringCell(filtered, r, "table");
  }
}

TEST(SchemaInspect, OldSchemaWithoutEnumsOrNvtx) {
  NSYS_REQUIRE_FIXTURES();
  // fixtures/README: a100_2proc_mpi is nsys 2022.3.4, schema 2.10.0, no ENUM tables, OS runtime calls, one A100.
  NSYS_RUN_SKILL(t, "a100_2proc_mpi.sqlite", "schema_inspect");
  const std::string notes = JoinNotes(t);
  EXPECT_TRUE(Contains(notes, "schema version 2.10.0")) << notes;
  EXPECT_TRUE(Contains(notes, "metadata table: EXPORT_META_DATA")) << notes;
  EXPECT_TRUE(Contains(notes, "Not in this export: NVTX, ENUM tables")) << notes;
  EXPECT_TRUE(Contains(notes, "A100")) << notes;
  const int kernels = FindRow(t, "table", "CUPTI_ACTIVITY_KIND_KERNEL");
  ASSERT_GE(kernels, 0);
  EXPECT_EQ(IntCell(t, kernels, "rows"), 885);  // README: 885 kernels
}

}  // namespace
}  // namespace nsys::testing
