#include "nsys/agent/explain_llm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "nsys/llm/answer_cache.h"
#include "nsys/support/log.h"
#include "nsys/support/path_text.h"
#include "nsys/support/sha256.h"

namespace nsys::agent {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kParagraphSystemPrompt =
    "You are a senior GPU performance engineer. The user message holds the facts nsys-ai measured about one CUDA "
    "kernel in an Nsight Systems profile. Write one short paragraph for the developer hovering over the kernel: 2 to "
    "4 sentences of plain text (no lists, headings, tables, links or code) saying what the kernel is and what the "
    "facts suggest looking at first. Use only the facts given. Every number you write must appear in the facts "
    "exactly as written there: do not compute, round, convert or add numbers. Leave out anything the facts do not "
    "support.";

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// The bytes of `text` up to `limit`, cut back to the start of a UTF-8 character.
std::string_view CutUtf8(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

std::string Trimmed(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const size_t last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

AiParagraph Note(ParagraphStatus status, const std::string& model, const std::string& note) {
  AiParagraph p;
  p.status = status;
  p.model = model;
  p.note = note;
  return p;
}

}  // namespace

std::string ParagraphFacts(const KernelExplanation& e) {
  KernelExplanation facts = e;
  facts.verify.clear();  // the command names the profile's path: not the model's business
  return RenderExplanationMarkdown(facts);
}

llm::ChatRequest ParagraphRequest(const std::string& facts) {
  llm::ChatRequest r;
  r.messages = {{llm::Role::kSystem, std::string(kParagraphSystemPrompt)}, {llm::Role::kUser, "Facts:\n\n" + facts}};
  r.max_tokens = KernelParagraphs::Options{}.max_reply_tokens;
  r.temperature = 0.2;
  return r;
}

std::vector<std::string> NumbersIn(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsDigit(text[i])) {
      ++i;
      continue;
    }
    std::string number;
    while (i < text.size()) {
      if (IsDigit(text[i])) {
        number += text[i++];
      } else if ((text[i] == '.' || text[i] == ',') && i + 1 < text.size() && IsDigit(text[i + 1])) {
        if (text[i] == '.') number += '.';  // grouping commas are dropped: "1,234" is 1234
        ++i;
      } else {
        break;
      }
    }
    out.push_back(std::move(number));
  }
  return out;
}

std::string NonAsciiDigit(std::string_view text) {
  // Unicode's decimal digits outside ASCII (Nd), and the digit-like forms a reader takes as numbers: superscripts,
  // subscripts, circled and parenthesised numbers, vulgar fractions, Roman numerals.
  static constexpr std::pair<uint32_t, uint32_t> kRanges[] = {
      {0x00b2, 0x00b3}, {0x00b9, 0x00b9},   {0x00bc, 0x00be},   {0x0660, 0x0669},  {0x06f0, 0x06f9}, {0x07c0, 0x07c9},
      {0x0966, 0x096f}, {0x09e6, 0x09ef},   {0x0a66, 0x0a6f},   {0x0ae6, 0x0aef},  {0x0b66, 0x0b6f}, {0x0be6, 0x0bef},
      {0x0c66, 0x0c6f}, {0x0ce6, 0x0cef},   {0x0d66, 0x0d6f},   {0x0de6, 0x0def},  {0x0e50, 0x0e59}, {0x0ed0, 0x0ed9},
      {0x0f20, 0x0f33}, {0x1040, 0x1049},   {0x1090, 0x1099},   {0x17e0, 0x17e9},  {0x1810, 0x1819}, {0x1946, 0x194f},
      {0x19d0, 0x19d9}, {0x2070, 0x2079},   {0x2080, 0x2089},   {0x2150, 0x2189},  {0x2460, 0x249b}, {0x24ea, 0x24ff},
      {0x2776, 0x2793}, {0x3007, 0x3007},   {0x3021, 0x3029},   {0xa620, 0xa629},  {0xa8d0, 0xa8d9}, {0xa900, 0xa909},
      {0xff10, 0xff19}, {0x104a0, 0x104a9}, {0x1d7ce, 0x1d7ff}, {0x1fbf0, 0x1fbf9}};
  for (size_t i = 0; i < text.size();) {
    const size_t n = std::max<size_t>(support::Utf8SequenceAt(text, i), 1);  // a stray byte is skipped
    const uint32_t cp = support::Utf8CodePoint(text, i, n);
    for (const auto& [lo, hi] : kRanges) {
      if (n > 1 && cp >= lo && cp <= hi) return std::string(text.substr(i, n));
    }
    i += n;
  }
  return {};
}

std::vector<std::string> SpelledNumbersIn(std::string_view text) {
  static const std::unordered_map<std::string, int64_t> kSmall = {
      {"zero", 0},      {"two", 2},       {"three", 3},    {"four", 4},     {"five", 5},       {"six", 6},
      {"seven", 7},     {"eight", 8},     {"nine", 9},     {"ten", 10},     {"eleven", 11},    {"twelve", 12},
      {"thirteen", 13}, {"fourteen", 14}, {"fifteen", 15}, {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18},
      {"nineteen", 19}, {"twenty", 20},   {"thirty", 30},  {"forty", 40},   {"fifty", 50},     {"sixty", 60},
      {"seventy", 70},  {"eighty", 80},   {"ninety", 90},  {"dozen", 12}};
  static const std::unordered_map<std::string, int64_t> kScale = {
      {"hundred", 100}, {"thousand", 1000}, {"million", 1000000}, {"billion", 1000000000}};
  std::vector<std::string> out;
  int64_t total = 0, current = 0;
  bool in_number = false;
  bool lone_one = false;  // "one" so far: a number only when a scale word follows ("one thousand")
  const auto finish = [&] {
    if (in_number && !lone_one) out.push_back(std::to_string(total + current));
    total = current = 0;
    in_number = lone_one = false;
  };
  std::string word;
  bool after_scale = false;  // "two hundred and five": "and" continues a number only after a scale word
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : '.';
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word += static_cast<char>(c | 0x20);
      continue;
    }
    if (!word.empty()) {
      const bool was_after_scale = after_scale;
      after_scale = false;
      if (auto s = kSmall.find(word); s != kSmall.end()) {
        if (lone_one) finish();  // "one two": the "one" stays a word
        current += s->second;
        in_number = true;
      } else if (auto m = kScale.find(word); m != kScale.end() && in_number) {
        current = (current == 0 ? 1 : current) * m->second;
        lone_one = false;
        if (m->second >= 1000) total += current, current = 0;
        after_scale = true;
      } else if (word == "one") {  // "twenty-one", "one hundred"; a lone "one" is a pronoun as often as a number
        if (!in_number) finish(), lone_one = true;
        current += 1;
        in_number = true;
      } else if (!(word == "and" && was_after_scale)) {
        finish();
      } else {
        after_scale = true;
      }
      word.clear();
    }
    if (c != '-' && c != ' ') finish();  // "forty-two", "two hundred": a hyphen or a space continues a number
  }
  return out;
}

std::string InventedNumber(std::string_view reply, std::string_view facts) {
  const std::vector<std::string> known = NumbersIn(facts);
  const std::unordered_set<std::string> set(known.begin(), known.end());
  for (const std::string& n : NumbersIn(reply)) {
    if (!set.count(n)) return n;
  }
  for (const std::string& n : SpelledNumbersIn(reply)) {
    if (!set.count(n)) return n;
  }
  return NonAsciiDigit(reply);  // never among the facts, which are written in ASCII digits
}

bool HoldsALink(std::string_view reply) {
  std::string lower(reply);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
  return lower.find("://") != std::string::npos || lower.find("www.") != std::string::npos ||
         lower.find("mailto:") != std::string::npos;
}

std::string SanitizeParagraph(std::string_view reply) {
  static constexpr std::string_view kActive = "\\`*_[]<>!|#~{}&";
  std::string out;
  bool space = false;
  for (const char c : reply) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      space = true;
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) continue;
    if (space && !out.empty()) out += ' ';
    space = false;
    if (kActive.find(c) != std::string_view::npos) out += '\\';
    out += c;
    if (out.size() > kMaxParagraphBytes) {
      std::string cut(CutUtf8(out, kMaxParagraphBytes - 3));
      while (!cut.empty() && cut.back() == '\\') cut.pop_back();  // never a dangling escape
      return cut + "…";
    }
  }
  return out;
}

std::string WithAiParagraph(const std::string& markdown, const AiParagraph& p) {
  const std::string block = p.status == ParagraphStatus::kReady
                                ? fmt::format("**AI ({}):** {}\n\n", SanitizeParagraph(p.model), p.text)
                                : fmt::format("*{}*\n\n", SanitizeParagraph(p.note));
  // After the title and the identity line ("### `name`\n\n**what it is**\n\n"), else at the end.
  size_t at = markdown.find("\n\n");
  if (at != std::string::npos) at = markdown.find("\n\n", at + 2);
  if (at == std::string::npos) return markdown + "\n\n" + block;
  std::string out = markdown;
  out.insert(at + 2, block);
  return out;
}

AiParagraph ParagraphFromReply(const std::string& reply, const std::string& facts, const std::string& model) {
  const std::string text = Trimmed(reply);
  if (text.empty()) return Note(ParagraphStatus::kDropped, model, "No AI paragraph: the model wrote no text.");
  if (HoldsALink(text)) {  // a hover autolinks bare URLs and www. names: a model's link must never be one click away
    return Note(ParagraphStatus::kDropped, model,
                fmt::format("The AI paragraph from {} was left out: it holds a link.", model));
  }
  if (const std::string invented = InventedNumber(text, facts); !invented.empty()) {
    return Note(ParagraphStatus::kDropped, model,
                fmt::format("The AI paragraph from {} was left out: it states {}, a number that is not among the "
                            "measured figures.",
                            model, std::string(CutUtf8(invented, 40))));
  }
  AiParagraph p;
  p.status = ParagraphStatus::kReady;
  p.model = model;
  p.text = SanitizeParagraph(text);
  return p;
}

KernelParagraphs::KernelParagraphs(Options options) : options_(options) {}

KernelParagraphs::~KernelParagraphs() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    queue_.clear();
  }
  cancel_.cancel();
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

AiParagraph KernelParagraphs::Lookup(const KernelExplanation& e, const llm::Config& config,
                                     const std::string& cache_dir) {
  const std::string facts = ParagraphFacts(e);
  auto client = llm::MakeClient(config);
  if (!client) return Note(ParagraphStatus::kFailed, config.model, "No AI paragraph: " + client.error().message);
  const std::string key = llm::AnswerCache::Key(
      {"nsys-ai kernel paragraph v1", e.kernel, support::Sha256::Hex(facts), (*client)->Identity()});
  auto known = [&]() -> std::optional<AiParagraph> {
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    if (it->second.paragraph.status == ParagraphStatus::kFailed &&
        Clock::now() - it->second.at >= options_.retry_after) {
      entries_.erase(it);
      return std::nullopt;
    }
    return it->second.paragraph;
  };
  {
    std::lock_guard lock(mu_);
    if (auto p = known()) return *p;
  }
  if (!cache_dir.empty()) {
    if (auto hit = llm::AnswerCache(cache_dir).Get(key)) {
      AiParagraph p = ParagraphFromReply(hit->text, facts, config.model);
      std::lock_guard lock(mu_);
      entries_[key] = {p, Clock::now()};
      TrimLocked();
      return p;
    }
  }
  if (Status gate = llm::CheckPromptBudget(ParagraphRequest(facts), config.max_prompt_tokens); !gate) {
    AiParagraph p = Note(ParagraphStatus::kDeclined, config.model, "No AI paragraph: " + gate.error().message);
    std::lock_guard lock(mu_);
    entries_[key] = {p, Clock::now()};
    return p;
  }
  std::lock_guard lock(mu_);
  if (auto p = known()) return *p;  // another hover queued it meanwhile
  if (stop_) return Note(ParagraphStatus::kFailed, config.model, "No AI paragraph: the server is stopping.");
  if (queue_.size() >= options_.max_queued) {
    return Note(
        ParagraphStatus::kBusy, config.model,
        fmt::format("No AI paragraph yet: {} requests are waiting for the model; hover again later.", queue_.size()));
  }
  queue_.push_back({key, facts, config, cache_dir});
  AiParagraph pending =
      Note(ParagraphStatus::kPending, config.model,
           fmt::format("An AI paragraph from {} is being written; hover again in a moment.", config.model));
  entries_[key] = {pending, Clock::now()};
  TrimLocked();
  if (threads_.size() < options_.workers && threads_.size() < queue_.size() + running_) {
    threads_.emplace_back([this] { Work(); });
  }
  wake_.notify_one();
  return pending;
}

void KernelParagraphs::Work() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Pending job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    AiParagraph p;
    auto client = llm::MakeClient(job.config);
    llm::ChatRequest request = ParagraphRequest(job.facts);
    request.max_tokens = options_.max_reply_tokens;
    auto reply = client ? (*client)->Chat(request, {}, cancel_) : Expected<llm::ChatResponse>(client.error());
    if (reply) {
      if (!job.cache_dir.empty()) llm::AnswerCache(job.cache_dir).Put(job.key, *reply);
      p = ParagraphFromReply(reply->text, job.facts, job.config.model);
    } else {
      support::LogDebug("explain: the AI paragraph failed: " + reply.error().message);
      p = Note(ParagraphStatus::kFailed, job.config.model,
               "No AI paragraph: " + std::string(CutUtf8(reply.error().message, 300)));
    }
    lock.lock();
    entries_[job.key] = {std::move(p), Clock::now()};
    TrimLocked();
    --running_;
    idle_.notify_all();
  }
}

void KernelParagraphs::TrimLocked() {
  if (entries_.size() <= options_.max_entries) return;
  for (auto it = entries_.begin(); it != entries_.end() && entries_.size() > options_.max_entries / 2;) {
    it = it->second.paragraph.status == ParagraphStatus::kPending ? std::next(it) : entries_.erase(it);
  }
}

bool KernelParagraphs::WaitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return idle_.wait_for(lock, timeout, [&] { return queue_.empty() && running_ == 0; });
}

}  // namespace nsys::agent
