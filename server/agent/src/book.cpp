#include "nsys/agent/book.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <utility>
#include <variant>

#include "nsys/support/human_bytes.h"
#include "nsys/support/human_numbers.h"
#include "nsys/support/json_parse.h"

// Generated from server/agent/book/root_causes.json by server/CMakeLists.txt (the Book ships inside the binary).
extern const char kNsysBookJson[];

namespace nsys::agent {

namespace {

using Json = nlohmann::json;

// Reads one root cause; throws std::runtime_error naming the field (caught by ParseBook, which adds the id).
std::string Str(const Json& j, const char* key, bool required = true) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw std::runtime_error(std::string("missing \"") + key + "\"");
    return "";
  }
  if (!it->is_string()) throw std::runtime_error(std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

std::vector<std::string> Strings(const Json& j, const char* key) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it == j.end()) return out;
  if (!it->is_array()) throw std::runtime_error(std::string("\"") + key + "\" must be an array of strings");
  for (const auto& s : *it) {
    if (!s.is_string()) throw std::runtime_error(std::string("\"") + key + "\" must be an array of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Expr ExprOf(const std::string& text, const char* key) {
  auto e = Expr::Parse(text);
  if (!e) throw std::runtime_error(std::string("\"") + key + "\": " + e.error().message);
  return *e;
}

skills::Args ArgsOf(const Json& j) {
  skills::Args args;
  const auto it = j.find("args");
  if (it == j.end()) return args;
  if (!it->is_object()) throw std::runtime_error("\"args\" must be an object");
  for (const auto& [name, v] : it->items()) {
    if (v.is_boolean())
      args[name] = v.get<bool>();
    else if (v.is_number_integer())
      args[name] = v.get<int64_t>();
    else if (v.is_number())
      args[name] = v.get<double>();
    else if (v.is_string())
      args[name] = v.get<std::string>();
    else
      throw std::runtime_error("argument \"" + name + "\" must be a scalar");
  }
  return args;
}

RootCause ParseRootCause(const Json& j) {
  if (!j.is_object()) throw std::runtime_error("a root cause must be an object");
  RootCause rc{.id = Str(j, "id"),
               .name = Str(j, "name"),
               .skill = Str(j, "skill"),
               .args = ArgsOf(j),
               .requires_columns = Strings(j, "requires_columns"),
               .applies_if = std::nullopt,
               .applies_unknown = Str(j, "applies_unknown", false),
               .when = ExprOf(Str(j, "when"), "when"),
               .at_stake = ExprOf(Str(j, "at_stake"), "at_stake"),
               .sort_by = Str(j, "sort_by", false),
               .min_share = 0.005,
               .title = Str(j, "title"),
               .detail = Str(j, "detail", false),
               .why = Str(j, "why"),
               .what_to_do = Strings(j, "what_to_do"),
               .hypotheses = Strings(j, "hypotheses"),
               .evidence_columns = Strings(j, "evidence_columns"),
               .confidence = Str(j, "confidence"),
               .confidence_reason = Str(j, "confidence_reason")};
  if (const std::string req = Str(j, "applies_if", false); !req.empty()) rc.applies_if = ExprOf(req, "applies_if");
  if (const auto it = j.find("min_share"); it != j.end()) {
    if (!it->is_number() || it->get<double>() < 0) throw std::runtime_error("\"min_share\" must be a number >= 0");
    rc.min_share = it->get<double>();
  }
  if (const auto it = j.find("at_stake_once"); it != j.end()) {
    if (!it->is_boolean()) throw std::runtime_error("\"at_stake_once\" must be true or false");
    rc.at_stake_once = it->get<bool>();
  }
  if (const auto it = j.find("symptom"); it != j.end()) {
    if (!it->is_boolean()) throw std::runtime_error("\"symptom\" must be true or false");
    rc.symptom = it->get<bool>();
  }
  if (const auto it = j.find("addresses"); it != j.end()) {
    static const std::set<std::string> parts = {"compute", "communication", "copy", "idle", "any"};
    if (!it->is_string() || !parts.count(it->get<std::string>())) {
      throw std::runtime_error("\"addresses\" must be compute, communication, copy, idle or any");
    }
    rc.addresses = it->get<std::string>();
  }
  static const std::set<std::string> levels = {"high", "medium", "low"};
  if (!levels.count(rc.confidence)) throw std::runtime_error("\"confidence\" must be high, medium or low");
  if (rc.what_to_do.empty()) throw std::runtime_error("\"what_to_do\" must say what to do");
  return rc;
}

std::string Format(const ExprValue& v, const std::string& format) {
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (format == "short" && s->size() > 60) return s->substr(0, 57) + "...";
    return *s;
  }
  const double d = std::get<double>(v);
  // Under 0.1 ms, milliseconds with one decimal would say "0.0 ms" of real time: microseconds then.
  if (format == "ms") return support::HumanDuration(d);
  if (format == "us") return fmt::format("{:.1f} µs", d / 1e3);
  if (format == "pct") return fmt::format("{:.0f}%", d * 100);
  if (format == "pct1") return fmt::format("{:.1f}%", d * 100);
  // A value already in percent, rounded as people write it: whole from 10% up, one decimal below.
  if (format == "pcts") {
    if (d != 0 && std::fabs(d) < 0.1) return "under 0.1%";
    return std::fabs(d) >= 9.95 ? fmt::format("{:.0f}%", d) : fmt::format("{:.1f}%", d);
  }
  if (format == "gbps") return fmt::format("{:.1f} GB/s", d);
  // Agreement with a count: "{n:int} call{n:s}" is "1 call" or "2 calls"; "{n:were}" is "was" or "were".
  if (format == "s") return d == 1 ? "" : "s";
  if (format == "were") return d == 1 ? "was" : "were";
  if (format == "an") return d == 1 ? "an " : "";  // "1 iteration was an outlier", "3 iterations were outliers"
  if (format == "int") return support::Thousands(std::llround(d));
  if (format == "dec") return fmt::format("{:.1f}", d);
  if (format == "gb") return support::HumanGigabytes(d);
  // Host memory of copies, as people say it: "all of it pinned", "nearly all of it pinned (1.5 KB pageable)", or
  // "25.5 GB of it pageable" once the pageable part shows in gigabytes.
  if (format == "pageable") {
    if (d <= 0) return "all of it pinned";
    if (d < 5e7) return fmt::format("nearly all of it pinned ({} pageable)", support::HumanBytes(std::llround(d)));
    return support::HumanGigabytes(d) + " of it pageable";
  }
  if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{:.0f}", d);
  return fmt::format("{:.3g}", d);
}

}  // namespace

Expected<Book> ParseBook(const std::string& json_text) {
  support::ParsedJson parsed = support::ParseJsonText(json_text);
  if (!parsed.error.empty() || !parsed.value.is_object())
    return MakeError(ErrorKind::kInvalidArgument, "the Book is not a JSON object");
  if (!parsed.duplicate.empty())
    return MakeError(ErrorKind::kInvalidArgument, "the Book gives \"" + parsed.duplicate + "\" twice");
  const Json j = std::move(parsed.value);
  Book book;
  book.version = j.value("version", 1);
  const auto list = j.find("root_causes");
  if (list == j.end() || !list->is_array()) {
    return MakeError(ErrorKind::kInvalidArgument, "the Book has no \"root_causes\" array");
  }
  std::set<std::string> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    try {
      RootCause rc = ParseRootCause((*list)[i]);
      if (!ids.insert(rc.id).second) throw std::runtime_error("duplicate id");
      book.root_causes.push_back(std::move(rc));
    } catch (const std::exception& e) {
      const Json& item = (*list)[i];
      const std::string id = item.is_object() && item.contains("id") && item["id"].is_string()
                                 ? item["id"].get<std::string>()
                                 : "#" + std::to_string(i);
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("root cause {}: {}", id, e.what()));
    }
  }
  return book;
}

const Book& BuiltinBook() {
  static const Book book = [] {
    auto parsed = ParseBook(kNsysBookJson);
    // The Book is compiled in and checked by tests/agent/book_test.cpp; a broken one must not reach users silently.
    if (!parsed) throw std::logic_error("the built-in Book of Root Causes is invalid: " + parsed.error().message);
    return std::move(*parsed);
  }();
  return book;
}

std::string FillTemplate(const std::string& templ, const NameLookup& lookup, std::string (*escape)(std::string_view)) {
  std::string out;
  size_t i = 0;
  while (i < templ.size()) {
    const size_t open = templ.find('{', i);
    if (open == std::string::npos) break;
    const size_t close = templ.find('}', open);
    if (close == std::string::npos) break;
    out += templ.substr(i, open - i);
    const std::string field = templ.substr(open + 1, close - open - 1);
    const size_t colon = field.find(':');
    const std::string name = field.substr(0, colon);
    const std::string format = colon == std::string::npos ? "" : field.substr(colon + 1);
    const auto v = lookup(name);
    out += !v ? templ.substr(open, close - open + 1) : escape ? escape(Format(*v, format)) : Format(*v, format);
    i = close + 1;
  }
  return out + templ.substr(std::min(i, templ.size()));
}

}  // namespace nsys::agent
