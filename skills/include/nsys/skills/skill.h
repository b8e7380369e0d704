#pragma once
// A skill is a deterministic analysis over the engine's data API. Its result is columns + rows + notes.
//
// Architecture Invariant: skills include engine headers only, never protocol/ or asio. The runner (registry.h's
// Run, in src/runner.cpp) resolves the common arguments (device, pid, window) into an engine::Filter, validates
// the skill's own arguments against their ArgSpecs (type, bounds, choices) and defaults them, calls
// Profile::Require(needs()) and then run().
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"
#include "nsys/support/value.h"

namespace nsys::skills {

struct ArgSpec {
  std::string name;  // snake_case
  ValueType type = ValueType::kString;
  std::string description;
  Value default_value;  // monostate = no default (optional argument, or required if `required`)
  bool required = false;
  std::vector<std::string> choices = {};  // kString only: the allowed values (empty = any); the runner checks them
  std::optional<double> min = {};         // kInt/kDouble only: inclusive bounds; the runner checks them
  std::optional<double> max = {};
};

// The `limit` argument of skills that list rows: at most N rows, 0 = all; negative values are refused by the runner.
ArgSpec LimitArg(int64_t default_limit, std::string description);

struct Column {
  std::string
      name;  // snake_case; for nsys-stats mirrors the report's CSV header lower-cased (time_pct, total_time_ns, ...)
  ValueType type = ValueType::kString;
  std::string description;  // optional, one line
};

struct Table {
  std::vector<Column> columns;
  std::vector<std::vector<Value>> rows;
  // Coverage, caveats, the window used, and when declined, why. Full sentences.
  std::vector<std::string> notes;
  bool declined = false;  // the skill could not run on this profile (its data is absent); notes say why
};

using Args = std::map<std::string, Value>;

// How long one skill may run, built-in or user, unless the front end says otherwise (--skill-timeout,
// initializationOptions.skillTimeoutSeconds, WorkspaceConfig::skill_timeout). The budget counts the skill's own
// work, after the tables it needs have loaded and its per-profile data is prepared (Skill::Prepare). 5 s covers every
// built-in skill on a 2 GB export (3.4M kernels, 16.8M NVTX ranges) with room: the slowest took about 1.2 s there
// (docs/benchmarks.md); the NVTX skills' first call builds their group index first (1.0-1.5 s, outside the budget).
inline constexpr std::chrono::milliseconds kDefaultUserSkillTimeout{5000};

struct Context {
  const engine::Profile& profile;
  const engine::Filter& filter;  // window, devices, processes, threads (threads only if filters_threads())
  const Args& args;              // the skill's own arguments, validated and defaulted
  // Check it in long loops (every 64K rows or so, and inside any one step that can be long) and return a kCancelled
  // error when set. The runner fires it when the caller cancels or when the run's time budget passes, and then
  // answers the budget error (kLimitExceeded) itself, whatever the skill returns.
  const CancelToken& cancel;
  // The run's time budget. User skills' SQL also stops itself with kLimitExceeded after this long.
  std::chrono::milliseconds user_skill_timeout = kDefaultUserSkillTimeout;
};

class Skill {
 public:
  virtual ~Skill() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;              // one line
  virtual std::vector<ArgSpec> args() const { return {}; }  // the skill's own; device/pid/window are common
  virtual engine::Need needs() const = 0;
  // The tables one run with these (validated, defaulted) arguments reads, when fewer than needs(): a skill over any
  // kind of event loads only the kind asked for. The runner requires this; needs() stays the whole set.
  virtual engine::Need needs_for(const Args& args) const {
    (void)args;
    return needs();
  }
  // Optional: the nsys report or rule this skill mirrors ("gpukernsum", "cuda-sync-api"), for docs and tests.
  virtual std::string reference() const { return {}; }
  // Whether run() honours Context::filter.threads; the runner refuses a thread set for the others (kUnsupported).
  virtual bool filters_threads() const { return false; }
  virtual Expected<Table> run(const Context& ctx) const = 0;
  // Optional: builds per-profile data the run reads (e.g. an index kept with the profile), after the tables load and
  // before the run's time budget starts: like the loads, it is shared by later runs and stops only when the caller
  // cancels. `args` are the skill's own, validated and defaulted.
  virtual Status Prepare(const engine::Profile& profile, const Args& args, const CancelToken& cancel) const {
    (void)profile;
    (void)args;
    (void)cancel;
    return {};
  }
};

// Helpers for skills.
Table Declined(std::string reason);
const Value& Arg(const Context& ctx, const std::string& name);
int64_t ArgInt(const Context& ctx, const std::string& name);
double ArgDouble(const Context& ctx, const std::string& name);
std::string ArgString(const Context& ctx, const std::string& name);
bool ArgBool(const Context& ctx, const std::string& name);
// A bool argument read from `args` before a run has its Context (Skill::needs_for): false unless present and true.
bool FlagIn(const Args& args, const std::string& name);

}  // namespace nsys::skills
