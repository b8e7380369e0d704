#pragma once
// Offline ask's parts, shared by ask_parse.cpp (reading the question and skill rows), ask_intents.cpp (the intent
// table) and the typed Query's files. Not a public header.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/agent/ask.h"

namespace nsys::agent::ask_detail {

// What the question asks, from its wording. Checked in this order (ask_parse.cpp): a "why" question is a why
// question even when it also says "how much".
enum class QType { kWhy, kMoreThan, kCompare, kShare, kHowMany, kHowMuch, kWhich, kDescribe };
std::string_view QTypeName(QType t);

// A time window in seconds from the profile start, as the question stated it.
struct AskWindow {
  double start_s = 0;
  double end_s = 0;
  std::string text;  // as said ("between 0.2 and 0.4 s")
};

// "longer than 100 us", "under 2 ms": a bound on each instance's duration.
struct DurationBound {
  double ns = 0;
  bool above = true;  // longer than the bound (false: shorter)
  std::string said;   // the words, as the question had them
};

// "larger than 100 MB": a bound on each copy's size.
struct SizeBound {
  double bytes = 0;
  bool above = true;
  std::string said;
};

struct Parsed {
  std::string text;   // trimmed
  std::string lower;  // lower-cased
  QType type = QType::kDescribe;
  std::string topic;                    // "kernels", "memcpy", "sync", "idle", "nccl", "nvtx", "launch", "api",
                                        // "iterations", "streams", "help", "" (none said)
  std::string skill;                    // a skill named in the question
  std::vector<int32_t> devices;         // "GPU 1", "device 0"
  std::vector<uint32_t> processes;      // "pid 111", a process name
  std::vector<int32_t> streams;         // "on stream 16", "stream #7"
  std::optional<AskWindow> window;      // "between 0.2 and 0.4 s", "in the first 100 ms"
  bool from_first_kernel = false;       // the window counts from the first kernel's start, not the profile's
  std::string first_kernel_word;        // of the kernels named so ("the first `sample` kernel"); "" for any kernel
  std::optional<DurationBound> bound;   // "longer than 100 us": instances counted against it
  std::optional<SizeBound> size_bound;  // "larger than 100 MB": copies counted against it
  std::vector<std::string> quoted;      // text in quotes or backticks
  std::vector<std::string> idents;      // identifier-like words (snake_case, a::b, CamelCase with digits)
  std::vector<std::string> words;       // lower-case words
  std::optional<size_t> ordinal;        // "the second one" = 1 (0-based)
  std::optional<size_t> top_n;          // "top 5"
  bool follow_up = false;               // short question leaning on the previous turn ("and on device 1?", "why?")
};

// Reads a question. Devices and processes are checked against the profile later (BuildFilter).
Parsed ParseQuestion(const std::string& question, const engine::ProfileInfo& info);

// The topic a text is about ("memcpy", "kernels", ...), or "".
std::string TopicOf(const std::string& lower);
// Whole-word test on lower-case text.
bool HasWord(const std::string& lower, std::string_view word);
// Any of the phrases occurs (substring, lower-case).
bool HasAny(const std::string& lower, std::initializer_list<std::string_view> phrases);
// Words of the question that say nothing about a kernel ("time", "gpu", "most", ...): never matched as kernel names.
bool IsCommonWord(std::string_view lower_word);
// An NVTX range's name without its domain prefix ("mpi:mpi_init" -> "mpi_init"), lower-case; the name itself when it
// has none (a C++ scope "a::b" is no prefix).
std::string RangeNameTail(const std::string& lower);
// "one" to "ten" at the start of a text, as a whole word ("one thread block" -> 1; "tensor" is none).
std::optional<int64_t> NumberWordAt(std::string_view lower);
// Edit distance, for "closest names".
size_t EditDistance(std::string_view a, std::string_view b);

// Formatting: 31121662 ns → "31.122 ms"; shares in %; counts with separators.
std::string FormatNs(double ns);
std::string FormatPct(double pct);
std::string FormatCount(double n);
std::string FormatBytes(double bytes);

// Reading a skill table by column name.
std::optional<size_t> ColumnIndex(const skills::Table& t, std::string_view name);
double CellNumber(const skills::Table& t, size_t row, std::string_view column);  // NaN when absent
std::string CellText(const skills::Table& t, size_t row, std::string_view column);

}  // namespace nsys::agent::ask_detail
