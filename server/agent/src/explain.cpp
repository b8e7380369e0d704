// ExplainKernel: name matching, one pass over the kernel table for the kernel's rows and each device's kernel time,
// the statistics of those rows, the occupancy estimate, the memoised nvtx_kernel_map rows of the kernel, and the
// Markdown. Nothing is precomputed for the whole profile per request.
#include "nsys/agent/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "explain_internal.h"
#include "nsys/agent/answer.h"
#include "nsys/skills/nvtx_labels.h"
#include "nsys/skills/stats.h"
#include "nsys/support/render_text.h"
#include "text_case.h"

namespace nsys::agent {

namespace explain_text {

std::string Duration(int64_t ns) {
  const double v = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3f} s", v / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3f} ms", v / 1e6);
  if (ns >= 10'000) return fmt::format("{:.1f} µs", v / 1e3);
  if (ns >= 1'000) return fmt::format("{:.2f} µs", v / 1e3);
  return fmt::format("{} ns", ns);
}

std::string Pct(double share) {
  return fmt::format("{:.1f}%", 100.0 * share);
}

}  // namespace explain_text

using explain_text::Duration;
using explain_text::Pct;

namespace {

using engine::KernelTable;
using engine::StrId;

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// A name for lists: the short name when it is shorter, else the name cut at 120 characters.
std::string Shown(std::string_view demangled, std::string_view short_name) {
  std::string_view s = !short_name.empty() && short_name.size() < demangled.size() ? short_name : demangled;
  if (s.size() > 120) return std::string(s.substr(0, 117)) + "...";
  return std::string(s);
}

// The distinct kernel names of the table, each with the short name of its first row.
struct KernelNames {
  std::vector<StrId> names;
  std::vector<StrId> short_of;  // parallel to names
};

// What every explanation of one profile needs from the whole kernel table, built once per loaded profile and kept:
// the distinct names, each name's rows (grouped, ascending) and each device's summed kernel time. Without it every
// hover would re-read the 3.4M rows of the L export (~80 MB of columns); with it a hover reads only its kernel's rows.
struct KernelIndex {
  KernelNames distinct;
  std::vector<int32_t> slot_of_name;  // by name id: index in distinct.names, or -1
  std::vector<uint32_t> offsets;      // distinct.names.size() + 1 offsets into rows
  std::vector<uint32_t> rows;
  std::map<int32_t, int64_t> device_ns;
};

std::shared_ptr<const KernelIndex> BuildIndex(const KernelTable& k) {
  auto index = std::make_shared<KernelIndex>();
  std::vector<uint32_t> count;
  std::vector<uint32_t> slot_of_row(k.size());
  std::array<int64_t, 64> dense{};
  std::array<bool, 64> dense_seen{};
  for (size_t i = 0; i < k.size(); ++i) {
    const StrId n = k.name[i];
    if (n >= index->slot_of_name.size()) index->slot_of_name.resize(static_cast<size_t>(n) + 1, -1);
    int32_t& slot = index->slot_of_name[n];
    if (slot < 0) {
      slot = static_cast<int32_t>(index->distinct.names.size());
      index->distinct.names.push_back(n);
      index->distinct.short_of.push_back(k.short_name[i]);
      count.push_back(0);
    }
    ++count[static_cast<size_t>(slot)];
    slot_of_row[i] = static_cast<uint32_t>(slot);
    const int32_t d = k.device[i];
    const int64_t ns = k.end[i] - k.start[i];
    if (d >= 0 && d < 64) {
      dense[static_cast<size_t>(d)] += ns;
      dense_seen[static_cast<size_t>(d)] = true;
    } else {
      index->device_ns[d] += ns;
    }
  }
  for (size_t d = 0; d < dense.size(); ++d) {
    if (dense_seen[d]) index->device_ns[static_cast<int32_t>(d)] += dense[d];
  }
  index->offsets.assign(count.size() + 1, 0);
  for (size_t c = 0; c < count.size(); ++c) index->offsets[c + 1] = index->offsets[c] + count[c];
  std::vector<uint32_t> next(index->offsets.begin(), index->offsets.end() - 1);
  index->rows.resize(k.size());
  for (size_t i = 0; i < k.size(); ++i) index->rows[next[slot_of_row[i]]++] = static_cast<uint32_t>(i);
  return index;
}

// The index of a loaded profile, from a small cache (the last few profiles explained). A profile is recognised by its
// object, its kernel table's storage and size, so a profile closed and another opened at the same address never
// share an entry unless they hold the same table.
std::shared_ptr<const KernelIndex> IndexOf(const engine::Profile& profile) {
  struct Entry {
    const void* profile;
    const void* storage;
    size_t rows;
    std::shared_ptr<const KernelIndex> index;
  };
  static std::mutex mu;
  static std::vector<Entry> cache;  // most recent last; at most kKept
  constexpr size_t kKept = 4;
  const KernelTable& k = profile.kernels();
  const Entry key{&profile, k.start.data(), k.size(), nullptr};
  std::lock_guard lock(mu);  // concurrent first hovers of one profile build its index once
  for (size_t e = 0; e < cache.size(); ++e) {
    if (cache[e].profile == key.profile && cache[e].storage == key.storage && cache[e].rows == key.rows) {
      Entry hit = cache[e];
      cache.erase(cache.begin() + static_cast<std::ptrdiff_t>(e));
      cache.push_back(hit);
      return hit.index;
    }
  }
  Entry fresh = key;
  fresh.index = BuildIndex(k);
  if (cache.size() == kKept) cache.erase(cache.begin());
  cache.push_back(fresh);
  return fresh.index;
}

// The fewest edits that turn `query` into some substring of `text` (Sellers' approximate substring match): a query
// that is a near part of a long name scores as well as one close to a short name.
size_t SubstringDistance(std::string_view query, std::string_view text) {
  std::vector<size_t> row(text.size() + 1, 0);  // matching may start anywhere in `text`
  for (size_t i = 1; i <= query.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= text.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (query[i - 1] == text[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return *std::min_element(row.begin(), row.end());
}

// The three names closest to the query: by approximate substring distance to the short name, then by length (names
// are compared in lower case and cut at 200 characters, so this costs microseconds per name).
std::vector<std::string> Closest(const KernelNames& kn, const engine::StringPool& strings, const std::string& query) {
  const std::string q = Lower(std::string_view(query).substr(0, 200));
  std::vector<std::pair<size_t, std::string>> scored;
  for (size_t i = 0; i < kn.names.size(); ++i) {
    const std::string_view shorter =
        strings.view(kn.short_of[i]).empty() ? strings.view(kn.names[i]) : strings.view(kn.short_of[i]);
    const std::string s = Lower(shorter.substr(0, 200));
    scored.emplace_back(SubstringDistance(q, s) * 1000 + std::min<size_t>(s.size(), 999),
                        Shown(strings.view(kn.names[i]), strings.view(kn.short_of[i])));
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& [d, name] : scored) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    if (out.size() == 3) break;
  }
  return out;
}

struct Match {
  std::vector<size_t> slots;  // the distinct names explained (indices into the index)
  std::string by;
};

// Demangled name, then short name (several demangled names may share it), then a unique case-insensitive substring.
Expected<Match> MatchKernel(const KernelIndex& index, const engine::StringPool& strings, const std::string& query) {
  Match m;
  const KernelNames& kn = index.distinct;
  if (const std::optional<StrId> id = strings.find(query)) {
    if (*id < index.slot_of_name.size() && index.slot_of_name[*id] >= 0) {
      m.slots.push_back(static_cast<size_t>(index.slot_of_name[*id]));
      m.by = "name";
      return m;
    }
    for (size_t i = 0; i < kn.names.size(); ++i) {
      if (kn.short_of[i] == *id) m.slots.push_back(i);
    }
    if (!m.slots.empty()) {
      m.by = "short name";
      return m;
    }
  }
  const std::string q = Lower(query);
  std::vector<size_t> hits;
  for (size_t i = 0; i < kn.names.size(); ++i) {
    if (Lower(strings.view(kn.names[i])).find(q) != std::string::npos) hits.push_back(i);
  }
  if (hits.size() == 1) {
    m.slots = hits;
    m.by = "substring";
    return m;
  }
  if (hits.size() > 1) {
    std::string some;
    for (size_t h = 0; h < std::min<size_t>(hits.size(), 5); ++h) {
      some += (h ? ", " : "") + Shown(strings.view(kn.names[hits[h]]), strings.view(kn.short_of[hits[h]]));
    }
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("kernel '{}' matches {} kernels in this profile ({}{}); give more of the name, or "
                                 "the full demangled name",
                                 query, hits.size(), some, hits.size() > 5 ? ", ..." : ""));
  }
  std::string closest;
  for (const std::string& c : Closest(kn, strings, query)) closest += (closest.empty() ? "" : ", ") + c;
  return MakeError(ErrorKind::kNotFound,
                   fmt::format("no kernel named '{}' in this profile; closest: {}", query, closest));
}

// The kernel's rows, each device's summed kernel time, and an evenly spread sample of the rows for the per-row
// lookups that touch many columns (launch calls, configurations): on the L export a kernel has 248,000 executions,
// and reading 12 scattered columns for each costs far more than a hover may.
struct Scan {
  std::vector<uint32_t> rows;
  std::vector<uint32_t> sample;
  std::map<int32_t, int64_t> device_ns;
};
constexpr size_t kSampleLimit = 4096;

Scan RowsOf(const KernelIndex& index, const Match& m) {
  Scan s;
  for (size_t slot : m.slots) {
    s.rows.insert(s.rows.end(), index.rows.begin() + index.offsets[slot], index.rows.begin() + index.offsets[slot + 1]);
  }
  s.device_ns = index.device_ns;
  if (s.rows.size() <= kSampleLimit) {
    s.sample = s.rows;
  } else {
    for (size_t n = 0; n < kSampleLimit; ++n) s.sample.push_back(s.rows[n * s.rows.size() / kSampleLimit]);
  }
  return s;
}

// Nearest-rank percentile (q in (0, 1]) of `v`, reordering it.
int64_t Percentile(std::vector<int64_t>& v, double q) {
  if (v.empty()) return 0;
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size()) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank), v.end());
  return v[rank];
}

// The median as `nsys stats` gives it (mean of the two middle values), rounded to ns.
int64_t Median(std::vector<int64_t>& v) {
  return static_cast<int64_t>(std::llround(skills::Summarize(v).median));
}

void FillTimes(const KernelTable& k, const Scan& s, KernelExplanation& e) {
  std::map<int32_t, std::vector<int64_t>> per_device;
  std::vector<int64_t> all;
  all.reserve(s.rows.size());
  for (uint32_t i : s.rows) {
    const int64_t ns = k.end[i] - k.start[i];
    all.push_back(ns);
    per_device[k.device[i]].push_back(ns);
    e.total_ns += ns;
  }
  e.calls = static_cast<int64_t>(all.size());
  e.min_ns = all.empty() ? 0 : *std::min_element(all.begin(), all.end());
  e.max_ns = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
  e.p90_ns = Percentile(all, 0.9);
  e.p50_ns = Median(all);
  for (auto& [device, v] : per_device) {
    KernelDeviceStats d;
    d.device = device;
    d.calls = static_cast<int64_t>(v.size());
    for (int64_t ns : v) d.total_ns += ns;
    const int64_t device_total = s.device_ns.at(device);
    d.share = device_total > 0 ? static_cast<double>(d.total_ns) / static_cast<double>(device_total) : 0;
    d.p90_ns = Percentile(v, 0.9);
    d.p50_ns = Median(v);
    e.devices.push_back(d);
  }
}

void FillLaunch(const engine::Profile& profile, const Scan& s, KernelExplanation& e) {
  const KernelTable& k = profile.kernels();
  const engine::RuntimeTable& rt = profile.runtime();
  std::vector<int64_t> api, queue;
  std::unordered_map<StrId, int64_t> apis;
  for (uint32_t i : s.sample) {
    const int32_t r = k.launch[i];
    if (r < 0 || static_cast<size_t>(r) >= rt.size()) continue;
    const auto rr = static_cast<size_t>(r);
    api.push_back(rt.end[rr] - rt.start[rr]);
    if (k.start[i] >= rt.end[rr]) queue.push_back(k.start[i] - rt.end[rr]);
    ++apis[rt.name[rr]];
  }
  if (api.empty()) return;
  KernelLaunchOverhead l;
  l.launched = static_cast<int64_t>(api.size());
  l.api_p50_ns = Median(api);
  l.queue_p50_ns = Median(queue);
  const auto top = std::max_element(apis.begin(), apis.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first > b.first;
  });
  l.api = std::string(profile.strings().view(top->first));
  if (const size_t v = l.api.find("_v"); v != std::string::npos && v > 0) l.api.resize(v);  // cudaLaunchKernel_v7000
  e.launch = l;
}

std::array<int32_t, 9> ConfigOf(const KernelTable& k, size_t i) {
  const engine::KernelConfig& c = k.Config(i);
  return {c.grid_x,
          c.grid_y,
          c.grid_z,
          c.block_x,
          c.block_y,
          c.block_z,
          c.registers_per_thread,
          c.static_shared_memory,
          c.dynamic_shared_memory};
}

void FillConfigs(const KernelTable& k, const Scan& s, KernelExplanation& e) {
  std::vector<std::pair<std::array<int32_t, 9>, int64_t>> configs;
  size_t last = 0;  // consecutive executions mostly share a configuration
  for (uint32_t i : s.sample) {
    const std::array<int32_t, 9> c = ConfigOf(k, i);
    if (last < configs.size() && configs[last].first == c) {
      ++configs[last].second;
      continue;
    }
    auto it = std::find_if(configs.begin(), configs.end(), [&](const auto& p) { return p.first == c; });
    if (it == configs.end()) {
      configs.push_back({c, 0});
      it = configs.end() - 1;
    }
    ++it->second;
    last = static_cast<size_t>(it - configs.begin());
  }
  std::stable_sort(configs.begin(), configs.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  e.distinct_configs = static_cast<int64_t>(configs.size());
  for (size_t n = 0; n < std::min<size_t>(configs.size(), 3); ++n) {
    const auto& c = configs[n].first;
    KernelLaunchConfig out;
    out.grid = {c[0], c[1], c[2]};
    out.block = {c[3], c[4], c[5]};
    out.registers_per_thread = c[6];
    out.static_shared_bytes = c[7];
    out.dynamic_shared_bytes = c[8];
    out.calls = configs[n].second;
    e.configs.push_back(out);
  }
}

// CUDA's occupancy rules (CUDA C++ Best Practices Guide, "Occupancy"): registers are allocated per warp in units of
// 256, shared memory per block with 1 KiB reserved by the system on compute capability 8.0 and later; blocks per
// SM are bounded by warps, registers, shared memory and the per-SM block limit.
void FillOccupancy(const std::vector<skills::GpuArch>& gpus, int32_t device, KernelExplanation& e) {
  if (e.configs.empty()) return;
  const auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const skills::GpuArch& g) { return g.device == device; });
  if (gpu == gpus.end() || gpu->max_warps_per_sm <= 0 || gpu->max_registers_per_sm <= 0 ||
      gpu->max_blocks_per_sm <= 0) {
    e.occupancy_note =
        fmt::format("No occupancy estimate: the export has no GPU limits for device {} (TARGET_INFO_GPU).", device);
    return;
  }
  const KernelLaunchConfig& c = e.configs.front();
  const int64_t threads = int64_t{c.block[0]} * c.block[1] * c.block[2];
  if (threads <= 0) return;
  KernelOccupancy o;
  o.device = device;
  o.gpu = gpu->name;
  o.sm_count = gpu->sm_count;
  o.warps_per_block = static_cast<int32_t>((threads + gpu->warp_size - 1) / gpu->warp_size);
  std::vector<std::pair<int64_t, std::string>> limits;
  limits.emplace_back(gpu->max_warps_per_sm / o.warps_per_block, "warps");
  limits.emplace_back(gpu->max_blocks_per_sm, "blocks per SM");
  if (c.registers_per_thread > 0) {
    const int64_t per_warp = (int64_t{c.registers_per_thread} * gpu->warp_size + 255) / 256 * 256;
    limits.emplace_back(gpu->max_registers_per_sm / per_warp / o.warps_per_block, "registers");
  }
  const int64_t smem = int64_t{c.static_shared_bytes} + c.dynamic_shared_bytes;
  if (smem > 0 && gpu->max_shared_memory_per_sm > 0) {
    const int64_t reserved = gpu->compute_major >= 8 ? 1024 : 0;
    limits.emplace_back(gpu->max_shared_memory_per_sm / (smem + reserved), "shared memory");
  }
  const auto tightest =
      std::min_element(limits.begin(), limits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  o.blocks_per_sm = static_cast<int32_t>(std::max<int64_t>(0, tightest->first));
  o.limited_by = tightest->second;
  o.occupancy = std::min(1.0, static_cast<double>(o.blocks_per_sm) * o.warps_per_block / gpu->max_warps_per_sm);
  o.grid_blocks = int64_t{c.grid[0]} * c.grid[1] * c.grid[2];
  if (o.blocks_per_sm > 0 && o.sm_count > 0) {
    o.waves = static_cast<double>(o.grid_blocks) / (static_cast<double>(o.blocks_per_sm) * o.sm_count);
  }
  e.occupancy = o;
}

int ColumnOf(const skills::Table& t, std::string_view name) {
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == name) return static_cast<int>(c);
  }
  return -1;
}

int64_t IntOf(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  return 0;
}

// The ranges that launch the kernel, from the memoised nvtx_kernel_map result (the whole profile, default arguments:
// the call the long-lived front ends warm up), summed over processes and threads.
void FillNvtx(const SkillRunner& run, const CancelToken& cancel, KernelExplanation& e) {
  auto table = run("nvtx_kernel_map", {}, engine::FilterSpec{}, cancel);
  if (!table) {
    e.nvtx_note = "NVTX attribution failed: " + table.error().message;
    return;
  }
  if (table->declined) {
    e.nvtx_note = table->notes.empty() ? "No NVTX attribution." : table->notes.front();
    return;
  }
  const int range = ColumnOf(*table, "nvtx_range"), inst = ColumnOf(*table, "kern_inst"),
            total = ColumnOf(*table, "total_time_ns"), name = ColumnOf(*table, "kernel_name");
  if (range < 0 || inst < 0 || total < 0 || name < 0) return;
  std::map<std::string, KernelNvtxRange> by_range;
  int64_t outside = 0;
  for (const std::vector<Value>& row : table->rows) {
    const auto* kname = std::get_if<std::string>(&row[static_cast<size_t>(name)]);
    if (!kname || std::find(e.variants.begin(), e.variants.end(), *kname) == e.variants.end()) continue;
    const auto* rname = std::get_if<std::string>(&row[static_cast<size_t>(range)]);
    if (!rname) {
      outside += IntOf(row[static_cast<size_t>(inst)]);
      continue;
    }
    // One operator, not one row per call: PyTorch numbers each call's range ("aten::addmm, seq = 48068").
    const std::string label(skills::WithoutSeqSuffix(*rname));
    KernelNvtxRange& r = by_range[label];
    r.range = label;
    r.calls += IntOf(row[static_cast<size_t>(inst)]);
    r.total_ns += IntOf(row[static_cast<size_t>(total)]);
  }
  for (auto& [n, r] : by_range) e.nvtx.push_back(std::move(r));
  std::sort(e.nvtx.begin(), e.nvtx.end(), [](const auto& a, const auto& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.range < b.range;
  });
  const size_t ranges = e.nvtx.size();
  if (e.nvtx.size() > 5) e.nvtx.resize(5);
  e.nvtx_note = ranges == 0 ? "No NVTX range on the launching threads contains this kernel's launch calls."
                            : fmt::format("{} range name(s); nested ranges each count the kernel.", ranges);
  if (outside > 0) e.nvtx_note += fmt::format(" {} execution(s) were launched outside any range.", outside);
}

void FillLookAt(KernelExplanation& e, const std::vector<skills::GpuArch>& gpus) {
  const skills::KernelIdentity& id = e.identity;
  const bool tc_gpu =
      std::any_of(gpus.begin(), gpus.end(), [](const skills::GpuArch& g) { return g.compute_major >= 8; });
  double top_share = 0;
  for (const KernelDeviceStats& d : e.devices) top_share = std::max(top_share, d.share);
  if (id.category == "gemm" && id.precision == "fp32" && id.tensor_cores == false) {
    e.look_at.push_back(std::string("An fp32 GEMM on CUDA cores") + (tc_gpu ? " on a GPU with TF32 tensor cores" : "") +
                        ": allowing TF32 (torch.backends.cuda.matmul.allow_tf32 = True) or running in bf16/fp16 "
                        "moves it to tensor cores, typically several times faster.");
  }
  if (top_share >= 0.3) {
    e.look_at.push_back(
        fmt::format("It takes {} of a device's kernel time: the first place to optimise.", Pct(top_share)));
  }
  if (e.launch && e.p50_ns > 0 && e.launch->api_p50_ns >= e.p50_ns) {
    e.look_at.push_back(fmt::format(
        "A typical execution ({}) is no longer than its launch call ({}): the host, not the GPU, sets the pace. "
        "Fuse it with neighbours (torch.compile) or capture the sequence in a CUDA graph.",
        Duration(e.p50_ns), Duration(e.launch->api_p50_ns)));
  } else if (e.p50_ns > 0 && e.p50_ns < 10'000 && e.calls >= 100) {
    e.look_at.push_back(
        fmt::format("{} executions with a median of {}: tiny kernels, where launch overhead and idle "
                    "gaps between them add up; consider fusing.",
                    e.calls, Duration(e.p50_ns)));
  }
  if (e.p50_ns > 0 && e.p90_ns > 2 * e.p50_ns) {
    e.look_at.push_back(fmt::format(
        "p90 ({}) is over twice the median ({}): executions differ (shapes, contention, or waiting); compare the slow "
        "calls with the fast ones.",
        Duration(e.p90_ns), Duration(e.p50_ns)));
  }
  if (e.occupancy && e.occupancy->occupancy < 0.25 && id.tensor_cores != true) {
    e.look_at.push_back(fmt::format("Theoretical occupancy is {} (limited by {}): latency hiding may suffer.",
                                    Pct(e.occupancy->occupancy), e.occupancy->limited_by));
  }
  if (e.occupancy && e.occupancy->waves > 0 && e.occupancy->waves < 0.5) {
    e.look_at.push_back(
        fmt::format("The grid ({} blocks) fills {:.2f} of one wave on {} SMs: most SMs idle; a larger "
                    "batch or a split-K/stream-K configuration would use them.",
                    e.occupancy->grid_blocks, e.occupancy->waves, e.occupancy->sm_count));
  }
  if (id.category == "collective") {
    e.look_at.push_back(
        "A collective's time includes waiting for the other ranks: compare devices (device_imbalance) and check "
        "whether it overlaps compute (nccl_breakdown).");
  }
  if ((id.category == "elementwise" || id.category == "copy") && top_share >= 0.05) {
    e.look_at.push_back(
        "Memory-bound elementwise/copy work with a visible share: fusion (torch.compile) or avoiding "
        "the copies (dtype casts, .contiguous()) saves it.");
  }
  if (e.look_at.empty()) e.look_at.push_back("Nothing stands out for this kernel in this profile.");
}

}  // namespace

Expected<KernelExplanation> ExplainKernel(const engine::Profile& profile, const SkillRunner& run,
                                          const std::string& kernel, const CancelToken& cancel,
                                          const std::string& profile_path) {
  const std::string query = Trim(kernel);
  if (query.empty()) {
    return MakeError(ErrorKind::kInvalidArgument, "kernel: give a kernel name (demangled, short, or a unique part)");
  }
  // A CUDA graph's launch, as the timeline names it: no kernel row holds it on a graph-level capture.
  if (const auto graph = GraphIdOf(query)) return ExplainGraph(run, *graph, cancel, profile_path);
  if (!profile.info().caps.kernels) {
    return MakeError(ErrorKind::kUnsupported,
                     "this profile has no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table), so there is no "
                     "kernel to explain");
  }
  const KernelTable& k = profile.kernels();
  const engine::StringPool& strings = profile.strings();
  const std::shared_ptr<const KernelIndex> index = IndexOf(profile);
  auto match = MatchKernel(*index, strings, query);
  if (!match) return match.error();
  const Scan scan_rows = RowsOf(*index, *match);
  const Scan* scan = &scan_rows;

  KernelExplanation e;
  e.matched_by = match->by;
  // Variants by time, so the first is the one the explanation names.
  std::vector<std::pair<int64_t, StrId>> by_time;
  for (size_t slot : match->slots) {
    int64_t ns = 0;
    for (uint32_t r = index->offsets[slot]; r < index->offsets[slot + 1]; ++r) {
      ns += k.end[index->rows[r]] - k.start[index->rows[r]];
    }
    by_time.emplace_back(-ns, index->distinct.names[slot]);
  }
  std::sort(by_time.begin(), by_time.end());
  for (const auto& [ns, n] : by_time) e.variants.emplace_back(strings.view(n));
  e.kernel = e.variants.front();
  const auto top_slot = static_cast<size_t>(index->slot_of_name[by_time.front().second]);
  e.short_name = std::string(strings.view(index->distinct.short_of[top_slot]));
  e.sampled_calls = static_cast<int64_t>(scan->sample.size());
  e.identity = skills::DecodeKernelName(e.kernel);

  FillTimes(k, *scan, e);
  FillLaunch(profile, *scan, e);
  FillConfigs(k, *scan, e);
  const std::vector<skills::GpuArch> gpus = skills::ReadGpuArch(profile, cancel);
  const auto busiest = std::max_element(e.devices.begin(), e.devices.end(),
                                        [](const auto& a, const auto& b) { return a.calls < b.calls; });
  FillOccupancy(gpus, busiest->device, e);
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
  FillNvtx(run, cancel, e);
  FillLookAt(e, gpus);
  if (!profile_path.empty()) {
    e.verify = VerifyCommand(SkillCall{"top_kernels", {{"per_device", Value(true)}}, {}}, profile_path);
  }
  e.markdown = RenderExplanationMarkdown(e);
  return e;
}

namespace {

std::string ConfigText(const KernelLaunchConfig& c) {
  return fmt::format("grid {}×{}×{}, block {}×{}×{}, {} registers/thread, {} B static + {} B dynamic shared memory",
                     c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], c.registers_per_thread,
                     c.static_shared_bytes, c.dynamic_shared_bytes);
}

// A table cell of text from the profile, inert (support::MarkdownText).
std::string Cell(const std::string& s) {
  return support::MarkdownText(s);
}

}  // namespace

std::string RenderExplanationMarkdown(const KernelExplanation& e) {
  std::string md = fmt::format("### {}\n\n**{}**\n\n", support::MarkdownCode(Shown(e.kernel, e.short_name)),
                               support::MarkdownText(e.identity.summary));
  if (e.kernel.size() > e.short_name.size()) md += support::MarkdownCode(Shown(e.kernel, {})) + "\n\n";
  if (e.variants.size() > 1) {
    md += fmt::format("Matched by {}: {} kernels with this name are explained together.\n\n", e.matched_by,
                      e.variants.size());
  }
  md += fmt::format("{} calls, {} of GPU time; p50 {}, p90 {} (min {}, max {}).\n\n", e.calls, Duration(e.total_ns),
                    Duration(e.p50_ns), Duration(e.p90_ns), Duration(e.min_ns), Duration(e.max_ns));
  md += "| device | calls | GPU time | share of device | p50 | p90 |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const KernelDeviceStats& d : e.devices) {
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", d.device, d.calls, Duration(d.total_ns), Pct(d.share),
                      Duration(d.p50_ns), Duration(d.p90_ns));
  }
  md += "\n";
  if (e.launch) {
    md += fmt::format(
        "- **Launch:** {} of {} calls traced to {}; call p50 {}, queue p50 {} (kernel start after the "
        "call returned).\n",
        e.launch->launched, e.sampled_calls, support::MarkdownCode(e.launch->api), Duration(e.launch->api_p50_ns),
        Duration(e.launch->queue_p50_ns));
  } else {
    md += "- **Launch:** " +
          (e.launch_note.empty() ? std::string("no launch call in the export for these executions.")
                                 : support::MarkdownText(e.launch_note) + ".") +
          "\n";
  }
  if (e.sampled_calls < e.calls) {
    md += fmt::format("- Launch and configuration figures come from {} executions spread evenly over all {}.\n",
                      e.sampled_calls, e.calls);
  }
  if (!e.configs.empty()) {
    md += fmt::format("- **Configuration:** {} ({} of {} calls{}).\n", ConfigText(e.configs.front()),
                      e.configs.front().calls, e.sampled_calls,
                      e.distinct_configs > 1 ? fmt::format("; {} configurations in all", e.distinct_configs) : "");
  }
  if (e.occupancy) {
    const KernelOccupancy& o = e.occupancy.value();
    md += fmt::format(
        "- **Occupancy (estimate, device {}, {}):** {} — {} block(s)/SM of {} warps, limited by {}; the "
        "grid of {} blocks is {:.2f} waves on {} SMs.\n",
        o.device, support::MarkdownText(o.gpu), Pct(o.occupancy), o.blocks_per_sm, o.warps_per_block, o.limited_by,
        o.grid_blocks, o.waves, o.sm_count);
  } else if (!e.occupancy_note.empty()) {
    md += "- **Occupancy:** " + support::MarkdownText(e.occupancy_note) + "\n";
  }
  md += "\n**Launched from NVTX ranges**\n\n";
  if (!e.nvtx.empty()) {
    md += "| range | calls | GPU time |\n| --- | ---: | ---: |\n";
    for (const KernelNvtxRange& r : e.nvtx) {
      md += fmt::format("| {} | {} | {} |\n", Cell(r.range), r.calls, Duration(r.total_ns));
    }
    md += "\n";
  }
  if (!e.nvtx_note.empty()) md += support::MarkdownText(e.nvtx_note) + "\n\n";
  md += "**What to look at**\n\n";
  for (const std::string& l : e.look_at) md += "- " + support::MarkdownText(l) + "\n";
  if (!e.verify.empty()) md += "\nVerify: " + support::MarkdownCode(e.verify) + "\n";
  return md;
}

}  // namespace nsys::agent
