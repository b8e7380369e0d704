// The VS Code client's protocol types (extensions/vscode/src/protocol/types.ts) name only members the server knows:
// every member of every interface there must be a JSON name protocol/ reads or writes (a quoted name in its sources).
// A member renamed or removed on the server, or a typo in the client, fails here instead of reading as "absent" at
// run time. The client types only what it uses, so the other direction is not checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadFileText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Members the client declares that the server never sends, each with why the client still has it.
const std::map<std::string, std::string> kClientOnly = {
    {"LspWorkspaceEdit.documentChanges", "the other standard LSP form of an edit; the server sends `changes`"},
    {"LspWorkspaceEdit.edits", "a member of documentChanges' elements (above)"},
};

// "Interface.member" for every member of every `export interface` (nested inline object types included), without
// comments.
std::set<std::string> ClientMembers(const std::string& ts) {
  std::set<std::string> members;
  static const std::regex head(R"(export interface (\w+)(?: extends \w+)? \{)");
  static const std::regex comment(R"(/\*[\s\S]*?\*/|//[^\n]*)");
  static const std::regex member(R"((?:^|[{;\n])\s*(\w+)\??\s*:)");
  for (std::sregex_iterator it(ts.begin(), ts.end(), head), last; it != last; ++it) {
    size_t at = it->position() + it->length();
    int depth = 1;
    const size_t begin = at;
    while (at < ts.size() && depth > 0) {
      depth += ts[at] == '{' ? 1 : ts[at] == '}' ? -1 : 0;
      ++at;
    }
    const std::string body = std::regex_replace(ts.substr(begin, at - begin - 1), comment, "");
    for (std::sregex_iterator m(body.begin(), body.end(), member); m != last; ++m) {
      members.insert((*it)[1].str() + "." + (*m)[1].str());
    }
  }
  return members;
}

// Every quoted identifier of protocol/'s sources: the JSON names its readers and writers use.
std::set<std::string> ProtocolNames(const fs::path& root) {
  std::set<std::string> names;
  static const std::regex quoted(R"re("([A-Za-z_$][A-Za-z0-9_$]*)")re");
  for (const auto& dir : {root / "protocol" / "src", root / "protocol" / "include" / "nsys" / "protocol"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string text = ReadFileText(entry.path());
      for (std::sregex_iterator it(text.begin(), text.end(), quoted), last; it != last; ++it) names.insert((*it)[1]);
    }
  }
  return names;
}

TEST(ClientTypes, EveryVsCodeProtocolMemberIsANameTheServerKnows) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const std::string ts = ReadFileText(root / "extensions" / "vscode" / "src" / "protocol" / "types.ts");
  ASSERT_FALSE(ts.empty()) << "extensions/vscode/src/protocol/types.ts is missing";
  const auto members = ClientMembers(ts);
  ASSERT_GT(members.size(), 150u) << "too few interface members read from types.ts";
  const auto names = ProtocolNames(root);
  for (const auto& qualified : members) {
    const std::string name = qualified.substr(qualified.find('.') + 1);
    if (kClientOnly.count(qualified)) {
      EXPECT_FALSE(names.count(name)) << qualified << " is now known to protocol/: remove it from kClientOnly";
      continue;
    }
    EXPECT_TRUE(names.count(name)) << "types.ts declares " << qualified
                                   << ", a name protocol/ neither reads nor writes";
  }
}

TEST(ClientTypes, MembersAreReadWithTheirInterface) {
  const auto members = ClientMembers(
      "export interface A {\n  x: number;\n  /** y: no */\n  z?: { w: string; v?: number } | null;\n}\n"
      "export interface B extends A {\n  q: A[];\n}\n");
  EXPECT_EQ(members, (std::set<std::string>{"A.x", "A.z", "A.w", "A.v", "B.q"}));
}

}  // namespace
}  // namespace nsys::testing
