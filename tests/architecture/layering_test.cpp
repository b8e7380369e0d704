// The layering of docs/architecture.md, checked on the source: every #include of a project header or of a library
// that belongs to one layer (asio, nlohmann_json, SQLite, libcurl) must point to a layer the including directory may
// depend on, and every permission of the table is used by some include (a permission nothing uses is removed, so
// the table says what the code does). A break that cannot be fixed at once would be listed in kKnownViolations with
// its reason; a listed one that no longer occurs fails, so that list only shrinks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// A source directory (relative to the repository root) and the layer its files belong to.
struct Dir {
  std::string path;
  std::string layer;
};
const std::vector<Dir> kDirs = {
    {"server/support", "support"},     {"protocol", "protocol"},    {"server/engine", "engine"},
    {"server/trace", "trace"},         {"skills", "skills"},        {"server/core", "core"},
    {"server/wire", "wire"},           {"server/lsp", "lsp"},       {"server/mcp", "mcp"},
    {"server/transport", "transport"}, {"server/cli", "cli"},       {"server/llm", "llm"},
    {"server/agent", "agent"},         {"server/source", "source"}, {"server/mpi", "mpi"},
};

// What each layer may include besides itself. The faces (lsp, mcp, cli) reach the vocabulary types (Expected,
// CancelToken, ProgressSink) through support/ and the engine only through core and wire. transport drives the LSP
// session (it is the server's outer shell), and the CLI's `serve` and `mcp` commands start those two faces: that is
// composition in main(), not one face calling into another.
const std::map<std::string, std::set<std::string>> kAllowed = {
    {"support", {"nlohmann"}},  // json_parse.h: the one bounded parse of untrusted JSON, for protocol and llm alike
    {"source", {"support"}},    // the annotation index of a source tree: scanners and the walk, no profiles
    {"protocol", {"support", "nlohmann"}},
    {"engine", {"support", "sqlite3"}},
    {"trace", {"support", "engine"}},
    {"skills", {"support", "engine", "nlohmann"}},  // nlohmann to read *.skill.json files and the phases skill's map
    {"llm", {"support", "nlohmann", "curl"}},       // LLM wire formats are JSON over libcurl; knows nothing of profiles
    {"agent", {"support", "engine", "skills", "llm", "nlohmann"}},  // nlohmann to read the Book of Root Causes
    {"core", {"support", "skills", "trace", "engine", "agent", "llm", "source"}},  // source: source sets and edits
    {"wire", {"support", "core", "protocol", "engine", "skills", "agent", "llm"}},
    {"lsp", {"support", "core", "wire", "protocol", "agent"}},
    {"mcp", {"support", "core", "wire", "protocol"}},
    {"transport", {"support", "lsp", "core", "protocol", "asio"}},
    {"mpi", {"support", "core", "skills"}},  // jobs over MPI processes (mpi_job.h): core's job halves, gathered
    {"cli", {"support", "core", "wire", "engine", "agent", "transport", "mcp", "mpi", "asio"}},  // engine: WindowSpec
};

// Known breaks of the rules, as "file -> layer". Empty: a break must be fixed, or listed here with the reason it
// cannot be yet (a listed break that stops occurring fails the test).
const std::set<std::string> kKnownViolations = {};

// The layer an include names, or "" for the standard library, GoogleTest and files of the same directory.
std::string LayerOfInclude(const std::string& target) {
  static const std::regex project(R"(^nsys/([a-z_]+)/)");
  std::smatch m;
  if (std::regex_search(target, m, project)) return m[1];
  if (target.rfind("asio", 0) == 0) return "asio";
  if (target.rfind("nlohmann/", 0) == 0) return "nlohmann";
  if (target == "sqlite3.h") return "sqlite3";
  if (target.rfind("curl/", 0) == 0) return "curl";
  return "";
}

// "file -> layer" for every include of `dir` that its layer may not make, and "layer -> layer" for every permission
// an include uses. Unreadable trees give no entries, so the caller also checks that the scan saw files.
void Scan(const fs::path& root, const Dir& dir, std::set<std::string>& violations, std::set<std::string>& used,
          size_t& files) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^">]+)[">])");
  const auto& allowed = kAllowed.at(dir.layer);
  for (const auto& entry : fs::recursive_directory_iterator(root / dir.path)) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string layer = LayerOfInclude(m[1]);
      if (layer.empty() || layer == dir.layer) continue;
      if (allowed.count(layer)) {
        used.insert(dir.layer + " -> " + layer);
        continue;
      }
      violations.insert(fs::relative(entry.path(), root).generic_string() + " -> " + layer);
    }
  }
}

TEST(Layering, EveryIncludePointsToAnAllowedLayer) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  std::set<std::string> violations;
  std::set<std::string> used;
  size_t files = 0;
  for (const auto& dir : kDirs) Scan(root, dir, violations, used, files);
  ASSERT_GT(files, 120u) << "the scan found too few source files under " << root;
  for (const auto& [layer, allowed] : kAllowed) {
    for (const auto& target : allowed) {
      EXPECT_TRUE(used.count(layer + " -> " + target))
          << "kAllowed lets " << layer << " include " << target << ", which no include does: remove the permission";
    }
  }
  for (const auto& v : violations) {
    EXPECT_TRUE(kKnownViolations.count(v))
        << "layering violation: " << v << " (docs/architecture.md, 'Layers', says which layer may include which)";
  }
  for (const auto& known : kKnownViolations) {
    EXPECT_TRUE(violations.count(known)) << "'" << known << "' no longer occurs: remove it from kKnownViolations in "
                                         << __FILE__;
  }
}

// The project's headers under */include/, by the name an #include gives them ("nsys/agent/explain_llm.h"), and the
// names each includes as written ("nlohmann/json.hpp" for a library's).
struct Headers {
  std::map<std::string, std::vector<std::string>> includes;
  explicit Headers(const fs::path& root) {
    const std::regex include(R"re(#include\s*[<"]([^>"]+)[>"])re");
    for (const char* base : {"server", "protocol", "skills"}) {
      for (const auto& entry : fs::recursive_directory_iterator(root / base)) {
        const std::string path = entry.path().generic_string();
        const size_t at = path.find("/include/nsys/");
        if (!entry.is_regular_file() || at == std::string::npos) continue;
        std::vector<std::string>& out = includes[path.substr(at + 9)];
        std::ifstream in(entry.path());
        for (std::string line; std::getline(in, line);) {
          std::smatch m;
          if (std::regex_search(line, m, include)) out.push_back(m[1]);
        }
      }
    }
  }
  // Every name `header` reaches through its includes, itself too.
  std::set<std::string> Closure(const std::string& header) const {
    std::set<std::string> reached{header};
    std::vector<std::string> todo{header};
    while (!todo.empty()) {
      const auto it = includes.find(todo.back());
      todo.pop_back();
      if (it == includes.end()) continue;
      for (const std::string& name : it->second) {
        if (reached.insert(name).second) todo.push_back(name);
      }
    }
    return reached;
  }
};

// Every face includes workspace.h: nlohmann's JSON must not come in with it (issue 40: core's API is plain structs;
// JSON is the faces' own business, through protocol/ and wire/). Each way it comes in is an include, by one of core's
// headers, of a header outside core whose closure holds nlohmann. None is left: the conversations (llm::Message, whose
// tool calls carry their JSON arguments) are held by pointer. A way listed here would need its reason, and a listed
// way that no longer occurs fails, so the list only shrinks.
const std::set<std::string> kKnownJsonEntries = {};
TEST(Layering, TheWorkspaceHeaderBringsNoJsonLibrary) {
  const Headers headers(NSYS_AI_SOURCE_DIR);
  const std::set<std::string> closure = headers.Closure("nsys/core/workspace.h");
  ASSERT_GT(closure.size(), 20u) << "the closure found too few headers under " << NSYS_AI_SOURCE_DIR;
  const auto json = [&](const std::string& name) {
    const std::set<std::string> c = headers.Closure(name);
    return std::any_of(c.begin(), c.end(), [](const std::string& n) { return n.rfind("nlohmann/", 0) == 0; });
  };
  std::set<std::string> entries;
  for (const std::string& h : closure) {
    if (h.rfind("nsys/core/", 0) != 0 || !headers.includes.count(h)) continue;
    for (const std::string& name : headers.includes.at(h)) {
      if (name.rfind("nsys/core/", 0) != 0 && json(name)) entries.insert(h + " -> " + name);
    }
  }
  for (const auto& entry : entries) {
    EXPECT_TRUE(kKnownJsonEntries.count(entry)) << "workspace.h brings nlohmann's JSON in through " << entry;
  }
  for (const auto& known : kKnownJsonEntries) {
    EXPECT_TRUE(entries.count(known)) << "'" << known << "' no longer brings JSON in: remove it from kKnownJsonEntries";
  }
}

TEST(Layering, TheLayerTableCoversEveryServerDirectory) {
  // A new directory under server/ must be given a layer, or its includes would go unchecked.
  const fs::path root = NSYS_AI_SOURCE_DIR;
  std::set<std::string> known;
  for (const auto& dir : kDirs) known.insert(dir.path);
  for (const auto& entry : fs::directory_iterator(root / "server")) {
    if (!entry.is_directory()) continue;
    const std::string path = "server/" + entry.path().filename().string();
    bool has_sources = false;
    for (const auto& f : fs::recursive_directory_iterator(entry.path())) {
      has_sources |= f.path().extension() == ".cpp" || f.path().extension() == ".h";
    }
    if (has_sources) EXPECT_TRUE(known.count(path)) << path << " has no layer in kDirs";
  }
}

TEST(Layering, LayerOfIncludeNamesLibrariesAndProjectLayers) {
  EXPECT_EQ(LayerOfInclude("nsys/core/workspace.h"), "core");
  EXPECT_EQ(LayerOfInclude("asio.hpp"), "asio");
  EXPECT_EQ(LayerOfInclude("asio/ip/tcp.hpp"), "asio");
  EXPECT_EQ(LayerOfInclude("nlohmann/json.hpp"), "nlohmann");
  EXPECT_EQ(LayerOfInclude("sqlite3.h"), "sqlite3");
  EXPECT_EQ(LayerOfInclude("curl/curl.h"), "curl");
  EXPECT_EQ(LayerOfInclude("vector"), "");
  EXPECT_EQ(LayerOfInclude("sqlite_db.h"), "");
}

}  // namespace
}  // namespace nsys::testing
