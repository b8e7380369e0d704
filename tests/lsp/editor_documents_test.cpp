// The report document and its editor features through the dispatcher on real fixtures: nsys/report's spans point at the
// kernel names and findings in its text; textDocument/hover there answers the kernel's explanation (or the finding),
// null elsewhere; the document notifications are accepted; nsys/analyze publishes its findings as diagnostics (on the
// file and the report) and nsys/closeProfile clears them; initializationOptions.llm is checked and routes nsys/ask.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "in_memory_client.h"
#include "llm/standin.h"
#include "nsys/protocol/documents.h"

namespace nsys::testing {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

class EditorDocuments : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    client_ = std::make_unique<InMemoryClient>(InMemoryClient::Options{});
    init_ = client_->Initialize();
    const Json open =
        client_->AwaitReply(client_->Request("nsys/openProfile", {{"path", Fixture("mfu_2gpu_before.sqlite")}}));
    ASSERT_TRUE(open.contains("result")) << open.dump();
    id_ = open["result"]["profileId"];
  }
  Json Report() {
    const Json reply = client_->AwaitReply(client_->Request("nsys/report", {{"profileId", id_}}));
    EXPECT_TRUE(reply.contains("result")) << reply.dump();
    return reply.value("result", Json::object());
  }
  Json Hover(const std::string& uri, int64_t line, int64_t character) {
    return client_->AwaitReply(
        client_->Request("textDocument/hover",
                         {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}}));
  }
  std::unique_ptr<InMemoryClient> client_;
  Json init_;
  std::string id_;
};

TEST_F(EditorDocuments, CapabilitiesAnnounceHoverAndDocumentSync) {
  const Json& caps = init_["result"]["capabilities"];
  EXPECT_EQ(caps["hoverProvider"], true) << caps.dump();
  EXPECT_EQ(caps["textDocumentSync"], Json({{"openClose", true}, {"change", 1}})) << caps.dump();
  const Json& methods = caps["experimental"]["nsysMethods"];
  EXPECT_NE(std::find(methods.begin(), methods.end(), "nsys/report"), methods.end());
}

TEST_F(EditorDocuments, ReportSpansPointAtKernelNamesAndHoverExplainsThem) {
  const Json report = Report();
  EXPECT_EQ(report["uri"], "nsys-report://" + id_ + "/report.md");
  const std::vector<std::string> lines = Lines(report["text"]);
  ASSERT_EQ(report["kernels"].size(), 15u);
  for (const Json& span : report["kernels"]) {
    const std::string& line = lines.at(span["line"].get<size_t>());
    EXPECT_EQ(line.substr(span["character"], span["length"]), span["name"].get<std::string>()) << line;
  }
  // The first kernel row is the kernel with the most GPU time: top_kernels' first row.
  const Json top = client_->AwaitReply(
      client_->Request("nsys/runSkill", {{"profileId", id_}, {"skill", "top_kernels"}, {"args", {{"limit", 1}}}}));
  ASSERT_TRUE(top.contains("result")) << top.dump();
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < top["result"]["columns"].size(); ++c) col[top["result"]["columns"][c]["name"]] = c;
  const Json& first = report["kernels"][0];
  EXPECT_EQ(first["name"], top["result"]["rows"][0][col.at("name")]);
  EXPECT_NE(lines.at(first["line"].get<size_t>())
                .find(std::to_string(top["result"]["rows"][0][col.at("instances")].get<int64_t>())),
            std::string::npos);

  // Hover in the middle of the name: that kernel's explanation, over the span.
  const int64_t mid = first["character"].get<int64_t>() + first["length"].get<int64_t>() / 2;
  const Json hover = Hover(report["uri"], first["line"], mid);
  ASSERT_TRUE(hover.contains("result")) << hover.dump();
  ASSERT_TRUE(hover["result"].is_object()) << hover.dump();
  EXPECT_EQ(hover["result"]["contents"]["kind"], "markdown");
  const Json explain =
      client_->AwaitReply(client_->Request("nsys/explainKernel", {{"profileId", id_}, {"kernel", first["name"]}}));
  ASSERT_TRUE(explain.contains("result")) << explain.dump();
  EXPECT_EQ(hover["result"]["contents"]["value"], explain["result"]["markdown"]);
  EXPECT_EQ(hover["result"]["range"]["start"], Json({{"line", first["line"]}, {"character", first["character"]}}));
  EXPECT_EQ(hover["result"]["range"]["end"]["character"],
            first["character"].get<int64_t>() + first["length"].get<int64_t>());

  // Null elsewhere: the title line, just before the name, another uri.
  EXPECT_TRUE(Hover(report["uri"], 0, 2)["result"].is_null());
  EXPECT_TRUE(Hover(report["uri"], first["line"], first["character"].get<int64_t>() - 1)["result"].is_null());
  EXPECT_TRUE(Hover("file:///tmp/x.py", 0, 0)["result"].is_null());
  EXPECT_TRUE(Hover("nsys-report://p999/report.md", first["line"], mid)["result"].is_null());

  // Findings: spans over "rootCause: title", hover gives the finding's Markdown.
  for (const Json& span : report["findings"]) {
    const std::string& line = lines.at(span["line"].get<size_t>());
    EXPECT_EQ(line.substr(span["character"], span["name"].get<std::string>().size() + 2),
              span["name"].get<std::string>() + ": ")
        << line;
    const Json h = Hover(report["uri"], span["line"], span["character"]);
    ASSERT_TRUE(h["result"].is_object()) << h.dump();
    EXPECT_FALSE(h["result"]["contents"]["value"].get<std::string>().empty());
  }
}

// The report (what Neovim's :NsysOpen shows) leads with analyze's budget headline and shows each GPU's span
// split into slices with a bar each; the slices of a span add up to it (shares to 100% within rounding).
TEST_F(EditorDocuments, TheReportShowsWhereEachGpusTimeGoes) {
  const std::vector<std::string> lines = Lines(Report()["text"]);
  const auto section =
      std::find(lines.begin(), lines.end(),
                "## Where the GPU time goes (time_budget: each span split into slices that add up to it)");
  ASSERT_NE(section, lines.end());
  EXPECT_NE(std::find_if(lines.begin(), section,
                         [](const std::string& l) { return l.rfind("compute kernels 85.2% of the GPU span", 0) == 0; }),
            section);
  int spans = 0;
  for (auto it = section; it != lines.end(); ++it) {
    if (it->rfind("GPU ", 0) != 0 || it->find("): span ") == std::string::npos) continue;
    ++spans;
    double sum = 0;
    int slices = 0;
    for (auto s = it + 1; s != lines.end() && s->rfind("  ", 0) == 0; ++s, ++slices) {
      const double pct = std::stod(s->substr(20, 5));
      sum += pct;
      int cells = 0;  // the bar: one full cell per 2.5% of the span, of 40
      for (size_t at = s->find("█"); at != std::string::npos; at = s->find("█", at + 1)) ++cells;
      EXPECT_EQ(cells, static_cast<int>(pct / 2.5 + 0.5)) << *s;
    }
    EXPECT_GT(slices, 3) << *it;
    EXPECT_NEAR(sum, 100.0, 0.1 * slices) << *it;
  }
  EXPECT_EQ(spans, 2);  // mfu_2gpu_before: one process on each of its two GPUs
}

// With a partialResultToken the report paints progressively: each $/progress value is the whole document
// so far, the summary first (from what the open read, before the kernel table is asked for), then each section in
// place of its placeholder line, every span pointing at its name in that value's text; the reply is the report a
// request without the token gets, byte for byte.
TEST_F(EditorDocuments, WithAPartialResultTokenTheReportPaintsTheSummaryFirstThenEachSection) {
  const Json reply =
      client_->AwaitReply(client_->Request("nsys/report", {{"profileId", id_}, {"partialResultToken", "rep-1"}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  std::vector<protocol::ReportResult> partials;
  for (const auto& m : client_->ReceivedMatching(
           [](const Json& m) { return m.value("method", "") == "$/progress" && m["params"]["token"] == "rep-1"; })) {
    auto part = protocol::Parse<protocol::ReportResult>(m["params"]["value"], "value");
    ASSERT_TRUE(part) << part.error().message;
    partials.push_back(*part);
  }
  ASSERT_EQ(partials.size(), 4u);  // summary; top kernels; time budget; NVTX ranges (analyze ends it: the reply)
  const std::vector<std::string> placeholders = {"Kernels:   (loading the kernel table…)",
                                                 "(loading the kernel table…)",
                                                 "(analyzing: the headline and the findings follow)",
                                                 "(computing…)",
                                                 "(loading the NVTX ranges…)",
                                                 "(analyzing…)"};
  auto count_placeholders = [&](const std::string& text) {
    int n = 0;
    for (const std::string& line : Lines(text)) n += std::count(placeholders.begin(), placeholders.end(), line);
    return n;
  };
  const protocol::ReportResult& first = partials.front();
  EXPECT_EQ(first.uri, reply["result"]["uri"]);
  EXPECT_NE(first.text.find("File:      "), std::string::npos) << first.text;
  EXPECT_NE(first.text.find("GPUs:      0: "), std::string::npos) << first.text;
  EXPECT_EQ(count_placeholders(first.text), 6) << first.text;  // every part but the summary's own lines
  EXPECT_TRUE(first.kernels.empty());
  for (size_t i = 1; i < partials.size(); ++i) {
    EXPECT_LT(count_placeholders(partials[i].text), count_placeholders(partials[i - 1].text)) << partials[i].text;
    EXPECT_EQ(partials[i].kernels.size(), 15u) << "the top kernels from the second paint on";
    const std::vector<std::string> lines = Lines(partials[i].text);
    for (const protocol::ReportSpan& span : partials[i].kernels) {
      ASSERT_LT(static_cast<size_t>(span.line), lines.size());
      EXPECT_EQ(lines[static_cast<size_t>(span.line)].substr(static_cast<size_t>(span.character),
                                                             static_cast<size_t>(span.length)),
                span.name);
    }
  }
  EXPECT_EQ(count_placeholders(partials.back().text), 2);  // the headline and the findings wait for analyze
  EXPECT_EQ(count_placeholders(reply["result"]["text"]), 0);
  EXPECT_EQ(reply["result"], Report()) << "the streamed report is the report";
}

TEST_F(EditorDocuments, DocumentNotificationsAreAcceptedAndTheSessionKeepsServing) {
  const std::string uri = "file:///tmp/train.py";
  client_->Notify("textDocument/didOpen",
                  {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", "x = 1\n"}}}});
  client_->Notify("textDocument/didChange",
                  {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", {{{"text", "x = 2\n"}}}}});
  client_->Notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  client_->Notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  const Json hover = Hover(uri, 0, 0);
  ASSERT_TRUE(hover.contains("result")) << hover.dump();
  EXPECT_TRUE(hover["result"].is_null());
  for (const Json& m : client_->Received()) EXPECT_FALSE(m.contains("error")) << m.dump();
}

TEST_F(EditorDocuments, AnalyzePublishesFindingsOnTheFileAndTheReportAndCloseClearsThem) {
  const Json report = Report();
  const Json analyze = client_->AwaitReply(client_->Request("nsys/analyze", {{"profileId", id_}}));
  ASSERT_TRUE(analyze.contains("result")) << analyze.dump();
  const Json& findings = analyze["result"]["findings"];
  ASSERT_FALSE(findings.empty()) << analyze.dump();
  const std::string file_uri = "file://" + Fixture("mfu_2gpu_before.sqlite");
  auto published = [&](const std::string& uri) {
    return client_->ReceivedMatching([&](const Json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
    });
  };
  const auto on_file = published(file_uri);
  ASSERT_EQ(on_file.size(), 1u);
  const Json& diagnostics = on_file[0]["params"]["diagnostics"];
  ASSERT_EQ(diagnostics.size(), findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    const Json& d = diagnostics[i];
    EXPECT_EQ(d["code"], findings[i]["rootCause"]);
    EXPECT_EQ(d["source"], "nsys-ai");
    const std::string severity = findings[i]["severity"];
    EXPECT_EQ(d["severity"], severity == "high" ? 2 : severity == "medium" ? 3 : 4) << severity;
    EXPECT_EQ(d["message"].get<std::string>().rfind(findings[i]["title"].get<std::string>(), 0), 0u);
    EXPECT_EQ(d["range"]["start"], Json({{"line", 0}, {"character", 0}}));
  }
  const auto on_report = published(report["uri"]);
  ASSERT_EQ(on_report.size(), 1u);
  ASSERT_EQ(on_report[0]["params"]["diagnostics"].size(), findings.size());
  for (const Json& d : on_report[0]["params"]["diagnostics"]) {
    bool at_its_line = false;
    for (const Json& span : report["findings"]) {
      if (span["name"] == d["code"]) at_its_line = d["range"]["start"]["line"] == span["line"];
    }
    EXPECT_TRUE(at_its_line) << d.dump();
  }

  const Json closed = client_->AwaitReply(client_->Request("nsys/closeProfile", {{"profileId", id_}}));
  ASSERT_TRUE(closed.contains("result")) << closed.dump();
  ASSERT_EQ(published(file_uri).size(), 2u);
  EXPECT_TRUE(published(file_uri)[1]["params"]["diagnostics"].empty());
  ASSERT_EQ(published(report["uri"]).size(), 2u);
  EXPECT_TRUE(published(report["uri"])[1]["params"]["diagnostics"].empty());
  // The report is forgotten with its profile.
  EXPECT_TRUE(
      Hover(report["uri"], report["kernels"][0]["line"], report["kernels"][0]["character"])["result"].is_null());
}

TEST(EditorLlm, AnInvalidLlmOptionFailsInitializeNamingTheField) {
  InMemoryClient client;
  for (const auto& [llm, field] : std::vector<std::pair<Json, std::string>>{
           {{{"provider", "gemini"}}, "params.initializationOptions.llm.provider"},
           {{{"provider", "openai"}}, "params.initializationOptions.llm.model"},
           {{{"provider", "openai"}, {"model", "m"}, {"baseUrl", "ftp://x"}},
            "params.initializationOptions.llm.baseUrl"},
           {{{"provider", "openai"}, {"model", "m"}, {"apiKeyEnv", "NSYS_AI_TEST_SURELY_UNSET_VAR"}},
            "params.initializationOptions.llm.apiKeyEnv"},
       }) {
    const Json reply = client.AwaitReply(
        client.Request("initialize", {{"capabilities", Json::object()}, {"initializationOptions", {{"llm", llm}}}}));
    ASSERT_TRUE(reply.contains("error")) << reply.dump();
    EXPECT_EQ(reply["error"]["code"], -32602);
    EXPECT_EQ(reply["error"]["message"].get<std::string>().rfind(field, 0), 0u) << reply.dump();
  }
  // Still uninitialized: a valid initialize is accepted.
  const Json ok = client.AwaitReply(client.Request("initialize", {{"capabilities", Json::object()}}));
  EXPECT_TRUE(ok.contains("result")) << ok.dump();
}

TEST(EditorLlm, TheSessionsLlmAnswersAskWithTheKeyFromTheServersEnvironment) {
  NSYS_REQUIRE_FIXTURES();
  Standin standin({{"responses", {{{"text", {"The session's model answered."}}}}}});
  const llm::Config target = standin.Config(llm::Provider::kOpenAI);
  ::setenv("NSYS_AI_TEST_SESSION_KEY", "sk-session-key-42", 1);
  InMemoryClient::Options options;
  options.workspace.llm = {};  // the server itself is offline
  InMemoryClient client(options);
  client.Initialize({{"capabilities", Json::object()},
                     {"initializationOptions",
                      {{"llm",
                        {{"provider", "openai"},
                         {"model", "gpt-session"},
                         {"baseUrl", target.base_url},
                         {"apiKeyEnv", "NSYS_AI_TEST_SESSION_KEY"}}}}}});
  const Json open = client.AwaitReply(client.Request("nsys/openProfile", {{"path", Fixture("h100_2gpu_1s.sqlite")}}));
  ASSERT_TRUE(open.contains("result")) << open.dump();
  const Json ask = client.AwaitReply(client.Request(
      "nsys/ask", {{"profileId", open["result"]["profileId"]}, {"question", "Which kernel takes the most GPU time?"}}));
  ::unsetenv("NSYS_AI_TEST_SESSION_KEY");
  ASSERT_TRUE(ask.contains("result")) << ask.dump();
  EXPECT_EQ(ask["result"]["usedLlm"], true) << ask.dump();
  EXPECT_EQ(ask["result"]["answer"]["summary"], "The session's model answered.");
  const auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["body"]["model"], "gpt-session");
  EXPECT_EQ(requests[0]["headers"]["authorization"], "Bearer sk-session-key-42");
  // The key never reached the client.
  for (const Json& m : client.Received()) EXPECT_EQ(m.dump().find("sk-session-key-42"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
