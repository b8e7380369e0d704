#pragma once
// nsys/ask between the wire (protocol/ask.h) and core (core/ask.h): every face (LSP, MCP, CLI) converts here.
#include "nsys/core/ask.h"
#include "nsys/protocol/ask.h"

namespace nsys::wire {

core::AskRequest ToAskRequest(const protocol::AskParams& params);
protocol::AskResult ToProtocolAskResult(const core::AskResult& result);
// The CLI's form (`ask --format json`): the same without the session's handle.
protocol::CliAskResult ToCliAskResult(const core::AskResult& result);

}  // namespace nsys::wire
