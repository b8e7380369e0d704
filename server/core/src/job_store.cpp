// The open jobs (stores.h) and the features over one job's state: a skill on every rank, the ranks' partials and
// the job skills' merges over them, and the job report's two halves.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "stores.h"

namespace nsys::core {
namespace {

// Σ of an int column over a table's rows (cells of another type count 0); -1 when the column is absent.
int64_t SumColumn(const skills::Table& table, const std::string& column, const std::string& where_column = {},
                  const std::string& where_value = {}) {
  size_t c = table.columns.size(), w = table.columns.size();
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == column) c = i;
    if (!where_column.empty() && table.columns[i].name == where_column) w = i;
  }
  if (c == table.columns.size()) return -1;
  int64_t sum = 0;
  for (const auto& row : table.rows) {
    if (!where_column.empty() && (w == table.columns.size() || !std::holds_alternative<std::string>(row[w]) ||
                                  std::get<std::string>(row[w]) != where_value))
      continue;
    if (const auto* v = std::get_if<int64_t>(&row[c])) sum += *v;
  }
  return sum;
}

}  // namespace

Expected<OpenedJob> JobStore::Add(OpenedJob job, std::shared_ptr<JobEntry> entry,
                                  const std::vector<trace::FileId>& files) {
  std::lock_guard lock(mu_);
  if (jobs_.size() >= max_open_jobs_) {
    return MakeError(ErrorKind::kLimitExceeded,
                     fmt::format("too many open jobs (limit {}): close one with nsys/closeJob", max_open_jobs_));
  }
  job.id = fmt::format("j{}", next_job_id_++);
  for (const auto& id : files) {
    if (std::find(opened_files_.begin(), opened_files_.end(), id) == opened_files_.end()) opened_files_.push_back(id);
  }
  entry->job = job;
  jobs_[job.id] = std::move(entry);
  return job;
}

Status JobStore::Close(const std::string& job_id) {
  std::shared_ptr<JobEntry> entry;
  {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return MakeError(ErrorKind::kNotFound, fmt::format("no open job has id '{}'", job_id));
    entry = std::move(it->second);
    jobs_.erase(it);
  }
  entry.reset();  // its ranks are freed here, outside the lock (a request holding the job keeps it until it ends)
  return {};
}

std::vector<OpenedJob> JobStore::List() const {
  std::vector<OpenedJob> result;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, entry] : jobs_) result.push_back(entry->job);
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return IdNumber(a.id) < IdNumber(b.id); });
  return result;
}

Expected<std::shared_ptr<JobEntry>> JobStore::Find(const std::string& job_id) const {
  std::lock_guard lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) {
    return MakeError(ErrorKind::kNotFound, jobs_.empty()
                                               ? fmt::format("no open job has id '{}' (no job is open)", job_id)
                                               : fmt::format("no open job has id '{}'", job_id));
  }
  return it->second;
}

std::vector<trace::FileId> JobStore::OpenedFiles() const {
  std::lock_guard lock(mu_);
  return opened_files_;
}

Expected<skills::Table> RunSkillOnRanks(JobEntry& entry, const std::shared_ptr<const skills::Skill>& skill,
                                        const skills::Args& args, const engine::FilterSpec& filter,
                                        const skills::RunOptions& options, const CancelToken& cancel,
                                        const ProgressSink& progress) {
  const skills::Args key = MemoKeyArgs(args, filter);
  if (auto known = entry.memo->Find(skill, key)) return *known;
  RankSet& ranks = *entry.ranks;
  std::vector<Expected<skills::Table>> tables(ranks.ranks().size(), skills::Table{});
  auto statuses = ranks.ForEachRank(
      skill->needs(),
      [&](size_t i, engine::Profile& profile) -> Status {
        tables[i] = skills::Run(*skill, profile, args, filter, cancel, {}, options);
        return {};
      },
      nullptr, cancel, progress);
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (!statuses[i]) tables[i] = statuses[i].error();
  }
  auto merged = MergeRankTables(ranks.ranks(), std::move(tables));
  if (!merged) return merged;
  merged->notes.insert(merged->notes.end(), entry.job.notes.begin(), entry.job.notes.end());  // skipped
  entry.memo->Store(skill, key, std::make_shared<const skills::Table>(*merged));
  return merged;
}

Expected<std::shared_ptr<JobPartials>> CollectPartials(const RankSet& ranks,
                                                       std::vector<Expected<skills::job::RankPartial>> parts) {
  auto out = std::make_shared<JobPartials>();
  std::optional<Error> first_error;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i]) {
      out->ranks.push_back(std::move(*parts[i]));
      out->index.push_back(i);
      continue;
    }
    if (parts[i].error().kind == ErrorKind::kCancelled) return parts[i].error();
    if (!first_error) first_error = parts[i].error();
    out->errors[i] = parts[i].error().message;
    out->notes.push_back(
        fmt::format("{}: error: {} (left out of the job's analyses)", ranks.ranks()[i].rank, parts[i].error().message));
  }
  if (out->ranks.empty() && first_error) return *first_error;
  return out;
}

Expected<std::vector<Expected<skills::job::RankPartial>>> PartialsOfRanks(JobEntry& entry,
                                                                          const std::vector<size_t>& which,
                                                                          const std::string& marker,
                                                                          const CancelToken& cancel,
                                                                          const ProgressSink& progress) {
  RankSet& ranks = *entry.ranks;
  for (size_t i : which) {
    if (i >= ranks.ranks().size()) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("job {} has no rank {}", entry.job.id, i));
    }
  }
  std::vector<Expected<skills::job::RankPartial>> parts(ranks.ranks().size(), skills::job::RankPartial{});
  const skills::job::PartialOptions options{marker};
  auto statuses = ranks.ForEachRank(
      skills::job::kRankPartialNeeds,
      [&](size_t i, engine::Profile& profile) -> Status {
        auto part = skills::job::ComputeRankPartial(profile, options, cancel);
        if (!part) return part.error();
        part->label = ranks.ranks()[i].rank;
        parts[i] = std::move(*part);
        return {};
      },
      &which, cancel, progress);
  std::vector<Expected<skills::job::RankPartial>> result;
  for (size_t i : which) result.push_back(statuses[i] ? std::move(parts[i]) : statuses[i].error());
  return result;
}

Expected<std::shared_ptr<const JobPartials>> PartialsOf(JobEntry& entry, const std::string& marker,
                                                        const CancelToken& cancel, const ProgressSink& progress) {
  {
    std::lock_guard lock(entry.partials_mu);
    if (auto it = entry.partials.find(marker); it != entry.partials.end()) return it->second;
  }
  std::vector<size_t> all(entry.ranks->ranks().size());
  std::iota(all.begin(), all.end(), size_t{0});
  auto parts = PartialsOfRanks(entry, all, marker, cancel, progress);
  if (!parts) return parts.error();
  auto out = CollectPartials(*entry.ranks, std::move(*parts));
  if (!out) return out.error();
  std::lock_guard lock(entry.partials_mu);
  return entry.partials.emplace(marker, std::move(*out)).first->second;
}

Expected<skills::Table> MergeJobSkill(JobEntry& entry, const skills::job::JobSkill& skill, const skills::Args& raw_args,
                                      std::vector<Expected<skills::job::RankPartial>> parts,
                                      const CancelToken& cancel) {
  auto args = CheckJobSkillArgs(skill, raw_args);
  if (!args) return args.error();
  if (parts.size() != entry.ranks->ranks().size()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("{} partials for a job of {} ranks", parts.size(), entry.ranks->ranks().size()));
  }
  auto out = CollectPartials(*entry.ranks, std::move(parts));
  if (!out) return out.error();
  {
    std::lock_guard lock(entry.partials_mu);
    entry.partials.emplace(std::get<std::string>(args->at("marker")), std::move(*out));
  }
  return RunJobSkill(entry, skill, *args, cancel, {});
}

Expected<skills::Table> RunJobSkill(JobEntry& entry, const skills::job::JobSkill& skill, const skills::Args& raw_args,
                                    const CancelToken& cancel, const ProgressSink& progress) {
  auto args = CheckJobSkillArgs(skill, raw_args);
  if (!args) return args.error();
  auto partials = PartialsOf(entry, std::get<std::string>(args->at("marker")), cancel, progress);
  if (!partials) return partials.error();
  const auto nodes = NodesOfRanks((*partials)->index, std::get<int64_t>(args->at("ranks_per_node")));
  skills::Table table = skill.merge((*partials)->ranks, nodes, *args);
  table.notes.insert(table.notes.end(), (*partials)->notes.begin(), (*partials)->notes.end());
  return table;
}

// ReportJob's per-rank half: the report's three measures per rank (kernel table, nccl_breakdown's "all" rows, the
// iterations skill's median) and the job skills' partials, each rank visited once with every table they need.
// Long: one visit per rank computes every measure, so the steps share the rank's loaded profile.
Expected<std::vector<RankReportPart>> ReportRanks(JobEntry& entry, const skills::Skill& nccl,
                                                  const skills::Skill& iterations, const std::vector<size_t>& which,
                                                  const CancelToken& cancel, const ProgressSink& progress) {
  RankSet& ranks = *entry.ranks;
  for (size_t i : which) {
    if (i >= ranks.ranks().size()) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("job {} has no rank {}", entry.job.id, i));
    }
  }
  std::vector<RankReportPart> parts(ranks.ranks().size());
  const engine::Need needs =
      engine::Need::kKernels | nccl.needs() | iterations.needs() | skills::job::kRankPartialNeeds;
  // The job skills' partials (default step marker) are computed in the same visit, unless an earlier call did.
  bool have_partials = false;
  {
    std::lock_guard lock(entry.partials_mu);
    have_partials = entry.partials.count("") > 0;
  }
  auto statuses = ranks.ForEachRank(
      needs,
      [&](size_t i, engine::Profile& profile) -> Status {
        RankSummary& summary = parts[i].summary;
        if (!have_partials) {
          auto part = skills::job::ComputeRankPartial(profile, {}, cancel);
          if (!part) return part.error();
          part->label = ranks.ranks()[i].rank;
          parts[i].partial = std::move(*part);
        }
        const auto& kernels = profile.kernels();
        summary.kernels = static_cast<int64_t>(kernels.size());
        for (size_t r = 0; r < kernels.size(); ++r) summary.gpu_time_ns += kernels.end[r] - kernels.start[r];
        auto comm = skills::Run(nccl, profile, {}, cancel);
        if (!comm) return comm.error();
        if (!comm->declined) {
          summary.nccl_kernels = std::max<int64_t>(0, SumColumn(*comm, "count", "collective", "all"));
          summary.nccl_time_ns = std::max<int64_t>(0, SumColumn(*comm, "total_ns", "collective", "all"));
        }
        auto steps = skills::Run(iterations, profile, {}, cancel);
        if (!steps) return steps.error();
        if (!steps->declined && !steps->rows.empty()) {
          std::vector<int64_t> durations;
          size_t c = 0;
          while (c < steps->columns.size() && steps->columns[c].name != "duration_ns") ++c;
          for (const auto& row : steps->rows) {
            if (const auto* v = c < row.size() ? std::get_if<int64_t>(&row[c]) : nullptr) durations.push_back(*v);
          }
          if (!durations.empty()) {
            std::sort(durations.begin(), durations.end());
            const size_t n = durations.size();
            // The median as the iterations skill states it: the middle one, or the mean of the two middle ones.
            summary.step_time_ns = n % 2 == 1 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2;
            summary.steps = static_cast<int64_t>(n);
          }
        }
        return {};
      },
      &which, cancel, progress);
  std::vector<RankReportPart> result;
  for (size_t i : which) {
    RankReportPart part;
    if (statuses[i]) {
      part = std::move(parts[i]);
    } else {
      part.error = statuses[i].error();
    }
    part.summary.rank = ranks.ranks()[i].rank;
    part.summary.path = ranks.ranks()[i].path;
    result.push_back(std::move(part));
  }
  return result;
}

// ReportJob's merge half: the failure accounting, the partials kept for later job skill calls, every job skill.
// Long: one pass over the parts, then every job skill and the notes.
Expected<JobReport> MergeReport(JobEntry& entry, std::vector<RankReportPart> parts, const CancelToken& cancel) {
  RankSet& ranks = *entry.ranks;
  if (parts.size() != ranks.ranks().size()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("{} rank parts for a job of {} ranks", parts.size(), ranks.ranks().size()));
  }
  JobReport report;
  report.job_id = entry.job.id;
  size_t failed = 0;
  std::optional<Error> first_error;
  std::vector<Expected<skills::job::RankPartial>> partials;
  bool every_partial = true;
  for (size_t i = 0; i < parts.size(); ++i) {
    RankReportPart& part = parts[i];
    if (part.summary.rank != ranks.ranks()[i].rank) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("rank part {} names '{}', not the job's '{}'", i,
                                                                part.summary.rank, ranks.ranks()[i].rank));
    }
    if (part.error) {
      if (part.error->kind == ErrorKind::kCancelled) {
        return MakeError(ErrorKind::kCancelled, "the job report was cancelled");
      }
      if (!first_error) first_error = part.error;
      RankSummary summary;
      summary.rank = ranks.ranks()[i].rank;
      summary.path = ranks.ranks()[i].path;
      summary.error = part.error->message;
      report.ranks.push_back(std::move(summary));
      partials.push_back(*part.error);
      ++failed;
      continue;
    }
    report.ranks.push_back(std::move(part.summary));
    every_partial &= part.partial.has_value();
    partials.push_back(part.partial ? std::move(*part.partial) : skills::job::RankPartial{});
  }
  if (failed == parts.size() && !parts.empty()) return *first_error;
  if (every_partial) {
    auto out = CollectPartials(ranks, std::move(partials));
    if (!out) return out.error();
    std::lock_guard lock(entry.partials_mu);
    entry.partials.emplace("", std::move(*out));  // kept unless an earlier call computed them
  }
  for (const auto& run_skill : skills::job::JobSkills()) {
    auto table = RunJobSkill(entry, run_skill, {}, cancel, {});
    if (!table) return table.error();
    report.analyses.push_back({run_skill.name, std::move(*table)});
  }
  report.memory = ranks.stats();
  report.notes.push_back(
      "GPU time is the sum of kernel durations; NCCL time the sum of communication kernels' durations "
      "(nccl_breakdown); step time the median iteration found by the iterations skill.");
  if (failed > 0) report.notes.push_back(fmt::format("{} of {} ranks could not be read.", failed, parts.size()));
  report.notes.insert(report.notes.end(), entry.job.notes.begin(), entry.job.notes.end());  // skipped
  if (report.memory.over_budget_ranks > 0) {
    report.notes.push_back(fmt::format("{} ranks alone exceed the memory budget; they were loaded one at a time.",
                                       report.memory.over_budget_ranks));
  }
  return report;
}

}  // namespace nsys::core
