#include "nsys/lsp/source_handlers.h"

#include <fmt/format.h>

#include <mutex>
#include <set>
#include <utility>

#include "nsys/lsp/documents.h"
#include "nsys/lsp/handlers.h"
#include "nsys/lsp/session_sources.h"
#include "nsys/support/log.h"
#include "nsys/wire/sources.h"

namespace nsys::lsp {

namespace {

constexpr size_t kMessageKernels = 5;  // kernels named in revealRange's window/showMessage

void AddRoot(std::vector<std::string>& roots, const std::string& uri_or_path) {
  if (uri_or_path.empty()) return;
  if (uri_or_path.find("://") != std::string::npos && uri_or_path.rfind("file://", 0) != 0) return;
  std::string path = core::NormalSourcePath(PathFromClient(uri_or_path));
  for (const auto& r : roots) {
    if (r == path) return;
  }
  roots.push_back(std::move(path));
}

// The session's source set and active profile, or nothing to answer from.
struct Target {
  std::string set_id;
  std::string profile_id;
  SessionSources* sources = nullptr;
};

Target TargetOf(const RequestContext& ctx) {
  Target t;
  if (!ctx.settings().sources) return t;
  t.sources = ctx.settings().sources.get();
  if (ctx.method() != kIndexingSources) t.sources->WaitIndexed(ctx.cancel());
  t.set_id = t.sources->set_id();
  if (!t.set_id.empty()) t.profile_id = t.sources->ActiveProfile();
  return t;
}

void Publish(RequestContext& ctx, SessionSources& sources, const core::SourceFileDiagnostics& file) {
  const bool has = !file.diagnostics.empty();
  const std::string uri = sources.UriOf(file.file);
  if (!sources.MarkPublished(uri, has) && !has) return;  // nothing shown before, nothing now
  protocol::PublishDiagnosticsParams params = wire::ToPublishDiagnostics(file);
  params.uri = uri;
  ctx.client().Notify(protocol::method::kPublishDiagnostics, protocol::Json(params));
}

void ClearAll(RequestContext& ctx, SessionSources& sources, const std::set<std::string>& keep = {}) {
  for (const std::string& uri : sources.Published()) {
    if (keep.count(uri)) continue;
    sources.MarkPublished(uri, false);
    ctx.client().Notify(protocol::method::kPublishDiagnostics,
                        protocol::Json(protocol::PublishDiagnosticsParams{uri, {}}));
  }
}

void AfterSourceChange(NotificationContext& ctx, std::vector<std::string> paths) {
  ctx.RunInBackground("Mapping profile to sources",
                      [paths = std::move(paths)](RequestContext& rctx) { PublishSourceDiagnostics(rctx, paths); });
}

}  // namespace

std::string SourcePathOf(const std::string& uri) {
  if (uri.rfind("file://", 0) != 0) return "";
  return core::NormalSourcePath(PathFromClient(uri));
}

std::vector<std::string> SourceRootsOf(const protocol::InitializeParams& params) {
  std::vector<std::string> roots;
  if (!params.workspace_folders.empty()) {
    for (const auto& uri : params.workspace_folders) AddRoot(roots, uri);
  } else if (params.root_uri) {
    AddRoot(roots, *params.root_uri);
  } else if (params.root_path) {
    AddRoot(roots, *params.root_path);
  }
  if (params.initialization_options && params.initialization_options->source_roots) {
    for (const auto& root : *params.initialization_options->source_roots) AddRoot(roots, root);
  }
  return roots;
}

void IndexSessionSources(RequestContext& ctx) {
  const Target t = TargetOf(ctx);
  if (!t.sources) return;
  struct Done {  // however it ends, requests waiting for the index go on
    SessionSources* sources;
    ~Done() { sources->IndexingDone(); }
  } done{t.sources};
  const auto roots = t.sources->roots();
  if (t.set_id.empty() || roots.empty()) return;
  auto stats = ctx.workspace().IndexSources(t.set_id, roots, ctx.cancel(), ctx.progress());
  if (!stats) {
    support::LogWarn("indexing sources: " + stats.error().message);
    return;
  }
  for (const auto& warning : stats->warnings) {
    support::LogWarn(warning);
    ctx.client().LogMessage(protocol::MessageType::kWarning, warning);
  }
  support::LogInfo(fmt::format("indexed {} source files under {} roots: {} annotations", stats->files, stats->roots,
                               stats->annotations));
  t.sources->IndexingDone();
  RefreshSourceViews(ctx);
}

void RefreshSourceViews(RequestContext& ctx) {
  const Target t = TargetOf(ctx);
  if (!t.sources || t.set_id.empty()) return;
  // One refresh at a time; one whose profile is no longer the active one (another open or a close came since it was
  // queued) publishes nothing, for the refresh queued by that change follows it.
  std::lock_guard lock(t.sources->publish_mutex());
  if (t.sources->ActiveProfile() != t.profile_id) return;
  if (t.sources->code_lens_refresh()) {
    ctx.client().Call(protocol::method::kCodeLensRefresh, protocol::Json(nullptr), [](Expected<protocol::Json> r) {
      if (!r) support::LogInfo("workspace/codeLens/refresh: " + r.error().message);
    });
  }
  if (t.profile_id.empty()) {
    ClearAll(ctx, *t.sources);
    return;
  }
  auto all = ctx.workspace().SourceDiagnostics({t.set_id, t.profile_id, ""}, ctx.cancel(), ctx.progress());
  if (!all) {
    support::LogWarn("source diagnostics: " + all.error().message);
    return;
  }
  if (t.sources->ActiveProfile() != t.profile_id) return;  // changed while the figures were computed
  std::set<std::string> now;
  for (const auto& file : *all) {
    if (!file.diagnostics.empty()) now.insert(t.sources->UriOf(file.file));
  }
  ClearAll(ctx, *t.sources, now);
  for (const auto& file : *all) Publish(ctx, *t.sources, file);
}

void PublishSourceDiagnostics(RequestContext& ctx, const std::vector<std::string>& paths) {
  const Target t = TargetOf(ctx);
  if (t.set_id.empty() || t.profile_id.empty()) return;
  std::lock_guard lock(t.sources->publish_mutex());  // as RefreshSourceViews: never after a newer profile's refresh
  for (const auto& path : paths) {
    auto files = ctx.workspace().SourceDiagnostics({t.set_id, t.profile_id, path}, ctx.cancel(), ctx.progress());
    if (!files) {
      support::LogWarn("source diagnostics: " + files.error().message);
      return;
    }
    if (t.sources->ActiveProfile() != t.profile_id) return;
    for (const auto& file : *files) Publish(ctx, *t.sources, file);
  }
}

Expected<protocol::CodeLensResult> OnCodeLens(const protocol::CodeLensParams& params, RequestContext& ctx) {
  if (ctx.settings().documents) {  // a document whose didOpen/didChange was refused: the same -32803
    if (Status kept = ctx.settings().documents->Refusal(params.uri); !kept) return kept.error();
  }
  const Target t = TargetOf(ctx);
  const std::string path = SourcePathOf(params.uri);
  if (t.profile_id.empty() || path.empty()) return protocol::CodeLensResult{};
  auto lenses = ctx.workspace().SourceLenses({t.set_id, t.profile_id, path}, ctx.cancel(), ctx.progress());
  if (!lenses) return lenses.error();
  return wire::ToCodeLensResult(*lenses);
}

Expected<protocol::HoverResult> SourceHover(const protocol::HoverParams& params, RequestContext& ctx) {
  const Target t = TargetOf(ctx);
  const std::string path = SourcePathOf(params.uri);
  if (t.profile_id.empty() || path.empty()) return protocol::HoverResult{};
  auto hover = ctx.workspace().SourceHoverAt({t.set_id, t.profile_id, path}, static_cast<int>(params.position.line),
                                             static_cast<int>(params.position.character), ctx.cancel(), ctx.progress());
  if (!hover) return hover.error();
  if (!*hover) return protocol::HoverResult{};
  return wire::ToHoverResult(**hover);
}

Expected<protocol::RevealRangeResult> OnExecuteCommand(const protocol::ExecuteCommandParams& params,
                                                       RequestContext& ctx) {
  if (params.command != protocol::kRevealRangeCommand) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("params.command: unknown command '{}'; this server runs '{}'", params.command,
                                 protocol::kRevealRangeCommand));
  }
  if (!params.arguments.is_array() || params.arguments.size() != 1) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "params.arguments: expected one argument {profileId, name, start, end}");
  }
  auto args = protocol::Parse<protocol::RevealRangeArgs>(params.arguments[0], "params.arguments[0]");
  if (!args) return args.error();
  core::TracePublisher* publisher = ctx.options().trace_publisher;
  if (publisher == nullptr) {
    return MakeError(ErrorKind::kUnsupported,
                     "This server has no Perfetto side channel; run `nsys-ai serve` (or `nsys-ai open FILE`).");
  }
  auto revealed = ctx.workspace().RevealRange({args->profile_id, args->name, args->start, args->end}, *publisher,
                                              ctx.settings().perfetto_origin, ctx.cancel(), ctx.progress());
  if (!revealed) return revealed.error();
  protocol::RevealRangeResult result = wire::ToRevealRangeResult(*revealed);
  if (ctx.settings().client.show_document) {
    protocol::ShowDocumentParams show;
    show.uri = result.url;
    show.external = true;
    ctx.client().ShowDocument(show);
  }
  std::string message = fmt::format("'{}' opened in Perfetto", result.name);
  if (result.kernels.empty()) message += "; it launches no kernels.";
  for (size_t i = 0; i < result.kernels.size() && i < kMessageKernels; ++i) {
    const auto& k = result.kernels[i];
    message +=
        fmt::format("{} {} ({} calls, {})", i == 0 ? ". Top kernels:" : ";",
                    k.name.size() > 80 ? k.name.substr(0, 77) + "..." : k.name, k.calls, core::FormatNs(k.gpu_ns));
  }
  ctx.client().ShowMessage(protocol::MessageType::kInfo, message);
  return result;
}

Expected<protocol::KernelSourcesResult> OnKernelSources(const protocol::KernelSourcesParams& params,
                                                        RequestContext& ctx) {
  const Target t = TargetOf(ctx);
  if (t.set_id.empty()) return protocol::KernelSourcesResult{params.kernel, {}};
  auto sources =
      ctx.workspace().KernelSourcesOf(t.set_id, params.profile_id, params.kernel, ctx.cancel(), ctx.progress());
  if (!sources) return sources.error();
  protocol::KernelSourcesResult result = wire::ToKernelSourcesResult(*sources);
  for (size_t i = 0; i < result.locations.size(); ++i) {
    result.locations[i].uri = t.sources->UriOf(sources->locations[i].span.file);
  }
  return result;
}

void OnDidChangeWatchedFiles(const protocol::DidChangeWatchedFilesParams& params, NotificationContext& ctx) {
  SessionSources* sources = ctx.sources();
  if (!sources || sources->set_id().empty()) return;
  std::vector<std::string> changed;
  for (const protocol::FileEvent& event : params.changes) {
    const std::string path = SourcePathOf(event.uri);
    if (path.empty()) continue;
    if (event.type == protocol::FileChangeType::kDeleted) {
      (void)ctx.workspace().RemoveSource(sources->set_id(), path);
    } else {
      (void)ctx.workspace().RefreshSource(sources->set_id(), path);
    }
    changed.push_back(path);
  }
  if (changed.empty()) return;
  ctx.RunInBackground("Mapping profile to sources", [changed](RequestContext& rctx) {
    const Target t = TargetOf(rctx);
    if (t.sources && t.sources->code_lens_refresh()) {
      rctx.client().Call(protocol::method::kCodeLensRefresh, protocol::Json(nullptr), [](Expected<protocol::Json>) {});
    }
    PublishSourceDiagnostics(rctx, changed);
  });
}

void SourceTextChanged(const std::string& uri, const std::string& text, NotificationContext& ctx) {
  SessionSources* sources = ctx.sources();
  const std::string path = SourcePathOf(uri);
  if (!sources || path.empty() || sources->set_id().empty()) return;
  sources->RememberUri(path, uri);
  (void)ctx.workspace().SetSourceText(sources->set_id(), path, text);
  AfterSourceChange(ctx, {path});
}

void SourceTextClosed(const std::string& uri, NotificationContext& ctx) {
  SessionSources* sources = ctx.sources();
  const std::string path = SourcePathOf(uri);
  if (!sources || path.empty() || sources->set_id().empty()) return;
  (void)ctx.workspace().CloseSourceText(sources->set_id(), path);
  AfterSourceChange(ctx, {path});
}

void SourceSaved(const std::string& uri, NotificationContext& ctx) {
  SessionSources* sources = ctx.sources();
  const std::string path = SourcePathOf(uri);
  if (!sources || path.empty() || sources->set_id().empty()) return;
  (void)ctx.workspace().RefreshSource(sources->set_id(), path);
}

}  // namespace nsys::lsp
