// The runner: validates a skill's arguments, resolves the common ones (device, pid, window) into an
// engine::Filter, loads what the skill needs, runs it and states the window in the notes.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <set>

#include "nsys/skills/registry.h"

namespace nsys::skills {
namespace {

constexpr const char* kClockRelative = "relative_s";
constexpr const char* kClockCapture = "capture_ns";

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
                                       spec.type == ArgType::kInt ? "an" : "a", ArgTypeName(spec.type),
                                       DescribeValue(v)));
  };
  switch (spec.type) {
    case ArgType::kInt:
      if (std::holds_alternative<int64_t>(v)) return v;
      return wrong();
    case ArgType::kDouble:
      if (const auto* d = std::get_if<double>(&v)) {
        if (!std::isfinite(*d)) return wrong();
        return v;
      }
      if (const auto* i = std::get_if<int64_t>(&v)) return Value(static_cast<double>(*i));
      return wrong();
    case ArgType::kBool:
      if (std::holds_alternative<bool>(v)) return v;
      return wrong();
    case ArgType::kString: {
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

template <typename T, typename Fn>
std::string ListSome(const std::vector<T>& items, Fn&& fn, size_t max_items = 20) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < max_items; ++i) {
    if (i) out += ", ";
    out += fn(items[i]);
  }
  if (items.size() > max_items) out += fmt::format(" and {} more", items.size() - max_items);
  return out;
}

Expected<engine::Filter> ResolveCommon(const engine::ProfileInfo& info, const Args& common) {
  engine::Filter filter;
  if (auto it = common.find("device"); it != common.end()) {
    const int64_t device = std::get<int64_t>(it->second);
    const bool known =
        std::any_of(info.devices.begin(), info.devices.end(), [&](const engine::Device& d) { return d.id == device; });
    if (!known) {
      if (info.devices.empty()) {
        return InvalidArgument(fmt::format("Device {} does not exist: this profile has no GPU devices.", device));
      }
      return InvalidArgument(
          fmt::format("Device {} does not exist in this profile; its devices are {}.", device,
                      ListSome(info.devices, [](const engine::Device& d) { return std::to_string(d.id); })));
    }
    filter.device = static_cast<int32_t>(device);
  }
  if (auto it = common.find("pid"); it != common.end()) {
    const int64_t pid = std::get<int64_t>(it->second);
    const bool known = std::any_of(info.processes.begin(), info.processes.end(),
                                   [&](const engine::Process& p) { return p.pid == pid; });
    if (!known && !info.processes.empty()) {
      return InvalidArgument(
          fmt::format("Process {} does not exist in this profile; its processes are {}.", pid,
                      ListSome(info.processes, [](const engine::Process& p) { return std::to_string(p.pid); })));
    }
    if (pid < 0 || pid > 0xFFFFFF) return InvalidArgument(fmt::format("Process id {} is out of range.", pid));
    filter.pid = static_cast<uint32_t>(pid);
  }
  engine::WindowSpec spec;
  if (auto it = common.find("clock"); it != common.end()) {
    spec.clock = std::get<std::string>(it->second) == kClockCapture ? engine::WindowSpec::Clock::kCaptureNs
                                                                    : engine::WindowSpec::Clock::kSecondsFromStart;
  }
  if (auto it = common.find("start"); it != common.end()) spec.start = std::get<double>(it->second);
  if (auto it = common.find("end"); it != common.end()) spec.end = std::get<double>(it->second);
  auto window = engine::ResolveWindow(info, spec);
  if (!window) return window.error();
  filter.window = std::move(window.value());
  return filter;
}

}  // namespace

const char* ArgTypeName(ArgType type) {
  switch (type) {
    case ArgType::kInt:
      return "int";
    case ArgType::kDouble:
      return "double";
    case ArgType::kString:
      return "string";
    case ArgType::kBool:
      return "bool";
  }
  return "value";
}

std::vector<ArgSpec> CommonArgs() {
  return {
      {"device", ArgType::kInt, "Only GPU work on this CUDA device id (see the profile's devices).", Value(), false},
      {"pid", ArgType::kInt, "Only this process id.", Value(), false},
      {"start", ArgType::kDouble, "Window start, on the clock named by `clock` (default: profile start).", Value(),
       false},
      {"end", ArgType::kDouble, "Window end, exclusive, on the clock named by `clock` (default: profile end).", Value(),
       false},
      {"clock",
       ArgType::kString,
       "Clock of start/end: \"relative_s\" = seconds from the profile start, \"capture_ns\" = the export's "
       "nanosecond timestamps.",
       Value(std::string(kClockRelative)),
       false,
       {kClockRelative, kClockCapture}},
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
                                       spec.type == ArgType::kInt ? "an" : "a", ArgTypeName(spec.type), text));
  };
  switch (spec.type) {
    case ArgType::kInt: {
      if (text.empty()) return bad();
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno != 0 || *end != '\0') return bad();
      return Value(static_cast<int64_t>(v));
    }
    case ArgType::kDouble: {
      if (text.empty()) return bad();
      errno = 0;
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (errno != 0 || *end != '\0' || !std::isfinite(v)) return bad();
      return Value(v);
    }
    case ArgType::kBool:
      if (text == "true" || text == "1" || text == "yes") return Value(true);
      if (text == "false" || text == "0" || text == "no") return Value(false);
      return bad();
    case ArgType::kString:
      return Value(text);
  }
  return bad();
}

Expected<Table> Run(const Skill& skill, engine::Profile& profile, const Args& raw_args, const CancelToken& cancel,
                    const ProgressSink& progress, const RunOptions& options) {
  const std::vector<ArgSpec> common_specs = CommonArgs();
  const std::vector<ArgSpec> all_specs = AllArgs(skill);
  std::set<std::string> common_names;
  for (const auto& s : common_specs) common_names.insert(s.name);

  Args common;
  Args own;
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
    (common_names.count(name) ? common : own)[name] = std::move(checked.value());
  }
  for (const auto& spec : all_specs) {
    if (common_names.count(spec.name)) continue;
    if (own.count(spec.name)) continue;
    if (!IsNull(spec.default_value)) {
      own[spec.name] = spec.default_value;
    } else if (spec.required) {
      return InvalidArgument(fmt::format("Argument '{}' of skill '{}' is required.", spec.name, skill.name()));
    }
  }

  auto filter = ResolveCommon(profile.info(), common);
  if (!filter) return filter.error();

  const engine::Need needs = skill.needs();
  if (static_cast<uint32_t>(needs) != 0) {
    Status loaded = profile.Require(needs, cancel, progress);
    if (!loaded) return loaded.error();
  }
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The skill was cancelled.");

  Expected<Table> result = MakeError(ErrorKind::kInternal, "The skill did not run.");
  try {
    const Context ctx{profile, *filter, own, cancel, options.user_skill_timeout};
    result = skill.run(ctx);
  } catch (const std::bad_alloc&) {
    return MakeError(ErrorKind::kInternal, fmt::format("Skill '{}' ran out of memory.", skill.name()));
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInternal, fmt::format("Skill '{}' failed: {}", skill.name(), e.what()));
  }
  if (!result) return result;
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "The skill was cancelled.");

  Table& table = result.value();
  // The window and filters the numbers cover, stated once (skills may already have said it).
  std::vector<std::string> scope;
  if (!filter->window.whole) scope.push_back(fmt::format("Window: {}.", filter->window.description));
  if (filter->device) scope.push_back(fmt::format("Only device {}.", *filter->device));
  if (filter->pid) scope.push_back(fmt::format("Only process {}.", *filter->pid));
  std::vector<std::string> missing;
  for (const std::string& note : scope) {
    const bool is_window = note.rfind("Window: ", 0) == 0;
    const std::string& needle = is_window ? filter->window.description : note;
    const bool said = std::any_of(table.notes.begin(), table.notes.end(),
                                  [&](const std::string& n) { return n.find(needle) != std::string::npos; });
    if (!said) missing.push_back(note);
  }
  // Rows the loads skipped as damaged (issue 8): say so wherever they could change the numbers.
  for (std::string& note : engine::DamageNotes(profile.info(), needs)) missing.push_back(std::move(note));
  // First, so they frame the result; after the reason when the skill declined.
  table.notes.insert(table.declined ? table.notes.end() : table.notes.begin(), missing.begin(), missing.end());
  return result;
}

Expected<Table> RunByName(const Registry& registry, const std::string& skill_name, engine::Profile& profile,
                          const Args& raw_args, const CancelToken& cancel, const ProgressSink& progress,
                          const RunOptions& options) {
  auto skill = registry.Find(skill_name);
  if (!skill) {
    std::string known;
    for (const auto& s : registry.List()) known += (known.empty() ? "" : ", ") + s->name();
    return MakeError(ErrorKind::kNotFound,
                     fmt::format("Unknown skill '{}'. Known skills: {}.", skill_name, known.empty() ? "none" : known));
  }
  return Run(*skill, profile, raw_args, cancel, progress, options);
}

}  // namespace nsys::skills
