#pragma once
// What explain.cpp (kernels) and explain_graph.cpp (CUDA graphs) share: how figures read in an explanation, and the
// graph explanation ExplainKernel hands a graph's name to.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nsys/agent/explain.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::agent {
namespace explain_text {
// "12.345 ms", "3.2 µs", "850 ns".
std::string Duration(int64_t ns);
// A share 0..1 as "12.3%".
std::string Pct(double share);
}  // namespace explain_text

// The graph id of a CUDA graph's name as the timeline and event_stats write it ("CUDA graph 7", "[CUDA graph 7]",
// "graph 7", any case), or nullopt.
std::optional<int64_t> GraphIdOf(std::string_view text);

// A CUDA graph's launches explained from skill rows (explain_graph.cpp); kNotFound naming the profile's graphs when it
// has not this one.
Expected<KernelExplanation> ExplainGraph(const SkillRunner& run, int64_t graph_id, const CancelToken& cancel,
                                         const std::string& profile_path);

}  // namespace nsys::agent
