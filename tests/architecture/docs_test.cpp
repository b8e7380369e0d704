// The docs a reader trusts stay true: every path docs/architecture.md's code map names exists, and the README's verb
// list names every `nsys-ai` subcommand the CLI registers (read from server/cli's `command.name = "..."` lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "read_text.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// "a/{b,c}.h" -> "a/b.h", "a/c.h" (one brace group at most, as the map writes them).
std::vector<std::string> ExpandBraces(const std::string& path) {
  const size_t open = path.find('{');
  const size_t close = path.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {path};
  std::vector<std::string> out;
  std::stringstream choices(path.substr(open + 1, close - open - 1));
  for (std::string choice; std::getline(choices, choice, ',');) {
    out.push_back(path.substr(0, open) + choice + path.substr(close + 1));
  }
  return out;
}

// Whether `path` (relative to `root`; its last component may hold one '*') names at least one file or directory.
bool Exists(const fs::path& root, const std::string& path) {
  const size_t star = path.find('*');
  if (star == std::string::npos) return fs::exists(root / path);
  const fs::path dir = root / fs::path(path).parent_path();
  const std::string name = fs::path(path).filename().string();
  const size_t at = name.find('*');
  if (at == std::string::npos || !fs::is_directory(dir)) return false;
  const std::string prefix = name.substr(0, at);
  const std::string suffix = name.substr(at + 1);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.size() >= prefix.size() + suffix.size() && file.rfind(prefix, 0) == 0 &&
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  }
  return false;
}

// The backticked paths of the first column of the "## Code map" table.
std::vector<std::string> CodeMapPaths(const std::string& doc) {
  std::vector<std::string> paths;
  const size_t start = doc.find("\n## Code map\n");
  if (start == std::string::npos) return paths;
  const size_t end = doc.find("\n## ", start + 1);
  std::stringstream body(doc.substr(start, end - start));
  static const std::regex tick("`([^`]+)`");
  for (std::string line; std::getline(body, line);) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| where", 0) == 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    for (std::sregex_iterator it(cell.begin(), cell.end(), tick), last; it != last; ++it) paths.push_back((*it)[1]);
  }
  return paths;
}

TEST(Docs, EveryPathOfTheCodeMapExists) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const auto paths = CodeMapPaths(ReadText(root / "docs" / "architecture.md"));
  ASSERT_GT(paths.size(), 40u) << "docs/architecture.md has no '## Code map' table with `paths` in its first column";
  for (const auto& path : paths) {
    for (const auto& one : ExpandBraces(path)) {
      EXPECT_TRUE(Exists(root, one)) << "docs/architecture.md's code map names '" << one
                                     << "', which does not exist (write paths from the repository root)";
    }
  }
}

// Every C++ file's own name a comment or a doc gives (`ask_parse.cpp`, `protocol/answer.h`, `server/agent/analyze.h`,
// `skills/builtin/event_stats.cpp`) names a file of the repository: a comment that sends a reader to a file that was
// renamed or removed is false. A name is found as written from the root, as a module's public header
// (`protocol/answer.h` for protocol/include/nsys/protocol/answer.h, `server/agent/analyze.h` for
// server/agent/include/nsys/agent/analyze.h), or, said alone, by its file name anywhere. Names of other projects'
// files (`nvtx3/nvtx3.hpp`, Perfetto's `gpu/...proto`) start with no directory of ours and are not checked; a name
// after a placeholder (`<area>_handlers.cpp`, `cmd_*.cpp`) is a pattern.
TEST(Docs, EveryFileACommentNamesExists) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  std::set<std::string> paths, names;
  const std::vector<std::string> scanned = {"server", "skills",     "protocol", "tests",
                                            "docs",   "extensions", "scripts",  "examples"};
  for (const auto& top : scanned) {
    for (auto it = fs::recursive_directory_iterator(root / top); it != fs::recursive_directory_iterator(); ++it) {
      const auto& entry = *it;
      if (entry.is_directory() && (entry.path().filename() == "node_modules" || entry.path().filename() == "out")) {
        it.disable_recursion_pending();  // the clients' dependencies and build output are no files of ours
        continue;
      }
      if (!entry.is_regular_file()) continue;
      paths.insert(fs::relative(entry.path(), root).generic_string());
      names.insert(entry.path().filename().string());
    }
  }
  const std::set<std::string> ours = {"server",     "skills",    "protocol", "tests",  "agent",  "core",
                                      "wire",       "lsp",       "mcp",      "cli",    "engine", "support",
                                      "trace",      "transport", "llm",      "source", "mpi",    "nsys",
                                      "extensions", "scripts",   "examples", "docs"};
  const std::set<std::string> other_projects = {"llama.cpp"};  // a project (llama.cpp's server), not a file
  const auto found = [&](const std::string& t) {
    if (t.find('/') == std::string::npos) return names.count(t) > 0 || other_projects.count(t) > 0;
    if (!ours.count(t.substr(0, t.find('/')))) return true;  // another project's path
    if (paths.count(t)) return true;
    const fs::path p(t);
    const std::string module = p.parent_path().filename().string();
    if (paths.count((p.parent_path() / "include" / "nsys" / module / p.filename()).generic_string())) return true;
    // An include path ("nsys/support/json_parse.h"), or a module's header by its module ("protocol/answer.h").
    const std::string suffix = (t.rfind("nsys/", 0) == 0 ? "/" : "/nsys/") + t;
    return std::any_of(paths.begin(), paths.end(), [&](const std::string& x) {
      return x.size() > suffix.size() && x.compare(x.size() - suffix.size(), suffix.size(), suffix) == 0;
    });
  };
  static const std::regex file(R"(([<*]?)([A-Za-z0-9_./-]+\.(?:cpp|h|hpp))\b)");
  size_t checked = 0;
  for (const auto& rel : paths) {
    const fs::path path = root / rel;
    if (path.extension() != ".cpp" && path.extension() != ".h") continue;
    std::ifstream in(path);
    size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const size_t comment = line.find("//");
      if (comment == std::string::npos) continue;
      const std::string text = line.substr(comment);
      for (std::sregex_iterator it(text.begin(), text.end(), file), last; it != last; ++it) {
        const std::string before = (*it)[1];
        std::string name = (*it)[2];
        const size_t start = static_cast<size_t>(it->position(2));
        if (!before.empty() || (start > 0 && (text[start - 1] == '>' || text[start - 1] == '*'))) continue;
        while (!name.empty() && (name.front() == '.' || name.front() == '/')) name.erase(0, 1);
        if (name.find('*') != std::string::npos || name.empty()) continue;
        ++checked;
        EXPECT_TRUE(found(name)) << rel << ":" << number << " names '" << name << "', which is no file here";
      }
    }
  }
  EXPECT_GT(checked, 200u) << "the comments' file names were not read";
  // The docs a reader follows: the README, docs/ and each client's README, every file name they give. A name is
  // found as in a comment, or from the doc's own directory (a client's README names its own tests).
  static const std::regex doc_file(R"(([<*]?)([A-Za-z0-9_./-]+\.(?:cpp|h|hpp|md|ts|lua|py|mjs))\b)");
  std::vector<std::string> docs = {"README.md"};
  for (const auto& rel : paths) {
    if (fs::path(rel).extension() == ".md" && rel.find("/node_modules/") == std::string::npos &&
        (rel.rfind("docs/", 0) == 0 || rel.rfind("extensions/", 0) == 0 || rel.rfind("examples/", 0) == 0))
      docs.push_back(rel);
  }
  size_t doc_names = 0;
  for (const auto& rel : docs) {
    const std::string text = ReadText(root / rel);
    for (std::sregex_iterator it(text.begin(), text.end(), doc_file), last; it != last; ++it) {
      std::string name = (*it)[2];
      const size_t start = static_cast<size_t>(it->position(2));
      if (!std::string((*it)[1]).empty() || (start > 0 && (text[start - 1] == '>' || text[start - 1] == '*'))) continue;
      while (!name.empty() && (name.front() == '.' || name.front() == '/')) name.erase(0, 1);
      if (name.find('*') != std::string::npos || name.empty()) continue;
      ++doc_names;
      const fs::path own = fs::path(rel).parent_path() / name;
      // The shared material's tools (../shared/tools, beside the clone in CI too), and names that are no file of
      // ours by design: Open MPI's header, the placeholder pair of a rule, a user's script in a screenshot's caption.
      const bool elsewhere = fs::exists(root / ".." / "shared" / "tools" / name) ||
                             std::set<std::string>{"mpi.h", "foo.cpp", "foo.h", "eval_models.py"}.count(name) > 0;
      EXPECT_TRUE(found(name) || paths.count(own.lexically_normal().generic_string()) ||
                  fs::exists(root / "server" / name) || elsewhere)
          << rel << " names '" << name << "', which is no file here";
    }
  }
  EXPECT_GT(doc_names, 100u) << "the docs' file names were not read";
}

// The CLI's subcommands by their first word ("skill run" -> "skill"), as server/cli registers them, and their
// aliases (`command.aliases = {"open"}`), which the README may list too.
std::set<std::string> CliVerbs(const fs::path& cli, std::set<std::string>* aliases = nullptr) {
  std::set<std::string> verbs;
  static const std::regex name(R"(command\.name = "([a-z-]+))");
  static const std::regex alias_list(R"(command\.aliases = \{([^}]*)\})");
  static const std::regex quoted(R"re("([a-z-]+)")re");
  for (const auto& entry : fs::directory_iterator(cli)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = ReadText(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), name), last; it != last; ++it) verbs.insert((*it)[1]);
    if (aliases == nullptr) continue;
    for (std::sregex_iterator it(text.begin(), text.end(), alias_list), last; it != last; ++it) {
      const std::string list = (*it)[1];
      for (std::sregex_iterator a(list.begin(), list.end(), quoted); a != last; ++a) aliases->insert((*a)[1]);
    }
  }
  return verbs;
}

TEST(Docs, TheReadmeListsEveryCliVerb) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const std::string readme = ReadText(root / "README.md");
  static const std::regex list(R"(`nsys-ai ([a-z|-]+) \.\.\.`)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(readme, m, list)) << "README.md has no '`nsys-ai verb|verb|... ...`' list";
  std::set<std::string> listed;
  std::stringstream names(m[1].str());
  for (std::string verb; std::getline(names, verb, '|');) listed.insert(verb);
  std::set<std::string> aliases;
  const auto verbs = CliVerbs(root / "server" / "cli", &aliases);
  ASSERT_GT(verbs.size(), 10u) << "no `command.name = \"...\"` found under server/cli";
  for (const auto& verb : verbs) {
    EXPECT_TRUE(listed.count(verb)) << "README.md's verb list lacks '" << verb << "'";
  }
  for (const auto& verb : listed) {
    EXPECT_TRUE(verbs.count(verb) || aliases.count(verb)) << "README.md lists '" << verb << "', no command or alias";
  }
}

TEST(Docs, BracesAndStarsResolve) {
  EXPECT_EQ(ExpandBraces("a/{h,cpp}"), (std::vector<std::string>{"a/h", "a/cpp"}));
  const fs::path root = NSYS_AI_SOURCE_DIR;
  EXPECT_TRUE(Exists(root, "skills/builtin/job_*.cpp"));
  EXPECT_FALSE(Exists(root, "skills/builtin/nothing_*.cpp"));
}

}  // namespace
}  // namespace nsys::testing
