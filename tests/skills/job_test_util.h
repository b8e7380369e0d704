#pragma once
// Helpers for the job (cross-rank) tests: split a real multi-process fixture into rank files with
// ../shared/tools/split_ranks.py into a temporary directory (removed when the test program exits; nothing is
// committed), then compute every rank's partial the way a job does (open, Require, ComputeRankPartial).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/job_partials.h"

namespace nsys::testing {

struct SplitRank {
  std::string file;
  int64_t rank = 0;
  uint32_t source_pid = 0;
  int32_t node = 0;
  int64_t clock_offset_ns = 0;  // what split_ranks.py added to every event time of the file
};

struct SplitJob {
  std::string dir;
  std::vector<SplitRank> manifest;
  std::vector<skills::job::RankPartial> partials;  // in rank order
  std::vector<int32_t> node_of_rank;               // from the manifest
  bool ok = false;
};

inline std::string SplitRanksTool() {
  return (std::filesystem::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string();
}

// Removes the temporary split directories when the test program ends.
class SplitDirs {
 public:
  ~SplitDirs() {
    for (const std::string& d : dirs_) {
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  }
  std::string Make(const std::string& tag) {
    const auto base = std::filesystem::temp_directory_path() /
                      ("nsys-ai-run-" + std::to_string(::getpid()) + "-" + std::to_string(dirs_.size()) + "-" + tag);
    std::filesystem::create_directories(base);
    dirs_.push_back(base.string());
    return base.string();
  }

 private:
  std::vector<std::string> dirs_;
};

// Splits `fixture` with split_ranks.py `args` (e.g. "--replicate 8 --ranks-per-node 4 --skew-ns 2000000") once per
// program and computes the partials. Fails the test when a step fails.
inline const SplitJob& Split(const std::string& fixture, const std::string& args = "", const std::string& marker = "") {
  static std::mutex mu;
  static SplitDirs dirs;
  static std::map<std::string, std::unique_ptr<SplitJob>> cache;
  std::lock_guard lock(mu);
  const std::string key = fixture + "|" + args + "|" + marker;
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  auto job = std::make_unique<SplitJob>();
  job->dir = dirs.Make(fixture.substr(0, fixture.find('.')));
  const std::string cmd =
      "python3 -B '" + SplitRanksTool() + "' '" + Fixture(fixture) + "' '" + job->dir + "' " + args + " > /dev/null";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "split failed: " << cmd;
    return *(cache[key] = std::move(job));
  }
  std::ifstream in(std::filesystem::path(job->dir) / "manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  for (const auto& r : manifest["ranks"]) {
    job->manifest.push_back({r["file"].get<std::string>(), r["rank"].get<int64_t>(), r["source_pid"].get<uint32_t>(),
                             r["node"].get<int32_t>(), r["clock_offset_ns"].get<int64_t>()});
    job->node_of_rank.push_back(job->manifest.back().node);
  }
  engine::OpenOptions options;
  options.use_cache = false;
  for (const SplitRank& r : job->manifest) {
    auto profile = engine::Profile::Open((std::filesystem::path(job->dir) / r.file).string(), options);
    if (!profile) {
      ADD_FAILURE() << r.file << ": " << profile.error().message;
      return *(cache[key] = std::move(job));
    }
    if (Status s = (*profile)->Require(skills::job::kRankPartialNeeds); !s) {
      ADD_FAILURE() << r.file << ": " << s.error().message;
      return *(cache[key] = std::move(job));
    }
    auto partial = skills::job::ComputeRankPartial(**profile, {marker}, {});
    if (!partial) {
      ADD_FAILURE() << r.file << ": " << partial.error().message;
      return *(cache[key] = std::move(job));
    }
    partial->label = r.file;
    job->partials.push_back(std::move(*partial));
  }
  job->ok = true;
  return *(cache[key] = std::move(job));
}

}  // namespace nsys::testing
