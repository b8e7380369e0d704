// AskWithLlm: the tool-calling loop over real skills (a core::Workspace runner on a fixture) with the real libcurl
// client talking to the stand-in provider (tests/llm/standin.py) in both wire formats.
#include "nsys/agent/llm_ask.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/workspace_test_util.h"
#include "fixtures.h"
#include "llm/standin.h"
#include "nsys/agent/query_json.h"
#include "nsys/core/workspace.h"

namespace nsys::agent {
namespace {

using nlohmann::json;
using testing::Fixture;
using testing::Standin;
using Clock = std::chrono::steady_clock;

// Independent of the skills: the top kernel of device 0 by summed duration, straight from the export.
struct TopKernel {
  std::string name;
  int64_t total_ns = 0;
  int64_t instances = 0;
};
TopKernel TopKernelOnDevice0(const std::string& path) {
  sqlite3* db = nullptr;
  TopKernel top;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return top;
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT s.value, SUM(k.end - k.start) AS t, COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                     "JOIN StringIds s ON s.id = k.demangledName WHERE k.deviceId = 0 GROUP BY k.demangledName "
                     "ORDER BY t DESC LIMIT 1",
                     -1, &st, nullptr);
  if (st && sqlite3_step(st) == SQLITE_ROW) {
    top.name = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    top.total_ns = sqlite3_column_int64(st, 1);
    top.instances = sqlite3_column_int64(st, 2);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return top;
}

class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("nsys-ai-llm-ask-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// A workspace with the fixture open, its skills and runner.
class LlmAsk : public ::testing::TestWithParam<llm::Provider> {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    path_ = Fixture("h100_2gpu_1s.sqlite");
    core::WorkspaceConfig config;
    config.open.use_cache = false;
    config.default_skill_dirs = false;
    ws_ = std::make_unique<core::Workspace>(config);
    auto opened = ws_->Open(path_);
    ASSERT_TRUE(opened) << opened.error().message;
    id_ = opened->id;
    run_ = core::WorkspaceTestAccess::RunnerFor(*ws_, id_);
    skills_ = ws_->Skills();
  }

  LlmAskRequest Request(const std::string& question) const {
    LlmAskRequest r;
    r.question = question;
    r.profile_summary = "h100_2gpu_1s: 2 H100 devices (0, 1), 3,442 kernels, 1.0 s window.";
    r.profile_path = path_;
    return r;
  }

  std::unique_ptr<llm::Client> Client(const Standin& standin, llm::Config config) const {
    auto c = llm::MakeClient(config);
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }
  std::unique_ptr<llm::Client> Client(const Standin& standin) const {
    return Client(standin, standin.Config(GetParam()));
  }

  // The tool results a request carried back to the model, in either format: (content, is_error).
  static std::vector<std::pair<std::string, bool>> ToolResults(const json& body) {
    std::vector<std::pair<std::string, bool>> out;
    for (const json& m : body["messages"]) {
      if (m["role"] == "tool") out.emplace_back(m["content"].get<std::string>(), false);
      if (m["role"] == "user" && m["content"].is_array()) {
        for (const json& b : m["content"]) {
          if (b["type"] == "tool_result") out.emplace_back(b["content"].get<std::string>(), b.value("is_error", false));
        }
      }
    }
    return out;
  }

  std::string path_;
  std::unique_ptr<core::Workspace> ws_;
  std::string id_;
  SkillRunner run_;
  SkillList skills_;
};

INSTANTIATE_TEST_SUITE_P(Agent, LlmAsk, ::testing::Values(llm::Provider::kOpenAI, llm::Provider::kAnthropic),
                         [](const auto& info) { return std::string(llm::ProviderName(info.param)); });

// Two tool-calling steps over real skills, then the final answer quoting the last tool result.
json ThreeStepScenario() {
  return {{"responses",
           {{{"text", {"Let me list the kernels."}},
             {"tool_calls", {{{"name", "top_kernels"}, {"arguments", {"{\"li", "mit\": 3}"}}}}},
             {"split_bytes", 9}},
            {{"tool_calls",
              {{{"name", "top_kernels"}, {"arguments", {"{\"device\": 0,", " \"limit\": 1, \"base\": false}"}}}}}},
            {{"echo_tool_result", true}}}}};
}

// The query tool: a Query the model fills (first with a measure the executor has no name for, which goes back to it as
// the reader's error naming the member), answered by the one executor; the answer is the executor's text, then the
// model's paragraph if every number in it is among the tool results. SQL over the fixture: device 1 runs 1,721
// kernels for 22,444,359 ns.
json QueryScenario(const std::string& final_text) {
  const std::string bad = R"({"queries": [{"measures": ["avg"], "subject": {"events": "kernels"}}]})";
  const std::string good =
      R"({"queries": [{"measures": ["count", "total"], "subject": {"events": "kernels"}, "scope": {"devices": [1]}}]})";
  return {{"responses",
           {{{"tool_calls", {{{"name", "query"}, {"arguments", {bad}}}}}},
            {{"tool_calls", {{{"name", "query"}, {"arguments", {good}}}}}},
            {{"text", {final_text}}}}}};
}

TEST_P(LlmAsk, TheQueryToolAnswersFromTheExecutorAndHoldsTheModelToItsFigures) {
  const auto profile = testing::LoadedProfile(*ws_, id_);
  ASSERT_TRUE(profile);
  LlmAskRequest request = Request("How many kernels ran on GPU 1, and for how long?");
  request.profile = profile.get();
  request.model = "stand-in";
  {
    Standin standin(QueryScenario("GPU 1 ran 1,721 kernels, 22.444 ms in all."));
    auto client = Client(standin);
    auto r = AskWithLlm(request, *client, skills_, run_, {}, {});
    ASSERT_TRUE(r) << r.error().message;
    auto requests = standin.Requests();
    ASSERT_EQ(requests.size(), 3u);
    // The query tool is offered first, beside every skill, with the Query's schema; the prompt asks for it.
    const json& first = requests[0]["body"];
    const bool openai = GetParam() == llm::Provider::kOpenAI;
    ASSERT_EQ(first["tools"].size(), skills_.size() + 1);
    const json& tool = first["tools"][0];
    EXPECT_EQ(openai ? tool["function"]["name"] : tool["name"], "query");
    const json& params = openai ? tool["function"]["parameters"] : tool["input_schema"];
    EXPECT_EQ(params["properties"]["queries"]["items"], QuerySchema());
    // The bad Query went back as an error naming its member; the good one's result is the executor's text.
    auto results = ToolResults(requests[2]["body"]);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_NE(results[0].first.find("queries[0].measures[0]: unknown measure 'avg'; one of total, count"),
              std::string::npos)
        << results[0].first;
    EXPECT_EQ(results[1].first.rfind("Read as: count and total time of kernels, on device 1.\n", 0), 0u)
        << results[1].first;
    EXPECT_NE(results[1].first.find("1,721 kernels, total 22.444 ms"), std::string::npos) << results[1].first;
    // The answer: the executor's text, then the paragraph, whose figures are the tool's own.
    const Answer& a = r->answer;
    EXPECT_EQ(
        a.summary.rfind("Read as: count and total time of kernels, on device 1.\n1,721 kernels, total 22.444 ms", 0),
        0u)
        << a.summary;
    EXPECT_NE(a.summary.find("**AI (stand-in):** GPU 1 ran 1,721 kernels, 22.444 ms in all."), std::string::npos)
        << a.summary;
    ASSERT_EQ(a.evidence.size(), 1u);
    EXPECT_EQ(a.evidence[0].call.skill, "event_stats");
    EXPECT_EQ(a.evidence[0].call.filter.devices, std::vector<int32_t>{1});
    EXPECT_EQ(a.verify, VerifyCommand(a.evidence[0].call, path_));
    EXPECT_EQ(a.confidence, Confidence::kMedium);  // one of the model's calls failed
  }
  {
    // A paragraph that states a figure no tool gave is left out, and the note names it; the figures stay.
    Standin standin(QueryScenario("GPU 1 ran 1,900 kernels."));
    auto client = Client(standin);
    std::string streamed;
    auto r = AskWithLlm(request, *client, skills_, run_, [&](std::string_view p) { streamed += p; }, {});
    ASSERT_TRUE(r) << r.error().message;
    const std::string& summary = r->answer.summary;
    EXPECT_EQ(streamed, summary);  // the invented figure was never streamed either
    EXPECT_NE(summary.find("1,721 kernels, total 22.444 ms"), std::string::npos) << summary;
    EXPECT_EQ(summary.find("1,900 kernels"), std::string::npos) << summary;
    EXPECT_NE(summary.find("*The AI paragraph from stand-in was left out: it states 1900, a number that is not among "
                           "the measured figures.*"),
              std::string::npos)
        << summary;
  }
}

TEST_P(LlmAsk, AMultiStepToolLoopAnswersFromRealSkillResults) {
  const TopKernel top = TopKernelOnDevice0(path_);
  ASSERT_FALSE(top.name.empty());
  Standin standin(ThreeStepScenario());
  auto client = Client(standin);
  std::string streamed;
  auto r = AskWithLlm(Request("Which kernel takes the most time on device 0?"), *client, skills_, run_,
                      [&](std::string_view p) { streamed += p; }, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 3);
  EXPECT_EQ(r->input_tokens, 33);  // the stand-in reports 11 in and 7 out per exchange
  EXPECT_EQ(r->output_tokens, 21);
  EXPECT_FALSE(r->from_cache);

  // The model saw the real rows: the second call's result is device 0's top kernel with SQL's numbers.
  auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 3u);
  auto results = ToolResults(requests[2]["body"]);
  ASSERT_EQ(results.size(), 2u);
  const json second = json::parse(results[1].first);
  EXPECT_EQ(second["skill"], "top_kernels");
  EXPECT_EQ(second["row_count"], 1);
  const auto& cols = second["columns"];
  auto col = [&](const std::string& name) {
    return static_cast<size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
  };
  ASSERT_LT(col("name"), cols.size());
  EXPECT_EQ(second["rows"][0][col("name")], top.name);
  EXPECT_EQ(second["rows"][0][col("total_time_ns")], top.total_ns);
  EXPECT_EQ(second["rows"][0][col("instances")], top.instances);
  EXPECT_EQ(json::parse(results[0].first)["rows"].size(), 3u);

  // The answer: the model's final text (which quotes that result), evidence from both calls, the verify command.
  const Answer& a = r->answer;
  EXPECT_NE(a.summary.find(top.name.substr(0, 60)), std::string::npos) << a.summary;
  EXPECT_NE(a.summary.find("total_time_ns=" + std::to_string(top.total_ns)), std::string::npos) << a.summary;
  EXPECT_EQ(streamed, "Let me list the kernels." + a.summary);
  ASSERT_EQ(a.evidence.size(), 2u);
  EXPECT_EQ(a.evidence[0].call.skill, "top_kernels");
  EXPECT_EQ(a.evidence[0].call.args.at("limit"), Value(int64_t{3}));
  EXPECT_TRUE(a.evidence[0].call.filter.devices.empty());
  EXPECT_EQ(a.evidence[1].call.filter.devices, std::vector<int32_t>{0});
  auto direct = ws_->RunSkill(id_, "top_kernels", {{"limit", Value{int64_t{1}}}, {"device", Value{int64_t{0}}}});
  ASSERT_TRUE(direct);
  ASSERT_EQ(a.evidence[1].rows.size(), 1u);
  EXPECT_EQ(a.evidence[1].rows[0], direct->rows[0]);  // every column, as the skill gives it
  EXPECT_EQ(a.verify, VerifyCommand(a.evidence[0].call, path_));
  EXPECT_NE(a.verify.find("nsys-ai skill run top_kernels"), std::string::npos);
  EXPECT_NE(a.verify.find("--arg limit=3"), std::string::npos) << a.verify;
  EXPECT_EQ(a.confidence, Confidence::kMedium);
  EXPECT_FALSE(a.refusal);

  // What was sent: every skill as a tool of the same name, the summary in the system prompt.
  const json& first = requests[0]["body"];
  const bool openai = GetParam() == llm::Provider::kOpenAI;
  const json tools = first["tools"];
  EXPECT_EQ(tools.size(), skills_.size());
  std::string system = openai ? first["messages"][0]["content"].get<std::string>() : first["system"].get<std::string>();
  EXPECT_NE(system.find("3,442 kernels"), std::string::npos);
  // History: system, question, call, result, call, result, answer.
  ASSERT_EQ(r->history.size(), 7u);
  EXPECT_EQ(r->history[3].role, llm::Role::kTool);
  EXPECT_EQ(r->history[6].content, a.summary);
}

TEST_P(LlmAsk, UnknownToolsAndBadArgumentsGoBackToTheModel) {
  Standin standin({{"responses",
                    {{{"tool_calls",
                       {{{"name", "no_such_skill"}, {"arguments", {"{}"}}},
                        {{"name", "top_kernels"}, {"arguments", {"{\"limit\": \"many\"}"}}},
                        {{"name", "top_kernels"}, {"arguments", {"{\"limit\": -5}"}}},
                        {{"name", "top_kernels"}, {"arguments", {"{\"colour\": 1}"}}},
                        {{"name", "top_kernels"}, {"arguments", {"{\"device\": 7}"}}},
                        {{"name", "top_kernels"}, {"arguments", {"{not json"}}}}}},
                     {{"text", {"I could not run the skills."}}}}}});
  auto client = Client(standin);
  auto r = AskWithLlm(Request("Which kernel is slowest?"), *client, skills_, run_, {}, {});
  ASSERT_TRUE(r) << r.error().message;
  auto results = ToolResults(standin.Requests().at(1)["body"]);
  ASSERT_EQ(results.size(), 6u);
  auto error_of = [&](size_t i) { return json::parse(results[i].first).value("error", std::string()); };
  EXPECT_NE(error_of(0).find("unknown tool 'no_such_skill'; the tools are: "), std::string::npos) << error_of(0);
  EXPECT_NE(error_of(0).find("top_kernels"), std::string::npos);
  EXPECT_NE(error_of(1).find("argument 'limit' of 'top_kernels' must be integer"), std::string::npos) << error_of(1);
  EXPECT_NE(error_of(2).find("limit"), std::string::npos) << error_of(2);  // the skill runner's bound check
  EXPECT_NE(error_of(3).find("unknown argument 'colour'"), std::string::npos) << error_of(3);
  EXPECT_NE(error_of(4).find("7"), std::string::npos) << error_of(4);  // no device 7 in this profile
  EXPECT_NE(error_of(5).find("not a JSON object: '{not json'"), std::string::npos) << error_of(5);
  if (GetParam() == llm::Provider::kAnthropic) {
    for (const auto& [content, is_error] : results) EXPECT_TRUE(is_error) << content;
  }
  EXPECT_EQ(r->answer.summary, "I could not run the skills.");
  EXPECT_TRUE(r->answer.evidence.empty());
  EXPECT_EQ(r->answer.confidence, Confidence::kLow);
  EXPECT_TRUE(r->answer.verify.empty());
}

TEST_P(LlmAsk, ToolCallsPerTurnAreBoundedAndACutOffReplyLowersConfidence) {
  json calls = json::array();
  for (int i = 0; i < 18; ++i) {
    calls.push_back({{"id", "c" + std::to_string(i)}, {"name", "top_kernels"}, {"arguments", {"{\"limit\": 1}"}}});
  }
  Standin standin({{"responses",
                    {{{"tool_calls", calls}},
                     {{"text", {"The top kernel is"}},
                      {"stop", GetParam() == llm::Provider::kOpenAI ? "length" : "max_tokens"}}}}});
  auto client = Client(standin);
  auto r = AskWithLlm(Request("Which kernel?"), *client, skills_, run_, {}, {});
  ASSERT_TRUE(r) << r.error().message;
  auto results = ToolResults(standin.Requests().at(1)["body"]);
  ASSERT_EQ(results.size(), 18u);
  size_t refused = 0;
  for (const auto& [content, is_error] : results) refused += content.find("too many tool calls") != std::string::npos;
  EXPECT_EQ(refused, 2u);
  EXPECT_EQ(r->answer.evidence.size(), 1u);  // sixteen identical calls are one piece of evidence
  EXPECT_EQ(r->answer.confidence, Confidence::kLow);
  EXPECT_NE(r->answer.confidence_reason.find("cut off"), std::string::npos) << r->answer.confidence_reason;
}

TEST_P(LlmAsk, AGarbageReplyIsAClearError) {
  Standin standin({{"responses", {{{"raw", {"data: {\"choices\": [oops\n\nevent: x\ndata: ]]\n\n"}}}}}});
  auto client = Client(standin);
  auto r = AskWithLlm(Request("Which kernel?"), *client, skills_, run_, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(r.error().message.find("the LLM could not answer (step 1)"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("could not be read"), std::string::npos) << r.error().message;
}

TEST_P(LlmAsk, AnEmptyFinalAnswerIsAClearError) {
  Standin standin({{"responses", {{{"text", json::array()}}}}});
  auto client = Client(standin);
  auto r = AskWithLlm(Request("Which kernel?"), *client, skills_, run_, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kBadInput);
  EXPECT_NE(r.error().message.find("empty answer"), std::string::npos);
}

TEST_P(LlmAsk, StepsAreBounded) {
  const json call = {{"tool_calls", {{{"name", "top_kernels"}, {"arguments", {"{\"limit\": 1}"}}}}}};
  Standin standin({{"responses", {call, call, call}}});
  auto client = Client(standin);
  LlmAskRequest req = Request("Keep going");
  req.max_steps = 2;
  auto r = AskWithLlm(req, *client, skills_, run_, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_NE(r.error().message.find("after 2 steps (2 skill calls)"), std::string::npos) << r.error().message;
  EXPECT_EQ(standin.Requests().size(), 2u);
}

TEST_P(LlmAsk, CancellingMidStreamReturnsPromptly) {
  Standin standin({{"responses", {{{"text", {"Thinking ", "more"}}, {"omit_end", true}, {"hang_s", 30}}}}});
  auto client = Client(standin);
  CancelToken cancel;
  Clock::time_point at;
  auto r = AskWithLlm(
      Request("Which kernel?"), *client, skills_, run_,
      [&](std::string_view) {
        if (!cancel.cancelled()) at = Clock::now();
        cancel.cancel();
      },
      cancel);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCancelled);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - at).count(), 0.5);
}

TEST_P(LlmAsk, TheCostGateRefusesBeforeAnythingIsSent) {
  Standin standin({{"responses", {{{"text", {"unused"}}}}}});
  llm::Config config = standin.Config(GetParam());
  config.max_prompt_tokens = 500;  // every skill's schema alone is more
  auto client = Client(standin, config);
  auto r = AskWithLlm(Request("Which kernel?"), *client, skills_, run_, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kLimitExceeded);
  EXPECT_NE(r.error().message.find("over the budget of 500 tokens"), std::string::npos) << r.error().message;
  EXPECT_TRUE(standin.Requests().empty());
}

TEST_P(LlmAsk, TheSecondSameAskIsAnsweredFromTheCache) {
  Standin standin({{"responses",
                    {{{"tool_calls", {{{"name", "top_kernels"}, {"arguments", {"{\"limit\": 2}"}}}}}},
                     {{"echo_tool_result", true}}}}});
  auto client = Client(standin);
  TempDir dir;
  llm::AnswerCache cache(dir.str());
  LlmAskRequest req = Request("Top two kernels?");
  req.cache = &cache;
  req.profile_identity = path_ + " 2.2MB";
  auto first = AskWithLlm(req, *client, skills_, run_, {}, {});
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  EXPECT_EQ(standin.Requests().size(), 2u);
  std::string streamed;
  auto second = AskWithLlm(req, *client, skills_, run_, [&](std::string_view p) { streamed += p; }, {});
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(standin.Requests().size(), 2u);  // no request the second time
  EXPECT_EQ(second->answer.summary, first->answer.summary);
  ASSERT_EQ(second->answer.evidence.size(), 1u);
  EXPECT_EQ(second->answer.evidence[0].rows, first->answer.evidence[0].rows);
  EXPECT_EQ(second->answer.verify, first->answer.verify);
  EXPECT_EQ(streamed, second->answer.summary);
}

TEST_P(LlmAsk, AFollowUpCarriesTheHistory) {
  Standin standin({{"responses", {{{"text", {"gemm leads."}}}, {{"text", {"Device 1 too."}}}}}});
  auto client = Client(standin);
  auto first = AskWithLlm(Request("Which kernel leads?"), *client, skills_, run_, {}, {});
  ASSERT_TRUE(first) << first.error().message;
  LlmAskRequest follow = Request("and on device 1?");
  follow.history = first->history;
  auto second = AskWithLlm(follow, *client, skills_, run_, {}, {});
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->answer.summary, "Device 1 too.");
  ASSERT_EQ(second->history.size(), 5u);  // system, question, answer, follow-up, answer
  const json sent = standin.Requests().at(1)["body"]["messages"];
  const size_t n = sent.size();
  ASSERT_GE(n, 3u);
  auto content_text = [](const json& m) {
    return m["content"].is_string() ? m["content"].get<std::string>() : m["content"][0]["text"].get<std::string>();
  };
  EXPECT_EQ(content_text(sent[n - 1]), "and on device 1?");
  EXPECT_EQ(content_text(sent[n - 2]), "gemm leads.");
  EXPECT_EQ(content_text(sent[n - 3]), "Which kernel leads?");
}

TEST(LlmAskInput, AnEmptyQuestionIsRefused) {
  Standin standin({{"responses", json::array()}});
  auto client = llm::MakeClient(standin.Config(llm::Provider::kOpenAI));
  ASSERT_TRUE(client);
  LlmAskRequest req;
  req.question = "  ";
  auto r = AskWithLlm(req, **client, {}, {}, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
}

TEST(SkillTools, EverySkillIsAToolOfTheSameNameWithTypedParameters) {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  const SkillList skills = ws.Skills();
  const auto tools = SkillTools(skills);
  ASSERT_EQ(tools.size(), skills.size());
  for (size_t i = 0; i < tools.size(); ++i) {
    EXPECT_EQ(tools[i].name, skills[i]->name());
    EXPECT_EQ(tools[i].description, skills[i]->description());
    const json& p = tools[i].parameters;
    EXPECT_EQ(p["type"], "object");
    EXPECT_EQ(p["additionalProperties"], false);
    EXPECT_EQ(p["properties"]["device"]["type"], "integer");
    EXPECT_EQ(p["properties"]["pid"]["type"], "integer");
    EXPECT_EQ(p["properties"]["start"]["type"], "number");
    EXPECT_EQ(p["properties"]["end"]["type"], "number");
    EXPECT_FALSE(p["properties"].contains("clock"));
    for (const auto& spec : skills[i]->args()) {
      const json& prop = p["properties"][spec.name];
      const char* type = spec.type == ValueType::kInt      ? "integer"
                         : spec.type == ValueType::kDouble ? "number"
                         : spec.type == ValueType::kBool   ? "boolean"
                                                           : "string";
      EXPECT_EQ(prop["type"], type) << skills[i]->name() << "." << spec.name;
      if (!spec.choices.empty()) EXPECT_EQ(prop["enum"], json(spec.choices));
      if (spec.min) EXPECT_EQ(prop["minimum"].get<double>(), *spec.min);
    }
  }
  auto top = std::find_if(tools.begin(), tools.end(), [](const auto& t) { return t.name == "top_kernels"; });
  ASSERT_NE(top, tools.end());
  EXPECT_EQ(top->parameters["properties"]["limit"]["minimum"], 0);
  EXPECT_EQ(top->parameters["properties"]["limit"]["default"], 0);
  EXPECT_EQ(top->parameters["properties"]["per_device"]["default"], false);
}

TEST(SkillTools, ToolArgumentsBecomeTheSkillCall) {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  auto skill = ws.FindSkill("top_kernels");
  ASSERT_TRUE(skill);
  auto call = SkillCallFromTool(
      **skill, json{{"limit", 5.0}, {"device", 1}, {"pid", 42}, {"start", 0.25}, {"end", 1}, {"base", nullptr}});
  ASSERT_TRUE(call) << call.error().message;
  EXPECT_EQ(call->skill, "top_kernels");
  EXPECT_EQ(call->args, (skills::Args{{"limit", Value{int64_t{5}}}}));
  EXPECT_EQ(call->filter.devices, std::vector<int32_t>{1});
  EXPECT_EQ(call->filter.processes, std::vector<uint32_t>{42});
  EXPECT_EQ(call->filter.window.start, 0.25);
  EXPECT_EQ(call->filter.window.end, 1.0);
  EXPECT_FALSE(SkillCallFromTool(**skill, json{{"limit", 2.5}}));
  EXPECT_FALSE(SkillCallFromTool(**skill, json{{"clock", "capture_ns"}}));
  EXPECT_FALSE(SkillCallFromTool(**skill, json{{"pid", -1}}));
  EXPECT_FALSE(SkillCallFromTool(**skill, json::array()));
  // A device id is 32 bits: 4294967297 used to run on device 1 while the answer named device 4294967297.
  auto wide = SkillCallFromTool(**skill, json{{"device", 4294967297LL}});
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.error().message, "argument 'device' of 'top_kernels' is out of range");
  EXPECT_FALSE(SkillCallFromTool(**skill, json{{"device", -1}}));
  auto widest = SkillCallFromTool(**skill, json{{"device", 2147483647}});
  ASSERT_TRUE(widest) << widest.error().message;
  EXPECT_EQ(widest->filter.devices, std::vector<int32_t>{2147483647});
}

}  // namespace
}  // namespace nsys::agent
