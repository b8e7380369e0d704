#pragma once
// Helpers for skill tests: open a fixture once per process, run a skill by name, read cells by column name.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"

namespace nsys::testing {

// Opens a fixture without the warm cache (tests must not depend on or write it). Fails the test on error.
inline std::shared_ptr<engine::Profile> OpenFixture(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<engine::Profile>> cache;
  std::lock_guard lock(mu);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  engine::OpenOptions options;
  options.use_cache = false;
  auto opened = engine::Profile::Open(Fixture(name), options);
  if (!opened) {
    ADD_FAILURE() << "opening " << name << ": " << opened.error().message;
    return nullptr;
  }
  cache[name] = opened.value();
  return opened.value();
}

inline const skills::Registry& Builtins() {
  static const skills::Registry registry = [] {
    skills::Registry r;
    skills::RegisterBuiltins(r);
    return r;
  }();
  return registry;
}

inline Expected<skills::Table> RunSkill(const std::string& fixture, const std::string& skill,
                                        const skills::Args& args = {}) {
  auto profile = OpenFixture(fixture);
  if (!profile) return MakeError(ErrorKind::kInternal, "fixture did not open");
  return skills::RunByName(Builtins(), skill, *profile, args);
}

inline int ColumnIndex(const skills::Table& t, const std::string& column) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == column) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no column " << column;
  return -1;
}

inline const Value& Cell(const skills::Table& t, size_t row, const std::string& column) {
  static const Value kNull;
  const int c = ColumnIndex(t, column);
  if (c < 0 || row >= t.rows.size()) {
    ADD_FAILURE() << "no cell " << row << "/" << column;
    return kNull;
  }
  return t.rows[row][static_cast<size_t>(c)];
}

inline int64_t IntCell(const skills::Table& t, size_t row, const std::string& column) {
  const Value& v = Cell(t, row, column);
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  ADD_FAILURE() << column << " is not an int";
  return 0;
}

inline double DoubleCell(const skills::Table& t, size_t row, const std::string& column) {
  const Value& v = Cell(t, row, column);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  ADD_FAILURE() << column << " is not a number";
  return 0;
}

inline std::string StringCell(const skills::Table& t, size_t row, const std::string& column) {
  const Value& v = Cell(t, row, column);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  ADD_FAILURE() << column << " is not a string";
  return {};
}

inline std::string JoinNotes(const skills::Table& t) {
  std::string out;
  for (const auto& n : t.notes) out += n + "\n";
  return out;
}

// The first row whose `column` equals `text`, or -1.
inline int FindRow(const skills::Table& t, const std::string& column, const std::string& text) {
  const int c = ColumnIndex(t, column);
  if (c < 0) return -1;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto* s = std::get_if<std::string>(&t.rows[r][static_cast<size_t>(c)]);
    if (s && *s == text) return static_cast<int>(r);
  }
  return -1;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The fixture most golden tests read, and the GEMM kernel that tops its kernel time (a cuBLAS kernel: the same name
// demangled and short).
inline constexpr const char* kH100 = "h100_2gpu_1s.sqlite";
inline constexpr const char* kGemm64 =
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__"
    "5x_cublas";

}  // namespace nsys::testing

// Runs a skill and asserts success, binding the table to `var`.
#define NSYS_RUN_SKILL(var, fixture, skill, ...)                                             \
  auto var##_result = ::nsys::testing::RunSkill(fixture, skill, ##__VA_ARGS__);              \
  ASSERT_TRUE(var##_result.ok()) << (var##_result.ok() ? "" : var##_result.error().message); \
  const ::nsys::skills::Table& var = var##_result.value()
