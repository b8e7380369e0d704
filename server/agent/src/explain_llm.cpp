#include "nsys/agent/explain_llm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <unordered_set>
#include <utility>

#include "nsys/llm/answer_cache.h"
#include "nsys/support/log.h"
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

std::string InventedNumber(std::string_view reply, std::string_view facts) {
  const std::vector<std::string> known = NumbersIn(facts);
  const std::unordered_set<std::string> set(known.begin(), known.end());
  for (const std::string& n : NumbersIn(reply)) {
    if (!set.count(n)) return n;
  }
  return {};
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
