// The Book of Root Causes: it parses, it holds every root cause listed below, and every rule reads only columns its
// skill really returns (checked by running each skill on the fixtures), so a renamed column fails here, not in a user's
// analyze.
#include "nsys/agent/book.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

using testing::Fixture;
using testing::HaveFixtures;

const std::set<std::string> kGlobals = {"window_ns", "device_count", "process_count", "tensor_core_gpu", "kernel_count",
                                        "span_ns",   "idle_ns",      "idle_pct",      "compute_pct"};

TEST(Book, ParsesWithEnoughRootCausesEachSayingWhatToDo) {
  const Book& book = BuiltinBook();
  EXPECT_GE(book.root_causes.size(), 14u);
  std::set<std::string> ids;
  for (const auto& rc : book.root_causes) {
    EXPECT_TRUE(ids.insert(rc.id).second) << rc.id;
    EXPECT_FALSE(rc.why.empty()) << rc.id;
    EXPECT_FALSE(rc.what_to_do.empty()) << rc.id;
    EXPECT_FALSE(rc.confidence_reason.empty()) << rc.id;
    // Every cause says which part of the time budget it explains (ranking leads with the dominant part's cause).
    EXPECT_TRUE(!rc.addresses.empty() || rc.symptom) << rc.id;
  }
  // The root causes analyze must always be able to report.
  for (const char* id : {"launch_storm", "excessive_sync", "pageable_memcpy", "h2d_in_step", "idle_between_iterations",
                         "tiny_kernels", "serialized_nccl", "nccl_bandwidth", "stragglers", "module_loading_in_step",
                         "allocator_pauses", "low_tensor_core_use", "cpu_thread_saturation", "iteration_outliers"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

TEST(Book, BadBooksAreRefusedNamingTheRootCauseAndField) {
  auto bad_expr = ParseBook(R"({"root_causes": [{"id": "x", "name": "X", "skill": "s", "when": "a >", "at_stake": "1",
    "title": "t", "why": "w", "what_to_do": ["d"], "confidence": "high", "confidence_reason": "r"}]})");
  ASSERT_FALSE(bad_expr);
  EXPECT_EQ(bad_expr.error().message.rfind("root cause x: \"when\": in rule expression \"a >\"", 0), 0u)
      << bad_expr.error().message;
  auto no_advice = ParseBook(R"({"root_causes": [{"id": "y", "name": "Y", "skill": "s", "when": "1", "at_stake": "1",
    "title": "t", "why": "w", "confidence": "high", "confidence_reason": "r"}]})");
  ASSERT_FALSE(no_advice);
  EXPECT_EQ(no_advice.error().message, "root cause y: \"what_to_do\" must say what to do");
  auto dup = ParseBook(R"({"root_causes": [
    {"id": "z", "name": "Z", "skill": "s", "when": "1", "at_stake": "1", "title": "t", "why": "w", "what_to_do": ["d"],
     "confidence": "low", "confidence_reason": "r"},
    {"id": "z", "name": "Z", "skill": "s", "when": "1", "at_stake": "1", "title": "t", "why": "w", "what_to_do": ["d"],
     "confidence": "low", "confidence_reason": "r"}]})");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().message, "root cause z: duplicate id");
  EXPECT_FALSE(ParseBook("[]"));
  auto part = ParseBook(R"({"root_causes": [{"id": "p", "name": "P", "skill": "s", "when": "1", "at_stake": "1",
    "title": "t", "why": "w", "what_to_do": ["d"], "confidence": "low", "confidence_reason": "r",
    "addresses": "disk"}]})");
  ASSERT_FALSE(part);
  EXPECT_EQ(part.error().message, "root cause p: \"addresses\" must be compute, communication, copy, idle or any");
}

TEST(Book, TemplatesFormatNumbersForPeople) {
  const NameLookup lookup = [](const std::string& n) -> std::optional<ExprValue> {
    if (n == "ns") return 17172652.0;
    if (n == "share") return 0.4213;
    if (n == "count") return 1234567.0;
    if (n == "name") return std::string(70, 'k');
    return std::nullopt;
  };
  EXPECT_EQ(FillTemplate("{ns:ms} / {ns:us} / {share:pct} / {count:int} / {count} / {missing:ms}", lookup),
            "17.2 ms / 17172.7 µs / 42% / 1,234,567 / 1234567 / {missing:ms}");
  EXPECT_EQ(FillTemplate("{name:short}", lookup), std::string(57, 'k') + "...");
  EXPECT_EQ(FillTemplate("no fields", lookup), "no fields");
  // A value already in percent, as people round it: whole from 10% up, one decimal below, never "0.0%".
  const NameLookup percents = [](const std::string& n) -> std::optional<ExprValue> {
    if (n == "big") return 95.04;
    if (n == "edge") return 9.96;
    if (n == "small") return 4.54;
    if (n == "tiny") return 0.04;
    if (n == "zero") return 0.0;
    if (n == "rate") return 27.66;
    return std::nullopt;
  };
  EXPECT_EQ(FillTemplate("{big:pcts} {edge:pcts} {small:pcts} {tiny:pcts} {zero:pcts} {rate:gbps}", percents),
            "95% 10% 4.5% under 0.1% 0.0% 27.7 GB/s");
  // A copy's host memory as people say it: pinned, nearly all pinned, or the pageable gigabytes.
  const NameLookup pageable = [](const std::string& n) -> std::optional<ExprValue> {
    if (n == "none") return 0.0;
    if (n == "few") return 1568.0;
    if (n == "all") return 51.2e9;
    return std::nullopt;
  };
  EXPECT_EQ(FillTemplate("{none:pageable}; {few:pageable}; {all:pageable}", pageable),
            "all of it pinned; nearly all of it pinned (1.5 KiB pageable); 51.2 GB of it pageable");
  const NameLookup counts = [](const std::string& n) -> std::optional<ExprValue> {
    if (n == "one") return 1.0;
    if (n == "two") return 2.0;
    return std::nullopt;
  };
  EXPECT_EQ(FillTemplate("{one:int} call{one:s} {one:were} slow; {two:int} call{two:s} {two:were} slow", counts),
            "1 call was slow; 2 calls were slow");
  EXPECT_EQ(FillTemplate("{one:int} step{one:s} {one:were} {one:an}outlier{one:s}; {two:int} step{two:s} {two:were} "
                         "{two:an}outlier{two:s}",
                         counts),
            "1 step was an outlier; 2 steps were outliers");
}

// Every name a rule reads is a column of its skill's result (or a global), on a fixture where the skill runs.
TEST(Book, EveryRuleReadsColumnsItsSkillReturns) {
  if (!HaveFixtures()) GTEST_SKIP() << "fixtures absent";
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  std::vector<std::string> ids;
  for (const char* f :
       {"mfu_2gpu_before.sqlite", "a100_2proc_mpi.sqlite", "h200_nvfuser_nvtx.sqlite", "h100_2gpu_1s.sqlite"}) {
    auto opened = ws.Open(Fixture(f));
    ASSERT_TRUE(opened) << opened.error().message;
    ids.push_back(opened->id);
  }
  const std::regex field(R"(\{([a-z_0-9]+)(:[a-z]+)?\})");
  for (const auto& rc : BuiltinBook().root_causes) {
    std::optional<skills::Table> table;
    for (const auto& id : ids) {
      auto t = ws.RunSkill(id, rc.skill, rc.args);
      ASSERT_TRUE(t) << rc.id << ": " << t.error().message;
      if (!t->declined) {
        table = *t;
        break;
      }
    }
    ASSERT_TRUE(table) << rc.id << ": " << rc.skill << " declined on every fixture";
    std::set<std::string> columns(kGlobals);
    for (const auto& c : table->columns) columns.insert(c.name);
    std::vector<std::string> names = rc.when.Names();
    for (const auto& n : rc.at_stake.Names()) names.push_back(n);
    if (!rc.sort_by.empty()) names.push_back(rc.sort_by);
    for (const auto& n : rc.evidence_columns) names.push_back(n);
    // analyze checks a part of a condition that reads only these globals before the skill runs (CannotFire): a
    // column of the same name would mean something else on a row.
    for (const auto& c : table->columns) {
      for (const char* wide :
           {"idle_pct", "idle_ns", "compute_pct", "kernel_count", "device_count", "process_count", "tensor_core_gpu"})
        EXPECT_NE(c.name, wide) << rc.skill << " has a column named like the global " << wide;
    }
    for (const auto& n : names) {
      // requires_columns are allowed to be absent: the rule then says the cause cannot be checked.
      const bool optional = std::count(rc.requires_columns.begin(), rc.requires_columns.end(), n) > 0;
      EXPECT_TRUE(columns.count(n) || optional) << rc.id << " reads '" << n << "', not a column of " << rc.skill;
    }
    for (const std::string* templ : {&rc.title, &rc.detail}) {
      for (std::sregex_iterator it(templ->begin(), templ->end(), field), end; it != end; ++it) {
        std::string n = (*it)[1];
        if (n == "matched" || n == "at_stake" || n == "share") continue;
        if (n == "gpus" || n == "gpus_are") n = "device_id";  // the matched rows' GPUs
        if (n.rfind("sum_", 0) == 0) n = n.substr(4);
        const bool optional = std::count(rc.requires_columns.begin(), rc.requires_columns.end(), n) > 0;
        EXPECT_TRUE(columns.count(n) || optional) << rc.id << "'s title or detail names '" << n << "'";
      }
    }
  }
}

}  // namespace
}  // namespace nsys::agent
