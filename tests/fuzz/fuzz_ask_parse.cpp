// libFuzzer target: arbitrary bytes as an ask question → agent::CheckQuestion, ask_detail::ParseQuestion (every
// pattern of the question parser, on RE2) and agent::FillQueries (the typed Query's offline filler, over a small
// vocabulary), also past the 8 KiB limit the faces enforce. Every name, range and copy kind a Query holds must come
// from the question, the lexicon or the profile's own names (a CUDA call said in words, "launch kernel calls", is the
// call the profile traced: cudaLaunchKernel; a misspelt name is mended to the profile's), and every Query must
// describe itself. Checks that nothing throws or crashes and that what the parser read comes from the question: the
// trimmed and lower-cased text, quoted parts and identifiers inside the text, words of [a-z0-9_] inside the
// lower-cased text, a window's text inside it with finite bounds. A slow input is a finding too (-timeout): the
// parser is linear in the question.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_ask_parse
//   mkdir -p /tmp/fuzz_ask_parse && ./build-asan/tests/fuzz/fuzz_ask_parse -runs=200000 -max_len=16384 \
//       /tmp/fuzz_ask_parse tests/fuzz/corpus_ask_parse
// New inputs go to the first folder; the seeds stay as they are.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ask_internal.h"
#include "nsys/agent/ask.h"
#include "nsys/agent/query.h"
#include "nsys/agent/query_answer.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_ask_parse: %s\n", what.c_str());
  std::abort();
}

bool Inside(const std::string& part, const std::string& whole) {
  return whole.find(part) != std::string::npos;
}

const nsys::engine::ProfileInfo& Info() {
  static const nsys::engine::ProfileInfo info = [] {
    nsys::engine::ProfileInfo i;
    i.start_ns = 1000;
    i.end_ns = 1000 + 1'500'000'000;
    i.processes = {{111, "python"}, {222, "trainer_main"}, {333, "pt"}};
    return i;
  }();
  return info;
}

const nsys::agent::QueryVocabulary& Vocabulary() {
  static const nsys::agent::QueryVocabulary vocabulary = [] {
    nsys::agent::QueryVocabulary v;
    v.kernels = {"sm80_xmma_gemm_f32f32", "nvfuser_pointwise_f0", "ncclDevKernel_AllReduce"};
    v.api = {"cudaMalloc", "cudaLaunchKernel", "cudaStreamSynchronize"};
    v.nvtx = {"forward", "aten::linear", "runFusionWithInputs"};
    return v;
  }();
  return vocabulary;
}

// One of the profile's own names, whole: a CUDA call said in words ("launch kernel calls"), a name mended from a
// misspelling ("aten::linea" is the profile's aten::linear).
bool ProfileName(const std::string& name) {
  const auto& v = Vocabulary();
  for (const auto* names : {&v.kernels, &v.api, &v.nvtx}) {
    if (std::find(names->begin(), names->end(), name) != names->end()) return true;
  }
  return false;
}

// A name a Query may hold: part of the question, or one of the profile's names; names listed together ("A, B and C")
// are one name of alternatives joined by '|', each of them so.
bool FromQuestionOrProfile(const std::string& name, const std::string& question) {
  for (size_t at = 0; at <= name.size();) {
    const size_t bar = std::min(name.find('|', at), name.size());
    const std::string part = name.substr(at, bar - at);
    if (!Inside(part, question) && !ProfileName(part)) return false;
    at = bar + 1;
  }
  return true;
}

// The typed reading: names from the question or the profile, bounds held or refused by CheckQuery, never a crash.
void CheckReading(const std::string& question) {
  const auto reading = nsys::agent::FillQueries(question, Vocabulary());
  for (const auto& q : reading.queries) {
    if (q.measures.empty()) Fail("a Query without a measure");
    if (!FromQuestionOrProfile(q.subject.name, question))
      Fail("a subject name is in neither the question nor the profile: " + q.subject.name);
    if (!FromQuestionOrProfile(q.scope.inside, question))
      Fail("an NVTX range is in neither the question nor the profile: " + q.scope.inside);
    if (q.versus_subject && !FromQuestionOrProfile(q.versus_subject->name, question))
      Fail("a compared name is in neither the question nor the profile");
    (void)nsys::agent::CheckQuery(q);
    if (nsys::agent::DescribeQuery(q).empty()) Fail("a Query that says nothing of itself");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string question(reinterpret_cast<const char*>(data), size);
  const nsys::Status checked = nsys::agent::CheckQuestion(question);
  if (!checked.ok() && checked.error().kind != nsys::ErrorKind::kInvalidArgument) Fail("CheckQuestion: not -32602");
  if (size > nsys::agent::kMaxQuestionBytes && checked.ok()) Fail("a question over the limit was accepted");
  const auto p = nsys::agent::ask_detail::ParseQuestion(question, Info());
  if (!Inside(p.text, question)) Fail("the trimmed text is not part of the question");
  if (p.lower.size() != p.text.size()) Fail("lower-casing changed the length");
  for (const auto& q : p.quoted) {
    if (q.size() < 2 || !Inside(q, p.text)) Fail("a quoted part is not in the text: " + q);
  }
  for (const auto& w : p.idents) {
    if (w.size() < 4 || !Inside(w, p.text)) Fail("an identifier is not in the text: " + w);
  }
  for (const auto& w : p.words) {
    if (w.empty() || !Inside(w, p.lower)) Fail("a word is not in the text: " + w);
    for (char c : w) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
        Fail("a word has '" + std::string(1, c) + "'");
    }
  }
  if (p.window) {
    if (!Inside(p.window->text, p.lower)) Fail("the window's text is not in the question");
    if (!std::isfinite(p.window->start_s) || !std::isfinite(p.window->end_s)) Fail("a window bound is not finite");
  }
  if (p.top_n && !Inside(std::to_string(*p.top_n), p.lower)) Fail("top N is not a number of the question");
  CheckReading(question);
  return 0;
}
