// The runner: validates a skill's arguments, resolves the common ones (device, pid, window) into an
// engine::Filter, loads what the skill needs, runs it and states the window in the notes.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/skills/registry.h"
#include "nsys/skills/user_skills.h"
#include "nsys/support/log.h"

namespace nsys::skills {
namespace {

Error InvalidArgument(std::string message) {
  return MakeError(ErrorKind::kInvalidArgument, std::move(message));
}

std::string JoinNames(const std::vector<ArgSpec>& specs) {
  std::string out;
  for (const auto& s : specs) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

std::string DescribeValue(const Value& v) {
  struct {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(bool b) const { return fmt::format("a bool ({})", b); }
    std::string operator()(int64_t i) const { return fmt::format("an int ({})", i); }
    std::string operator()(double d) const { return fmt::format("a double ({})", d); }
    std::string operator()(const std::string& s) const {
      return fmt::format("a string (\"{}\")", s.size() > 40 ? s.substr(0, 40) + "..." : s);
    }
  } visitor;
  return std::visit(visitor, v);
}

// Checks one value against its spec, widening int to double where a double is expected.
Expected<Value> CheckType(const Skill& skill, const ArgSpec& spec, const Value& v) {
  auto wrong = [&]() {
    return InvalidArgument(fmt::format("Argument '{}' of skill '{}' must be {} {}, got {}.", spec.name, skill.name(),
                                       spec.type == ValueType::kInt ? "an" : "a", ValueTypeName(spec.type),
                                       DescribeValue(v)));
  };
  switch (spec.type) {
    case ValueType::kInt:
      if (std::holds_alternative<int64_t>(v)) return v;
      return wrong();
    case ValueType::kDouble:
      if (const auto* d = std::get_if<double>(&v)) {
        if (!std::isfinite(*d)) return wrong();
        return v;
      }
      if (const auto* i = std::get_if<int64_t>(&v)) return Value(static_cast<double>(*i));
      return wrong();
    case ValueType::kBool:
      if (std::holds_alternative<bool>(v)) return v;
      return wrong();
    case ValueType::kString: {
      const auto* s = std::get_if<std::string>(&v);
      if (!s) return wrong();
      if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), *s) == spec.choices.end()) {
        std::string allowed;
        for (const auto& c : spec.choices) allowed += (allowed.empty() ? "\"" : ", \"") + c + "\"";
        return InvalidArgument(fmt::format("Argument '{}' of skill '{}' must be one of {}, got \"{}\".", spec.name,
                                           skill.name(), allowed, *s));
      }
      return v;
    }
  }
  return wrong();
}

// Checks a number against the spec's inclusive bounds: one message shape for every skill's bounded arguments.
Status CheckBounds(const Skill& skill, const ArgSpec& spec, const Value& v) {
  const bool numeric = std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v);
  if ((!spec.min && !spec.max) || !numeric) return {};
  const double x = std::holds_alternative<int64_t>(v) ? static_cast<double>(std::get<int64_t>(v)) : std::get<double>(v);
  if ((!spec.min || x >= *spec.min) && (!spec.max || x <= *spec.max)) return {};
  const std::string got = std::holds_alternative<int64_t>(v) ? std::to_string(std::get<int64_t>(v))
                                                             : fmt::format("{}", std::get<double>(v));
  std::string bound;
  if (spec.min && spec.max) {
    bound = fmt::format("between {} and {}", *spec.min, *spec.max);
  } else if (spec.min) {
    bound = fmt::format("at least {}", *spec.min);
  } else {
    bound = fmt::format("at most {}", *spec.max);
  }
  return InvalidArgument(
      fmt::format("Argument '{}' of skill '{}' must be {}, got {}.", spec.name, skill.name(), bound, got));
}

// The common arguments (device, pid, start, end, clock) fill one-element sets and the window of `given` (a caller's
// filter in the one filter shape); naming the same thing both ways is an error rather than a silent choice.
Expected<engine::FilterSpec> MergeCommon(const engine::ProfileInfo& info, const Args& common,
                                         engine::FilterSpec given) {
  auto both = [](const char* arg, const char* field) {
    return InvalidArgument(fmt::format("Give '{}' either as an argument or as filter.{}, not both.", arg, field));
  };
  if (auto it = common.find("device"); it != common.end()) {
    if (!given.devices.empty()) return both("device", "devices");
    const int64_t device = std::get<int64_t>(it->second);
    if (device < INT32_MIN || device > INT32_MAX) return engine::UnknownDevice(info, device);
    given.devices = {static_cast<int32_t>(device)};
  }
  if (auto it = common.find("pid"); it != common.end()) {
    if (!given.processes.empty()) return both("pid", "processes");
    const int64_t pid = std::get<int64_t>(it->second);
    if (pid < 0 || pid > 0xFFFFFF) return engine::UnknownProcess(info, pid);
    given.processes = {static_cast<uint32_t>(pid)};
  }
  const bool window_args = common.count("start") || common.count("end");
  if (window_args && (given.window.start || given.window.end)) return both("start/end", "window");
  if (auto it = common.find("clock");
      it != common.end() && (window_args || !(given.window.start || given.window.end))) {
    // The ArgSpec's choices are the clock names, so the runner has already refused any other text.
    given.window.clock = ParseWindowClock(std::get<std::string>(it->second)).value_or(WindowClock::kRelativeSeconds);
  }
  if (auto it = common.find("start"); it != common.end()) given.window.start = std::get<double>(it->second);
  if (auto it = common.find("end"); it != common.end()) given.window.end = std::get<double>(it->second);
  return given;
}

// "Only device 0." / "Only devices 0, 1.": what the numbers cover, for the notes.
template <typename T>
std::string OnlyNote(const char* one, const char* many, const std::vector<T>& set) {
  std::string ids;
  for (const T& v : set) ids += (ids.empty() ? "" : ", ") + std::to_string(v);
  return fmt::format("Only {} {}.", set.size() == 1 ? one : many, ids);
}

struct SortedArgs {
  Args common;  // device, pid, start, end, clock, as given
  Args own;     // the skill's own, with defaults filled in
};

// Checks every name, type and bound, splits common from own, and defaults the skill's own arguments.
Expected<SortedArgs> SortArgs(const Skill& skill, const Args& raw_args) {
  const std::vector<ArgSpec> common_specs = CommonArgs();
  const std::vector<ArgSpec> all_specs = AllArgs(skill);
  std::set<std::string> common_names;
  for (const auto& s : common_specs) common_names.insert(s.name);
  SortedArgs out;
  for (const auto& entry : raw_args) {
    // Plain references, not a structured binding: clang 14 (the fuzz build) cannot capture bindings in lambdas.
    const std::string& name = entry.first;
    const Value& value = entry.second;
    auto spec = std::find_if(all_specs.begin(), all_specs.end(), [&](const ArgSpec& s) { return s.name == name; });
    if (spec == all_specs.end()) {
      return InvalidArgument(fmt::format("Unknown argument '{}' for skill '{}'. Valid arguments: {}.", name,
                                         skill.name(), JoinNames(all_specs)));
    }
    if (IsNull(value)) continue;  // an explicit null (JSON null) means "not given"
    auto checked = CheckType(skill, *spec, value);
    if (!checked) return checked.error();
    if (Status in_bounds = CheckBounds(skill, *spec, checked.value()); !in_bounds) return in_bounds.error();
    (common_names.count(name) ? out.common : out.own)[name] = std::move(checked.value());
  }
  for (const auto& spec : all_specs) {
    if (common_names.count(spec.name) || out.own.count(spec.name)) continue;
    if (!IsNull(spec.default_value)) {
      out.own[spec.name] = spec.default_value;
    } else if (spec.required) {
      return InvalidArgument(fmt::format("Argument '{}' of skill '{}' is required.", spec.name, skill.name()));
    }
  }
  return out;
}

// A run's budget: one token the skill checks, fired when the caller's token fires or the deadline passes. One thread
// (started on first use, never joined: it may outlive main) polls every registered run each kBudgetPoll, so a skill
// only ever reads a flag in its loops, and sees its deadline within kBudgetPoll of it.
constexpr std::chrono::milliseconds kBudgetPoll{5};
constexpr std::chrono::milliseconds kUserSkillBudgetSlack{500};
constexpr std::chrono::milliseconds kNoSlack{0};

class BudgetWatch {
 public:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    CancelToken caller;
    CancelToken budget;
    Clock::time_point deadline;
    std::shared_ptr<std::atomic<bool>> expired;
  };

  static BudgetWatch& Get() {
    static BudgetWatch* watch = new BudgetWatch();  // leaked on purpose: no join at exit
    return *watch;
  }

  uint64_t Add(Entry entry) {
    std::lock_guard lock(mu_);
    if (!started_) {
      std::thread([this] { Loop(); }).detach();
      started_ = true;
    }
    const uint64_t id = next_id_++;
    entries_.emplace(id, std::move(entry));
    cv_.notify_one();
    return id;
  }

  void Remove(uint64_t id) {
    std::lock_guard lock(mu_);
    entries_.erase(id);
  }

 private:
  void Loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (entries_.empty()) {
        cv_.wait(lock);
        continue;
      }
      cv_.wait_for(lock, kBudgetPoll);
      const Clock::time_point now = Clock::now();
      for (auto& [id, e] : entries_) {
        if (e.budget.cancelled()) continue;
        if (e.caller.cancelled()) {
          e.budget.cancel();
        } else if (now >= e.deadline) {
          e.expired->store(true);
          e.budget.cancel();
        }
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, Entry> entries_;
  uint64_t next_id_ = 1;
  bool started_ = false;
};

// Registers a run with the watch for its lifetime.
class BudgetScope {
 public:
  BudgetScope(const CancelToken& caller, std::chrono::milliseconds budget) {
    if (budget.count() <= 0) {
      budget_ = caller;  // no budget: the caller's token itself
      return;
    }
    fired_at_ = std::make_shared<std::atomic<bool>>(false);
    id_ = BudgetWatch::Get().Add({caller, budget_, BudgetWatch::Clock::now() + budget, fired_at_});
  }
  ~BudgetScope() {
    if (id_) BudgetWatch::Get().Remove(id_);
  }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
  const CancelToken& token() const { return budget_; }
  bool expired() const { return fired_at_ && fired_at_->load(); }

 private:
  CancelToken budget_;
  std::shared_ptr<std::atomic<bool>> fired_at_;
  uint64_t id_ = 0;
};

// A skill that throws is an error for this call, not the end of the server.
Expected<Table> RunGuarded(const Skill& skill, const Context& ctx) {
  try {
    return skill.run(ctx);
  } catch (const std::bad_alloc&) {
    return MakeError(ErrorKind::kInternal, fmt::format("Skill '{}' ran out of memory.", skill.name()));
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInternal, fmt::format("Skill '{}' failed: {}", skill.name(), e.what()));
  }
}

// The window and filters the numbers cover, stated once (skills may already have said it), and the damaged rows the
// loads skipped (no number counts them): first, so they frame the result; after the reason when the skill declined.
void FrameNotes(Table& table, const engine::Filter& filter, const engine::ProfileInfo& info, engine::Need needs) {
  std::vector<std::string> scope;
  if (!filter.window.whole) scope.push_back(fmt::format("Window: {}.", filter.window.description));
  if (!filter.devices.empty()) scope.push_back(OnlyNote("device", "devices", filter.devices));
  if (!filter.processes.empty()) scope.push_back(OnlyNote("process", "processes", filter.processes));
  if (!filter.threads.empty()) scope.push_back(OnlyNote("thread", "threads", filter.threads));
  std::vector<std::string> missing;
  for (const std::string& note : scope) {
    const bool is_window = note.rfind("Window: ", 0) == 0;
    const std::string& needle = is_window ? filter.window.description : note;
    const bool said = std::any_of(table.notes.begin(), table.notes.end(),
                                  [&](const std::string& n) { return n.find(needle) != std::string::npos; });
    if (!said) missing.push_back(note);
  }
  for (std::string& note : engine::DamageNotes(info, needs)) missing.push_back(std::move(note));
  table.notes.insert(table.declined ? table.notes.end() : table.notes.begin(), missing.begin(), missing.end());
}

}  // namespace

std::vector<ArgSpec> CommonArgs() {
  return {
      {"device", ValueType::kInt, "Only GPU work on this CUDA device id (see the profile's devices).", Value(), false},
      {"pid", ValueType::kInt, "Only this process id.", Value(), false},
      {"start", ValueType::kDouble, "Window start, on the clock named by `clock` (default: profile start).", Value(),
       false},
      {"end", ValueType::kDouble, "Window end, exclusive, on the clock named by `clock` (default: profile end).",
       Value(), false},
      {"clock",
       ValueType::kString,
       "Clock of start/end: \"relative_s\" = seconds from the profile start, \"capture_ns\" = the export's "
       "nanosecond timestamps.",
       Value(std::string(WindowClockName(WindowClock::kRelativeSeconds))),
       false,
       {std::string(WindowClockName(WindowClock::kRelativeSeconds)),
        std::string(WindowClockName(WindowClock::kCaptureNs))}},
  };
}

std::vector<ArgSpec> AllArgs(const Skill& skill) {
  std::vector<ArgSpec> all = CommonArgs();
  for (auto& own : skill.args()) {
    if (std::none_of(all.begin(), all.end(), [&](const ArgSpec& a) { return a.name == own.name; })) {
      all.push_back(std::move(own));
    }
  }
  return all;
}

Expected<Value> ParseArgText(const ArgSpec& spec, const std::string& text) {
  auto bad = [&]() {
    return InvalidArgument(fmt::format("Argument '{}' must be {} {}, got \"{}\".", spec.name,
                                       spec.type == ValueType::kInt ? "an" : "a", ValueTypeName(spec.type), text));
  };
  switch (spec.type) {
    case ValueType::kInt: {
      if (text.empty()) return bad();
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno != 0 || *end != '\0') return bad();
      return Value(static_cast<int64_t>(v));
    }
    case ValueType::kDouble: {
      if (text.empty()) return bad();
      errno = 0;
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (errno != 0 || *end != '\0' || !std::isfinite(v)) return bad();
      return Value(v);
    }
    case ValueType::kBool:
      if (text == "true" || text == "1" || text == "yes") return Value(true);
      if (text == "false" || text == "0" || text == "no") return Value(false);
      return bad();
    case ValueType::kString:
      return Value(text);
  }
  return bad();
}

Expected<Table> Run(const Skill& skill, engine::Profile& profile, const Args& raw_args, const CancelToken& cancel,
                    const ProgressSink& progress, const RunOptions& options) {
  return Run(skill, profile, raw_args, engine::FilterSpec{}, cancel, progress, options);
}

Expected<Table> Run(const Skill& skill, engine::Profile& profile, const Args& raw_args, const engine::FilterSpec& given,
                    const CancelToken& cancel, const ProgressSink& progress, const RunOptions& options) {
  auto args = SortArgs(skill, raw_args);
  if (!args) return args.error();
  auto spec = MergeCommon(profile.info(), args->common, given);
  if (!spec) return spec.error();
  if (!spec->threads.empty() && !skill.filters_threads()) {
    return MakeError(
        ErrorKind::kUnsupported,
        fmt::format("Skill '{}' cannot filter by thread; leave the filter's threads empty.", skill.name()));
  }
  auto filter = engine::ResolveFilter(profile.info(), *spec);
  if (!filter) return filter.error();

  const engine::Need needs = skill.needs_for(args->own);
  if (static_cast<uint32_t>(needs) != 0) {
    Status loaded = profile.Require(needs, cancel, progress);
    if (!loaded) return loaded.error();
  }
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The skill was cancelled.");
  if (Status prepared = skill.Prepare(profile, args->own, cancel); !prepared) return prepared.error();
  // The budget counts the skill's own work, not the loads and the preparation above (shared with other requests,
  // cancellable). A user
  // skill's SQL stops itself at the same budget with its own message; the watch is its backstop.
  const bool user = IsUserSkill(skill);
  const std::chrono::milliseconds budget = options.user_skill_timeout + (user ? kUserSkillBudgetSlack : kNoSlack);
  std::optional<Expected<Table>> result;
  bool expired = false;
  {
    BudgetScope scope(cancel, budget);
    const auto started = std::chrono::steady_clock::now();
    result.emplace(RunGuarded(skill, Context{profile, *filter, args->own, scope.token(), options.user_skill_timeout}));
    expired = scope.expired();
    if (expired) {
      const auto took =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
      support::LogInfo(fmt::format("skill {} stopped at its time budget ({} ms after {} ms)", skill.name(),
                                   took.count(), budget.count()));
    }
  }
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The skill was cancelled.");
  if (expired && !(!*result && result->error().kind == ErrorKind::kLimitExceeded)) {
    return MakeError(ErrorKind::kLimitExceeded,
                     fmt::format("Skill '{}' stopped after {} (its time budget; see --skill-timeout).", skill.name(),
                                 engine::DescribeDuration(options.user_skill_timeout)));
  }
  if (!*result) return std::move(*result);
  FrameNotes(result->value(), *filter, profile.info(), needs);
  return std::move(*result);
}

Expected<Table> RunByName(const Registry& registry, const std::string& skill_name, engine::Profile& profile,
                          const Args& raw_args, const CancelToken& cancel, const ProgressSink& progress,
                          const RunOptions& options) {
  auto skill = registry.Get(skill_name);
  if (!skill) return skill.error();
  return Run(**skill, profile, raw_args, cancel, progress, options);
}

}  // namespace nsys::skills
