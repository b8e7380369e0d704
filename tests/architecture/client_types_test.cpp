// The VS Code client's protocol types (extensions/vscode/src/protocol/types.ts) name only members the server knows:
// every member of every interface there must be a JSON name protocol/ reads or writes (a quoted name in its sources).
// A member renamed or removed on the server, or a typo in the client, fails here instead of reading as "absent" at
// run time. The client types only what it uses, so the other direction is not checked.
//
// For the protocol structs that list their members in WireFields() (nsys/protocol/wire_fields.h), that list is the
// source of truth: the types.ts interface that mirrors one (kMirrors below) declares only members of the list, all
// of them where the client types the whole shape, and marks optional every member the server may leave out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "nsys/protocol/analyze.h"
#include "nsys/protocol/annotation_plan.h"
#include "nsys/protocol/answer.h"
#include "nsys/protocol/ask.h"
#include "nsys/protocol/diff.h"
#include "nsys/protocol/documents.h"
#include "nsys/protocol/explain.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/nvtx_tree.h"
#include "nsys/protocol/sources.h"
#include "read_text.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

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
      const std::string text = ReadText(entry.path());
      for (std::sregex_iterator it(text.begin(), text.end(), quoted), last; it != last; ++it) names.insert((*it)[1]);
    }
  }
  return names;
}

TEST(ClientTypes, EveryVsCodeProtocolMemberIsANameTheServerKnows) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const std::string ts = ReadText(root / "extensions" / "vscode" / "src" / "protocol" / "types.ts");
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

// ---- The field lists against the client's interfaces -----------------------------------------------------------

// A struct's JSON members, each with whether the server may leave it out (a std::optional member).
using WireMembers = std::map<std::string, bool>;
template <typename T>
WireMembers MembersOf() {
  WireMembers members;
  std::apply([&](const auto&... field) { (members.emplace(field.name, protocol::MayBeOmitted(field)), ...); },
             T::WireFields());
  return members;
}

struct Mirror {
  std::string interface;  // in types.ts
  std::string type;       // the protocol struct, for messages
  WireMembers members;    // from its WireFields()
  bool whole;             // the client types every member, not only those it uses
};

// The types.ts interfaces that mirror a protocol struct with a field list. A client interface with another name
// maps by meaning (Device is nsys/profileInfo's DeviceInfo, DiffRow a DiffItem, Lsp* the LSP shapes).
std::vector<Mirror> Mirrors() {
  using namespace protocol;
  return {
      {"Device", "DeviceInfo", MembersOf<DeviceInfo>(), false},
      {"MappingCoverage", "MappingCoverage", MembersOf<MappingCoverage>(), true},
      {"SkillDescription", "SkillDescription", MembersOf<SkillDescription>(), true},
      {"ListSkillsResult", "ListSkillsResult", MembersOf<ListSkillsResult>(), true},
      {"Evidence", "Evidence", MembersOf<Evidence>(), true},
      {"Answer", "Answer", MembersOf<Answer>(), true},
      {"Finding", "Finding", MembersOf<Finding>(), true},
      {"AnalyzeResult", "AnalyzeResult", MembersOf<AnalyzeResult>(), false},
      {"ExplainKernelResult", "ExplainKernelResult", MembersOf<ExplainKernelResult>(), false},
      {"AskResult", "AskResult", MembersOf<AskResult>(), false},
      {"OpenInPerfettoResult", "OpenInPerfettoResult", MembersOf<OpenInPerfettoResult>(), true},
      {"ExportTraceResult", "ExportTraceResult", MembersOf<ExportTraceResult>(), false},
      {"NvtxTreeNode", "NvtxTreeNode", MembersOf<NvtxTreeNode>(), true},
      {"NvtxTreeResult", "NvtxTreeResult", MembersOf<NvtxTreeResult>(), true},
      {"FilterWindow", "Window", MembersOf<Window>(), true},
      {"DiffHeadline", "DiffHeadline", MembersOf<DiffHeadline>(), false},
      {"DiffRow", "DiffItem", MembersOf<DiffItem>(), false},
      {"DiffCounts", "DiffCounts", MembersOf<DiffCounts>(), true},
      {"DiffResult", "DiffResult", MembersOf<DiffResult>(), false},
      {"LspRange", "Range", MembersOf<Range>(), true},
      {"LspTextEdit", "TextEdit", MembersOf<TextEdit>(), true},
      {"LspWorkspaceEdit", "WorkspaceEdit", MembersOf<WorkspaceEdit>(), true},
      {"KernelSourceLocation", "KernelSourceShape", MembersOf<KernelSourceShape>(), true},
      {"KernelSourcesResult", "KernelSourcesResult", MembersOf<KernelSourcesResult>(), true},
      {"AnnotationPlanItem", "AnnotationPlanItem", MembersOf<AnnotationPlanItem>(), false},
      {"AnnotationPlanResult", "AnnotationPlanResult", MembersOf<AnnotationPlanResult>(), false},
  };
}

// Members the server declares std::optional only so that older results still parse, and always sends: the client
// may type them as present.
const std::set<std::string> kAlwaysSent = {
    "OpenInPerfettoResult.traceUrl", "OpenInPerfettoResult.sshHint",      "OpenInPerfettoResult.bytes",
    "OpenInPerfettoResult.sha256",   "OpenInPerfettoResult.showDocument", "ExportTraceResult.packets",
    "ExportTraceResult.tracks",      "ExportTraceResult.slices",          "ExportTraceResult.seconds",
    "ExportTraceResult.streamed",
    "ListSkillsResult.commonArgs",  // nsys/listSkills always sends it; only MCP's list_skills leaves it out
};

// interface -> its own members (not those of nested inline object types), each with whether it is optional (`?`).
std::map<std::string, WireMembers> ClientInterfaces(const std::string& ts) {
  std::map<std::string, WireMembers> interfaces;
  static const std::regex head(R"(export interface (\w+)(?: extends \w+)? \{)");
  static const std::regex comment(R"(/\*[\s\S]*?\*/|//[^\n]*)");
  static const std::regex member(R"((?:^|[{;\n])\s*(\w+)(\??)\s*:)");
  for (std::sregex_iterator it(ts.begin(), ts.end(), head), last; it != last; ++it) {
    std::string body;  // the interface's body with nested braces' contents blanked
    int depth = 1;
    for (size_t at = it->position() + it->length(); at < ts.size(); ++at) {
      depth += ts[at] == '{' ? 1 : ts[at] == '}' ? -1 : 0;
      if (depth == 0) break;
      body += depth == 1 || ts[at] == '\n' ? ts[at] : ' ';
    }
    body = std::regex_replace(body, comment, "");
    auto& members = interfaces[(*it)[1].str()];
    for (std::sregex_iterator m(body.begin(), body.end(), member); m != last; ++m) {
      members[(*m)[1].str()] = (*m)[2].length() > 0;
    }
  }
  return interfaces;
}

// What is wrong with `client` (the members types.ts declares) as a mirror of `server`: one line per problem.
std::vector<std::string> MirrorProblems(const Mirror& server, const WireMembers& client) {
  std::vector<std::string> problems;
  for (const auto& [name, optional] : client) {
    const std::string qualified = server.interface + "." + name;
    if (kClientOnly.count(qualified)) continue;
    const auto field = server.members.find(name);
    if (field == server.members.end()) {
      problems.push_back(qualified + " is not in " + server.type + "::WireFields()");
    } else if (field->second && !optional && !kAlwaysSent.count(qualified)) {
      problems.push_back(qualified + " is required in types.ts, but the server leaves it out when absent");
    }
  }
  for (const auto& [name, omitted] : server.members) {
    if (server.whole && !client.count(name)) {
      problems.push_back(server.interface + " does not declare " + server.type + "'s member " + name);
    }
  }
  return problems;
}

// The names types.ts takes from generated.ts (`import type { A, B } from './generated'`): the server's own shapes,
// rendered from its field lists (tests/protocol/client_declarations_test.cpp), mirrors by construction.
std::set<std::string> GeneratedImports(const std::string& ts) {
  std::set<std::string> names;
  static const std::regex import(R"(import type \{([^}]*)\} from './generated';)");
  static const std::regex name(R"(\w+)");
  for (std::sregex_iterator it(ts.begin(), ts.end(), import), last; it != last; ++it) {
    const std::string list = (*it)[1];
    for (std::sregex_iterator n(list.begin(), list.end(), name); n != last; ++n) names.insert(n->str());
  }
  return names;
}

TEST(ClientTypes, InterfacesMirrorTheFieldListsOfTheirStructs) {
  const fs::path root = NSYS_AI_SOURCE_DIR;
  const std::string ts = ReadText(root / "extensions" / "vscode" / "src" / "protocol" / "types.ts");
  const auto interfaces = ClientInterfaces(ts);
  const auto generated = GeneratedImports(ts);
  EXPECT_TRUE(generated.count("MappingCoverage")) << "types.ts takes no shape from generated.ts";
  for (const Mirror& mirror : Mirrors()) {
    if (generated.count(mirror.interface)) {
      EXPECT_FALSE(interfaces.count(mirror.interface)) << mirror.interface << " is both generated and written again";
      continue;
    }
    const auto client = interfaces.find(mirror.interface);
    ASSERT_NE(client, interfaces.end()) << "types.ts has no interface " << mirror.interface;
    for (const auto& problem : MirrorProblems(mirror, client->second)) ADD_FAILURE() << problem;
  }
}

TEST(ClientTypes, MirrorProblemsNameTheMember) {
  const Mirror server{"A", "S", {{"x", false}, {"y", true}}, true};
  EXPECT_TRUE(MirrorProblems(server, {{"x", false}, {"y", true}}).empty());
  EXPECT_TRUE(MirrorProblems(server, {{"x", true}, {"y", true}}).empty());  // the client may tolerate absence
  EXPECT_EQ(MirrorProblems(server, {{"x", false}, {"y", false}}),
            std::vector<std::string>{"A.y is required in types.ts, but the server leaves it out when absent"});
  EXPECT_EQ(MirrorProblems(server, {{"x", false}, {"y", true}, {"z", false}}),
            std::vector<std::string>{"A.z is not in S::WireFields()"});
  EXPECT_EQ(MirrorProblems(server, {{"y", true}}), std::vector<std::string>{"A does not declare S's member x"});
  EXPECT_EQ(ClientInterfaces("export interface B {\n  q?: { w: string };\n  r: number;\n}\n"),
            (std::map<std::string, WireMembers>{{"B", {{"q", true}, {"r", false}}}}));
}

}  // namespace
}  // namespace nsys::testing
