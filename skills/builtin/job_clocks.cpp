// Clock alignment of a job's ranks (job_partials.h's AlignClocks) and its table (job_clock_alignment).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common_gpu_ops.h"
#include "job_common.h"

namespace nsys::skills::job {

std::map<InstanceKey, std::vector<const CollectiveSample*>> MatchInstances(const std::vector<RankPartial>& ranks,
                                                                           size_t min_ranks,
                                                                           const OrdinalShifts& shifts) {
  std::map<InstanceKey, std::vector<const CollectiveSample*>> by_key;
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const CollectiveSample& c : ranks[r].collectives) {
      InstanceKey key = KeyOf(c);
      if (r < shifts.size()) {
        if (auto it = shifts[r].find({c.kind, c.channel}); it != shifts[r].end()) std::get<2>(key) += it->second;
      }
      auto& slot = by_key[key];
      if (slot.empty()) slot.resize(ranks.size(), nullptr);
      slot[r] = &c;
    }
  }
  std::erase_if(by_key, [&](const auto& kv) {
    return static_cast<size_t>(std::count_if(kv.second.begin(), kv.second.end(), [](auto* c) { return c; })) <
           min_ranks;
  });
  return by_key;
}

namespace {

// Step 1: the nodes, in order of their first rank; node_of_rank empty = one node per rank.
std::vector<NodeOffset> NodesOf(size_t rank_count, const std::vector<int32_t>& node_of_rank) {
  std::vector<NodeOffset> nodes;
  std::map<int32_t, size_t> index;
  for (size_t r = 0; r < rank_count; ++r) {
    const int32_t node = r < node_of_rank.size() ? node_of_rank[r] : static_cast<int32_t>(r);
    auto [it, added] = index.emplace(node, nodes.size());
    if (added) {
      nodes.emplace_back();
      nodes.back().node = node;
    }
    nodes[it->second].ranks.push_back(r);
  }
  return nodes;
}

// Step 2: the coarse offset from session start times: a node's capture clock minus UTC, against the reference's.
std::optional<Ns> ClockMinusUtc(const std::vector<RankPartial>& ranks, const NodeOffset& node) {
  std::vector<Ns> v;
  for (size_t r : node.ranks) {
    if (ranks[r].has_session_clock) v.push_back(ranks[r].session_clock_ns - ranks[r].session_utc_ns);
  }
  if (v.empty()) return std::nullopt;
  return MedianOf(std::move(v));
}

// Per matched instance, the median end of each node's ranks that ran it (nullopt where none did), and the
// largest spread of one instance's ends within one node (how simultaneous the ends are on one clock).
struct NodeEnds {
  std::vector<std::vector<std::optional<Ns>>> end;  // [instance][node]
  Ns within_node_spread = 0;
};

NodeEnds EndsByNode(const std::vector<RankPartial>& ranks, const std::vector<NodeOffset>& nodes,
                    const OrdinalShifts& shifts) {
  NodeEnds out;
  for (const auto& [key, samples] : MatchInstances(ranks, 2, shifts)) {
    std::vector<std::optional<Ns>>& row = out.end.emplace_back(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      std::vector<Ns> ends;
      for (size_t r : nodes[n].ranks) {
        if (samples[r]) ends.push_back(samples[r]->end);
      }
      if (ends.empty()) continue;
      const auto [lo, hi] = std::minmax_element(ends.begin(), ends.end());
      out.within_node_spread = std::max(out.within_node_spread, *hi - *lo);
      row[n] = MedianOf(std::move(ends));
    }
  }
  return out;
}

// Step 3: a node's offset from the matched ends: the median difference to the reference node, and the largest
// deviation of one instance from it.
void Refine(const NodeEnds& ends, size_t n, NodeOffset& node) {
  std::vector<Ns> d;
  for (const auto& row : ends.end) {
    if (row[n] && row[0]) d.push_back(*row[n] - *row[0]);
  }
  if (d.empty()) return;
  node.offset_ns = MedianOf(d);
  Ns deviation = 0;
  for (Ns x : d) deviation = std::max(deviation, x > node.offset_ns ? x - node.offset_ns : node.offset_ns - x);
  node.uncertainty_ns = std::max(deviation, ends.within_node_spread);
  node.matched = static_cast<int64_t>(d.size());
  node.method = "nccl_ends";
}

// Matching by position assumes every rank's capture holds the same instances: say so when the counts differ.
void NoteUnevenCounts(const std::vector<RankPartial>& ranks, std::vector<std::string>& notes) {
  std::map<std::pair<uint8_t, int32_t>, std::pair<int64_t, int64_t>> range;  // (kind, channel) -> (fewest, most)
  for (const RankPartial& p : ranks) {
    std::map<std::pair<uint8_t, int32_t>, int64_t> counts;
    for (const CollectiveSample& c : p.collectives) ++counts[{c.kind, c.channel}];
    for (const auto& [key, n] : counts) {
      auto [it, added] = range.emplace(key, std::make_pair(n, n));
      it->second = {std::min(it->second.first, n), std::max(it->second.second, n)};
    }
  }
  for (const auto& [key, r] : range) {
    if (r.first == r.second) continue;
    notes.push_back(fmt::format(
        "Ranks ran from {} to {} {} kernels on communication stream #{}: instances are matched by position after "
        "the ordinal shifts noted here (captures that start at different instances); if a capture also lacks "
        "instances in the middle, offsets and stragglers are doubtful.",
        r.first, r.second, CollectiveKindName(key.first), key.second));
  }
}

void NoteShifts(const std::vector<RankPartial>& ranks, const OrdinalShifts& shifts, std::vector<std::string>& notes) {
  size_t shown = 0, total = 0;
  for (size_t r = 0; r < shifts.size(); ++r) {
    for (const auto& [channel, shift] : shifts[r]) {
      ++total;
      if (shown++ >= 8) continue;
      notes.push_back(fmt::format(
          "Rank {} ({}): its {} kernels on communication stream #{} line up with rank 0's when its k-th is rank 0's "
          "(k {} {})-th (its capture starts at a different instance).",
          r, ranks[r].label, CollectiveKindName(channel.first), channel.second, shift < 0 ? '-' : '+',
          shift < 0 ? -shift : shift));
    }
  }
  if (total > 8) notes.push_back(fmt::format("{} more ranks' streams are shifted likewise.", total - 8));
}

}  // namespace

ClockAlignment AlignClocks(const std::vector<RankPartial>& ranks, const std::vector<int32_t>& node_of_rank) {
  ClockAlignment out;
  if (ranks.empty()) return out;
  out.nodes = NodesOf(ranks.size(), node_of_rank);
  const std::optional<Ns> reference = ClockMinusUtc(ranks, out.nodes[0]);
  out.ordinal_shift = FindOrdinalShifts(ranks);
  const NodeEnds ends = EndsByNode(ranks, out.nodes, out.ordinal_shift);
  for (size_t n = 0; n < out.nodes.size(); ++n) {
    NodeOffset& node = out.nodes[n];
    if (n == 0) {
      node.method = "reference";
      node.matched = static_cast<int64_t>(ends.end.size());
      continue;
    }
    const std::optional<Ns> mine = ClockMinusUtc(ranks, node);
    node.method = "none";
    node.uncertainty_ns = -1;
    if (mine && reference) {
      node.coarse_offset_ns = *mine - *reference;
      node.offset_ns = node.coarse_offset_ns;
      node.method = "session_start";
    }
    Refine(ends, n, node);
  }
  out.rank_offset_ns.assign(ranks.size(), 0);
  out.rank_uncertainty_ns.assign(ranks.size(), 0);
  out.rank_node.assign(ranks.size(), 0);
  for (const NodeOffset& node : out.nodes) {
    for (size_t r : node.ranks) {
      out.rank_node[r] = node.node;
      out.rank_offset_ns[r] = node.offset_ns;
      out.rank_uncertainty_ns[r] = node.uncertainty_ns;
    }
  }
  out.notes.push_back(
      "Clocks: ranks of one node share a clock; each node's offset is its clock minus the reference node's (the "
      "node of rank 0), subtracted from its times. Coarse: the session start (the capture clock at the UTC start "
      "time). Refined: the ends of matched NCCL collective instances (the k-th kernel of a collective on the "
      "rank's c-th communication stream), which are near-simultaneous on every rank: offset = the median over "
      "instances of (node's median end - reference's median end); uncertainty = the largest deviation of one "
      "instance from it, or the largest spread of one instance's ends within a node if larger. It is an estimate "
      "from the data, not a bound.");
  NoteUnevenCounts(ranks, out.notes);
  NoteShifts(ranks, out.ordinal_shift, out.notes);
  if (ends.end.empty() && ranks.size() > 1) {
    out.notes.push_back(
        "No collective instance was matched on two or more ranks: offsets come from session start times only, with "
        "unknown uncertainty (NTP-synchronised clocks typically agree within a millisecond).");
  }
  return out;
}

Merged<ClockAlignment> MergeClockTable(const std::vector<RankPartial>& ranks,
                                       const std::vector<int32_t>& node_of_rank) {
  Merged<ClockAlignment> m;
  m.figures = AlignClocks(ranks, node_of_rank);
  m.table.columns = {
      builtin::IntCol("node", "Node (ranks sharing one clock)"),
      builtin::IntCol("ranks", "Ranks on the node"),
      builtin::StringCol("first_rank_file", "The node's first rank file"),
      builtin::IntCol("offset_ns", "Node clock minus the reference node's clock (subtract from the node's times)"),
      builtin::IntCol("uncertainty_ns", "Estimated error of offset_ns; null when unknown"),
      builtin::IntCol("coarse_offset_ns", "Offset from session start times alone"),
      builtin::IntCol("matched_collectives", "Collective instances the refinement used"),
      builtin::StringCol("method", "reference, nccl_ends, session_start or none")};
  for (const NodeOffset& node : m.figures.nodes) {
    m.table.rows.push_back({builtin::I(node.node), builtin::I(static_cast<int64_t>(node.ranks.size())),
                            builtin::S(ranks[node.ranks.front()].label), builtin::I(node.offset_ns),
                            node.uncertainty_ns < 0 ? builtin::Null() : builtin::I(node.uncertainty_ns),
                            builtin::I(node.coarse_offset_ns), builtin::I(node.matched), builtin::S(node.method)});
  }
  m.table.notes = m.figures.notes;
  return m;
}

}  // namespace nsys::skills::job
