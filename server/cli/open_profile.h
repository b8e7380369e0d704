#pragma once
#include <string>

#include "nsys/core/workspace.h"
#include "nsys/support/expected.h"

namespace nsys::cli {

// Opens `path` in `workspace`, showing a progress line on stderr when stderr is a terminal. A subcommand's open is
// its setup, not its core call (a one-shot has no session): open, then one call.
Expected<core::OpenedProfile> OpenWithProgress(core::Workspace& workspace, const std::string& path);
// A ProgressSink that draws "\r<label> 42% message" on a terminal's stderr (nothing otherwise), at most 5 times/s.
ProgressSink TerminalProgress(std::string label);
// Clears the progress line, if one was drawn.
void ClearTerminalProgress();

}  // namespace nsys::cli
