// The on-disk cache of LLM exchanges: keyed by a SHA-256 digest, bounded, never holding the key; and the caching
// client in front of the real client and the stand-in.
#include "nsys/llm/answer_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "llm/standin.h"
#include "nsys/support/sha256.h"

namespace nsys::llm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("nsys-ai-llm-cache-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string ReadAllFiles(const std::string& dir) {
  std::string all;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::stringstream s;
    s << in.rdbuf();
    all += s.str();
  }
  return all;
}

TEST(AnswerCache, KeysAreSha256DigestsOfLengthPrefixedParts) {
  const std::string k = AnswerCache::Key({"ab", "c"});
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, AnswerCache::Key({"ab", "c"}));
  EXPECT_NE(k, AnswerCache::Key({"a", "bc"}));
  EXPECT_EQ(k, support::Sha256::Hex("2:ab1:c"));  // each part as "<length>:<bytes>"
  EXPECT_EQ(AnswerCache::Key({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");  // of ""
}

TEST(AnswerCache, StoresAndReadsBackAReply) {
  TempDir dir;
  AnswerCache cache(dir.str() + "/llm-answers");
  ChatResponse r;
  r.text = "gemm takes 41%";
  r.tool_calls = {{"c1", "top_kernels", json{{"limit", 3}}, "{\"limit\":3}"}};
  r.stop_reason = "tool_calls";
  r.input_tokens = 100;
  r.output_tokens = 20;
  EXPECT_FALSE(cache.Get(AnswerCache::Key({"x"})));
  cache.Put(AnswerCache::Key({"x"}), r);
  auto back = cache.Get(AnswerCache::Key({"x"}));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->text, r.text);
  EXPECT_EQ(back->tool_calls, r.tool_calls);
  EXPECT_EQ(back->stop_reason, "tool_calls");
  EXPECT_EQ(back->input_tokens, 100);
  EXPECT_FALSE(back->from_cache);  // the caching client sets it
}

TEST(AnswerCache, ADamagedEntryIsAMiss) {
  TempDir dir;
  AnswerCache cache(dir.str());
  const std::string key = AnswerCache::Key({"y"});
  std::ofstream(fs::path(dir.str()) / (key + ".json")) << "{\"text\": 5";
  EXPECT_FALSE(cache.Get(key));
}

// Issue 38, items 1, 2 and 7: an entry another program planted, or a damaged one, is a miss whatever it holds, and
// never costs more than an entry Put may write: nested 400,000 deep (it crashed the server on the next hover), a
// member of another type (every hover of that kernel failed with -32603), 200 MB (read whole).
TEST(AnswerCache, APlantedEntryIsAMissWhateverItHolds) {
  TempDir dir;
  AnswerCache cache(dir.str(), {.max_entries = 16, .max_entry_bytes = 4096});
  const std::string key = AnswerCache::Key({"planted"});
  const auto plant = [&](const std::string& text) {
    std::ofstream(fs::path(dir.str()) / (key + ".json"), std::ios::binary | std::ios::trunc) << text;
  };
  const std::string deep = std::string(400000, '[') + std::string(400000, ']');
  const std::string call = R"("id":"c1","name":"top_kernels","raw_arguments":"")";
  plant(R"({"text":"t","tool_calls":[{)" + call + R"(,"arguments":{"a":)" + deep + "}}]}");
  EXPECT_FALSE(cache.Get(key)) << "nested 400,000 deep";
  for (const std::string& wrong :
       {R"({"text":"t","tool_calls":[{"id":5}]})", R"({"text":"t","tool_calls":[{"name":["x"]}]})",
        R"({"text":"t","tool_calls":[{"arguments":"limit=3"}]})", R"({"text":"t","tool_calls":[7]})",
        R"({"text":"t","tool_calls":{}})", R"({"text":"t","tool_calls":[],"stop_reason":{}})",
        R"({"text":"t","tool_calls":[],"input_tokens":"many"})", R"({"text":"t","tool_calls":[],"output_tokens":1.5})",
        R"(["text"])", "\"\xff\""}) {
    plant(wrong);
    EXPECT_FALSE(cache.Get(key)) << wrong;
  }
  // The same entry, well formed: a hit under the size Put may write, a miss past it.
  const std::string good = R"({"text":")" + std::string(3000, 'x') + R"(","tool_calls":[{)" + call +
                           R"(,"arguments":{"limit":3}}],"stop_reason":"tool_calls","input_tokens":9})";
  plant(good);
  auto hit = cache.Get(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->text.size(), 3000u);
  EXPECT_EQ(hit->tool_calls.at(0).arguments, (json{{"limit", 3}}));
  EXPECT_EQ(hit->input_tokens, 9);
  EXPECT_EQ(hit->output_tokens, 0);
  plant(R"({"text":")" + std::string(5000, 'x') + R"(","tool_calls":[]})");
  EXPECT_FALSE(cache.Get(key)) << "past max_entry_bytes";
}

TEST(AnswerCache, KeepsAtMostMaxEntriesDroppingTheOldest) {
  TempDir dir;
  AnswerCache cache(dir.str(), {.max_entries = 3});
  for (int i = 0; i < 5; ++i) {
    ChatResponse r;
    r.text = std::to_string(i);
    cache.Put(AnswerCache::Key({std::to_string(i)}), r);
    std::this_thread::sleep_for(std::chrono::milliseconds(15));  // distinct mtimes
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.str())) files += e.path().extension() == ".json";
  EXPECT_EQ(files, 3u);
  EXPECT_FALSE(cache.Get(AnswerCache::Key({"0"})));
  EXPECT_FALSE(cache.Get(AnswerCache::Key({"1"})));
  EXPECT_TRUE(cache.Get(AnswerCache::Key({"4"})));
}

TEST(AnswerCache, DefaultDirIsUnderTheCacheDir) {
  EXPECT_EQ(AnswerCache::DefaultDir("/tmp/some-cache"), "/tmp/some-cache/llm-answers");
}

TEST(CachingClient, TheSecondSameExchangeIsAnsweredWithoutARequest) {
  testing::Standin standin({{"responses", {{{"text", {"The top ", "kernel is gemm."}}}, {{"text", {"other"}}}}}});
  TempDir dir;
  AnswerCache cache(dir.str());
  const std::string key = "sk-cache-secret-77";
  auto inner = MakeClient(standin.Config(Provider::kOpenAI, key));
  ASSERT_TRUE(inner);
  CachingClient client(**inner, cache, "profile h100 size 123 mtime 456");
  ChatRequest req;
  req.messages = {{Role::kSystem, "summary"}, {Role::kUser, "Which kernel?"}};

  auto first = client.Chat(req, {}, {});
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  std::string streamed;
  auto second = client.Chat(req, [&](std::string_view p) { streamed += p; }, {});
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->text, "The top kernel is gemm.");
  EXPECT_EQ(streamed, "The top kernel is gemm.");  // replayed to the sink
  EXPECT_EQ(standin.Requests().size(), 1u);

  CachingClient other_profile(**inner, cache, "profile a100 size 9 mtime 1");
  auto third = other_profile.Chat(req, {}, {});
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->from_cache);
  EXPECT_EQ(third->text, "other");
  EXPECT_EQ(standin.Requests().size(), 2u);

  const std::string stored = ReadAllFiles(dir.str());
  EXPECT_NE(stored.find("gemm"), std::string::npos);
  EXPECT_EQ(stored.find(key), std::string::npos);
  EXPECT_EQ(client.KeyFor(req).find(key), std::string::npos);
}

TEST(CachingClient, ErrorsAreNotCached) {
  testing::Standin standin({{"responses", {{{"status", 400}, {"body", "bad"}}, {{"text", {"ok"}}}}}});
  TempDir dir;
  AnswerCache cache(dir.str());
  auto inner = MakeClient(standin.Config(Provider::kAnthropic));
  ASSERT_TRUE(inner);
  CachingClient client(**inner, cache, "p");
  ChatRequest req;
  req.messages = {{Role::kUser, "q"}};
  EXPECT_FALSE(client.Chat(req, {}, {}));
  auto again = client.Chat(req, {}, {});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->from_cache);
  EXPECT_EQ(again->text, "ok");
}

}  // namespace
}  // namespace nsys::llm
