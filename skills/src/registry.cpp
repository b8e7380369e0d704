// The registry of skills and the small helpers skills use to read their arguments.
#include "nsys/skills/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <variant>

namespace nsys::skills {

void Registry::Add(std::shared_ptr<const Skill> skill) {
  if (!skill) return;
  const std::string name = skill->name();
  auto it = std::find_if(skills_.begin(), skills_.end(), [&](const auto& s) { return s->name() == name; });
  if (it != skills_.end()) {
    *it = std::move(skill);
  } else {
    skills_.push_back(std::move(skill));
  }
}

std::shared_ptr<const Skill> Registry::Find(const std::string& name) const {
  for (const auto& s : skills_) {
    if (s->name() == name) return s;
  }
  return nullptr;
}

Expected<std::shared_ptr<const Skill>> Registry::Get(const std::string& name) const {
  if (auto skill = Find(name)) return skill;
  std::string known;
  for (const auto& s : List()) known += (known.empty() ? "" : ", ") + s->name();
  return MakeError(ErrorKind::kNotFound, fmt::format("unknown skill '{}' (known: {})", name, known));
}

std::vector<std::shared_ptr<const Skill>> Registry::List() const {
  auto out = skills_;
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->name() < b->name(); });
  return out;
}

void Registry::RemoveIf(const std::function<bool(const Skill&)>& pred) {
  std::erase_if(skills_, [&](const auto& s) { return pred(*s); });
}

Table Declined(std::string reason) {
  Table t;
  t.declined = true;
  t.notes.push_back(std::move(reason));
  return t;
}

ArgSpec LimitArg(int64_t default_limit, std::string description) {
  ArgSpec spec{"limit", ValueType::kInt, std::move(description), Value(default_limit)};
  spec.min = 0;
  return spec;
}

const Value& Arg(const Context& ctx, const std::string& name) {
  static const Value kNull;
  auto it = ctx.args.find(name);
  return it == ctx.args.end() ? kNull : it->second;
}

// The runner has validated types, so these only convert; absent optional arguments read as zero values.
int64_t ArgInt(const Context& ctx, const std::string& name) {
  const Value& v = Arg(ctx, name);
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
  return 0;
}

double ArgDouble(const Context& ctx, const std::string& name) {
  const Value& v = Arg(ctx, name);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return 0.0;
}

std::string ArgString(const Context& ctx, const std::string& name) {
  const Value& v = Arg(ctx, name);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return {};
}

bool FlagIn(const Args& args, const std::string& name) {
  const auto it = args.find(name);
  return it != args.end() && std::holds_alternative<bool>(it->second) && std::get<bool>(it->second);
}

bool ArgBool(const Context& ctx, const std::string& name) {
  const Value& v = Arg(ctx, name);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i != 0;
  return false;
}

}  // namespace nsys::skills
