#pragma once
// A Workspace's configuration without the warm cache or user skills (OfflineConfig), and analyze on an export by its
// path through such a Workspace of its own: for tests that open exports derived from the fixtures
// (tests/derived_export.h) or the fixtures themselves.
#include <string>

#include "nsys/agent/analyze.h"
#include "nsys/core/workspace.h"
#include "nsys/support/expected.h"

namespace nsys::testing {

inline core::WorkspaceConfig OfflineConfig() {
  core::WorkspaceConfig config;
  config.open.use_cache = false;
  config.default_skill_dirs = false;
  return config;
}

inline Expected<agent::Analysis> AnalyzeFile(const std::string& path) {
  core::Workspace ws(OfflineConfig());
  auto opened = ws.Open(path);
  if (!opened) return opened.error();
  auto a = ws.Analyze(opened->id, {});
  (void)ws.Close(opened->id);
  return a;
}

}  // namespace nsys::testing
