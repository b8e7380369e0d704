#include <string>

#include "nsys/lsp/handlers.h"
#include "nsys/wire/ask.h"
#include "nsys/wire/query.h"

namespace nsys::lsp {

Expected<protocol::AskResult> OnAsk(const protocol::AskParams& params, RequestContext& ctx) {
  agent::TextSink on_text;
  if (ctx.wants_partial_results()) {
    on_text = [&ctx](const std::string& text) { ctx.SendPartialResult(protocol::Json{{"text", text}}); };
  }
  core::AskRequest request = wire::ToAskRequest(params);
  request.llm = ctx.settings().llm;  // the session's initializationOptions.llm, if it gave one
  auto result = ctx.workspace().Ask(request, on_text, ctx.cancel(), ctx.progress());
  if (!result) return result.error();
  return wire::ToProtocolAskResult(*result);
}

Expected<protocol::AskResult> OnQuery(const protocol::QueryParams& params, RequestContext& ctx) {
  auto request = wire::ToQueryRequest(params);
  if (!request) return request.error();
  auto result = ctx.workspace().AskQueries(*request, ctx.cancel());
  if (!result) return result.error();
  return wire::ToProtocolAskResult(*result);
}

}  // namespace nsys::lsp
