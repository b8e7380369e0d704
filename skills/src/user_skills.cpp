// Declarative user skills: JSON files with a read-only SQL statement and typed arguments bound as parameters.
#include "nsys/skills/user_skills.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <variant>

#include "nsys/skills/registry.h"
#include "nsys/support/json_parse.h"

namespace nsys::skills {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSuffix = ".skill.json";
constexpr size_t kMaxFileBytes = 1 << 20;
constexpr int64_t kDefaultMaxRows = 10000;
const char* const kBuiltinParams[] = {"window_start_ns", "window_end_ns", "device", "pid"};

bool IsSnakeCase(const std::string& s) {
  if (s.empty() || s.size() > 64 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

struct SqlScan {
  std::vector<std::string> words;  // upper-cased keywords/identifiers outside literals and comments
  std::vector<bool> word_is_call;  // followed by "("
  std::set<std::string> params;    // :name parameters
  std::string problem;             // non-empty when the text cannot be accepted
};

// A small lexer: enough to find keywords and parameters outside string literals, quoted identifiers and comments.
SqlScan ScanSql(const std::string& sql) {
  SqlScan scan;
  size_t i = 0;
  const size_t n = sql.size();
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < n) {
    const char c = sql[i];
    if (c == '\'' || c == '"' || c == '`' || c == '[') {
      const char close = c == '[' ? ']' : c;
      size_t j = i + 1;
      while (j < n) {
        if (sql[j] == close) {
          if (close != ']' && j + 1 < n && sql[j + 1] == close) {  // doubled quote inside a literal
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      if (j >= n) {
        scan.problem = "the SQL has an unterminated quote";
        return scan;
      }
      i = j + 1;
    } else if (sql.compare(i, 2, "--") == 0) {
      const size_t nl = sql.find('\n', i);
      i = nl == std::string::npos ? n : nl + 1;
    } else if (sql.compare(i, 2, "/*") == 0) {
      const size_t end = sql.find("*/", i + 2);
      i = end == std::string::npos ? n : end + 2;
    } else if (c == ':' && i + 1 < n && (std::isalpha(static_cast<unsigned char>(sql[i + 1])) || sql[i + 1] == '_')) {
      size_t j = i + 1;
      while (j < n && is_word(sql[j])) ++j;
      scan.params.insert(sql.substr(i + 1, j - i - 1));
      i = j;
    } else if (c == '?' || ((c == '@' || c == '$') && i + 1 < n && is_word(sql[i + 1]))) {
      scan.problem = "the SQL uses a '?', '@' or '$' parameter; name parameters as :name";
      return scan;
    } else if (c == ';') {
      size_t j = i + 1;
      while (j < n && std::isspace(static_cast<unsigned char>(sql[j]))) ++j;
      if (j < n) {
        scan.problem = "the SQL holds more than one statement";
        return scan;
      }
      i = j;
    } else if (is_word(c)) {
      size_t j = i;
      while (j < n && is_word(sql[j])) ++j;
      std::string word = sql.substr(i, j - i);
      std::transform(word.begin(), word.end(), word.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
      size_t k = j;
      while (k < n && std::isspace(static_cast<unsigned char>(sql[k]))) ++k;
      scan.words.push_back(std::move(word));
      scan.word_is_call.push_back(k < n && sql[k] == '(');
      i = j;
    } else {
      ++i;
    }
  }
  return scan;
}

std::string CheckScan(const SqlScan& scan) {
  if (!scan.problem.empty()) return scan.problem;
  if (scan.words.empty()) return "the SQL is empty";
  if (scan.words[0] != "SELECT" && scan.words[0] != "WITH") {
    return fmt::format("only read-only queries are allowed (SELECT or WITH), and this one starts with {}",
                       scan.words[0]);
  }
  static const std::set<std::string> kForbidden = {"INSERT",  "UPDATE", "DELETE", "REPLACE",  "CREATE",    "DROP",
                                                   "ALTER",   "ATTACH", "DETACH", "PRAGMA",   "VACUUM",    "REINDEX",
                                                   "ANALYZE", "BEGIN",  "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"};
  for (size_t w = 0; w < scan.words.size(); ++w) {
    const std::string& word = scan.words[w];
    if (word == "REPLACE" && scan.word_is_call[w]) continue;  // the replace() string function
    if (kForbidden.count(word)) {
      return fmt::format("the SQL contains {}: user skills may only read (no writes, ATTACH, PRAGMA or transactions)",
                         word);
    }
  }
  return {};
}

class UserSkill final : public Skill {
 public:
  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  std::vector<ArgSpec> args() const override { return args_; }
  engine::Need needs() const override { return static_cast<engine::Need>(0); }

  Expected<Table> run(const Context& ctx) const override {
    const engine::ProfileInfo& info = ctx.profile.info();
    for (const auto& table : requires_tables_) {
      if (std::none_of(info.tables.begin(), info.tables.end(), [&](const auto& t) { return t.name == table; })) {
        return Declined(
            fmt::format("This profile has no {} table, which user skill '{}' ({}) requires.", table, name_, origin_));
      }
    }
    auto params = BindParams(ctx);
    if (!params) return params.error();
    engine::QueryLimits limits;
    limits.max_rows = max_rows_;
    limits.max_result_bytes = kUserSkillResultBytes;
    limits.time_budget = ctx.user_skill_timeout;
    limits.time_budget_hint = "see --skill-timeout";
    auto result = ctx.profile.Query(sql_, *params, ctx.cancel, limits);
    if (!result) {
      const Error& e = result.error();
      if (e.message.find("no such table") != std::string::npos) {
        return Declined(fmt::format("User skill '{}' ({}) needs a table this profile does not have: {}", name_, origin_,
                                    e.message));
      }
      return MakeError(e.kind, fmt::format("User skill '{}' ({}): {}", name_, origin_, e.message));
    }
    Table table;
    table.columns = ColumnsOf(*result);
    table.rows = std::move(result->rows);
    table.notes.push_back(fmt::format("User skill from {}.", origin_));
    for (const auto& note : notes_) table.notes.push_back(note);
    if (result->total_rows > static_cast<int64_t>(table.rows.size())) {
      table.notes.push_back(
          fmt::format("Showing the first {} of {} rows (max_rows).", table.rows.size(), result->total_rows));
    }
    AddFilterNotes(ctx.filter, table);
    return table;
  }

  // The SQL's :parameters: the window, device and pid from the filter, the rest from the skill's arguments.
  Expected<engine::Profile::SqlParams> BindParams(const Context& ctx) const {
    // :device and :pid bind one value: a set of several cannot be passed to the SQL.
    const std::pair<const char*, size_t> sets[] = {{"device", ctx.filter.devices.size()},
                                                   {"pid", ctx.filter.processes.size()}};
    for (const auto& [param, size] : sets) {
      if (size > 1 && params_used_.count(param)) {
        return MakeError(ErrorKind::kUnsupported,
                         fmt::format("User skill '{}' ({}) binds :{} to one value; select one {} at a time.", name_,
                                     origin_, param, std::string(param) == "pid" ? "process" : "device"));
      }
    }
    engine::Profile::SqlParams params;
    for (const std::string& p : params_used_) {
      if (p == "window_start_ns") {
        params[p] = Value(static_cast<int64_t>(ctx.filter.window.begin));
      } else if (p == "window_end_ns") {
        // Exclusive; for the whole profile, just past the last event's end so that `start < :window_end_ns` keeps all.
        params[p] = Value(
            static_cast<int64_t>(ctx.filter.window.whole ? ctx.profile.info().end_ns + 1 : ctx.filter.window.end));
      } else if (p == "device") {
        params[p] = ctx.filter.devices.empty() ? Value() : Value(int64_t{ctx.filter.devices.front()});
      } else if (p == "pid") {
        params[p] = ctx.filter.processes.empty() ? Value() : Value(int64_t{ctx.filter.processes.front()});
      } else {
        const Value& v = Arg(ctx, p);
        params[p] = std::holds_alternative<bool>(v) ? Value(int64_t{std::get<bool>(v) ? 1 : 0}) : v;
      }
    }
    return params;
  }

  // A column's type is that of its non-null cells: int and double mixed read as double, anything else as string.
  static std::vector<Column> ColumnsOf(const engine::SqlResult& result) {
    std::vector<Column> columns;
    for (size_t c = 0; c < result.columns.size(); ++c) {
      ValueType type = ValueType::kString;
      bool seen = false;
      for (const auto& row : result.rows) {
        const Value& v = row[c];
        ValueType t;
        if (std::holds_alternative<int64_t>(v)) {
          t = ValueType::kInt;
        } else if (std::holds_alternative<double>(v)) {
          t = ValueType::kDouble;
        } else if (std::holds_alternative<std::string>(v)) {
          t = ValueType::kString;
        } else {
          continue;
        }
        if (!seen) {
          type = t;
          seen = true;
        } else if (type != t) {
          type = (type != ValueType::kString && t != ValueType::kString) ? ValueType::kDouble : ValueType::kString;
        }
      }
      columns.push_back(Column{result.columns[c], type, {}});
    }
    return columns;
  }

  // Filters the SQL cannot see were not applied: say so.
  void AddFilterNotes(const engine::Filter& filter, Table& table) const {
    const bool uses_window = params_used_.count("window_start_ns") || params_used_.count("window_end_ns");
    if (!filter.window.whole && !uses_window) {
      table.notes.push_back(
          "This skill's SQL does not use :window_start_ns/:window_end_ns, so the window was not "
          "applied to its rows.");
    }
    if (!filter.devices.empty() && !params_used_.count("device")) {
      table.notes.push_back("This skill's SQL does not use :device, so the device filter was not applied.");
    }
    if (!filter.processes.empty() && !params_used_.count("pid")) {
      table.notes.push_back("This skill's SQL does not use :pid, so the process filter was not applied.");
    }
  }

  std::string name_, description_, sql_, origin_;
  std::vector<ArgSpec> args_;
  std::set<std::string> params_used_;
  std::vector<std::string> requires_tables_, notes_;
  int64_t max_rows_ = kDefaultMaxRows;
};

Error Bad(const std::string& origin, const std::string& problem) {
  return MakeError(ErrorKind::kBadInput, fmt::format("{}: {}", origin, problem));
}

Expected<Value> DefaultValue(const json& j, ValueType type) {
  switch (type) {
    case ValueType::kInt:
      if (j.is_number_integer() && !(j.is_number_unsigned() && j.get<uint64_t>() > uint64_t{INT64_MAX}))
        return Value(j.get<int64_t>());
      break;
    case ValueType::kDouble:
      if (j.is_number()) return Value(j.get<double>());
      break;
    case ValueType::kBool:
      if (j.is_boolean()) return Value(j.get<bool>());
      break;
    case ValueType::kString:
      if (j.is_string()) return Value(j.get<std::string>());
      break;
  }
  return MakeError(ErrorKind::kBadInput,
                   fmt::format("must be {} {}", type == ValueType::kInt ? "an" : "a", ValueTypeName(type)));
}

}  // namespace

std::string CheckReadOnlySql(const std::string& sql) {
  return CheckScan(ScanSql(sql));
}

namespace {

// ParseUserSkill's steps. Each returns the problem as text (empty = fine); ParseUserSkill prefixes the origin.

std::string ParseHeader(const json& doc, UserSkill& skill) {
  static const std::set<std::string> kFields = {"name",     "description", "args", "sql", "requires_tables",
                                                "max_rows", "notes"};
  for (const auto& [key, _] : doc.items()) {
    if (!kFields.count(key)) {
      return fmt::format("unknown field '{}' (known: name, description, args, sql, requires_tables, max_rows, notes)",
                         key);
    }
  }
  if (!doc.contains("name") || !doc["name"].is_string() || !IsSnakeCase(doc["name"].get<std::string>())) {
    return "'name' must be a snake_case string (lower-case letters, digits and _, starting with a letter)";
  }
  skill.name_ = doc["name"].get<std::string>();
  if (!doc.contains("description") || !doc["description"].is_string() ||
      doc["description"].get<std::string>().empty()) {
    return "'description' must be a non-empty string";
  }
  skill.description_ = doc["description"].get<std::string>();
  return {};
}

std::string ParseSql(const json& doc, UserSkill& skill, SqlScan& scan) {
  if (!doc.contains("sql")) return "'sql' is missing";
  const json& sql = doc["sql"];
  if (sql.is_string()) {
    skill.sql_ = sql.get<std::string>();
  } else if (sql.is_array() && std::all_of(sql.begin(), sql.end(), [](const json& l) { return l.is_string(); })) {
    for (const auto& line : sql) skill.sql_ += line.get<std::string>() + "\n";
  } else {
    return "'sql' must be a string or an array of strings";
  }
  scan = ScanSql(skill.sql_);
  return CheckScan(scan);
}

std::optional<ValueType> ValueTypeNamed(const std::string& name) {
  for (ValueType t : {ValueType::kInt, ValueType::kDouble, ValueType::kString, ValueType::kBool}) {
    if (ValueTypeName(t) == name) return t;
  }
  return std::nullopt;
}

// min/max (numbers, for int and double arguments) and choices (strings, for string arguments): the runner checks
// them as it checks a built-in skill's.
std::string ParseArgLimits(const json& arg, const std::string& where, ArgSpec& spec) {
  const bool numeric = spec.type == ValueType::kInt || spec.type == ValueType::kDouble;
  for (const char* bound : {"min", "max"}) {
    if (!arg.contains(bound)) continue;
    if (!numeric) return fmt::format("{}: '{}' applies to int and double arguments only", where, bound);
    if (!arg[bound].is_number()) return fmt::format("{}: '{}' must be a number", where, bound);
    (std::string(bound) == "min" ? spec.min : spec.max) = arg[bound].get<double>();
  }
  if (spec.min && spec.max && *spec.min > *spec.max) return fmt::format("{}: 'min' is greater than 'max'", where);
  if (arg.contains("choices")) {
    const json& choices = arg["choices"];
    if (spec.type != ValueType::kString) return where + ": 'choices' applies to string arguments only";
    if (!choices.is_array() || choices.empty() ||
        !std::all_of(choices.begin(), choices.end(), [](const json& c) { return c.is_string(); })) {
      return where + ": 'choices' must be a non-empty array of strings";
    }
    for (const auto& c : choices) spec.choices.push_back(c.get<std::string>());
  }
  return {};
}

std::string ParseArg(const json& arg, const std::string& where, const UserSkill& skill, ArgSpec& spec) {
  if (!arg.is_object()) return where + " must be an object";
  static const std::set<std::string> kArgFields = {"name",     "type", "description", "default",
                                                   "required", "min",  "max",         "choices"};
  for (const auto& [key, _] : arg.items()) {
    if (!kArgFields.count(key)) {
      return fmt::format(
          "{}: unknown field '{}' (known: name, type, description, default, required, min, max, "
          "choices)",
          where, key);
    }
  }
  if (!arg.contains("name") || !arg["name"].is_string() || !IsSnakeCase(arg["name"].get<std::string>())) {
    return where + ": 'name' must be a snake_case string";
  }
  spec.name = arg["name"].get<std::string>();
  const std::vector<ArgSpec> common = CommonArgs();
  if (std::any_of(common.begin(), common.end(), [&](const ArgSpec& c) { return c.name == spec.name; })) {
    return fmt::format("{}: '{}' is a common argument every skill already has; use :{} in the SQL without declaring it",
                       where, spec.name,
                       spec.name == "start" || spec.name == "end" ? "window_" + spec.name + "_ns" : spec.name);
  }
  if (std::any_of(skill.args_.begin(), skill.args_.end(), [&](const ArgSpec& s) { return s.name == spec.name; })) {
    return fmt::format("{}: argument '{}' is declared twice", where, spec.name);
  }
  const auto type =
      arg.contains("type") && arg["type"].is_string() ? ValueTypeNamed(arg["type"].get<std::string>()) : std::nullopt;
  if (!type) return fmt::format("{} ('{}'): 'type' must be one of int, double, string, bool", where, spec.name);
  spec.type = *type;
  if (arg.contains("description")) {
    if (!arg["description"].is_string()) return where + ": 'description' must be a string";
    spec.description = arg["description"].get<std::string>();
  }
  if (std::string problem = ParseArgLimits(arg, where, spec); !problem.empty()) return problem;
  if (arg.contains("default") && !arg["default"].is_null()) {
    auto value = DefaultValue(arg["default"], spec.type);
    if (!value) return fmt::format("{}: the default of '{}' {}", where, spec.name, value.error().message);
    spec.default_value = std::move(value.value());
  }
  if (arg.contains("required")) {
    if (!arg["required"].is_boolean()) return where + ": 'required' must be true or false";
    spec.required = arg["required"].get<bool>();
  }
  return {};
}

std::string ParseArgs(const json& doc, UserSkill& skill) {
  if (!doc.contains("args")) return {};
  if (!doc["args"].is_array()) return "'args' must be an array";
  for (size_t a = 0; a < doc["args"].size(); ++a) {
    ArgSpec spec;
    if (std::string problem = ParseArg(doc["args"][a], fmt::format("args[{}]", a), skill, spec); !problem.empty()) {
      return problem;
    }
    skill.args_.push_back(std::move(spec));
  }
  return {};
}

// Every :name in the SQL is a declared argument or one the runner fills from the common arguments.
std::string CheckParams(const SqlScan& scan, UserSkill& skill) {
  for (const std::string& p : scan.params) {
    const bool builtin =
        std::any_of(std::begin(kBuiltinParams), std::end(kBuiltinParams), [&](const char* b) { return p == b; });
    const bool declared =
        std::any_of(skill.args_.begin(), skill.args_.end(), [&](const ArgSpec& s) { return s.name == p; });
    if (!builtin && !declared) {
      return fmt::format(
          "the SQL uses :{}, which is neither a declared argument nor one of "
          ":window_start_ns, :window_end_ns, :device, :pid",
          p);
    }
  }
  skill.params_used_ = scan.params;
  return {};
}

bool IsStringArray(const json& j) {
  return j.is_array() && std::all_of(j.begin(), j.end(), [](const json& t) { return t.is_string(); });
}

std::string ParseExtras(const json& doc, UserSkill& skill) {
  if (doc.contains("requires_tables")) {
    if (!IsStringArray(doc["requires_tables"])) return "'requires_tables' must be an array of table names";
    for (const auto& t : doc["requires_tables"]) skill.requires_tables_.push_back(t.get<std::string>());
  }
  if (doc.contains("max_rows")) {
    // JSON parses a positive integer as unsigned, a negative one as signed.
    const json& max_rows = doc["max_rows"];
    if (!max_rows.is_number_unsigned() || max_rows.get<uint64_t>() == 0) return "'max_rows' must be a positive integer";
    if (max_rows.get<uint64_t>() > static_cast<uint64_t>(kMaxUserSkillRows)) {
      return fmt::format(
          "'max_rows' is {}, over the cap of {} rows a user skill may return; aggregate in the SQL or "
          "lower it",
          max_rows.get<uint64_t>(), kMaxUserSkillRows);
    }
    skill.max_rows_ = max_rows.get<int64_t>();
  }
  if (doc.contains("notes")) {
    if (!IsStringArray(doc["notes"])) return "'notes' must be an array of strings";
    for (const auto& note : doc["notes"]) skill.notes_.push_back(note.get<std::string>());
  }
  return {};
}

}  // namespace

Expected<std::shared_ptr<const Skill>> ParseUserSkill(const std::string& json_text, const std::string& origin) {
  // The one parse of untrusted JSON (support/json_parse.h): never throws; a member given twice is refused, since
  // parsers disagree on which of the two counts.
  support::ParsedJson parsed = support::ParseJsonText(json_text);
  if (!parsed.error.empty()) return Bad(origin, fmt::format("not valid JSON ({})", parsed.error));
  if (!parsed.duplicate.empty()) return Bad(origin, fmt::format("'{}' is given twice", parsed.duplicate));
  json doc = std::move(parsed.value);
  if (!doc.is_object()) return Bad(origin, "the file must hold one JSON object");
  auto skill = std::make_shared<UserSkill>();
  skill->origin_ = origin;
  SqlScan scan;
  std::string problem = ParseHeader(doc, *skill);
  if (problem.empty()) problem = ParseSql(doc, *skill, scan);
  if (problem.empty()) problem = ParseArgs(doc, *skill);
  if (problem.empty()) problem = CheckParams(scan, *skill);
  if (problem.empty()) problem = ParseExtras(doc, *skill);
  if (!problem.empty()) return Bad(origin, problem);
  return std::shared_ptr<const Skill>(std::move(skill));
}

UserSkillLoad LoadUserSkills(const std::vector<std::string>& dirs) {
  UserSkillLoad load;
  std::map<std::string, size_t> index_of_name;  // name -> position in load.skills
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string file = it->path().filename().string();
      if (file.size() > std::string(kSuffix).size() && file.ends_with(kSuffix)) files.push_back(it->path());
    }
    if (ec) {
      load.warnings.push_back(fmt::format("{}: cannot list the folder ({})", dir, ec.message()));
      continue;
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      const std::string origin = path.string();
      std::error_code size_ec;
      const auto size = fs::file_size(path, size_ec);
      if (size_ec || !fs::is_regular_file(path, size_ec)) {
        load.warnings.push_back(fmt::format("{}: not a readable file", origin));
        continue;
      }
      if (size > kMaxFileBytes) {
        load.warnings.push_back(
            fmt::format("{}: the file is {} bytes; skill files are limited to 1 MiB", origin, size));
        continue;
      }
      std::ifstream in(path, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      if (!in.good() && !in.eof()) {
        load.warnings.push_back(fmt::format("{}: cannot be read", origin));
        continue;
      }
      auto parsed = ParseUserSkill(buffer.str(), origin);
      if (!parsed) {
        load.warnings.push_back(parsed.error().message);
        continue;
      }
      const std::string name = parsed.value()->name();
      if (auto it = index_of_name.find(name); it != index_of_name.end()) {
        load.warnings.push_back(fmt::format("{}: skill '{}' replaces the one defined in {}", origin, name,
                                            UserSkillOrigin(*load.skills[it->second])));
        load.skills[it->second] = std::move(parsed.value());
      } else {
        index_of_name[name] = load.skills.size();
        load.skills.push_back(std::move(parsed.value()));
      }
    }
  }
  return load;
}

std::vector<std::string> DefaultUserSkillDirs() {
  std::vector<std::string> dirs;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    dirs.push_back((fs::path(xdg) / "nsys-ai" / "skills").string());
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dirs.push_back((fs::path(home) / ".config" / "nsys-ai" / "skills").string());
  }
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec) dirs.push_back((cwd / ".nsys-ai" / "skills").string());
  return dirs;
}

bool IsUserSkill(const Skill& skill) {
  return dynamic_cast<const UserSkill*>(&skill) != nullptr;
}

std::string UserSkillOrigin(const Skill& skill) {
  const auto* user = dynamic_cast<const UserSkill*>(&skill);
  return user ? user->origin_ : std::string();
}

}  // namespace nsys::skills
