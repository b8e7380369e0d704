#include "nsys/lsp/handlers.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "nsys/lsp/document_handlers.h"
#include "nsys/lsp/method_table.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/lsp/source_handlers.h"
#include "nsys/support/log.h"
#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/skill_args.h"

namespace nsys::lsp {

using protocol::Json;

std::string PathFromClient(const std::string& path_or_uri) {
  return support::PathFromText(path_or_uri);
}

// ---- lifecycle ----

Expected<protocol::InitializeResult> OnInitialize(const protocol::InitializeParams& params, RequestContext& ctx) {
  // Session settings (capabilities, noCache, logLevel, perfettoOrigin) were applied by the dispatcher when it
  // accepted the request; skill folders change the shared workspace, so they are loaded here, on a worker.
  if (params.initialization_options && params.initialization_options->skill_dirs) {
    std::vector<std::string> dirs;
    for (const auto& dir : *params.initialization_options->skill_dirs) dirs.push_back(PathFromClient(dir));
    // Two core calls, rightly: initialize applies the session's skill folders (only when it names some), then
    // lists the skills as they are; the listing is the one call of every initialize.
    for (auto& warning : ctx.workspace().AddSkillDirs(dirs)) {
      support::LogWarn(warning);
      ctx.client().LogMessage(protocol::MessageType::kWarning, std::move(warning));
    }
  }
  protocol::InitializeResult result;
  for (const auto& name : ctx.methods().Names()) {
    if (name.rfind("nsys/", 0) == 0) result.capabilities.nsys_methods.push_back(name);
  }
  for (const auto& skill : ctx.workspace().Skills()) result.capabilities.skills.push_back(skill->name());
  result.capabilities.hover_provider = true;  // on nsys/report documents and range names in source
  // Lenses, code actions and the lens command, announced when bound.
  result.capabilities.code_lens_provider = ctx.methods().Find(protocol::method::kCodeLens) != nullptr;
  if (ctx.methods().Find("textDocument/codeAction")) result.capabilities.code_action_kinds = {"refactor.rewrite"};
  if (ctx.methods().Find(protocol::method::kExecuteCommand)) {
    result.capabilities.execute_commands = {std::string(protocol::kRevealRangeCommand)};
  }
  result.capabilities.text_document_sync_change = 1;  // full text; did{Open,Change,Close,Save} are kept per session
  result.server_info = {ctx.options().server_name, ctx.options().server_version};
  return result;
}

Expected<protocol::NullResult> OnShutdown(const protocol::EmptyParams&, RequestContext&) {
  return protocol::NullResult{};
}

void OnInitialized(const Json&, NotificationContext& ctx) {
  support::LogDebug("client sent initialized");
  // Index the session's source roots on a worker, never on the reader thread.
  if (ctx.sources() && !ctx.sources()->roots().empty()) ctx.RunInBackground(kIndexingSources, &IndexSessionSources);
}

void OnExit(const Json&, NotificationContext& ctx) {
  ctx.Exit();
}

void OnCancelRequest(const protocol::CancelParams& params, NotificationContext& ctx) {
  ctx.CancelRequest(params.id);
}

void OnWorkDoneProgressCancel(const WorkDoneProgressCancelParams& params, NotificationContext& ctx) {
  ctx.CancelWorkDoneProgress(params.token);
}

// ---- profiles ----

Expected<protocol::ProfileSummary> OnOpenProfile(const protocol::OpenProfileParams& params, RequestContext& ctx) {
  engine::OpenOptions options = ctx.workspace().config().open;
  if (params.no_cache.value_or(ctx.settings().no_cache)) options.use_cache = false;
  if (!ctx.settings().nsys_path.empty()) options.nsys_binary = ctx.settings().nsys_path;
  if (ctx.settings().memory_budget > 0) options.memory_budget_bytes = ctx.settings().memory_budget;
  auto opened = ctx.workspace().Open(PathFromClient(params.path), options, ctx.cancel(), ctx.progress());
  if (!opened) return opened.error();
  if (ctx.settings().sources) {  // the new active profile: lenses and source diagnostics follow it
    ctx.settings().sources->ProfileOpened(opened->id);
    ctx.RunInBackground("Mapping profile to sources", &RefreshSourceViews);
  }
  return wire::ToProfileSummary(*opened);
}

Expected<protocol::NullResult> OnCloseProfile(const protocol::CloseProfileParams& params, RequestContext& ctx) {
  auto closed = ctx.workspace().CloseAndDescribe(params.profile_id);
  if (!closed) return closed.error();
  // Clears the diagnostics nsys/analyze published for it, and forgets its report.
  PublishFindings(ctx, params.profile_id, closed->info.source_path, {});
  if (ctx.settings().documents) ctx.settings().documents->DropReport(protocol::ReportUri(params.profile_id));
  if (ctx.settings().sources) {
    ctx.settings().sources->ProfileClosed(params.profile_id);
    ctx.RunInBackground("Mapping profile to sources", &RefreshSourceViews);
  }
  return protocol::NullResult{};
}

Expected<protocol::ProfileSummary> OnProfileInfo(const protocol::ProfileInfoParams& params, RequestContext& ctx) {
  auto described = ctx.workspace().Describe(params.profile_id);
  if (!described) return described.error();
  return wire::ToProfileSummary(*described);
}

// ---- skills ----

Expected<protocol::ListSkillsResult> OnListSkills(const protocol::EmptyParams&, RequestContext& ctx) {
  return wire::ToListSkillsResult(ctx.workspace().Skills(), wire::CommonArgs::kSeparate);
}

Expected<protocol::RunSkillResult> OnRunSkill(const protocol::RunSkillParams& params, RequestContext& ctx) {
  auto filter = wire::ToFilterSpec(params.filter.value_or(protocol::Filter{}));
  if (!filter) return filter.error();
  auto table = ctx.workspace().RunSkill(params.profile_id, params.skill, params.args, *filter, ctx.cancel(),
                                        ctx.progress(), ctx.settings().skill_timeout);
  if (!table) return table.error();
  protocol::RunSkillResult result = wire::ToRunSkillResult(std::move(*table));
  const size_t chunk = std::max<size_t>(1, ctx.options().partial_result_rows);
  if (!ctx.wants_partial_results() || result.rows.size() <= chunk) return result;
  // Streamed: the rows go out as partial results; the final result has the rest and streamedRows.
  for (auto& part : wire::StreamRows(result, chunk)) {
    if (ctx.cancel().cancelled()) return MakeError(ErrorKind::kCancelled, "cancelled while streaming rows");
    ctx.SendPartialResult(protocol::Json(part));
  }
  return result;
}

Expected<protocol::ReloadSkillsResult> OnReloadSkills(const protocol::EmptyParams&, RequestContext& ctx) {
  protocol::ReloadSkillsResult result;
  core::SkillReload reload = ctx.workspace().ReloadSkills();
  result.warnings = std::move(reload.warnings);
  result.skill_count = static_cast<int64_t>(reload.skill_count);
  for (const auto& warning : result.warnings) support::LogWarn(warning);
  return result;
}

}  // namespace nsys::lsp
