#include "nsys/lsp/handlers.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "nsys/lsp/method_table.h"
#include "nsys/skills/registry.h"
#include "nsys/support/log.h"
#include "nsys/wire/converters.h"

namespace nsys::lsp {

using protocol::Json;

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Json ArgsJson(const std::vector<skills::ArgSpec>& specs) {
  Json args = Json::array();
  for (const auto& arg : specs) args.push_back(wire::DescribeArg(arg));
  return args;
}

}  // namespace

std::string PathFromClient(const std::string& path_or_uri) {
  constexpr std::string_view kScheme = "file://";
  if (path_or_uri.rfind(kScheme, 0) != 0) return path_or_uri;
  std::string path;
  std::string_view rest = std::string_view(path_or_uri).substr(kScheme.size());
  if (!rest.empty() && rest.front() != '/') rest = rest.substr(std::min(rest.find('/'), rest.size()));  // file://host/p
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && HexDigit(rest[i + 1]) >= 0 && HexDigit(rest[i + 2]) >= 0) {
      path += static_cast<char>(HexDigit(rest[i + 1]) * 16 + HexDigit(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

// ---- lifecycle ----

Expected<protocol::InitializeResult> OnInitialize(const protocol::InitializeParams& params, RequestContext& ctx) {
  // Session settings (capabilities, noCache, logLevel, perfettoOrigin) were applied by the dispatcher when it
  // accepted the request; skill folders change the shared workspace, so they are loaded here, on a worker.
  if (params.initialization_options && params.initialization_options->skill_dirs) {
    std::vector<std::string> dirs;
    for (const auto& dir : *params.initialization_options->skill_dirs) dirs.push_back(PathFromClient(dir));
    for (auto& warning : ctx.workspace().AddSkillDirs(dirs)) {
      support::LogWarn(warning);
      ctx.client().LogMessage(protocol::MessageType::kWarning, std::move(warning));
    }
  }
  Json nsys_methods = Json::array();
  for (const auto& name : ctx.methods().Names()) {
    if (name.rfind("nsys/", 0) == 0) nsys_methods.push_back(name);
  }
  Json skill_names = Json::array();
  for (const auto& skill : ctx.workspace().Skills()) skill_names.push_back(skill->name());

  protocol::InitializeResult result;
  result.capabilities.experimental = {{"nsysMethods", std::move(nsys_methods)}, {"skills", std::move(skill_names)}};
  result.server_info = {ctx.options().server_name, ctx.options().server_version};
  return result;
}

Expected<Json> OnShutdown(const protocol::EmptyParams&, RequestContext&) {
  return Json(nullptr);
}

void OnInitialized(const Json&, NotificationContext&) {
  support::LogDebug("client sent initialized");
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

Expected<Json> OnOpenProfile(const protocol::OpenProfileParams& params, RequestContext& ctx) {
  engine::OpenOptions options = ctx.workspace().config().open;
  if (params.no_cache.value_or(ctx.settings().no_cache)) options.use_cache = false;
  if (!ctx.settings().nsys_path.empty()) options.nsys_binary = ctx.settings().nsys_path;
  auto opened = ctx.workspace().Open(PathFromClient(params.path), options, ctx.progress(), ctx.cancel());
  if (!opened) return opened.error();
  return wire::ProfileSummaryJson(opened->id, opened->profile->info());
}

Expected<Json> OnCloseProfile(const protocol::CloseProfileParams& params, RequestContext& ctx) {
  if (auto status = ctx.workspace().Close(params.profile_id); !status) return status.error();
  return Json(nullptr);
}

Expected<Json> OnProfileInfo(const protocol::ProfileInfoParams& params, RequestContext& ctx) {
  auto profile = ctx.workspace().Get(params.profile_id);
  if (!profile) return profile.error();
  return wire::ProfileSummaryJson(params.profile_id, (*profile)->info());
}

// ---- skills ----

Expected<Json> OnListSkills(const protocol::EmptyParams&, RequestContext& ctx) {
  protocol::ListSkillsResult result;
  for (const auto& skill : ctx.workspace().Skills()) result.skills.push_back(wire::Describe(*skill));
  Json json = result;
  json["commonArgs"] = ArgsJson(skills::CommonArgs());  // device, pid, window: accepted by every skill
  return json;
}

Expected<Json> OnRunSkill(const protocol::RunSkillParams& params, RequestContext& ctx) {
  auto table = ctx.workspace().RunSkill(params.profile_id, params.skill, params.args, ctx.cancel(), ctx.progress(),
                                        ctx.settings().skill_timeout);
  if (!table) return table.error();
  const size_t chunk = std::max<size_t>(1, ctx.options().partial_result_rows);
  if (!ctx.wants_partial_results() || table->rows.size() <= chunk)
    return Json(wire::ToRunSkillResult(std::move(*table)));

  // Streamed: the first partial result carries the columns, each carries up to `chunk` rows; the final result
  // has the columns, notes and declined, no rows, and streamedRows = how many rows went out.
  auto rows = std::move(table->rows);
  table->rows.clear();
  Json final_result = wire::ToRunSkillResult(std::move(*table));
  for (size_t begin = 0; begin < rows.size(); begin += chunk) {
    if (ctx.cancel().cancelled()) return MakeError(ErrorKind::kCancelled, "cancelled while streaming rows");
    Json part = {{"rows", Json::array()}};
    if (begin == 0) part["columns"] = final_result["columns"];
    for (size_t i = begin; i < std::min(rows.size(), begin + chunk); ++i)
      part["rows"].push_back(wire::RowJson(rows[i]));
    ctx.SendPartialResult(std::move(part));
  }
  final_result["streamedRows"] = rows.size();
  return final_result;
}

Expected<protocol::ReloadSkillsResult> OnReloadSkills(const protocol::EmptyParams&, RequestContext& ctx) {
  protocol::ReloadSkillsResult result;
  result.warnings = ctx.workspace().ReloadSkills();
  result.skill_count = static_cast<int64_t>(ctx.workspace().Skills().size());
  for (const auto& warning : result.warnings) support::LogWarn(warning);
  return result;
}

}  // namespace nsys::lsp
