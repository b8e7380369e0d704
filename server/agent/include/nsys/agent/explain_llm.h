#pragma once
// The AI paragraph of a kernel explanation: with an LLM configured, a short paragraph from the
// model joins explainKernel and the kernel hover, grounded in the deterministic explanation. The facts are the
// prompt (the explanation's Markdown without its verify command, so no file path is sent), and a reply that states
// a number the facts do not hold is dropped. A hover never waits on the model: KernelParagraphs::Lookup answers
// at once from memory or the disk cache and otherwise queues one request per key for its background threads; the
// paragraph shows on a later hover. Replies are cached on disk by (kernel, facts hash, provider + model + endpoint)
// in a private directory (0700, files 0600; llm::AnswerCache), never with the key.
//
// Trust boundary: the reply is untrusted. Only plain text is kept: at most kMaxParagraphBytes, whitespace collapsed
// to single spaces, control characters dropped and Markdown's active characters escaped, so it can neither add
// links, images, HTML or headings to a hover nor break out of its paragraph.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "nsys/agent/explain.h"
#include "nsys/llm/client.h"
#include "nsys/support/cancel.h"

namespace nsys::agent {

inline constexpr size_t kMaxParagraphBytes = 1200;

enum class ParagraphStatus {
  kReady,     // `text` holds the paragraph
  kPending,   // requested; shows on a later hover
  kDeclined,  // the cost gate refused the prompt (nothing sent)
  kDropped,   // the reply stated a number not in the facts, or had no text
  kFailed,    // the request failed (retried on a hover after KernelParagraphs::Options::retry_after)
  kBusy,      // too many requests queued; asked again on a later hover
};

struct AiParagraph {
  ParagraphStatus status = ParagraphStatus::kPending;
  std::string text;   // kReady: the sanitised paragraph (Markdown-escaped plain text)
  std::string note;   // otherwise: why there is no paragraph (shown in italics)
  std::string model;  // the model that writes or wrote it
};

// The facts the model is given: the explanation's Markdown without the verify command.
std::string ParagraphFacts(const KernelExplanation& e);
// The request for the paragraph: a system prompt with the rules, the facts as the user message.
llm::ChatRequest ParagraphRequest(const std::string& facts);
// The numbers written in `text` (digit runs with inner '.' or ',' grouping; commas removed), in order.
std::vector<std::string> NumbersIn(std::string_view text);
// The numbers spelled out in English words in `text` ("forty-two" is "42", "two hundred" "200", "a dozen" "12"; a
// lone "one" is not counted: it is a pronoun as often as a number), in order.
std::vector<std::string> SpelledNumbersIn(std::string_view text);
// The first character of `text` that writes a number without ASCII digits (a non-ASCII decimal digit such as "４" or
// "٣", a superscript, a circled number, a vulgar fraction), or "".
std::string NonAsciiDigit(std::string_view text);
// The first number of `reply` that `facts` do not hold (in digits or spelled out), else a number `reply` writes in
// non-ASCII digits, or "" when every number is among the facts'.
std::string InventedNumber(std::string_view reply, std::string_view facts);
// Whether `reply` holds a URL, a www. name or a mailto: link (a hover would make it one click away).
bool HoldsALink(std::string_view reply);
// The reply as a paragraph that is safe to put in Markdown (see the trust boundary above).
std::string SanitizeParagraph(std::string_view reply);
// `markdown` with the paragraph (or its note) after the explanation's title and identity line.
std::string WithAiParagraph(const std::string& markdown, const AiParagraph& paragraph);

class KernelParagraphs {
 public:
  struct Options {
    size_t workers = 2;                             // requests in flight at once
    size_t max_queued = 32;                         // keys waiting for a worker; past it a hover answers kBusy
    size_t max_entries = 4096;                      // keys remembered in memory (ready ones are also on disk)
    std::chrono::milliseconds retry_after{60'000};  // a failed request is not sent again before this
    int max_reply_tokens = 1024;                    // the reply's bound (reasoning models count their reasoning)
  };
  KernelParagraphs() : KernelParagraphs(Options{}) {}
  explicit KernelParagraphs(Options options);
  // Cancels the requests in flight (libcurl notices within 50 ms) and joins the threads.
  ~KernelParagraphs();
  KernelParagraphs(const KernelParagraphs&) = delete;
  KernelParagraphs& operator=(const KernelParagraphs&) = delete;

  // Never waits on the model. `cache_dir` is the private directory of the cached replies ("" = memory only).
  AiParagraph Lookup(const KernelExplanation& e, const llm::Config& config, const std::string& cache_dir);
  // Until no request is queued or in flight, at most `timeout`; true when idle (tests, the one-shot CLI).
  bool WaitIdle(std::chrono::milliseconds timeout);

 private:
  struct Pending {
    std::string key;
    std::string facts;
    llm::Config config;
    std::string cache_dir;
  };
  struct Entry {
    AiParagraph paragraph;
    std::chrono::steady_clock::time_point at;
  };
  void Work();
  void TrimLocked();

  Options options_;
  CancelToken cancel_;
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::deque<Pending> queue_;
  std::unordered_map<std::string, Entry> entries_;  // by key
  size_t running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;  // started on the first request
};

// The paragraph as a reply makes it: kReady with the sanitised text, or kDropped naming the invented number.
AiParagraph ParagraphFromReply(const std::string& reply, const std::string& facts, const std::string& model);

}  // namespace nsys::agent
