// The clients call only methods the capability catalogue names (protocol/capabilities.h): every `nsys/` method named
// in a quoted string of the VS Code, Neovim and Jupyter clients' own sources is a row's editor method. A method
// renamed or removed on the server, or a typo in a client, fails here rather than as -32601 at run time. The clients'
// tests are left out: they call a method no server has on purpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nsys/protocol/capabilities.h"
#include "read_text.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// The `nsys/...` names quoted in the files below `dir` that end in one of `extensions`.
std::set<std::string> MethodsNamedIn(const fs::path& dir, const std::vector<std::string>& extensions) {
  static const std::regex quoted(R"re(['"](nsys/[A-Za-z]+)['"])re");
  std::set<std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "node_modules") {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (!it->is_regular_file() || std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) continue;
    const std::string text = ReadText(it->path());
    for (std::sregex_iterator m(text.begin(), text.end(), quoted), end; m != end; ++m) out.insert((*m)[1]);
  }
  return out;
}

TEST(ClientMethods, EveryMethodAClientCallsIsACapability) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const std::pair<fs::path, std::vector<std::string>> clients[] = {
      {root / "extensions/vscode/src", {".ts"}},
      {root / "extensions/nvim/lua", {".lua"}},
      {root / "extensions/jupyter/nsys_ai", {".py"}},
  };
  size_t named = 0;
  for (const auto& [dir, extensions] : clients) {
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    const std::set<std::string> methods = MethodsNamedIn(dir, extensions);
    EXPECT_FALSE(methods.empty()) << dir << " names no nsys/ method";
    named += methods.size();
    for (const std::string& method : methods) {
      EXPECT_NE(protocol::CapabilityOfMethod(method), nullptr)
          << dir << " calls " << method << ", which no row of protocol/src/capabilities.cpp names";
    }
  }
  EXPECT_GE(named, 20u);
}

// The scan itself: quoted names in either quote, not a name said in prose or a prefix alone.
TEST(ClientMethods, TheScanReadsQuotedMethodNames) {
  const fs::path dir = fs::temp_directory_path() / "nsys_ai_client_methods_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "node_modules");
  {
    std::ofstream(dir / "a.ts") << "client.request('nsys/openProfile', p); call(\"nsys/ask\"); // nsys/prose\n";
    std::ofstream(dir / "node_modules" / "b.ts") << "x('nsys/vendored')\n";
    std::ofstream(dir / "c.md") << "'nsys/notCode'\n";
  }
  EXPECT_EQ(MethodsNamedIn(dir, {".ts"}), (std::set<std::string>{"nsys/ask", "nsys/openProfile"}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace nsys::testing
