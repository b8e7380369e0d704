#pragma once
// nsys/ask: typed params -> one core call (Workspace::Ask) -> the wire's conversion (nsys/wire/ask.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/ask.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// nsys/ask {profileId, question, conversationId?}: the answer in the one answer shape, the conversation id to pass
// back for follow-ups, the skills used. With a partialResultToken, the answer's Markdown streams first as partial
// results {"text": ...}. An empty question is -32602; a question the profile cannot answer is a result whose
// answer carries a refusal.
Expected<protocol::AskResult> OnAsk(const protocol::AskParams& params, RequestContext& ctx);

}  // namespace nsys::lsp
