#pragma once
// Named baselines of a workspace: `nsys-ai baseline tag NAME FILE` remembers a profile as a known run
// (the last good one), `nsys-ai diff --against NAME AFTER` compares a new run with it. They are kept in
// <dir>/.nsys-ai/baselines.json (dir = the current directory for the CLI), each with its file's identity (size and
// mtime when tagged), so that a baseline whose file changed or vanished is reported instead of silently compared.
// The file is written whole (temp + rename); the user's profiles are never written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/support/expected.h"

namespace nsys::core {

struct Baseline {
  std::string name;       // [A-Za-z0-9._-], 1 to 64 characters
  std::string path;       // absolute
  int64_t size = 0;       // bytes, when tagged
  int64_t mtime_ns = 0;   // when tagged
  std::string tagged_at;  // UTC, "2026-11-23T08:56:11Z"
  bool operator==(const Baseline&) const = default;
};

// <dir>/.nsys-ai/baselines.json
std::string BaselinesFile(const std::string& dir);
// Sorted by name; empty when there is no file yet. kInvalidArgument when the file cannot be read as baselines
// (naming the file and the problem).
Expected<std::vector<Baseline>> ListBaselines(const std::string& dir);
// Adds NAME (or moves it to another file). kInvalidArgument for a bad name, kNotFound when the profile is not a
// regular file.
Expected<Baseline> TagBaseline(const std::string& dir, const std::string& name, const std::string& profile_path);

struct ResolvedBaseline {
  Baseline baseline;
  std::optional<std::string> changed;  // set when the file's size or mtime differ from when it was tagged
};
// The baseline NAME, checked against its file: kNotFound naming the known baselines, or when its file is gone.
Expected<ResolvedBaseline> ResolveBaseline(const std::string& dir, const std::string& name);

}  // namespace nsys::core
