// The names a question may mention, read from the profile through its summary skills (memoized like every call).
#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "nsys/agent/query_answer.h"
#include "nsys/support/name_pattern.h"

namespace nsys::agent {
// File-local names live in a namespace of this file's own: the asan tree joins a library's files into unity
// batches, where two anonymous namespaces are one.
namespace query_vocabulary {

// At most this many names of a kind: a question names one of the heavy ones, and the filler scans every list for each
// of its words.
constexpr size_t kMaxNames = 5000;

std::vector<std::string> NamesOf(const SkillRunner& run, const std::string& skill, const skills::Args& args,
                                 const std::string& column, const CancelToken& cancel) {
  std::vector<std::string> out;
  auto table = run(skill, args, {}, cancel);
  if (!table || table->declined) return out;
  size_t c = table->columns.size();
  for (size_t i = 0; i < table->columns.size(); ++i) {
    if (table->columns[i].name == column) c = i;
  }
  if (c == table->columns.size()) return out;
  for (const auto& row : table->rows) {
    if (out.size() >= kMaxNames) break;
    if (const auto* s = std::get_if<std::string>(&row[c])) out.push_back(*s);
  }
  return out;
}

}  // namespace query_vocabulary

QueryVocabulary VocabularyOf(const engine::Profile& profile, const SkillRunner& run, const CancelToken& cancel,
                             const std::vector<std::string>& candidates) {
  using namespace query_vocabulary;  // this file's own helpers
  QueryVocabulary v;
  std::set<uint32_t> pids;
  for (const auto& t : profile.info().threads) pids.insert(t.pid);
  v.traced_processes = pids.size();
  for (const auto& d : profile.info().devices) {
    if (!d.name.empty()) v.gpus.push_back(d.name);
  }
  std::vector<bool> found(candidates.size(), false);
  const auto all_found = [&](const std::vector<std::string>& names) {
    bool all = true;
    for (size_t c = 0; c < candidates.size(); ++c) {
      found[c] = found[c] || std::any_of(names.begin(), names.end(),
                                         [&](const std::string& n) { return NamePatternMatches(n, candidates[c]); });
      all = all && found[c];
    }
    return all;
  };
  if (candidates.empty()) return v;
  const engine::Capabilities& caps = profile.info().caps;
  if (caps.kernels) v.kernels = NamesOf(run, "top_kernels", {{"base", Value(true)}}, "name", cancel);
  if (all_found(v.kernels)) return v;
  if (caps.runtime) v.api = NamesOf(run, "cuda_api_summary", {}, "name", cancel);
  if (all_found(v.api)) return v;
  if (caps.nvtx) v.nvtx = NamesOf(run, "nvtx_summary", {}, "range", cancel);
  return v;
}

}  // namespace nsys::agent
