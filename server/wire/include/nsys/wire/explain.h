#pragma once
// A kernel explanation (agent/explain.h) → the wire's (protocol/explain.h).
#include "nsys/agent/explain.h"
#include "nsys/protocol/explain.h"

namespace nsys::wire {

protocol::ExplainKernelResult ToExplainKernelResult(const agent::KernelExplanation& e);

}  // namespace nsys::wire
