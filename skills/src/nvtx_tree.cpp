// NvtxTreeChildren: one pass over the NVTX ranges builds a trie of name paths per thread (ranges are sorted so that
// parents precede children, so each range's node is its parent's node's child by name), one pass over the kernels
// adds each kernel's GPU time to the nodes of the ranges enclosing its launch call (the push/pop stack through the
// trie's parents, plus same-thread start/end ranges via common_nvtx_stack.h), then the asked level is read off.
// Linear in ranges + kernels x depth; the trie has one node per distinct path, not per range.
#include "nsys/skills/nvtx_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "../builtin/common_nvtx_stack.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/stats.h"
#include "nsys/support/cancel.h"

namespace nsys::skills {
namespace {

using engine::Ns;

struct Interval {
  Ns start = 0;
  Ns end = 0;
  Ns length = -1;
  void Offer(Ns s, Ns e) {
    if (e - s > length) {
      start = s;
      end = e;
      length = e - s;
    }
  }
};

struct TrieNode {
  int32_t parent = -1;  // -1: a thread's root
  engine::StrId name = 0;
  uint32_t pid = 0, tid = 0;
  int64_t instances = 0, wall = 0, gpu = 0, kernels = 0;
  Interval longest;
  Ns first = INT64_MAX, last = INT64_MIN;  // thread roots: the span of their ranges
  bool has_children = false;
};

struct KernelGroup {
  int32_t node = -1;
  engine::StrId short_name = 0;
  int64_t count = 0, gpu = 0;
  Interval longest;
};

// Reads a decimal number from `text` at `pos`, advancing it; false when there is none or it does not fit.
bool ReadNumber(const std::string& text, size_t& pos, uint32_t& out) {
  const char* begin = text.data() + pos;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  if (ec != std::errc() || ptr == begin) return false;
  pos = static_cast<size_t>(ptr - text.data());
  return true;
}

class Tree {
 public:
  Tree(const engine::Profile& profile, const engine::Filter& filter)
      : profile_(profile), filter_(filter), nvtx_(profile.nvtx()) {}

  // The passes, then each node's children listed once, so that a level is read without scanning every node; the
  // per-range node map (4 bytes a range) is only needed while building and is dropped.
  bool Build(const CancelToken& cancel) {
    if (!AddRanges(cancel) || !AddKernels(cancel)) return false;
    std::vector<int32_t>().swap(node_of_range_);
    child_ranges_.assign(nodes_.size(), {});
    child_groups_.assign(nodes_.size(), {});
    for (size_t n = 0; n < nodes_.size(); ++n) {
      const TrieNode& node = nodes_[n];
      if (node.parent >= 0 && (node.instances > 0 || node.has_children)) {
        child_ranges_[static_cast<size_t>(node.parent)].push_back(static_cast<int32_t>(n));
      }
    }
    for (size_t g = 0; g < groups_.size(); ++g) {
      child_groups_[static_cast<size_t>(groups_[g].node)].push_back(static_cast<int32_t>(g));
    }
    return true;
  }

  size_t Bytes() const {
    size_t bytes = nodes_.size() * sizeof(TrieNode) + groups_.size() * sizeof(KernelGroup) +
                   canonical_.size() * sizeof(engine::StrId) + (child_node_.size() + thread_root_.size()) * 4 +
                   (threads_.size() + children_.size() + kernel_index_.size()) * 24 +
                   (nodes_.size() + groups_.size()) * 4 + 2 * nodes_.size() * sizeof(std::vector<int32_t>);
    for (const auto& [base, id] : by_base_) bytes += base.size() + 48;
    return bytes;
  }

  // The node an id names: {node, kernel group or -1}; node -1 when it names nothing.
  std::pair<int32_t, int32_t> Resolve(const std::string& id) const {
    size_t pos = 1;
    uint32_t pid = 0, tid = 0;
    if (id.empty() || id[0] != 't' || !ReadNumber(id, pos, pid) || pos >= id.size() || id[pos] != '.') return {-1, -1};
    ++pos;
    if (!ReadNumber(id, pos, tid)) return {-1, -1};
    const int32_t thread = threads_.Find(PackKey(pid, tid));
    if (thread < 0) return {-1, -1};
    int32_t node = thread_root_[static_cast<size_t>(thread)];
    while (pos < id.size() && id[pos] == '/') {
      ++pos;
      uint32_t name = 0;
      if (!ReadNumber(id, pos, name)) return {-1, -1};
      const int32_t child = children_.Find(PackKey(static_cast<uint32_t>(node), name));
      if (child < 0) return {-1, -1};
      node = child_node_[static_cast<size_t>(child)];
    }
    if (pos == id.size()) return {node, -1};
    uint32_t short_name = 0;
    if (id[pos] != '#' || !ReadNumber(id, ++pos, short_name) || pos != id.size()) return {-1, -1};
    const int32_t group = kernel_index_.Find(PackKey(static_cast<uint32_t>(node), short_name));
    return group < 0 ? std::pair<int32_t, int32_t>{-1, -1} : std::pair<int32_t, int32_t>{node, group};
  }

  NvtxTreeLevel Threads(size_t max_children) const {
    std::vector<int32_t> roots;
    for (int32_t root : thread_root_) {
      if (nodes_[static_cast<size_t>(root)].instances > 0) roots.push_back(root);
    }
    std::sort(roots.begin(), roots.end(), [&](int32_t a, int32_t b) {
      const TrieNode& x = nodes_[static_cast<size_t>(a)];
      const TrieNode& y = nodes_[static_cast<size_t>(b)];
      if (x.wall != y.wall) return x.wall > y.wall;
      return std::tie(x.pid, x.tid) < std::tie(y.pid, y.tid);
    });
    NvtxTreeLevel level;
    for (int32_t root : roots) {
      if (level.nodes.size() == max_children) {
        level.truncated = true;
        break;
      }
      level.nodes.push_back(NodeOf(root));
    }
    return level;
  }

  NvtxTreeLevel Children(int32_t parent, size_t max_children) const {
    std::vector<int32_t> ranges = child_ranges_[static_cast<size_t>(parent)];
    std::sort(ranges.begin(), ranges.end(), [&](int32_t a, int32_t b) {
      const TrieNode& x = nodes_[static_cast<size_t>(a)];
      const TrieNode& y = nodes_[static_cast<size_t>(b)];
      if (x.gpu != y.gpu) return x.gpu > y.gpu;
      if (x.wall != y.wall) return x.wall > y.wall;
      return Name(x.name) < Name(y.name);
    });
    std::vector<int32_t> kernels = child_groups_[static_cast<size_t>(parent)];
    std::sort(kernels.begin(), kernels.end(), [&](int32_t a, int32_t b) {
      const KernelGroup& x = groups_[static_cast<size_t>(a)];
      const KernelGroup& y = groups_[static_cast<size_t>(b)];
      if (x.gpu != y.gpu) return x.gpu > y.gpu;
      return Name(x.short_name) < Name(y.short_name);
    });
    NvtxTreeLevel level;
    level.truncated = ranges.size() + kernels.size() > max_children;
    for (int32_t n : ranges) {
      if (level.nodes.size() == max_children) return level;
      level.nodes.push_back(NodeOf(n));
    }
    for (int32_t g : kernels) {
      if (level.nodes.size() == max_children) return level;
      level.nodes.push_back(KernelNodeOf(g));
    }
    return level;
  }

 private:
  std::string_view Name(engine::StrId id) const { return profile_.strings().view(id); }

  // The name id a range groups under: the first id seen whose text is the same without PyTorch's ", seq = N"
  // suffix (every call has its own N), so one operator is one node rather than one node per call.
  engine::StrId Canonical(engine::StrId id) {
    if (id >= canonical_.size()) canonical_.resize(static_cast<size_t>(id) + 1, kUnset);
    if (canonical_[id] == kUnset) {
      const std::string_view text = Name(id);
      const std::string_view base = WithoutSeqSuffix(text);
      canonical_[id] = base.size() == text.size() ? id : by_base_.emplace(std::string(base), id).first->second;
    }
    return canonical_[id];
  }

  int32_t NewNode(int32_t parent, engine::StrId name, uint32_t pid, uint32_t tid) {
    TrieNode node;
    node.parent = parent;
    node.name = name;
    node.pid = pid;
    node.tid = tid;
    nodes_.push_back(node);
    return static_cast<int32_t>(nodes_.size() - 1);
  }
  int32_t ThreadRoot(uint32_t pid, uint32_t tid) {
    const auto thread = static_cast<size_t>(threads_.IdOf(PackKey(pid, tid)));
    if (thread == thread_root_.size()) thread_root_.push_back(NewNode(-1, 0, pid, tid));
    return thread_root_[thread];
  }
  int32_t Child(int32_t parent, engine::StrId name) {
    const auto child = static_cast<size_t>(children_.IdOf(PackKey(static_cast<uint32_t>(parent), name)));
    if (child == child_node_.size()) {
      const TrieNode& p = nodes_[static_cast<size_t>(parent)];
      child_node_.push_back(NewNode(parent, name, p.pid, p.tid));
    }
    return child_node_[child];
  }

  bool AddRanges(const CancelToken& cancel) {
    node_of_range_.assign(nvtx_.size(), -1);
    for (size_t j = 0; j < nvtx_.size(); ++j) {
      if ((j & 0xFFFF) == 0 && cancel.cancelled()) return false;
      const uint32_t pid = nvtx_.pid[j], tid = nvtx_.tid[j];
      if (!filter_.AcceptsProcess(pid) || !filter_.AcceptsThread(pid, tid)) continue;
      const int32_t up = nvtx_.parent[j];
      const int32_t parent = up >= 0 ? node_of_range_[static_cast<size_t>(up)] : ThreadRoot(pid, tid);
      if (parent < 0) continue;
      const int32_t node = Child(parent, Canonical(nvtx_.name[j]));
      node_of_range_[j] = node;
      if (!filter_.InWindow(nvtx_.start[j])) continue;
      const Ns start = nvtx_.start[j], end = nvtx_.end[j];
      TrieNode& n = nodes_[static_cast<size_t>(node)];
      ++n.instances;
      n.wall += end - start;
      n.longest.Offer(start, end);
      nodes_[static_cast<size_t>(parent)].has_children = true;
      TrieNode& root = nodes_[static_cast<size_t>(ThreadRoot(pid, tid))];
      root.first = std::min(root.first, start);
      root.last = std::max(root.last, end);
      if (up < 0) {
        ++root.instances;
        root.wall += end - start;
      }
    }
    return true;
  }

  void AddGpu(int32_t node, Ns dur) {
    TrieNode& n = nodes_[static_cast<size_t>(node)];
    n.gpu += dur;
    ++n.kernels;
  }
  void AddDirect(int32_t node, size_t kernel) {
    const engine::KernelTable& k = profile_.kernels();
    const auto g = static_cast<size_t>(
        kernel_index_.IdOf(PackKey(static_cast<uint32_t>(node), static_cast<uint32_t>(k.short_name[kernel]))));
    if (g == groups_.size()) groups_.push_back({node, k.short_name[kernel], 0, 0, {}});
    KernelGroup& group = groups_[g];
    ++group.count;
    group.gpu += k.end[kernel] - k.start[kernel];
    group.longest.Offer(k.start[kernel], k.end[kernel]);
    nodes_[static_cast<size_t>(node)].has_children = true;
  }

  bool AddKernels(const CancelToken& cancel) {
    const engine::KernelTable& k = profile_.kernels();
    const engine::RuntimeTable& rt = profile_.runtime();
    const auto start_end = builtin::StartEndRangesByThread::Build(nvtx_);
    std::vector<int32_t> enclosing;
    WorkMeter work(cancel);  // a kernel costs its node's ancestors and the ranges around it (issue 38: 100,000 nested)
    for (size_t i = 0; i < k.size(); ++i) {
      if (!work.Add(1)) return false;
      const int32_t r = k.launch[i];
      if (r < 0 || !filter_.AcceptsDevice(k.device[i]) || !filter_.InWindow(k.start[i])) continue;
      const auto call = static_cast<size_t>(r);
      const uint32_t pid = rt.pid[call], tid = rt.tid[call];
      const int32_t thread = threads_.Find(PackKey(pid, tid));
      if (thread < 0) continue;  // no NVTX range on the launching thread (or filtered out)
      const Ns dur = k.end[i] - k.start[i];
      bool inside = false;
      const int32_t innermost = rt.nvtx[call];
      if (innermost >= 0 && node_of_range_[static_cast<size_t>(innermost)] >= 0) {
        const int32_t node = node_of_range_[static_cast<size_t>(innermost)];
        AddDirect(node, i);
        for (int32_t n = node; nodes_[static_cast<size_t>(n)].parent >= 0; n = nodes_[static_cast<size_t>(n)].parent) {
          AddGpu(n, dur);
          work.Count(1);
        }
        inside = true;
      }
      enclosing.clear();
      const int32_t se_thread = start_end.threads.Find(PackKey(pid, tid));
      if (se_thread >= 0) {
        work.Count(
            start_end.AppendEnclosing(static_cast<size_t>(se_thread), rt.start[call], rt.end[call], nvtx_, enclosing));
      }
      work.Count(enclosing.size());
      for (int32_t j : enclosing) {
        const int32_t node = node_of_range_[static_cast<size_t>(j)];
        if (node < 0) continue;
        AddDirect(node, i);
        AddGpu(node, dur);
        inside = true;
      }
      if (inside) AddGpu(thread_root_[static_cast<size_t>(thread)], dur);
    }
    return true;
  }

  std::string IdOf(int32_t node) const {
    std::vector<engine::StrId> path;
    int32_t n = node;
    for (; nodes_[static_cast<size_t>(n)].parent >= 0; n = nodes_[static_cast<size_t>(n)].parent) {
      path.push_back(nodes_[static_cast<size_t>(n)].name);
    }
    const TrieNode& root = nodes_[static_cast<size_t>(n)];
    std::string id = fmt::format("t{}.{}", root.pid, root.tid);
    for (auto it = path.rbegin(); it != path.rend(); ++it) id += fmt::format("/{}", *it);
    return id;
  }

  std::string ThreadName(uint32_t pid, uint32_t tid) const {
    const engine::ProfileInfo& info = profile_.info();
    for (const engine::Thread& t : info.threads) {
      if (t.pid == pid && t.tid == tid && !t.name.empty()) return t.name;
    }
    for (const engine::Process& p : info.processes) {
      if (p.pid == pid && !p.name.empty()) return p.name;
    }
    return "thread";
  }

  NvtxTreeNode NodeOf(int32_t index) const {
    const TrieNode& n = nodes_[static_cast<size_t>(index)];
    NvtxTreeNode out;
    out.id = IdOf(index);
    out.pid = n.pid;
    out.tid = n.tid;
    out.instances = n.instances;
    out.wall_ns = n.wall;
    out.gpu_ns = n.gpu;
    out.kernel_count = n.kernels;
    out.has_children = n.has_children;
    if (n.parent < 0) {
      out.kind = NvtxTreeNodeKind::kThread;
      out.name = ThreadName(n.pid, n.tid);
      out.label = fmt::format("{} (pid {}, tid {})", out.name, n.pid, n.tid);
      out.start_ns = n.first == INT64_MAX ? 0 : n.first;
      out.end_ns = n.last == INT64_MIN ? 0 : n.last;
      return out;
    }
    out.kind = NvtxTreeNodeKind::kRange;
    out.name = std::string(WithoutSeqSuffix(Name(n.name)));
    out.label = out.name;
    out.start_ns = n.longest.start;
    out.end_ns = n.longest.end;
    return out;
  }

  NvtxTreeNode KernelNodeOf(int32_t index) const {
    const KernelGroup& g = groups_[static_cast<size_t>(index)];
    const TrieNode& n = nodes_[static_cast<size_t>(g.node)];
    NvtxTreeNode out;
    out.id = fmt::format("{}#{}", IdOf(g.node), g.short_name);
    out.kind = NvtxTreeNodeKind::kKernel;
    out.name = std::string(Name(g.short_name));
    out.label = out.name;
    out.pid = n.pid;
    out.tid = n.tid;
    out.instances = g.count;
    out.wall_ns = g.gpu;
    out.gpu_ns = g.gpu;
    out.kernel_count = g.count;
    out.start_ns = g.longest.start;
    out.end_ns = g.longest.end;
    return out;
  }

  const engine::Profile& profile_;
  const engine::Filter filter_;
  const engine::NvtxTable& nvtx_;
  std::vector<TrieNode> nodes_;
  DenseIndex threads_;                // PackKey(pid, tid) -> thread
  std::vector<int32_t> thread_root_;  // thread -> node
  DenseIndex children_;               // PackKey(parent node, name) -> child
  std::vector<int32_t> child_node_;   // child -> node
  std::vector<int32_t> node_of_range_;
  DenseIndex kernel_index_;  // PackKey(node, short name) -> group
  std::vector<KernelGroup> groups_;
  static constexpr engine::StrId kUnset = UINT32_MAX;
  std::vector<engine::StrId> canonical_;                    // name id -> the id it groups under (Canonical)
  std::unordered_map<std::string, engine::StrId> by_base_;  // text without ", seq = N" -> its first id
  std::vector<std::vector<int32_t>> child_ranges_;          // node -> its range children (Build's last step)
  std::vector<std::vector<int32_t>> child_groups_;          // node -> its kernel groups
};

}  // namespace

std::string_view NvtxTreeNodeKindName(NvtxTreeNodeKind kind) {
  switch (kind) {
    case NvtxTreeNodeKind::kThread:
      return "thread";
    case NvtxTreeNodeKind::kRange:
      return "range";
    case NvtxTreeNodeKind::kKernel:
      return "kernel";
  }
  return "range";
}

struct NvtxTree::Impl {
  Tree tree;
};

NvtxTree::NvtxTree(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NvtxTree::~NvtxTree() = default;

Expected<std::shared_ptr<const NvtxTree>> NvtxTree::Build(const engine::Profile& profile, const engine::Filter& filter,
                                                          const CancelToken& cancel) {
  auto impl = std::make_unique<Impl>(Impl{Tree(profile, filter)});
  if (!impl->tree.Build(cancel)) return Error{ErrorKind::kCancelled, "cancelled"};
  return std::shared_ptr<const NvtxTree>(new NvtxTree(std::move(impl)));
}

size_t NvtxTree::Bytes() const {
  return impl_->tree.Bytes();
}

Expected<NvtxTreeLevel> NvtxTree::Children(const std::string& parent, size_t max_children) const {
  const Tree& tree = impl_->tree;
  if (parent.empty()) return tree.Threads(max_children);
  const auto [node, group] = tree.Resolve(parent);
  if (node < 0) {
    return Error{ErrorKind::kInvalidArgument,
                 fmt::format("parent: '{}' is not a node of this profile's NVTX tree (node ids come from earlier "
                             "nsys/nvtxTree results; omit parent for the threads)",
                             parent)};
  }
  if (group >= 0) return NvtxTreeLevel{};  // a kernel node has no children
  return tree.Children(node, max_children);
}

Expected<NvtxTreeLevel> NvtxTreeChildren(const engine::Profile& profile, const std::string& parent,
                                         const engine::Filter& filter, const CancelToken& cancel, size_t max_children) {
  auto tree = NvtxTree::Build(profile, filter, cancel);
  if (!tree) return tree.error();
  return (*tree)->Children(parent, max_children);
}

}  // namespace nsys::skills
