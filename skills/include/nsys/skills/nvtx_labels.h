#pragma once
// The name `nsys stats` gives an NVTX range, as dense label ids so that NVTX skills group without string work.
//
// nsys names a range "<domain>:<text>" when its domain was created (an eventType 75 row) in the same process,
// else just its text. PyTorch writes a unique ", op_id = N" suffix into every range; the engine interns the
// name without it and keeps the number. By default labels drop the suffix (one row per operator, what people
// want); with split_op_id every op_id is its own label, exactly as nsys groups full texts.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/engine/profile.h"
#include "nsys/skills/stats.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::skills {

class NvtxLabels {
 public:
  // Reads domain names (one scan of NVTX_EVENTS for eventType 75) only when a range uses a non-default domain.
  // Needs kNvtx loaded.
  static Expected<NvtxLabels> Build(const engine::Profile& profile, bool split_op_id, const CancelToken& cancel);

  // Dense label id of NVTX row `row` (assigned on first sight). Inline fast path: a vector lookup by name id when
  // no domain prefix or op id split applies.
  int32_t LabelOf(size_t row) {
    if (by_name_only_) {
      const engine::StrId name = nvtx_->name[row];
      if (name < by_name_.size() && by_name_[name] >= 0) return by_name_[name];
    }
    return LabelOfSlow(row);
  }
  std::string Text(int32_t label) const;
  size_t size() const { return representative_.size(); }
  // A note for skills when domain names could not be read (the labels then lack the "<domain>:" prefix).
  const std::string& warning() const { return warning_; }

 private:
  struct SlowKey {
    engine::StrId name;
    uint32_t domain_prefix;
    int64_t op_id;
    bool operator==(const SlowKey&) const = default;
  };
  struct SlowKeyHash {
    size_t operator()(const SlowKey& k) const {
      return std::hash<uint64_t>()((static_cast<uint64_t>(k.name) << 32) ^ k.domain_prefix ^
                                   (static_cast<uint64_t>(k.op_id) * 0x9E3779B97F4A7C15ull));
    }
  };

  explicit NvtxLabels(const engine::Profile& profile, bool split_op_id)
      : profile_(&profile), nvtx_(&profile.nvtx()), split_op_id_(split_op_id) {}
  int32_t LabelOfSlow(size_t row);
  int32_t NewLabel(size_t row, uint32_t domain_prefix);

  const engine::Profile* profile_;
  const engine::NvtxTable* nvtx_;
  bool split_op_id_;
  bool by_name_only_ = false;  // no domain prefixes and no op id split: the label is a function of the name id
  std::unordered_map<uint64_t, uint32_t> domain_prefix_of_;  // (pid << 32 | domainId) -> 1 + index in prefixes_
  std::vector<std::string> prefixes_;
  std::vector<int32_t> by_name_;  // StrId -> label, for rows with no domain prefix and no op_id split
  // (op_id << 32 | name) -> index into label_of_name_op_, for split_op_id rows without a domain prefix: one
  // open-addressing probe per row instead of a node-based hash map (tens of millions of PyTorch ranges).
  DenseIndex by_name_op_;
  std::vector<int32_t> label_of_name_op_;
  std::unordered_map<SlowKey, int32_t, SlowKeyHash> by_key_;
  std::vector<int32_t> representative_;  // label -> a row carrying it
  std::vector<uint32_t> label_prefix_;   // label -> domain prefix (0 = none)
  std::string warning_;
};

// "PushPop" or "StartEnd", as nsys prints the style.
std::string_view NvtxStyleName(engine::NvtxStyle style);

// PyTorch's NVTX texts "aten::linear, seq = 47485" carry a sequence number that differs on every call and between
// runs: the text without it (unchanged when it has no such all-digit suffix), so the same operator groups as one.
std::string_view WithoutSeqSuffix(std::string_view name);

}  // namespace nsys::skills
