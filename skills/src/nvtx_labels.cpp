#include "nsys/skills/nvtx_labels.h"

#include <fmt/format.h>

#include <variant>

namespace nsys::skills {

Expected<NvtxLabels> NvtxLabels::Build(const engine::Profile& profile, bool split_op_id, const CancelToken& cancel) {
  NvtxLabels labels(profile, split_op_id);
  const engine::NvtxTable& nvtx = profile.nvtx();
  bool any_domain = false;
  for (const engine::NvtxAttributes& a : nvtx.attributes) any_domain = any_domain || a.domain != 0;
  if (any_domain) {
    // Domain-create rows are not ranges, so the engine does not load them; they are few, read them here.
    auto result = profile.Query(
        "SELECT domainId, (globalTid >> 24) & 16777215, text FROM NVTX_EVENTS WHERE eventType = 75 ORDER BY start",
        cancel);
    if (!result) {
      if (result.error().kind == ErrorKind::kCancelled) return result.error();
      labels.warning_ =
          fmt::format("NVTX domain names could not be read ({}), so range names lack their \"<domain>:\" prefix.",
                      result.error().message);
    } else {
      for (const auto& row : result->rows) {
        if (row.size() < 3) continue;
        const auto* domain = std::get_if<int64_t>(&row[0]);
        const auto* pid = std::get_if<int64_t>(&row[1]);
        const auto* text = std::get_if<std::string>(&row[2]);
        if (!domain || !pid || !text) continue;
        const uint64_t key = (static_cast<uint64_t>(*pid) << 32) | static_cast<uint32_t>(*domain);
        if (labels.domain_prefix_of_.count(key)) continue;  // the first creation wins, as in nsys (min(start))
        labels.prefixes_.push_back(*text);
        labels.domain_prefix_of_[key] = static_cast<uint32_t>(labels.prefixes_.size());
      }
    }
  }
  labels.by_name_.assign(profile.strings().size(), -1);
  labels.by_name_only_ = labels.domain_prefix_of_.empty() && !split_op_id;
  return labels;
}

int32_t NvtxLabels::NewLabel(size_t row, uint32_t domain_prefix) {
  const auto label = static_cast<int32_t>(representative_.size());
  representative_.push_back(static_cast<int32_t>(row));
  label_prefix_.push_back(domain_prefix);
  return label;
}

int32_t NvtxLabels::LabelOfSlow(size_t row) {
  const engine::NvtxTable& nvtx = profile_->nvtx();
  uint32_t prefix = 0;
  const int32_t domain = nvtx.Attributes(row).domain;
  if (domain != 0 && !domain_prefix_of_.empty()) {
    const uint64_t key = (static_cast<uint64_t>(nvtx.pid[row]) << 32) | static_cast<uint32_t>(domain);
    if (auto it = domain_prefix_of_.find(key); it != domain_prefix_of_.end()) prefix = it->second;
  }
  const engine::StrId name = nvtx.name[row];
  const int64_t op_id = split_op_id_ ? nvtx.op_id[row] : -1;
  if (prefix == 0 && op_id < 0) {
    if (name >= by_name_.size()) by_name_.resize(static_cast<size_t>(name) + 1, -1);
    int32_t& slot = by_name_[name];
    if (slot < 0) slot = NewLabel(row, 0);
    return slot;
  }
  if (prefix == 0 && op_id >= 0 && op_id <= UINT32_MAX) {
    const auto index = static_cast<size_t>(by_name_op_.IdOf((static_cast<uint64_t>(op_id) << 32) | name));
    if (index == label_of_name_op_.size()) label_of_name_op_.push_back(NewLabel(row, 0));
    return label_of_name_op_[index];
  }
  const SlowKey key{name, prefix, op_id};
  auto [it, inserted] = by_key_.try_emplace(key, 0);
  if (inserted) it->second = NewLabel(row, prefix);
  return it->second;
}

std::string NvtxLabels::Text(int32_t label) const {
  const auto row = static_cast<size_t>(representative_[static_cast<size_t>(label)]);
  const engine::NvtxTable& nvtx = profile_->nvtx();
  std::string text = split_op_id_ && nvtx.op_id[row] >= 0 ? profile_->NvtxFullName(static_cast<int32_t>(row))
                                                          : std::string(profile_->strings().view(nvtx.name[row]));
  const uint32_t prefix = label_prefix_[static_cast<size_t>(label)];
  if (prefix == 0) return text;
  return prefixes_[prefix - 1] + ":" + text;
}

std::string_view NvtxStyleName(engine::NvtxStyle style) {
  return style == engine::NvtxStyle::kStartEnd ? "StartEnd" : "PushPop";
}

std::string_view WithoutSeqSuffix(std::string_view name) {
  constexpr std::string_view kSeq = ", seq = ";
  const auto at = name.rfind(kSeq);
  if (at == std::string_view::npos || at + kSeq.size() == name.size()) return name;
  for (size_t i = at + kSeq.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

}  // namespace nsys::skills
