#include "nsys/wire/skill_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <variant>
#include <vector>

#include "nsys/skills/registry.h"

namespace nsys::wire {

engine::WindowSpec ToWindowSpec(const std::optional<protocol::Window>& window) {
  engine::WindowSpec spec;  // absent: the whole profile, on the default clock
  if (window) {
    spec.clock =
        window->clock == protocol::WindowClock::kCaptureNs ? WindowClock::kCaptureNs : WindowClock::kRelativeSeconds;
    spec.start = window->start;
    spec.end = window->end;
  }
  return spec;
}

Expected<engine::FilterSpec> ToFilterSpec(const protocol::Filter& filter) {
  engine::FilterSpec spec;
  spec.window = ToWindowSpec(filter.window);
  if (filter.devices) spec.devices = *filter.devices;
  for (int64_t pid : filter.processes.value_or(std::vector<int64_t>{})) {
    if (pid < 0 || pid > 0xFFFFFF) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("params.filter.processes: {} is not a process id (0 to 16777215).", pid));
    }
    spec.processes.push_back(static_cast<uint32_t>(pid));
  }
  for (int64_t tid : filter.threads.value_or(std::vector<int64_t>{})) {
    if (tid < 0) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("params.filter.threads: {} is not a global thread id (it is negative).", tid));
    }
    spec.threads.push_back(static_cast<uint64_t>(tid));
  }
  return spec;
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
  return AddArgText(skill.name(), skills::AllArgs(skill), name, text, args);
}

Status AddArgText(const std::string& skill_name, const std::vector<skills::ArgSpec>& specs, const std::string& name,
                  const std::string& text, skills::Args& args) {
  auto spec = std::find_if(specs.begin(), specs.end(), [&](const auto& s) { return s.name == name; });
  if (spec == specs.end()) {
    std::vector<std::string> known;
    for (const auto& s : specs) known.push_back(s.name);
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("skill '{}' has no argument '{}' (its arguments: {})",
                                                              skill_name, name, fmt::join(known, ", ")));
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
