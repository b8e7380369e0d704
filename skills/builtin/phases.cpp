// phases: NVTX ranges mapped to named phases (`phase_map`, e.g. {"prefill": ["prefill", "prompt"], "decode":
// ["re:^decode"]}), with each phase's wall time (the union of its ranges), its GPU time (kernels launched inside
// one of its ranges, on the launching thread, as nvtx_kernel_map attributes them) and how much of the kernel work
// launched during the phase that attribution covers. LLM-inference users read prefill/decode this way.
//
// Patterns match the range's name as the engine interns it (PyTorch's ", op_id = N" suffix removed): a plain
// pattern is a substring, "re:..." an RE2 regex searched anywhere in the name. Each distinct name is matched
// once (by string id), so the cost is linear in ranges + kernels x stack depth.
//
// The map comes from a client or a skill file and the names from the profile: RE2 matches in time linear in the name
// with no recursion or backtracking (std::regex crashed on `(a|b)*c` over a long name and never ended `(.*)*Z`).
// RE2 refuses what needs backtracking (backreferences, lookaround), naming the pattern. Names and patterns are bytes
// (Latin-1 mode), as they were for std::regex; each regex gets a share of kPhaseRegexMemory.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common_nvtx_stack.h"
#include "nsys/skills/skill.h"
#include "nsys/support/json_parse.h"

namespace nsys::skills::builtin {
namespace {

using engine::Ns;

constexpr size_t kMaxPhases = 64;
constexpr size_t kMaxPatterns = 64;
constexpr size_t kMaxPatternChars = 256;
// RE2's memory (compiled program and DFA cache) for all the regexes of one map, shared evenly; each gets at least
// kMinPhaseRegexMemory (a 256-byte pattern compiles in a few KB) and at most RE2's default of 8 MiB.
constexpr int64_t kPhaseRegexMemory = int64_t{64} << 20;
constexpr int64_t kMinPhaseRegexMemory = int64_t{256} << 10;
constexpr int64_t kMaxPhaseRegexMemory = int64_t{8} << 20;

struct Pattern {
  std::string text;
  std::unique_ptr<const RE2> regex;  // "re:" patterns
};

struct Phase {
  std::string name;
  std::vector<Pattern> patterns;
};

Error BadMap(const std::string& what) {
  return MakeError(
      ErrorKind::kInvalidArgument,
      "phase_map: " + what +
          R"( (expected a JSON object of phase names to arrays of patterns, e.g. {"prefill": ["prefill", "prompt"], "decode": ["re:^decode"]}; a pattern is a substring or "re:" and an RE2 regex))");
}

Expected<Pattern> ParsePattern(const std::string& phase, const nlohmann::json& p, int64_t regex_memory) {
  if (!p.is_string()) return BadMap(fmt::format("phase \"{}\" has a pattern that is not a string", phase));
  Pattern out{p.get<std::string>(), nullptr};
  if (out.text.empty() || out.text.size() > kMaxPatternChars) {
    return BadMap(fmt::format("phase \"{}\" has an empty pattern or one over {} characters", phase, kMaxPatternChars));
  }
  if (out.text.rfind("re:", 0) == 0) {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false);
    options.set_never_capture(true);  // only whether it matches
    options.set_max_mem(regex_memory);
    auto regex = std::make_unique<const RE2>(out.text.substr(3), options);
    if (!regex->ok()) {
      return BadMap(fmt::format("phase \"{}\": bad regex \"{}\": {} (RE2 syntax: no backreferences or lookaround)",
                                phase, out.text.substr(3), regex->error()));
    }
    out.regex = std::move(regex);
  }
  return out;
}

bool IsRegexPattern(const nlohmann::json& p) {
  return p.is_string() && p.get_ref<const std::string&>().rfind("re:", 0) == 0;
}

// The map's checks in one place, each with its message.
Expected<std::vector<Phase>> ParsePhaseMap(const std::string& text) {
  // The one parse of untrusted JSON (support/json_parse.h); the phases in the order the map gives them.
  const support::ParsedJson parsed = support::ParseJsonText(text);
  if (!parsed.error.empty()) return BadMap("not valid JSON: " + parsed.error);
  if (!parsed.duplicate.empty()) return BadMap("the phase \"" + parsed.duplicate + "\" is given twice");
  const nlohmann::json& json = parsed.value;
  if (!json.is_object() || json.empty()) return BadMap("not a non-empty JSON object");
  if (json.size() > kMaxPhases) return BadMap(fmt::format("more than {} phases", kMaxPhases));
  size_t regexes = 0;
  for (const auto& [name, patterns] : json.items()) {
    if (patterns.is_array())
      regexes += static_cast<size_t>(std::count_if(patterns.begin(), patterns.end(), IsRegexPattern));
  }
  const int64_t regex_memory = std::clamp(kPhaseRegexMemory / static_cast<int64_t>(std::max<size_t>(regexes, 1)),
                                          kMinPhaseRegexMemory, kMaxPhaseRegexMemory);
  std::vector<Phase> phases;
  for (const std::string& name : parsed.root_keys) {
    const nlohmann::json& patterns = json.at(name);
    if (name.empty()) return BadMap("a phase has an empty name");
    if (!patterns.is_array() || patterns.empty()) {
      return BadMap(fmt::format("phase \"{}\" needs a non-empty array of patterns", name));
    }
    if (patterns.size() > kMaxPatterns)
      return BadMap(fmt::format("phase \"{}\" has over {} patterns", name, kMaxPatterns));
    Phase phase{name, {}};
    for (const auto& p : patterns) {
      auto pattern = ParsePattern(name, p, regex_memory);
      if (!pattern) return pattern.error();
      phase.patterns.push_back(std::move(*pattern));
    }
    phases.push_back(std::move(phase));
  }
  return phases;
}

bool Matches(const Phase& phase, std::string_view name) {
  for (const auto& p : phase.patterns) {
    if (p.regex ? RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *p.regex)
                : name.find(p.text) != std::string_view::npos)
      return true;
  }
  return false;
}

// Which phases each range name belongs to, matched once per distinct string id: bit p set = phase p.
class NameMatcher {
 public:
  NameMatcher(const std::vector<Phase>& phases, const engine::StringPool& strings, const CancelToken& cancel)
      : phases_(phases), strings_(strings), cancel_(cancel) {}
  // Once the run is cancelled (or past its budget) a name not yet matched is not matched (0, not remembered): one
  // name can take every pattern of the map, and the caller's next check returns kCancelled.
  uint64_t Of(engine::StrId id) {
    if (id >= known_.size()) known_.resize(id + 1, kUnknown);
    uint64_t& bits = known_[id];
    if (bits == kUnknown) {
      if (cancel_.cancelled()) return 0;
      bits = 0;
      const std::string_view name = strings_.view(id);
      for (size_t p = 0; p < phases_.size(); ++p) {
        if (Matches(phases_[p], name)) bits |= uint64_t{1} << p;
      }
    }
    return bits;
  }

 private:
  // Not yet matched. A name in all 64 phases has this set too and is simply matched again each time.
  static constexpr uint64_t kUnknown = ~uint64_t{0};
  const std::vector<Phase>& phases_;
  const engine::StringPool& strings_;
  const CancelToken& cancel_;
  std::vector<uint64_t> known_;
};

// Union length of intervals, and whether a time falls inside the union.
struct Union {
  std::vector<std::pair<Ns, Ns>> merged;
  static Union Of(std::vector<std::pair<Ns, Ns>> spans) {
    std::sort(spans.begin(), spans.end());
    Union u;
    for (const auto& s : spans) {
      if (!u.merged.empty() && s.first <= u.merged.back().second) {
        u.merged.back().second = std::max(u.merged.back().second, s.second);
      } else {
        u.merged.push_back(s);
      }
    }
    return u;
  }
  Ns Length() const {
    Ns sum = 0;
    for (const auto& [a, b] : merged) sum += b - a;
    return sum;
  }
  bool Contains(Ns t) const {
    auto it = std::upper_bound(merged.begin(), merged.end(), std::pair<Ns, Ns>{t, INT64_MAX});
    return it != merged.begin() && t < std::prev(it)->second;
  }
};

struct PhaseTotals {
  int64_t ranges = 0, kernels = 0;
  Ns gpu_ns = 0, in_phase_ns = 0;  // attributed; launched while the phase ran (any thread)
  std::vector<std::pair<Ns, Ns>> spans;
  Union wall;
};

class Phases final : public Skill {
 public:
  std::string name() const override { return "phases"; }
  std::string description() const override {
    return "NVTX ranges grouped into phases by a phase map (substrings or re: regexes): ranges, wall time, GPU "
           "time of the kernels they launch, and attribution coverage per phase (prefill/decode, forward/backward).";
  }
  std::vector<ArgSpec> args() const override {
    return {{"phase_map", ValueType::kString,
             R"(JSON object of phase names to arrays of NVTX name patterns: {"prefill": ["prefill", "prompt"], )"
             R"("decode": ["re:^decode"]}. A pattern is a substring, or "re:" + an RE2 regex (no backreferences or )"
             R"(lookaround).)",
             Value{}, /*required=*/true}};
  }
  engine::Need needs() const override { return engine::Need::kAttribution; }

  // Long: the steps (parse, ranges, kernels, rows, notes) share the per-phase totals; each is a short loop.
  Expected<Table> run(const Context& ctx) const override {
    auto phases = ParsePhaseMap(ArgString(ctx, "phase_map"));
    if (!phases) return phases.error();
    const auto& info = ctx.profile.info();
    if (!info.caps.nvtx) {
      return Declined("This profile has no NVTX data (no NVTX_EVENTS table), so no range can be mapped to a phase.");
    }
    std::vector<PhaseTotals> totals(phases->size());
    NameMatcher matcher(*phases, ctx.profile.strings(), ctx.cancel);
    const engine::NvtxTable& nvtx = ctx.profile.nvtx();
    for (size_t j = 0; j < nvtx.size(); ++j) {
      if ((j & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      if (!ctx.filter.InWindow(nvtx.start[j]) || !ctx.filter.AcceptsProcess(nvtx.pid[j])) continue;
      const uint64_t bits = matcher.Of(nvtx.name[j]);
      for (size_t p = 0; bits != 0 && p < totals.size(); ++p) {
        if ((bits >> p & 1) == 0) continue;
        ++totals[p].ranges;
        totals[p].spans.emplace_back(nvtx.start[j], nvtx.end[j]);
      }
    }
    for (auto& t : totals) t.wall = Union::Of(std::move(t.spans));
    if (ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");

    const engine::KernelTable& k = ctx.profile.kernels();
    const engine::RuntimeTable& rt = ctx.profile.runtime();
    const auto start_end = StartEndRangesByThread::Build(nvtx);
    int64_t unlaunched = 0;
    std::vector<int32_t> stack;
    for (size_t i = 0; i < k.size(); ++i) {
      if ((i & 0xFFFF) == 0 && ctx.cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Cancelled.");
      if (!ctx.filter.Accepts(k.start[i], k.device[i], k.pid[i])) continue;
      const int32_t r = k.launch[i];
      if (r < 0) {
        ++unlaunched;
        continue;
      }
      const auto ri = static_cast<size_t>(r);
      const Ns dur = k.end[i] - k.start[i];
      stack.clear();
      AppendPushPopStack(rt.nvtx[ri], nvtx, stack);
      if (const int32_t t = start_end.threads.Find(PackKey(rt.pid[ri], rt.tid[ri])); t >= 0) {
        start_end.AppendEnclosing(static_cast<size_t>(t), rt.start[ri], rt.end[ri], nvtx, stack);
      }
      uint64_t bits = 0;
      for (int32_t j : stack) bits |= matcher.Of(nvtx.name[static_cast<size_t>(j)]);
      for (size_t p = 0; p < totals.size(); ++p) {
        const bool attributed = (bits >> p & 1) != 0;
        if (attributed) ++totals[p].kernels, totals[p].gpu_ns += dur;
        if (attributed || totals[p].wall.Contains(rt.start[ri])) totals[p].in_phase_ns += dur;
      }
    }

    Table table;
    table.columns = {
        {"phase", ValueType::kString, "Phase name, as in the map"},
        {"ranges", ValueType::kInt, "NVTX ranges whose name matches one of the phase's patterns"},
        {"wall_ns", ValueType::kInt, "Union of those ranges' time (overlaps counted once)"},
        {"gpu_ns", ValueType::kInt, "Kernel time launched inside one of the ranges (on the launching thread)"},
        {"kernels", ValueType::kInt, "Kernels launched inside one of the ranges"},
        {"coverage", ValueType::kDouble,
         "gpu_ns / in_phase_ns: share of the phase's kernel time the ranges attribute (null without kernels)"},
        {"in_phase_ns", ValueType::kInt,
         "Kernel time launched while the phase ran, by any thread of the selected processes"},
    };
    for (size_t p = 0; p < totals.size(); ++p) {
      const auto& t = totals[p];
      const Value coverage =
          t.in_phase_ns > 0 ? Value{static_cast<double>(t.gpu_ns) / static_cast<double>(t.in_phase_ns)} : Value{};
      table.rows.push_back(
          {(*phases)[p].name, t.ranges, t.wall.Length(), t.gpu_ns, t.kernels, coverage, t.in_phase_ns});
    }
    table.notes.push_back(
        "Patterns match the range name without PyTorch's \", op_id = N\" suffix; a range matching several phases "
        "counts in each. Coverage below 1 means kernels were launched during the phase from threads (or outside "
        "ranges) the map does not cover.");
    if (!info.caps.kernels) table.notes.push_back("This profile has no kernels: gpu_ns and kernels are 0.");
    if (unlaunched > 0) {
      table.notes.push_back(
          fmt::format("{} kernels have no launch call in the export (cut at the window's edge) and are not attributed.",
                      unlaunched));
    }
    return table;
  }
};

}  // namespace

std::shared_ptr<const Skill> MakePhases() {
  return std::make_shared<Phases>();
}

}  // namespace nsys::skills::builtin
