#pragma once
// The steps of the agent's diff shared by diff.cpp (measurements) and diff_render.cpp (verdict, answer, Markdown).
#include <optional>

#include "nsys/agent/diff.h"

namespace nsys::agent::diff_detail {

// One skill call run on both profiles; a side is empty when the skill declined or failed there (noted).
struct SkillPair {
  SkillCall call;
  std::optional<skills::Table> base, after;
};

// The calls the report's evidence comes from.
struct Calls {
  SkillPair iterations, kernels, ranges, levels, gaps, nccl, memcpy, phases;
};

// Picks the measures the verdict covers (DiffOptions::metric: the step time and the GPU work per iteration when
// both profiles have comparable iterations, else `per_call`; `kernel_measure` for kernel:NAME), judges each, decides
// the verdict and the headline, and writes the answer and the Markdown.
void Conclude(DiffReport& r, std::optional<Headline> per_call, std::optional<Headline> kernel_measure,
              const Calls& calls, const DiffOptions& options);

}  // namespace nsys::agent::diff_detail
