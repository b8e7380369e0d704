#include "nsys/wire/skill_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "nsys/skills/registry.h"

namespace nsys::wire {

namespace {

// Adds one common arg for a filter member, refusing it when the flat args name it too.
Status AddFilterArg(skills::Args& args, const std::string& name, Value value, const char* member) {
  if (args.count(name)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("params.filter.{} and params.args.{} both given: use one of them", member, name));
  }
  args[name] = std::move(value);
  return {};
}

}  // namespace

Status FilterToSkillArgs(const protocol::Filter& filter, skills::Args& args) {
  if (filter.threads && !filter.threads->empty()) {
    return MakeError(ErrorKind::kUnsupported, "params.filter.threads: skills cannot filter by thread yet");
  }
  if (filter.devices && filter.devices->size() > 1) {
    return MakeError(ErrorKind::kUnsupported, "params.filter.devices: skills take at most one device for now");
  }
  if (filter.processes && filter.processes->size() > 1) {
    return MakeError(ErrorKind::kUnsupported, "params.filter.processes: skills take at most one process for now");
  }
  if (filter.devices && filter.devices->size() == 1) {
    if (auto s = AddFilterArg(args, "device", int64_t{filter.devices->front()}, "devices"); !s) return s;
  }
  if (filter.processes && filter.processes->size() == 1) {
    if (auto s = AddFilterArg(args, "pid", filter.processes->front(), "processes"); !s) return s;
  }
  if (const auto& window = filter.window) {
    if (window->start) {
      if (auto s = AddFilterArg(args, "start", *window->start, "window.start"); !s) return s;
    }
    if (window->end) {
      if (auto s = AddFilterArg(args, "end", *window->end, "window.end"); !s) return s;
    }
    const std::string clock(protocol::ToString(window->clock));
    if (auto s = AddFilterArg(args, "clock", clock, "window.clock"); !s) return s;
  }
  return {};
}

namespace {

Expected<Value> ToolSkillValue(const protocol::Scalar& value, const skills::ArgSpec* spec) {
  if (!spec) return Value(value);
  if (const auto* d = std::get_if<double>(&value)) {
    if (spec->type == ValueType::kInt && std::trunc(*d) == *d && std::fabs(*d) < 9007199254740992.0) {
      return Value(static_cast<int64_t>(*d));
    }
  } else if (const auto* text = std::get_if<std::string>(&value)) {
    if (spec->type != ValueType::kString) return skills::ParseArgText(*spec, *text);
  }
  return Value(value);
}

}  // namespace

Expected<skills::Args> ToolSkillArgs(const std::map<std::string, protocol::Scalar>& args, const skills::Skill* skill) {
  const std::vector<skills::ArgSpec> specs = skill ? skills::AllArgs(*skill) : std::vector<skills::ArgSpec>{};
  skills::Args out;
  for (const auto& [name, value] : args) {
    const skills::ArgSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == name) spec = &s;
    }
    auto converted = ToolSkillValue(value, spec);
    if (!converted) return converted.error();
    out[name] = std::move(*converted);
  }
  return out;
}

Status AddArgText(const skills::Skill& skill, const std::string& name, const std::string& text, skills::Args& args) {
  const auto specs = skills::AllArgs(skill);
  auto spec = std::find_if(specs.begin(), specs.end(), [&](const auto& s) { return s.name == name; });
  if (spec == specs.end()) {
    std::vector<std::string> known;
    for (const auto& s : specs) known.push_back(s.name);
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("skill '{}' has no argument '{}' (its arguments: {})",
                                                              skill.name(), name, fmt::join(known, ", ")));
  }
  if (!spec->choices.empty() && std::find(spec->choices.begin(), spec->choices.end(), text) == spec->choices.end()) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("argument '{}' must be one of {}, not '{}'", name,
                                                              fmt::join(spec->choices, ", "), text));
  }
  auto value = skills::ParseArgText(*spec, text);
  if (!value) return value.error();
  args[name] = std::move(*value);
  return {};
}

}  // namespace nsys::wire
