#pragma once
// The agent's answer shape (agent/answer.h) → the wire's (protocol/answer.h), with the server's Markdown rendering.
#include "nsys/agent/answer.h"
#include "nsys/protocol/answer.h"

namespace nsys::wire {

protocol::Filter ToProtocolFilter(const engine::FilterSpec& filter);  // empty members stay absent
protocol::Answer ToProtocolAnswer(const agent::Answer& answer);
protocol::Finding ToProtocolFinding(const agent::Finding& finding);

}  // namespace nsys::wire
