// ComputeNvtxRangeBreakdown (nsys/skills/nvtx_range_breakdown.h): one pass over the NVTX ranges (instances, wall,
// longest instance per label), one over the kernels (each placed in the ranges around its launch call, with the
// stack nvtx_range_kernels uses).
#include "nsys/skills/nvtx_range_breakdown.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common_nvtx_stack.h"
#include "common_rows.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/support/cancel.h"

namespace nsys::skills {
namespace {

using engine::Ns;

int64_t NearestRank(std::vector<int64_t>& v, int p) {
  if (v.empty()) return 0;
  const size_t rank = (v.size() * static_cast<size_t>(p) + 99) / 100;
  const size_t idx = rank == 0 ? 0 : rank - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(idx), v.end());
  return v[idx];
}

class KernelPass {
 public:
  KernelPass(const engine::Profile& profile, const std::vector<int32_t>& label_of, NvtxRangeBreakdown& out)
      : profile_(profile),
        k_(profile.kernels()),
        rt_(profile.runtime()),
        nvtx_(profile.nvtx()),
        label_of_(label_of),
        out_(out) {}

  bool Run(const CancelToken& cancel) {
    out_.percentiles = true;
    builtin::StartEndRangesByThread start_end = builtin::StartEndRangesByThread::Build(nvtx_);
    std::vector<int32_t> stack, labels;
    std::vector<size_t> label_seen_at;  // label -> 1 + the kernel row that last listed it: each label once per kernel
    WorkMeter work(cancel);             // a kernel costs the ranges around its launch (issue 38: 100,000 nested)
    for (size_t i = 0; i < k_.size(); ++i) {
      if (!work.Add(1)) return false;
      const Ns dur = k_.end[i] - k_.start[i];
      const int32_t kernel = KernelOf(i);
      NvtxRangeBreakdown::Kernel& kf = out_.kernels[static_cast<size_t>(kernel)];
      ++kf.calls;
      kf.gpu_ns += dur;
      if (k_.launch[i] < 0) continue;
      const auto r = static_cast<size_t>(k_.launch[i]);
      stack.clear();
      // The kMaxEnclosingRanges innermost of each list at most (see nvtx_kernel_map), then the innermost of both.
      bool more = builtin::AppendPushPopStack(rt_.nvtx[r], nvtx_, stack, builtin::kMaxEnclosingRanges);
      const auto thread = static_cast<size_t>(start_end.threads.IdOf(PackKey(rt_.pid[r], rt_.tid[r])));
      const size_t looked = start_end.AppendEnclosing(thread, rt_.start[r], rt_.end[r], nvtx_, stack,
                                                      builtin::kMaxEnclosingRanges, &more);
      work.Count(looked + 2 * stack.size());
      if (stack.empty()) continue;
      out_.deep_launches += builtin::KeepInnermost(stack, nvtx_) || more ? 1 : 0;
      std::sort(stack.begin(), stack.end(), [&](int32_t a, int32_t b) {  // innermost (latest start, shortest) first
        const auto as = static_cast<size_t>(a), bs = static_cast<size_t>(b);
        if (nvtx_.start[as] != nvtx_.start[bs]) return nvtx_.start[as] > nvtx_.start[bs];
        return nvtx_.end[as] < nvtx_.end[bs];
      });
      labels.clear();
      for (int32_t j : stack) {
        const int32_t label = label_of_[static_cast<size_t>(j)];
        const auto l = static_cast<size_t>(label);
        if (l >= label_seen_at.size()) label_seen_at.resize(l + 1, 0);
        if (label_seen_at[l] == i + 1) continue;
        label_seen_at[l] = i + 1;
        labels.push_back(label);
      }
      for (int32_t label : labels) AddToRange(label, kernel, dur);
      AddStack(kernel, labels, dur);
    }
    Finish();
    return true;
  }

 private:
  int32_t KernelOf(size_t i) {
    const int32_t id = kernel_ids_.IdOf(k_.short_name[i]);
    if (static_cast<size_t>(id) == out_.kernels.size()) {
      out_.kernels.emplace_back();
      out_.kernels.back().short_name = std::string(profile_.strings().view(k_.short_name[i]));
    }
    const int32_t name = name_ids_.IdOf(k_.name[i]);
    if (static_cast<size_t>(name) == names_seen_) {
      ++names_seen_;
      out_.kernels[static_cast<size_t>(id)].names.emplace_back(profile_.strings().view(k_.name[i]));
    }
    return id;
  }

  void AddToRange(int32_t label, int32_t kernel, Ns dur) {
    const int32_t id = range_kernel_.IdOf(PackKey(static_cast<uint32_t>(label), static_cast<uint32_t>(kernel)));
    if (static_cast<size_t>(id) == pairs_.size()) {
      pairs_.push_back({label, {kernel, 0, 0, 0, 0}});
      durations_.emplace_back();
    }
    auto& rk = pairs_[static_cast<size_t>(id)].second;
    ++rk.calls;
    rk.gpu_ns += dur;
    if (!out_.percentiles) return;
    if (++samples_ > kMaxPercentileSamples) {
      out_.percentiles = false;
      durations_.clear();
      durations_.shrink_to_fit();
      return;
    }
    durations_[static_cast<size_t>(id)].push_back(dur);
  }

  void AddStack(int32_t kernel, const std::vector<int32_t>& labels, Ns dur) {
    std::string key(reinterpret_cast<const char*>(&kernel), sizeof kernel);
    key.append(reinterpret_cast<const char*>(labels.data()), labels.size() * sizeof(int32_t));
    auto [it, added] = stack_ids_.try_emplace(std::move(key), out_.stacks.size());
    if (added) out_.stacks.push_back({kernel, labels, 0, 0});
    NvtxRangeBreakdown::Stack& s = out_.stacks[it->second];
    ++s.calls;
    s.gpu_ns += dur;
  }

  void Finish() {
    for (size_t id = 0; id < pairs_.size(); ++id) {
      auto& [label, rk] = pairs_[id];
      if (out_.percentiles) {
        rk.p50_ns = NearestRank(durations_[id], 50);
        rk.p90_ns = NearestRank(durations_[id], 90);
      }
      out_.ranges[static_cast<size_t>(label)].kernels.push_back(rk);
    }
    for (auto& range : out_.ranges) {
      std::sort(range.kernels.begin(), range.kernels.end(), [&](const auto& a, const auto& b) {
        if (a.gpu_ns != b.gpu_ns) return a.gpu_ns > b.gpu_ns;
        return out_.kernels[static_cast<size_t>(a.kernel)].short_name <
               out_.kernels[static_cast<size_t>(b.kernel)].short_name;
      });
    }
  }

  const engine::Profile& profile_;
  const engine::KernelTable& k_;
  const engine::RuntimeTable& rt_;
  const engine::NvtxTable& nvtx_;
  const std::vector<int32_t>& label_of_;
  NvtxRangeBreakdown& out_;
  DenseIndex kernel_ids_;  // short name -> kernel
  DenseIndex name_ids_;    // demangled name -> first-seen order
  size_t names_seen_ = 0;
  DenseIndex range_kernel_;  // PackKey(label, kernel) -> pair
  std::vector<std::pair<int32_t, NvtxRangeBreakdown::RangeKernel>> pairs_;
  std::vector<std::vector<int64_t>> durations_;
  size_t samples_ = 0;
  std::unordered_map<std::string, size_t> stack_ids_;  // kernel + labels -> stack
};

}  // namespace

Expected<NvtxRangeBreakdown> ComputeNvtxRangeBreakdown(const engine::Profile& profile, const CancelToken& cancel) {
  NvtxRangeBreakdown out;
  const engine::ProfileInfo& info = profile.info();
  if (!info.caps.nvtx) return out;
  auto labels_or = NvtxLabels::Build(profile, false, cancel);
  if (!labels_or) return labels_or.error();
  NvtxLabels& labels = labels_or.value();
  const engine::NvtxTable& nvtx = profile.nvtx();
  std::vector<int32_t> label_of(nvtx.size(), -1);
  std::vector<size_t> representative;
  DenseIndex label_thread, threads;
  for (size_t j = 0; j < nvtx.size(); ++j) {
    if ((j & 0xFFFF) == 0 && cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
    const int32_t label = labels.LabelOf(j);
    label_of[j] = label;
    const auto l = static_cast<size_t>(label);
    if (l >= out.ranges.size()) {
      out.ranges.resize(l + 1);
      representative.resize(l + 1, j);
    }
    NvtxRangeBreakdown::Range& r = out.ranges[l];
    const Ns dur = nvtx.end[j] - nvtx.start[j];
    if (r.instances == 0 || dur > r.longest_end - r.longest_start) {
      r.longest_start = nvtx.start[j];
      r.longest_end = nvtx.end[j];
    }
    if (r.instances == 0) representative[l] = j;
    ++r.instances;
    r.wall_ns += dur;
    const int32_t thread = threads.IdOf(PackKey(nvtx.pid[j], nvtx.tid[j]));
    const size_t pairs = label_thread.size();
    label_thread.IdOf(PackKey(static_cast<uint32_t>(label), static_cast<uint32_t>(thread)));
    if (label_thread.size() > pairs) ++r.threads;  // a (label, thread) pair seen for the first time
  }
  for (size_t l = 0; l < out.ranges.size(); ++l) {
    out.ranges[l].label = labels.Text(static_cast<int32_t>(l));
    out.ranges[l].text = std::string(profile.strings().view(nvtx.name[representative[l]]));
  }
  out.nvtx_data = !out.ranges.empty();
  out.kernel_data = info.caps.kernels && info.caps.runtime;
  if (!out.kernel_data) return out;
  KernelPass pass(profile, label_of, out);
  if (!pass.Run(cancel)) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  return out;
}

}  // namespace nsys::skills
