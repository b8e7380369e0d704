// The conformance harness: runs nsys (cached), parses its CSV, runs our skill and compares. See conformance.h.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "conformance.h"
#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"

namespace nsys::conformance {
namespace {

namespace fs = std::filesystem;

std::string NsysBinary() {
  if (const char* env = std::getenv("NSYS_BINARY"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/usr/local/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir) / "nsys";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Identity of a file for cache keys: size and modification time.
std::string Stamp(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  return std::to_string(size) + "-" + std::to_string(time);
}

std::string Sanitize(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return s;
}

// RFC 4180 CSV: quoted fields with doubled quotes and embedded commas/newlines. Empty records are dropped.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
      }
      record.clear();
      field.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

Reference ParseNsysOutput(const std::string& out) {
  Reference ref;
  std::string csv;
  std::stringstream lines(out);
  std::string line;
  bool in_csv = false;
  while (std::getline(lines, line)) {
    if (!in_csv && line.rfind("Processing [", 0) == 0) continue;
    if (!in_csv && line.rfind("SKIPPED:", 0) == 0) {
      ref.declined = true;
      ref.message = line;
      continue;
    }
    in_csv = in_csv || !line.empty();
    csv += line + "\n";
  }
  auto records = ParseCsv(csv);
  if (!records.empty()) {
    ref.headers = std::move(records.front());
    records.erase(records.begin());
    ref.rows = std::move(records);
  }
  return ref;
}

std::string Format(const Value& v) {
  if (IsNull(v)) return "None";
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    std::ostringstream o;
    o.precision(17);
    o << *d;
    return o.str();
  }
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  return "?";
}

// Compares one printed nsys cell with our value. Returns an empty string when they agree.
std::string CompareCell(const std::string& printed, const Value& ours, double scale) {
  if (printed == "None" || printed.empty()) return IsNull(ours) ? "" : "nsys has none, we have " + Format(ours);
  if (IsNull(ours)) return "we have none, nsys has " + printed;
  if (const auto* s = std::get_if<std::string>(&ours)) return *s == printed ? "" : "strings differ";
  double value;
  if (const auto* i = std::get_if<int64_t>(&ours)) {
    const bool printed_integer = printed.find_first_of(".eE") == std::string::npos;
    if (printed_integer && scale == 1.0) return std::to_string(*i) == printed ? "" : "integers differ";
    value = static_cast<double>(*i);
  } else if (const auto* d = std::get_if<double>(&ours)) {
    value = *d;
  } else {
    return "unexpected type";
  }
  char* end = nullptr;
  const double reference = std::strtod(printed.c_str(), &end);
  if (end == printed.c_str()) return "nsys printed a non-number";
  const size_t dot = printed.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
  const double tolerance = 0.5 * std::pow(10.0, -decimals) * (1 + 1e-9) + 1e-12 * std::fabs(reference);
  return std::fabs(value * scale - reference) <= tolerance ? "" : "numbers differ beyond the printed precision";
}

bool FixtureMatches(const KnownDifference& k, const std::string& fixture) {
  return k.fixture == "*" || k.fixture == fixture;
}

// This process's private copies of the fixtures, removed at exit.
const fs::path& WorkDir() {
  struct Dir {
    fs::path path = fs::temp_directory_path() / ("nsys-ai-conformance-work-" + std::to_string(::getpid()));
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

void Matrix(const Case& c, const std::string& fixture, const std::string& status) {
  std::cout << "[conformance] " << c.tool << " " << c.report << " ~ " << c.skill << " on " << fixture << ": " << status
            << std::endl;
}

}  // namespace

const std::vector<std::string>& AllFixtures() {
  static const std::vector<std::string> kFixtures = {
      "h100_2gpu_1s.sqlite",   "mfu_2gpu_before.sqlite",        "mfu_2gpu_after.sqlite",    "mock.sqlite",
      "a100_2proc_mpi.sqlite", "titanrtx_tensorrt_nvtx.sqlite", "h200_nvfuser_nvtx.sqlite", "v100_julia.sqlite",
      "empty_export.sqlite"};
  return kFixtures;
}

std::string SkillColumnName(const std::string& nsys_header) {
  std::string s = nsys_header;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{"(%)", "pct"}, {"(ns)", "ns"}}) {
    for (size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, from.size(), to);
  }
  std::string out;
  for (char c : s) {
    if (c == ' ') {
      if (!out.empty() && out.back() != '_') out += '_';
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      out += c;
    }
  }
  return out;
}

bool HaveNsys() {
  static const bool have = [] {
    const std::string nsys = NsysBinary();
    if (nsys.empty()) return false;
    return std::system(("'" + nsys + "' --version > /dev/null 2>&1").c_str()) == 0;
  }();
  return have;
}

Expected<Reference> RunNsys(const std::string& tool, const std::string& report, const std::string& fixture) {
  const std::string nsys = NsysBinary();
  if (nsys.empty()) return MakeError(ErrorKind::kNotFound, "nsys is not installed");
  const fs::path source = testing::Fixture(fixture);
  if (!fs::exists(source)) return MakeError(ErrorKind::kNotFound, "fixture " + fixture + " is absent");
  const fs::path cache_dir = fs::temp_directory_path() / "nsys-ai-conformance-cache" /
                             (Sanitize(fixture) + "-" + Stamp(source) + "-nsys-" + Stamp(fs::canonical(nsys)));
  const fs::path cached = cache_dir / (tool + "-" + Sanitize(report) + ".out");
  std::error_code ec;
  if (fs::exists(cached, ec)) return ParseNsysOutput(ReadFile(cached));

  // nsys may write next to its input: give it a private copy.
  const fs::path& work = WorkDir();
  fs::create_directories(work, ec);
  const fs::path copy = work / fixture;
  if (!fs::exists(copy)) {
    fs::copy_file(source, copy, fs::copy_options::overwrite_existing, ec);
    if (ec) return MakeError(ErrorKind::kInternal, "copying " + fixture + ": " + ec.message());
    fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write, ec);
  }
  const fs::path err_file = work / (tool + "-" + Sanitize(report) + ".err");
  const std::string flag = tool == "analyze" ? "--rule" : "--report";
  const std::string command = "'" + nsys + "' " + tool + " " + flag + " '" + report + "' --format csv --output - '" +
                              copy.string() + "' 2> '" + err_file.string() + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return MakeError(ErrorKind::kInternal, "cannot run " + command);
  std::string out;
  std::array<char, 65536> buffer;
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (status != 0) {
    return MakeError(ErrorKind::kInternal,
                     "`" + command + "` exited with status " + std::to_string(status) + ": " + ReadFile(err_file));
  }
  fs::create_directories(cache_dir, ec);
  const fs::path partial = cached.string() + "." + std::to_string(::getpid());
  std::ofstream(partial, std::ios::binary) << out;
  fs::rename(partial, cached, ec);  // atomic: concurrent test processes never read half a file
  return ParseNsysOutput(out);
}

std::string ParamName(const Case& c, const std::string& fixture) {
  return c.name + "__" + Sanitize(fs::path(fixture).stem().string());
}

namespace internal {
std::vector<std::pair<const Case*, std::string>> Expand(const std::vector<Case>& cases) {
  std::vector<std::pair<const Case*, std::string>> out;
  for (const Case& c : cases) {
    for (const std::string& f : c.fixtures.empty() ? AllFixtures() : c.fixtures) out.emplace_back(&c, f);
  }
  return out;
}
}  // namespace internal

void RunCase(const Case& c, const std::string& fixture) {
  if (!testing::HaveFixtures() || !fs::exists(testing::Fixture(fixture))) {
    GTEST_SKIP() << "fixture " << fixture << " not found under " << testing::FixturesDir();
  }
  if (!HaveNsys()) GTEST_SKIP() << "NVIDIA nsys is not installed (or NSYS_BINARY is not runnable): nothing to compare";
  auto ref_or = RunNsys(c.tool, c.report, fixture);
  ASSERT_TRUE(ref_or.ok()) << ref_or.error().message;
  const Reference& ref = *ref_or;

  std::set<std::string> known_columns;
  for (const auto& k : c.known_differences) {
    if (FixtureMatches(k, fixture)) known_columns.insert(k.column);
  }
  std::set<std::string> observed;  // known differences that did occur
  auto expect_known = [&](const std::string& column, const std::string& what) {
    if (known_columns.count(column)) {
      observed.insert(column);
      return;
    }
    ADD_FAILURE() << c.report << " vs " << c.skill << " on " << fixture << ": " << what;
  };

  engine::OpenOptions options;
  options.use_cache = false;
  auto profile = engine::Profile::Open(testing::Fixture(fixture), options);
  if (!profile) {
    if (ref.declined) {
      Matrix(c, fixture, "MATCH: both decline (nsys: " + ref.message + "; engine: refuses to open the file)");
      return;
    }
    FAIL() << "our engine cannot open " << fixture << " but nsys reports on it: " << profile.error().message;
  }
  skills::Registry registry;
  skills::RegisterBuiltins(registry);
  auto result = skills::RunByName(registry, c.skill, **profile, c.args);
  ASSERT_TRUE(result.ok()) << c.skill << " on " << fixture << ": " << result.error().message;
  const skills::Table& ours = *result;

  if (ref.declined || ours.declined) {
    if (ref.declined && ours.declined) {
      Matrix(c, fixture, "MATCH: both decline (" + ref.message + ")");
      return;
    }
    expect_known("*declined*", ref.declined ? "nsys declines (" + ref.message + ") but the skill returned a table"
                                            : "the skill declined (" + (ours.notes.empty() ? "" : ours.notes[0]) +
                                                  ") but nsys reports " + std::to_string(ref.rows.size()) + " rows");
    Matrix(c, fixture, "KNOWN DIFFERENCE: only one side declines");
    return;
  }

  // nsys prints no header at all when a rule finds nothing: zero rows.
  if (ref.headers.empty()) {
    if (ours.rows.empty()) {
      Matrix(c, fixture, "MATCH (0 rows)");
    } else {
      expect_known("*rows*", "nsys finds no rows but the skill returned " + std::to_string(ours.rows.size()));
      Matrix(c, fixture, "KNOWN DIFFERENCES: nsys has no rows, we have " + std::to_string(ours.rows.size()));
    }
    return;
  }

  // Column mapping.
  struct Mapped {
    size_t ref_index;
    int our_index;
    double scale;
    std::string header;
  };
  std::vector<Mapped> mapped;
  std::map<std::string, int> our_index_of;
  for (size_t i = 0; i < ours.columns.size(); ++i) our_index_of[ours.columns[i].name] = static_cast<int>(i);
  for (size_t h = 0; h < ref.headers.size(); ++h) {
    const std::string& header = ref.headers[h];
    ColumnSpec spec;
    if (auto it = c.columns.find(header); it != c.columns.end()) spec = it->second;
    if (spec.compare == Compare::kIgnore) continue;
    const std::string name = spec.skill_column.empty() ? SkillColumnName(header) : spec.skill_column;
    auto it = our_index_of.find(name);
    if (it == our_index_of.end()) {
      ADD_FAILURE() << c.skill << " has no column '" << name << "' for nsys's '" << header << "'";
      continue;
    }
    mapped.push_back({h, it->second, spec.scale, header});
  }
  std::vector<size_t> ref_keys;
  std::vector<int> our_keys;
  for (const std::string& key : c.key_columns) {
    auto m = std::find_if(mapped.begin(), mapped.end(), [&](const Mapped& x) { return x.header == key; });
    ASSERT_NE(m, mapped.end()) << "key column '" << key << "' is not in nsys's output of " << c.report;
    ref_keys.push_back(m->ref_index);
    our_keys.push_back(m->our_index);
  }
  auto ref_key = [&](const std::vector<std::string>& row) {
    std::string k;
    for (size_t i : ref_keys) k += (i < row.size() ? row[i] : std::string()) + '\x1f';
    return k;
  };
  auto our_key = [&](const std::vector<Value>& row) {
    std::string k;
    for (int i : our_keys) k += Format(row[static_cast<size_t>(i)]) + '\x1f';
    return k;
  };

  // Pair rows by key (a key may repeat: pairs are made in order).
  std::multimap<std::string, size_t> ours_by_key;
  for (size_t r = 0; r < ours.rows.size(); ++r) ours_by_key.emplace(our_key(ours.rows[r]), r);
  std::vector<std::string> missing;
  std::map<std::string, std::pair<int, std::string>> mismatches;  // header -> (count, first example)
  size_t matched = 0;
  for (const auto& row : ref.rows) {
    const std::string key = ref_key(row);
    auto it = ours_by_key.find(key);
    if (it == ours_by_key.end()) {
      missing.push_back(key);
      continue;
    }
    const auto& our_row = ours.rows[it->second];
    ours_by_key.erase(it);
    ++matched;
    for (const Mapped& m : mapped) {
      const std::string printed = m.ref_index < row.size() ? row[m.ref_index] : std::string();
      const std::string problem = CompareCell(printed, our_row[static_cast<size_t>(m.our_index)], m.scale);
      if (problem.empty()) continue;
      auto& entry = mismatches[m.header];
      if (entry.first++ == 0) {
        std::string printable_key = key;
        std::replace(printable_key.begin(), printable_key.end(), '\x1f', '|');
        entry.second = "row [" + printable_key.substr(0, 200) + "]: nsys " + printed + ", ours " +
                       Format(our_row[static_cast<size_t>(m.our_index)]) + " (" + problem + ")";
      }
    }
  }
  std::string status;
  if (!missing.empty() || !ours_by_key.empty()) {
    std::string example = !missing.empty()
                              ? "nsys row missing from ours: [" + missing.front().substr(0, 200) + "]"
                              : "our row missing from nsys: [" + ours_by_key.begin()->first.substr(0, 200) + "]";
    std::replace(example.begin(), example.end(), '\x1f', '|');
    expect_known("*rows*", std::to_string(missing.size()) + " nsys rows have no match and " +
                               std::to_string(ours_by_key.size()) + " of ours are extra; e.g. " + example);
    status += " rows differ (" + std::to_string(missing.size()) + " missing, " + std::to_string(ours_by_key.size()) +
              " extra);";
  }
  for (const auto& [header, entry] : mismatches) {
    expect_known(header, header + ": " + std::to_string(entry.first) + " of " + std::to_string(matched) +
                             " rows differ; first " + entry.second);
    status += " " + header + " differs in " + std::to_string(entry.first) + " rows;";
  }
  if (!c.order_by.empty()) {
    auto m = std::find_if(mapped.begin(), mapped.end(), [&](const Mapped& x) { return x.header == c.order_by; });
    ASSERT_NE(m, mapped.end()) << "order_by column '" << c.order_by << "' is not mapped";
    for (size_t r = 1; r < ours.rows.size(); ++r) {
      const Value& a = ours.rows[r - 1][static_cast<size_t>(m->our_index)];
      const Value& b = ours.rows[r][static_cast<size_t>(m->our_index)];
      if (IsNull(a) || IsNull(b)) continue;
      const double x =
          std::holds_alternative<int64_t>(a) ? static_cast<double>(std::get<int64_t>(a)) : std::get<double>(a);
      const double y =
          std::holds_alternative<int64_t>(b) ? static_cast<double>(std::get<int64_t>(b)) : std::get<double>(b);
      if (c.order_descending ? x < y : x > y) {
        ADD_FAILURE() << c.skill << " rows are not ordered by " << c.order_by << " at row " << r;
        break;
      }
    }
  }
  for (const auto& k : c.known_differences) {
    if (FixtureMatches(k, fixture) && k.fixture != "*" && !observed.count(k.column)) {
      ADD_FAILURE() << "listed known difference did not occur on " << fixture << " (" << k.column << ": " << k.reason
                    << "): remove it from the case table";
    }
  }
  if (status.empty()) {
    Matrix(c, fixture, "MATCH (" + std::to_string(matched) + " rows)");
  } else {
    std::string reasons;
    for (const auto& k : c.known_differences) {
      if (FixtureMatches(k, fixture) && observed.count(k.column)) reasons += " [" + k.column + ": " + k.reason + "]";
    }
    Matrix(c, fixture, (::testing::Test::HasFailure() ? "FAIL:" : "KNOWN DIFFERENCES:") + status + reasons);
  }
}

}  // namespace nsys::conformance
