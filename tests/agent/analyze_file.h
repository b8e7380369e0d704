#pragma once
// analyze on an export by its path, through a Workspace of its own without the warm cache or user skills: for tests
// that analyze exports derived from the fixtures (tests/derived_export.h).
#include <string>

#include "nsys/agent/analyze.h"
#include "nsys/core/workspace.h"
#include "nsys/support/expected.h"

namespace nsys::testing {

inline Expected<agent::Analysis> AnalyzeFile(const std::string& path) {
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  core::Workspace ws(config);
  auto opened = ws.Open(path);
  if (!opened) return opened.error();
  auto a = ws.Analyze(opened->id, {});
  (void)ws.Close(opened->id);
  return a;
}

}  // namespace nsys::testing
