// The MCP tools over profiles and skills: open_profile, profile_info, close_profile, list_skills, run_skill.
#include <utility>

#include "nsys/support/path_text.h"
#include "nsys/wire/converters.h"
#include "nsys/wire/skill_args.h"
#include "tool_handlers.h"

namespace nsys::mcp {

Expected<protocol::ProfileSummary> OnOpenProfile(const args::OpenProfileArgs& a, ToolContext& ctx) {
  engine::OpenOptions options = ctx.workspace.config().open;
  if (a.no_cache) options.use_cache = !*a.no_cache;
  auto opened = ctx.workspace.Open(support::PathFromText(a.path), options, ctx.cancel);  // a path or its file:// URI
  if (!opened) return opened.error();
  return wire::ToProfileSummary(*opened);
}

Expected<protocol::ProfileSummary> OnProfileInfo(const args::ProfileIdArgs& a, ToolContext& ctx) {
  auto described = ctx.workspace.Describe(a.profile_id);
  if (!described) return described.error();
  return wire::ToProfileSummary(*described);
}

// Frees the id (and the loaded profile once no other id shares it): a long agent session would otherwise reach the
// workspace's bound on open ids (WorkspaceConfig::max_open_ids) and be refused every later open.
Expected<args::ClosedProfile> OnCloseProfile(const args::ProfileIdArgs& a, ToolContext& ctx) {
  if (auto closed = ctx.workspace.Close(a.profile_id); !closed) return closed.error();
  return args::ClosedProfile{a.profile_id};
}

// Agents see every argument run_skill accepts for each skill, the common ones first.
Expected<protocol::ListSkillsResult> OnListSkills(const args::NoArgs&, ToolContext& ctx) {
  return wire::ToListSkillsResult(ctx.workspace.Skills(), wire::CommonArgs::kFolded);
}

Expected<protocol::RunSkillResult> OnRunSkill(const args::RunSkillArgs& a, ToolContext& ctx) {
  // Two core calls, rightly: FindSkill is the parse step (the skill's ArgSpecs type the lenient arguments); unknown:
  // the runner's error names the known skills. RunSkill is the one call.
  const auto skill = ctx.workspace.FindSkill(a.skill);
  auto skill_args = wire::ToolSkillArgs(a.args, skill ? skill.value().get() : nullptr);
  if (!skill_args) return ctx.Refuse(skill_args.error());
  auto filter = wire::ToFilterSpec(a.filter.value_or(protocol::Filter{}));
  if (!filter) return ctx.Refuse(filter.error());
  auto table = ctx.workspace.RunSkill(a.profile_id, a.skill, *skill_args, *filter, ctx.cancel);
  if (!table) return table.error();
  return wire::ToRunSkillResult(std::move(table.value()));
}

}  // namespace nsys::mcp
