// The AI paragraph of explainKernel through a real Workspace on a fixture, against the stand-in
// provider (tests/llm/standin.py) with the real libcurl client: the first call answers at once without it, the next
// has it; the cached reply is a 0600 file in a 0700 directory and a fresh workspace answers from it without a
// request; a reply stating a number the facts do not hold is dropped; the cost gate sends nothing; a reasoning model
// gets max_completion_tokens; a local server needs no key.
#include "nsys/agent/explain_llm.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/workspace_test_util.h"
#include "fixtures.h"
#include "llm/standin.h"
#include "nsys/core/workspace.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kParagraph[] =
    "This is the profile's main GEMM; its launch configuration and the NVTX ranges around it are the first places "
    "to look.";

class ExplainLlm : public ::testing::Test {
 protected:
  void SetUp() override {
    NSYS_REQUIRE_FIXTURES();
    cache_ = fs::temp_directory_path() / ("nsys-ai-explain-llm-" + std::to_string(::getpid()));
    fs::remove_all(cache_);
  }
  void TearDown() override {
    ws_.reset();
    std::error_code ec;
    fs::remove_all(cache_, ec);
  }
  core::Workspace& Make(const llm::Config& llm) {
    core::WorkspaceConfig config;
    config.default_skill_dirs = false;
    config.open.cache_dir = cache_.string();
    config.llm = llm;
    ws_ = std::make_unique<core::Workspace>(config);
    auto opened = ws_->Open(Fixture("mfu_2gpu_before.sqlite"));
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message);
    id_ = opened.ok() ? opened->id : "";
    return *ws_;
  }
  // One explainKernel as the LSP handlers make it: the explanation, then the paragraph; with its wall time.
  std::string Explain(core::Workspace& ws) {
    auto e = ws.ExplainKernel(id_, "flash_fwd_kernel");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().message);
    if (!e.ok()) return "";
    ws.AddAiParagraph(*e);
    return e->markdown;
  }
  fs::path cache_;
  std::unique_ptr<core::Workspace> ws_;
  std::string id_;
};

TEST_F(ExplainLlm, TheFirstCallAnswersAtOnceAndTheNextHasTheParagraphCachedPrivately) {
  // The stand-in takes 1.5 s to answer: the first call must not wait for it.
  Standin slow({{"responses", {{{"text", {kParagraph}}, {"delay_s", 1.5}}}}});
  core::Workspace& ws3 = Make(slow.Config(llm::Provider::kOpenAI));
  ws3.ExplainKernel(id_, "flash_fwd_kernel");  // the deterministic part, warmed
  // Had the call waited for the model, its paragraph would be here; the stand-in's 1.5 s delay makes sure it is not.
  const std::string first = Explain(ws3);
  EXPECT_EQ(first.find("**AI ("), std::string::npos) << first;
  EXPECT_NE(first.find("An AI paragraph from gpt-standin is being written"), std::string::npos) << first;
  EXPECT_NE(first.find("flash_fwd_kernel"), std::string::npos);
  // Hovering again while the request is in flight sends no second request.
  const std::string again = Explain(ws3);
  EXPECT_EQ(again.find("**AI ("), std::string::npos);
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws3, std::chrono::seconds(20)));
  const std::string second = Explain(ws3);
  EXPECT_NE(second.find(std::string("**AI (gpt-standin):** ") + "This is the profile's main GEMM; its launch"),
            std::string::npos)
      << second;
  ASSERT_EQ(slow.Requests().size(), 1u);
  const json body = slow.Requests()[0]["body"];
  EXPECT_EQ(body["model"], "gpt-standin");
  ASSERT_EQ(body["messages"].size(), 2u);
  const std::string facts = body["messages"][1]["content"];
  EXPECT_NE(facts.find("flash_fwd_kernel"), std::string::npos);
  EXPECT_EQ(facts.find("Verify:"), std::string::npos) << "the verify command (the profile's path) was sent";
  EXPECT_EQ(facts.find(Fixture("mfu_2gpu_before.sqlite")), std::string::npos);

  // The reply is cached: one 0600 file in a 0700 directory, and a fresh workspace answers from it with no request.
  const fs::path dir = cache_ / "llm-explain";
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    ++files;
    ASSERT_EQ(::stat(entry.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << entry.path();
  }
  EXPECT_EQ(files, 1);
  ws_.reset();
  core::Workspace& ws4 = Make(slow.Config(llm::Provider::kOpenAI));  // its scenario is spent: a request would fail
  // The first hover of a fresh workspace already holds the paragraph: it was read from the cache, not awaited.
  const std::string cached = Explain(ws4);
  EXPECT_NE(cached.find("**AI (gpt-standin):** This is the profile"), std::string::npos) << cached;
  EXPECT_EQ(slow.Requests().size(), 1u);
}

TEST_F(ExplainLlm, AReplyStatingANumberNotInTheFactsIsDropped) {
  Standin standin({{"responses", {{{"text", {"Each call takes 123456.7 ms, which is far too long."}}}}}});
  core::Workspace& ws = Make(standin.Config(llm::Provider::kAnthropic));
  Explain(ws);
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws, std::chrono::seconds(20)));
  const std::string md = Explain(ws);
  EXPECT_EQ(md.find("**AI ("), std::string::npos) << md;
  EXPECT_NE(md.find("was left out: it states 123456.7, a number that is not among the measured figures"),
            std::string::npos)
      << md;
  EXPECT_EQ(standin.Requests().size(), 1u);  // dropped is remembered: no second request
}

TEST_F(ExplainLlm, TheCostGateSendsNothing) {
  Standin standin({{"responses", {{{"text", {kParagraph}}}}}});
  llm::Config config = standin.Config(llm::Provider::kOpenAI);
  config.max_prompt_tokens = 50;
  core::Workspace& ws = Make(config);
  const std::string md = Explain(ws);
  EXPECT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws, std::chrono::seconds(5)));
  EXPECT_NE(md.find("over the budget of 50 tokens"), std::string::npos) << md;
  EXPECT_EQ(Explain(ws).find("**AI ("), std::string::npos);
  EXPECT_TRUE(standin.Requests().empty());
}

TEST_F(ExplainLlm, AReasoningModelGetsMaxCompletionTokensAndALocalServerNoKey) {
  Standin standin({{"responses", {{{"text", {kParagraph}}}, {{"text", {kParagraph}}}}}});
  llm::Config reasoning = standin.Config(llm::Provider::kOpenAI);
  reasoning.model = "o4-mini";
  core::Workspace& ws = Make(reasoning);
  Explain(ws);
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws, std::chrono::seconds(20)));
  EXPECT_NE(Explain(ws).find("**AI (o4-mini):**"), std::string::npos);
  // A local OpenAI-compatible server (Ollama, vLLM, llama.cpp): a base URL, a model name, no key.
  llm::Config local = standin.Config(llm::Provider::kOpenAI, "");
  local.model = "qwen2.5:7b";
  ws_.reset();
  core::Workspace& ws2 = Make(local);
  Explain(ws2);
  ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws2, std::chrono::seconds(20)));
  EXPECT_NE(Explain(ws2).find("**AI (qwen2.5:7b):**"), std::string::npos);

  const auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]["body"]["max_completion_tokens"], 1024);
  EXPECT_FALSE(requests[0]["body"].contains("max_tokens"));
  EXPECT_FALSE(requests[0]["body"].contains("temperature"));  // reasoning models take only the default
  EXPECT_EQ(requests[1]["path"], "/v1/chat/completions");
  EXPECT_EQ(requests[1]["body"]["max_tokens"], 1024);
  EXPECT_FALSE(requests[1]["body"].contains("max_completion_tokens"));
  EXPECT_FALSE(requests[1]["headers"].contains("authorization"));
}

// The README's local setups (Ollama, vLLM, llama.cpp's server), read from the environment as a user writes them, with
// the stand-in at their path (/v1/chat/completions) in place of the server: no key variable set, none sent.
TEST_F(ExplainLlm, TheReadmesLocalServerSetupsWorkWithoutAKey) {
  Standin standin({{"responses", {{{"text", {kParagraph}}}, {{"text", {kParagraph}}}, {{"text", {kParagraph}}}}}});
  const std::string base = "http://127.0.0.1:" + std::to_string(standin.port()) + "/v1";
  for (const char* model : {"qwen2.5:7b", "Qwen/Qwen2.5-7B-Instruct", "local"}) {
    const std::map<std::string, std::string> env = {
        {"NSYS_AI_LLM_PROVIDER", "openai"}, {"NSYS_AI_LLM_BASE_URL", base}, {"NSYS_AI_LLM_MODEL", model}};
    auto config = llm::ConfigFromEnvironment([&](const char* name) -> const char* {
      auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    });
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_TRUE(config->api_key.empty());
    ws_.reset();
    core::Workspace& ws = Make(*config);
    Explain(ws);
    ASSERT_TRUE(core::WorkspaceTestAccess::WaitForAiParagraphs(ws, std::chrono::seconds(20)));
    EXPECT_NE(Explain(ws).find(std::string("**AI (") + model), std::string::npos) << model;
  }
  const auto requests = standin.Requests();
  ASSERT_EQ(requests.size(), 3u);
  for (const json& r : requests) {
    EXPECT_EQ(r["path"], "/v1/chat/completions");
    EXPECT_FALSE(r["headers"].contains("authorization")) << r.dump();
    EXPECT_EQ(r["body"]["max_tokens"], 1024);
  }
}

TEST(ExplainLlmText, NumbersAreCheckedAgainstTheFactsAndTheReplyIsPlainText) {
  EXPECT_EQ(agent::NumbersIn("p50 1.25 ms, 1,234 calls; sm80 and 45.3%."),
            (std::vector<std::string>{"50", "1.25", "1234", "80", "45.3"}));
  const std::string facts = "1234 calls, 3.50 ms of GPU time; p50 12.1 us";
  EXPECT_EQ(agent::InventedNumber("It ran 1,234 times for 3.50 ms (p50 12.1 us).", facts), "");
  EXPECT_EQ(agent::InventedNumber("It ran 1,234 times for 3.5 ms.", facts), "3.5");  // no rounding either
  EXPECT_EQ(agent::SanitizeParagraph("See ![x](http://evil/a.png) and <img src=x>\n\n# Head"),
            "See \\!\\[x\\](http://evil/a.png) and \\<img src=x\\> \\# Head");
  EXPECT_LE(agent::SanitizeParagraph(std::string(5000, 'a')).size(), agent::kMaxParagraphBytes + 3);
  // Issue 38, item 12: numbers without ASCII digits, and links a hover would make clickable.
  EXPECT_EQ(agent::SpelledNumbersIn("forty-two calls, two hundred and five ms, a dozen streams, one of them, "
                                    "twenty-one, three thousand four hundred"),
            (std::vector<std::string>{"42", "205", "12", "21", "3400"}));
  EXPECT_EQ(agent::SpelledNumbersIn("two and three"), (std::vector<std::string>{"2", "3"}));
  EXPECT_EQ(agent::InventedNumber("It ran one thousand two hundred thirty-four times.", facts), "");
  EXPECT_EQ(agent::InventedNumber("It ran forty-two times.", facts), "42");
  EXPECT_EQ(agent::InventedNumber("It ran \uff14\uff12 times.", facts), "\uff14");          // fullwidth 42
  EXPECT_EQ(agent::InventedNumber("It took \u0663\u0660 ms.", facts), "\u0663");            // Arabic-Indic 30
  EXPECT_EQ(agent::InventedNumber("About \u00bd of the time, x\u00b2.", facts), "\u00bd");  // a vulgar fraction
  EXPECT_EQ(agent::NonAsciiDigit("caf\u00e9 \u540d\u524d"), "");                            // letters are no digits
  for (const char* link : {"see https://e.vil/x", "see www.e.vil", "mail MAILTO:a@b.c", "ftp://x"}) {
    EXPECT_TRUE(agent::HoldsALink(link)) << link;
    const agent::AiParagraph p = agent::ParagraphFromReply(link, facts, "m");
    EXPECT_EQ(p.status, agent::ParagraphStatus::kDropped) << link;
    EXPECT_EQ(p.note, "The AI paragraph from m was left out: it holds a link.") << link;
  }
  EXPECT_FALSE(agent::HoldsALink("A GEMM at 3.50 ms: see the p50."));
  agent::AiParagraph ready{agent::ParagraphStatus::kReady, "Plain words.", "", "m"};
  EXPECT_EQ(agent::WithAiParagraph("### `k`\n\n**a GEMM**\n\nrest\n", ready),
            "### `k`\n\n**a GEMM**\n\n**AI (m):** Plain words.\n\nrest\n");
}

}  // namespace
}  // namespace nsys::testing
