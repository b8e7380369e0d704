// The names a question may mention, read from the profile through its summary skills (memoized like every call).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <set>
#include <string>
#include <utility>
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

std::vector<std::string> FileWordsOf(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  std::vector<std::string> out;
  if (name.empty()) return out;
  out.push_back(name);
  const size_t dot = name.find_last_of('.');
  const std::string stem = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
  if (stem != name) out.push_back(stem);
  for (size_t at = 0; at < stem.size();) {
    const size_t end = std::min(stem.find_first_of("_-. ", at), stem.size());
    if (end > at) out.push_back(stem.substr(at, end - at));
    at = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

QueryVocabulary VocabularyOf(const engine::Profile& profile, const SkillRunner& run, const CancelToken& cancel,
                             const std::vector<std::string>& candidates) {
  using namespace query_vocabulary;  // this file's own helpers
  QueryVocabulary v;
  // The processes that used CUDA (their streams), where the export lists them: an MPI rank's export may also hold
  // thousands of the machine's other processes, sampled by the OS runtime trace.
  std::set<uint32_t> pids;
  for (const auto& s : profile.info().streams) pids.insert(s.pid);
  if (pids.empty()) {
    for (const auto& t : profile.info().threads) pids.insert(t.pid);
  }
  v.traced_processes = pids.size();
  for (const auto& d : profile.info().devices) {
    if (!d.name.empty()) v.gpus.push_back(d.name);
    v.device_ids.push_back(d.id);
  }
  // A machine's GPUs the program never used are no place it ran on: where the export says which GPU each CUDA
  // stream was on, "the second GPU" is the second of those.
  std::vector<int32_t> used;
  for (const auto& s : profile.info().streams) {
    if (s.device >= 0) used.push_back(s.device);
  }
  if (!used.empty()) v.device_ids = std::move(used);
  std::sort(v.device_ids.begin(), v.device_ids.end());
  v.device_ids.erase(std::unique(v.device_ids.begin(), v.device_ids.end()), v.device_ids.end());
  if (profile.info().end_ns > profile.info().start_ns)
    v.length_s = static_cast<double>(profile.info().end_ns - profile.info().start_ns) / 1e9;
  v.file_words = FileWordsOf(profile.info().source_path.empty() ? profile.info().path : profile.info().source_path);
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
