#include "nsys/lsp/handlers.h"
#include "nsys/wire/diff.h"

namespace nsys::lsp {

Expected<protocol::DiffResult> OnDiff(const protocol::DiffParams& params, RequestContext& ctx) {
  auto options = wire::ToDiffOptions(params.phase_map, params.max_rows, "params.maxRows", params.metric);
  if (!options) return options.error();
  auto report =
      ctx.workspace().Diff(params.base_profile_id, params.new_profile_id, *options, ctx.cancel(), ctx.progress());
  if (!report) return report.error();
  return wire::ToProtocolDiff(*report);
}

}  // namespace nsys::lsp
