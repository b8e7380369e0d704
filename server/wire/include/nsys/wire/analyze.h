#pragma once
// nsys/analyze's params → agent::AnalyzeOptions; agent::Analysis → the typed result (with the server's Markdown).
#include "nsys/agent/analyze.h"
#include "nsys/protocol/analyze.h"

namespace nsys::wire {

agent::AnalyzeOptions ToAnalyzeOptions(const protocol::AnalyzeParams& params);
// `streamed`: the findings went out as partial results, so the result carries only their count and ranking.
protocol::AnalyzeResult ToAnalyzeResult(const agent::Analysis& analysis, bool streamed = false);

}  // namespace nsys::wire
