#pragma once
// The handlers of the core methods, bound in bind_table.cpp. Each is: typed params -> one Workspace call -> a typed
// result by a wire conversion (server/wire). The dispatcher does threads, cancellation and replies.
#include "nsys/lsp/context.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// window/workDoneProgress/cancel carries {token}, like window/workDoneProgress/create.
using WorkDoneProgressCancelParams = protocol::WorkDoneProgressCreateParams;

// LSP lifecycle and plumbing.
Expected<protocol::InitializeResult> OnInitialize(const protocol::InitializeParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnShutdown(const protocol::EmptyParams& params, RequestContext& ctx);
void OnInitialized(const protocol::Json& params, NotificationContext& ctx);
void OnExit(const protocol::Json& params, NotificationContext& ctx);
void OnCancelRequest(const protocol::CancelParams& params, NotificationContext& ctx);
void OnWorkDoneProgressCancel(const WorkDoneProgressCancelParams& params, NotificationContext& ctx);

// nsys/ profiles.
Expected<protocol::ProfileSummary> OnOpenProfile(const protocol::OpenProfileParams& params, RequestContext& ctx);
Expected<protocol::NullResult> OnCloseProfile(const protocol::CloseProfileParams& params, RequestContext& ctx);
Expected<protocol::ProfileSummary> OnProfileInfo(const protocol::ProfileInfoParams& params, RequestContext& ctx);

// nsys/ skills.
Expected<protocol::ListSkillsResult> OnListSkills(const protocol::EmptyParams& params, RequestContext& ctx);
Expected<protocol::RunSkillResult> OnRunSkill(const protocol::RunSkillParams& params, RequestContext& ctx);
Expected<protocol::ReloadSkillsResult> OnReloadSkills(const protocol::EmptyParams& params, RequestContext& ctx);

// A local path from what a client sent: a path as is, or a file:// URI (percent-decoded): support::PathFromText, the
// inverse of the JSON form of paths in every result (support/path_text.h).
std::string PathFromClient(const std::string& path_or_uri);

}  // namespace nsys::lsp
