#pragma once
// Kernel -> source on the user's source files: the session's source set kept current (indexing after
// `initialized`, did* and watched-file changes), textDocument/codeLens, hover on a range name, publishDiagnostics,
// workspace/executeCommand nsys-ai.revealRange and nsys/kernelSources. Every feature answers against the session's
// ACTIVE profile (SessionSources::ActiveProfile); with none, lenses are [] and hovers null.
#include <string>
#include <vector>

#include "nsys/lsp/context.h"
#include "nsys/protocol/documents.h"
#include "nsys/protocol/sources.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// The session's source roots as local paths: workspaceFolders[].uri, else rootUri, else rootPath, plus
// initializationOptions.sourceRoots; URIs of other schemes than file: are left out.
std::vector<std::string> SourceRootsOf(const protocol::InitializeParams& params);

// The progress title of the indexing after `initialized` (requests wait for it; it does not wait for itself).
inline constexpr const char* kIndexingSources = "Indexing sources";

// Background work (RequestContext::RunInBackground): index the roots, then refresh the views.
void IndexSessionSources(RequestContext& ctx);
// workspace/codeLens/refresh when the client takes it, and the diagnostics of every indexed file republished
// against the active profile (cleared where there are none any more, or when no profile is open).
void RefreshSourceViews(RequestContext& ctx);
// The diagnostics of the named files (local paths) republished against the active profile.
void PublishSourceDiagnostics(RequestContext& ctx, const std::vector<std::string>& paths);

Expected<protocol::CodeLensResult> OnCodeLens(const protocol::CodeLensParams& params, RequestContext& ctx);
// Hover on a range name literal of a source file (OnHover's answer on file: uris).
Expected<protocol::HoverResult> SourceHover(const protocol::HoverParams& params, RequestContext& ctx);
Expected<protocol::RevealRangeResult> OnExecuteCommand(const protocol::ExecuteCommandParams& params,
                                                       RequestContext& ctx);
Expected<protocol::KernelSourcesResult> OnKernelSources(const protocol::KernelSourcesParams& params,
                                                        RequestContext& ctx);
void OnDidChangeWatchedFiles(const protocol::DidChangeWatchedFilesParams& params, NotificationContext& ctx);

// The did* notifications' part for source files (called by document_handlers.cpp): the buffer's text overrides
// the disk in the source set (didOpen/didChange), the disk is read again (didClose, didSave); the file's
// diagnostics are then republished in the background.
void SourceTextChanged(const std::string& uri, const std::string& text, NotificationContext& ctx);
void SourceTextClosed(const std::string& uri, NotificationContext& ctx);
void SourceSaved(const std::string& uri, NotificationContext& ctx);

// A local path for a file: uri, "" for other schemes.
std::string SourcePathOf(const std::string& uri);

}  // namespace nsys::lsp
