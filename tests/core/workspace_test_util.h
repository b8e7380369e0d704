#pragma once
// Helpers of the core tests that several files use: a Workspace configuration that reads and writes nothing of the
// user's, and the sum of a skill result's integer column. Shared rather than copied per file so that the unity
// build, which compiles several test files as one translation unit, sees one definition.
#include <cstdint>
#include <string>
#include <variant>

#include "nsys/core/workspace.h"

namespace nsys::testing {

// No user skill folders from $HOME, no cache reads or writes.
inline core::WorkspaceConfig Hermetic() {
  core::WorkspaceConfig config;
  config.default_skill_dirs = false;
  config.open.use_cache = false;
  return config;
}

inline int64_t SumColumn(const skills::Table& table, const std::string& column) {
  size_t index = 0;
  while (index < table.columns.size() && table.columns[index].name != column) ++index;
  int64_t sum = 0;
  for (const auto& row : table.rows) sum += std::get<int64_t>(row.at(index));
  return sum;
}

}  // namespace nsys::testing
