#include "nsys/wire/diff.h"

#include <fmt/format.h>

#include <cmath>

#include "nsys/support/path_text.h"
#include "nsys/wire/answer.h"
#include "nsys/wire/converters.h"

namespace nsys::wire {
namespace {

std::optional<double> Finite(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

protocol::DiffItem ToItem(const agent::ItemDelta& d) {
  protocol::DiffItem i;
  i.name = d.name;
  i.short_name = d.short_name;
  i.presence = std::string(agent::PresenceName(d.presence));
  i.base_calls = d.base_calls;
  i.new_calls = d.new_calls;
  i.base_total_ns = d.base_total_ns;
  i.new_total_ns = d.new_total_ns;
  i.base_avg_ns = Finite(d.base_avg_ns);
  i.new_avg_ns = Finite(d.new_avg_ns);
  i.per_call_pct = Finite(d.per_call_pct);
  i.base_per_iteration_ns = Finite(d.base_per_iteration_ns);
  i.new_per_iteration_ns = Finite(d.new_per_iteration_ns);
  i.base_calls_per_iteration = Finite(d.base_calls_per_iteration);
  i.new_calls_per_iteration = Finite(d.new_calls_per_iteration);
  i.impact_ns = std::isfinite(d.impact_ns) ? d.impact_ns : 0;
  i.noise_pct = Finite(d.noise_pct);
  i.rank_p = Finite(d.rank_p);
  i.beyond_noise = d.beyond_noise;
  return i;
}

protocol::DiffDevice ToDevice(const agent::DeviceDelta& d) {
  protocol::DiffDevice o;
  o.device_id = d.device_id;
  o.in_base = d.in_base;
  o.in_new = d.in_new;
  o.base_span_ns = d.base_span_ns;
  o.new_span_ns = d.new_span_ns;
  o.base_idle_ns = d.base_idle_ns;
  o.new_idle_ns = d.new_idle_ns;
  o.base_idle_pct = Finite(d.base_idle_pct);
  o.new_idle_pct = Finite(d.new_idle_pct);
  o.base_long_gaps = d.base_long_gaps;
  o.new_long_gaps = d.new_long_gaps;
  o.base_long_gap_ns = d.base_long_gap_ns;
  o.new_long_gap_ns = d.new_long_gap_ns;
  o.has_comm = d.has_comm;
  o.base_comm_ns = d.base_comm_ns;
  o.new_comm_ns = d.new_comm_ns;
  if (d.has_comm) {
    o.base_overlap_pct = Finite(d.base_overlap_pct);
    o.new_overlap_pct = Finite(d.new_overlap_pct);
  }
  o.base_exposed_ns = d.base_exposed_ns;
  o.new_exposed_ns = d.new_exposed_ns;
  return o;
}

protocol::DiffIterations ToIterations(const agent::IterationStats& s) {
  return {s.count,
          s.method,
          Finite(s.median_ns),
          Finite(s.robust_sd_ns),
          Finite(s.median_kernels),
          Finite(s.median_gpu_busy_ns),
          Finite(s.median_kernel_ns),
          Finite(s.robust_sd_kernel_ns)};
}

protocol::DiffHeadline ToHeadline(const agent::Headline& h) {
  const bool mix = h.metric == "kernel time per call (the base's mix)";
  return {h.metric,
          h.base_ns,
          h.new_ns,
          Finite(h.change_pct),
          h.noise_floor_pct,
          h.noise_floor_reason,
          h.measure,
          Finite(h.rank_p),
          mix ? Finite(h.significant_change_pct) : std::nullopt,
          std::string(agent::VerdictName(h.verdict))};
}

protocol::DiffCounts ToCounts(const agent::PresenceCounts& c) {
  return {c.both, c.appeared, c.disappeared};
}

}  // namespace

Expected<agent::DiffOptions> ToDiffOptions(const std::optional<std::string>& phase_map,
                                           const std::optional<int64_t>& max_rows, const std::string& max_rows_name,
                                           const std::optional<std::string>& metric) {
  agent::DiffOptions options;
  if (phase_map) options.phase_map = *phase_map;
  if (metric) {
    if (Status ok = agent::CheckDiffMetric(*metric); !ok.ok()) return ok.error();
    options.metric = *metric;
  }
  if (max_rows) {
    if (*max_rows < 0) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{} must be 0 (all rows) or a positive number, not {}", max_rows_name, *max_rows));
    }
    options.max_rows = static_cast<size_t>(*max_rows);
  }
  return options;
}

protocol::DiffResult ToProtocolDiff(const agent::DiffReport& r) {
  protocol::DiffResult out;
  out.verdict = std::string(agent::VerdictName(r.verdict));
  out.base_path = support::PathToText(r.base_path);
  out.new_path = support::PathToText(r.new_path);
  const auto& c = r.comparability;
  out.comparability = {c.score, c.label, c.reasons, c.shared_kernel_time, c.window_ratio, c.same_devices};
  if (!r.headline.metric.empty()) out.headline = ToHeadline(r.headline);
  if (r.per_call) out.per_call = ToHeadline(*r.per_call);
  for (const auto& m : r.measures) out.measures.push_back(ToHeadline(m));
  out.base_iterations = ToIterations(r.base_iterations);
  out.new_iterations = ToIterations(r.new_iterations);
  for (const auto& k : r.kernels) out.kernels.push_back(ToItem(k));
  out.kernel_counts = ToCounts(r.kernel_counts);
  for (const auto& k : r.ranges) out.ranges.push_back(ToItem(k));
  out.range_counts = ToCounts(r.range_counts);
  for (const auto& d : r.devices) out.devices.push_back(ToDevice(d));
  for (const auto& m : r.memcpy) {
    out.memcpy.push_back({m.operation, m.base_count, m.new_count, m.base_bytes, m.new_bytes, m.base_total_ns,
                          m.new_total_ns, Finite(m.base_per_iteration_ns), Finite(m.new_per_iteration_ns)});
  }
  for (const auto& p : r.phases) {
    out.phases.push_back({p.phase, p.base_ranges, p.new_ranges, p.base_wall_ns, p.new_wall_ns, p.base_gpu_ns,
                          p.new_gpu_ns, Finite(p.base_coverage), Finite(p.new_coverage)});
  }
  out.notes = r.notes;
  if (r.base_coverage && r.new_coverage) {
    out.base_coverage = ToMappingCoverage(*r.base_coverage);
    out.new_coverage = ToMappingCoverage(*r.new_coverage);
    out.coverage_change = r.new_coverage->share - r.base_coverage->share;
  }
  out.answer = ToProtocolAnswer(r.answer);
  out.markdown = r.markdown;
  return out;
}

}  // namespace nsys::wire
