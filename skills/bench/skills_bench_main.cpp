// nsys-ai-skills-bench: times every built-in skill on one export once it is loaded, for scripts/bench.
//
//   nsys-ai-skills-bench FILE [--runs N] [--skill NAME]... [--defaults-only]
//
// Opens FILE without the warm cache, loads every table (timed, not part of a skill's figure), then runs each skill
// N times (default 3) through skills::Run, exactly as the server and CLI do, and prints one line per run of the
// best wall time and the thread's CPU time: "skill=NAME args=... wall_ms=... cpu_ms=... rows=... memo_ms=...".
// memo_ms is a repeated call answered from the server's per-profile result memo (lookup plus the copy the
// server makes), which is also how a warmed skill answers.
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"
#include "nsys/skills/result_memo.h"

namespace {

using Clock = std::chrono::steady_clock;

double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct BenchRun {
  std::string skill;
  nsys::skills::Args args;
  std::string label;  // the args, for the output
};

// Every built-in with its defaults, plus the views and arguments that take a different path through the data.
std::vector<BenchRun> DefaultRuns(const nsys::skills::Registry& registry) {
  std::vector<BenchRun> runs;
  for (const auto& skill : registry.List()) {
    if (skill->name() == "mfu") {
      runs.push_back({"mfu",
                      {{"params", nsys::Value(1e9)},
                       {"tokens_per_step", nsys::Value(4096.0)},
                       {"gpu", nsys::Value(std::string("H100 SXM"))}},
                      "params=1e9,tokens=4096,H100"});
      continue;
    }
    runs.push_back({skill->name(), {}, ""});
  }
  auto view = [](const char* name) { return nsys::skills::Args{{"view", nsys::Value(std::string(name))}}; };
  runs.push_back({"gpu_idle_gaps", view("streams"), "view=streams"});
  runs.push_back({"gpu_utilization", view("chunks"), "view=chunks"});
  runs.push_back({"stream_concurrency", view("streams"), "view=streams"});
  runs.push_back({"nvtx_summary", {{"split_op_id", nsys::Value(true)}}, "split_op_id=true"});
  runs.push_back({"top_kernels", {{"start", nsys::Value(0.5)}, {"end", nsys::Value(1.5)}}, "start=0.5,end=1.5"});
  return runs;
}

int Fail(const std::string& what) {
  fmt::print(stderr, "nsys-ai-skills-bench: {}\n", what);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0) {
    fmt::print(stderr, "usage: nsys-ai-skills-bench FILE [--runs N] [--skill NAME]... [--defaults-only]\n");
    return 2;
  }
  const std::string file = argv[1];
  int runs_per_skill = 3;
  std::vector<std::string> only;
  bool defaults_only = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs_per_skill = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--defaults-only") {
      defaults_only = true;
    } else if (a == "--skill" && i + 1 < argc) {
      only.emplace_back(argv[++i]);
    } else {
      return Fail("unknown argument " + a);
    }
  }
  nsys::engine::OpenOptions options;
  options.use_cache = false;
  options.load_all_in_background = false;
  const auto t0 = Clock::now();
  auto opened = nsys::engine::Profile::Open(file, options);
  if (!opened) return Fail(opened.error().message);
  std::shared_ptr<nsys::engine::Profile> profile = std::move(*opened);
  if (auto s = profile->Require(nsys::engine::kAllTables); !s.ok()) return Fail(s.error().message);
  fmt::print("load_all_ms={:.1f}\nkernels={}\nnvtx={}\nruntime={}\n",
             std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), profile->kernels().size(),
             profile->nvtx().size(), profile->runtime().size());

  nsys::skills::Registry registry;
  nsys::skills::RegisterBuiltins(registry);
  nsys::skills::ResultMemo memo;
  for (const BenchRun& run : DefaultRuns(registry)) {
    if (!only.empty() && std::find(only.begin(), only.end(), run.skill) == only.end()) continue;
    if (defaults_only && !run.label.empty() && run.skill != "mfu") continue;
    const auto skill = registry.Find(run.skill);
    if (!skill) return Fail("no skill " + run.skill);
    double best_wall = 1e300, best_cpu = 1e300;
    size_t rows = 0;
    std::string outcome = "ok";
    for (int rep = 0; rep < runs_per_skill; ++rep) {
      const double cpu0 = ThreadCpuMs();
      const auto wall0 = Clock::now();
      auto table = nsys::skills::Run(*skill, *profile, run.args);
      const double wall = std::chrono::duration<double, std::milli>(Clock::now() - wall0).count();
      const double cpu = ThreadCpuMs() - cpu0;
      if (!table) {
        outcome = "error: " + table.error().message;
        break;
      }
      if (table->declined) outcome = "declined";
      rows = table->rows.size();
      best_wall = std::min(best_wall, wall);
      best_cpu = std::min(best_cpu, cpu);
      if (rep == 0) memo.Store(skill, run.args, std::make_shared<const nsys::skills::Table>(std::move(*table)));
    }
    double memo_ms = 1e300;
    for (int rep = 0; rep < runs_per_skill && outcome.rfind("error", 0) != 0; ++rep) {
      const auto m0 = Clock::now();
      const auto known = memo.Find(skill, run.args);
      const nsys::skills::Table copy = known ? *known : nsys::skills::Table{};
      memo_ms = std::min(memo_ms, std::chrono::duration<double, std::milli>(Clock::now() - m0).count());
      if (copy.rows.size() != rows) return Fail("the memo lost " + run.skill);
    }
    if (outcome.rfind("error", 0) == 0) {
      fmt::print("skill={} args={} {}\n", run.skill, run.label.empty() ? "-" : run.label, outcome);
      continue;
    }
    fmt::print("skill={} args={} wall_ms={:.1f} cpu_ms={:.1f} memo_ms={:.2f} rows={} outcome={}\n", run.skill,
               run.label.empty() ? "-" : run.label, best_wall, best_cpu, memo_ms, rows, outcome);
  }
  return 0;
}
