#pragma once
// nsys/diff on the wire: params → agent::DiffOptions, agent::DiffReport → protocol::DiffResult (NaN → absent).
#include <optional>
#include <string>

#include "nsys/agent/diff.h"
#include "nsys/protocol/diff.h"
#include "nsys/support/expected.h"

namespace nsys::wire {

// kInvalidArgument for a negative maxRows (naming the field as the face calls it) or a metric other than step, gpu
// and kernel:NAME.
Expected<agent::DiffOptions> ToDiffOptions(const std::optional<std::string>& phase_map,
                                           const std::optional<int64_t>& max_rows, const std::string& max_rows_name,
                                           const std::optional<std::string>& metric = std::nullopt);
protocol::DiffResult ToProtocolDiff(const agent::DiffReport& report);

}  // namespace nsys::wire
