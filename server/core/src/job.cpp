// A job of rank exports: listing its files, and RankSet, the lazily loaded ranks under a byte budget (job.h).
#include "nsys/core/job.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>

#include <chrono>
#include <exception>
#include <utility>
#include <variant>
#endif

#include "nsys/support/path_text.h"
#include "nsys/support/sanitizers.h"

namespace nsys::core {

namespace {

// Gives the dropped ranks' pages back to the system, so RSS follows the accounting. Not under AddressSanitizer:
// there the heap is the sanitizer's, and glibc's malloc_trim walks arenas it never set up (called from a rank
// worker thread it crashed CI, SEGV in mtrim; a 2-thread program calling it under ASan fails about 1 run in 10).
void ReturnFreedPages() {
#if defined(__GLIBC__) && !NSYS_AI_ASAN
  malloc_trim(0);
#endif
}

namespace fs = std::filesystem;

bool IsRankFile(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".sqlite" || ext == ".nsys-rep" || ext == ".qdrep";
}

// Bytes per row of each event table in the model (model.h's columns), with the vectors' spare capacity.
struct TableCost {
  engine::Need need;
  const char* table;
  uint64_t bytes_per_row;
};
// KernelTable: 2 Ns, 3+2+6+3+1 int32/uint32, 3 StrId = 16 + 72 = 88. RuntimeTable: 16 + 2+1+1+1+1 x 4 = 40.
// MemcpyTable: 16 + 8 + 8 + 8 + 1 + 2 + 8 + 4 = 55. MemsetTable: 16 + 8 + 8 + 8 + 4 + 1 + 4 = 49.
// SyncTable: 16 + 8 + 8 + 4 + 4 = 40. NvtxTable: 16 + 12 + 4 + 8 + 1 + 4 + 4 + 2 + 4 + 4 = 59 (marks share the
// table's rows). OverheadTable: 16 + 8 + 4 = 28.
constexpr TableCost kTableCosts[] = {
    {engine::Need::kKernelRows, "CUPTI_ACTIVITY_KIND_KERNEL", 88},
    {engine::Need::kRuntime, "CUPTI_ACTIVITY_KIND_RUNTIME", 40},
    {engine::Need::kMemcpy, "CUPTI_ACTIVITY_KIND_MEMCPY", 55},
    {engine::Need::kMemset, "CUPTI_ACTIVITY_KIND_MEMSET", 49},
    {engine::Need::kSync, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 40},
    {engine::Need::kNvtx, "NVTX_EVENTS", 59},
    {engine::Need::kOverhead, "PROFILER_OVERHEAD", 28},
};
// Vectors grow by doubling while a table loads: up to twice the rows' bytes at the moment of the last growth.
constexpr uint64_t kGrowthNumerator = 3, kGrowthDenominator = 2;
constexpr uint64_t kBytesPerString = 96;  // the text, its view and the pool's index
// The open profile beyond its event tables: small tables, connections and their page caches, loader threads, and
// the open's own transient working memory. Measured on mfu_2gpu_after's ranks (1.4 MB files): one rank opened and
// loaded at a time raised this process's peak RSS by about 40 MB; 64 ranks held at once took 14 MB each.
constexpr uint64_t kBaseBytes = uint64_t{40} << 20;

// Why a directory entry named like a rank file is not read as one (ListJobFiles' note).
std::string WhyNotARank(const fs::directory_entry& entry) {
  std::error_code ec;
  const fs::file_status own = entry.symlink_status(ec);
  if (ec) return fmt::format("cannot be read ({})", ec.message());
  const fs::file_status target = fs::status(entry.path(), ec);
  if (fs::is_symlink(own) && !fs::exists(target)) return "a dangling symbolic link";
  if (ec) return fmt::format("cannot be read ({})", ec.message());
  std::string what = "not a regular file";
  if (fs::is_directory(target)) {
    what = "a directory";
  } else if (fs::is_fifo(target)) {
    what = "a FIFO";
  } else if (fs::is_socket(target)) {
    what = "a socket";
  } else if (fs::is_block_file(target) || fs::is_character_file(target)) {
    what = "a device";
  }
  return fs::is_symlink(own) ? "a symbolic link to " + what : what;
}

engine::Need Expand(engine::Need needs) {
  using engine::Need;
  if (engine::Has(needs, Need::kAttribution)) needs = needs | Need::kKernels | Need::kNvtx;
  if (engine::Has(needs, Need::kKernels)) needs = needs | Need::kKernelRows | Need::kRuntime;
  if (engine::Has(needs, Need::kKernelConfig)) needs = needs | Need::kKernelRows;
  return needs;
}

}  // namespace

bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      // Compare the numbers without converting them (any length): leading zeros off, then length, then digits.
      size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      if (int c = a.compare(is, ie - is, b, js, je - js); c != 0) return c < 0;
      if (ie - i != je - j) return ie - i < je - j;  // "01" after "1": fewer leading zeros first
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

Expected<std::vector<JobRank>> ListJobFiles(const JobRequest& request, std::vector<std::string>* skipped) {
  if (request.paths.empty() == request.directory.empty()) {
    return MakeError(ErrorKind::kInvalidArgument, "a job is opened from `paths` or from a `directory`, one of the two");
  }
  std::vector<fs::path> files;
  std::error_code ec;
  if (!request.directory.empty()) {
    const fs::path dir(request.directory);
    if (!fs::is_directory(dir, ec)) {
      return MakeError(fs::exists(dir, ec) ? ErrorKind::kInvalidArgument : ErrorKind::kNotFound,
                       fmt::format("{} is not a directory", support::QuoteInput(request.directory)));
    }
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!IsRankFile(it->path())) continue;  // not a rank's name (split.log, manifest.json): not a rank
      std::error_code entry_ec;
      if (it->is_regular_file(entry_ec)) {
        files.push_back(it->path());
      } else if (skipped != nullptr) {
        skipped->push_back(
            fmt::format("{} was skipped: {}", support::QuoteInput(it->path().filename().native()), WhyNotARank(*it)));
      }
      if (files.size() > kMaxJobRanks) {
        return MakeError(ErrorKind::kLimitExceeded, fmt::format("{} holds more than {} rank files",
                                                                support::QuoteInput(request.directory), kMaxJobRanks));
      }
    }
    if (ec)
      return MakeError(ErrorKind::kBadInput,
                       fmt::format("cannot list {}: {}", support::QuoteInput(request.directory), ec.message()));
    if (files.empty()) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{} holds no rank exports (*.sqlite, *.nsys-rep or *.qdrep)",
                                   support::QuoteInput(request.directory)));
    }
  } else {
    if (request.paths.size() > kMaxJobRanks) {
      return MakeError(ErrorKind::kLimitExceeded, fmt::format("a job has at most {} ranks", kMaxJobRanks));
    }
    for (const auto& path : request.paths) {
      if (path.empty()) return MakeError(ErrorKind::kInvalidArgument, "a job's path is empty");
      if (!fs::exists(path, ec))
        return MakeError(ErrorKind::kNotFound, fmt::format("{} does not exist", support::QuoteInput(path)));
      if (!fs::is_regular_file(path, ec)) {
        return MakeError(ErrorKind::kInvalidArgument, fmt::format("{} is not a file", support::QuoteInput(path)));
      }
      files.emplace_back(path);
    }
  }
  std::vector<JobRank> ranks;
  ranks.reserve(files.size());
  std::set<std::string> names;
  for (const auto& file : files) {
    JobRank rank{support::DisplayText(file.stem().native()), file.string(), 0};
    if (!names.insert(rank.rank).second) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("two rank files are named {} (a rank is named by its file name without the "
                                   "extension; give only one of its .sqlite, .nsys-rep and .qdrep)",
                                   rank.rank));
    }
    const auto size = fs::file_size(file, ec);
    rank.file_size = ec ? 0 : static_cast<int64_t>(size);
    ranks.push_back(std::move(rank));
  }
  std::sort(ranks.begin(), ranks.end(), [](const JobRank& a, const JobRank& b) { return NaturalLess(a.rank, b.rank); });
  return ranks;
}

Expected<uint64_t> ParseByteSize(const std::string& text) {
  auto bad = [&] {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("a memory size is a number of bytes with an optional unit K, M, G or T (binary), "
                                 "e.g. 4G or 512M, not '{}'",
                                 text));
  };
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) return bad();
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  std::string unit(end);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && (unit.ends_with("IB")))
    unit.resize(unit.size() - 2);
  else if (unit.size() > 1 && unit.back() == 'B')
    unit.pop_back();
  int shift = 0;
  if (unit.empty() || unit == "B")
    shift = 0;
  else if (unit == "K")
    shift = 10;
  else if (unit == "M")
    shift = 20;
  else if (unit == "G")
    shift = 30;
  else if (unit == "T")
    shift = 40;
  else
    return bad();
  const double bytes = std::ldexp(number, shift);
  if (!std::isfinite(bytes) || bytes < 1 || bytes > 1e18) return bad();
  return static_cast<uint64_t>(bytes);
}

uint64_t EstimateRankBytes(const engine::ProfileInfo& info, engine::Need needs) {
  needs = Expand(needs);
  uint64_t bytes = kBaseBytes;
  bytes += static_cast<uint64_t>(std::max<int64_t>(0, info.rows("StringIds"))) * kBytesPerString;
  for (const auto& cost : kTableCosts) {
    if (!engine::Has(needs, cost.need)) continue;
    const auto rows = static_cast<uint64_t>(std::max<int64_t>(0, info.rows(cost.table)));
    bytes += rows * cost.bytes_per_row * kGrowthNumerator / kGrowthDenominator;
  }
  return bytes;
}

// ---- RankSet ----

RankSet::RankSet(std::vector<JobRank> ranks, uint64_t budget_bytes, int threads, engine::OpenOptions open,
                 RankOpener opener)
    : ranks_(std::move(ranks)),
      budget_(budget_bytes),
      threads_(std::max(1, threads)),
      open_(std::move(open)),
      opener_(std::move(opener)),
      slots_(ranks_.size()) {
  open_.load_all_in_background = false;  // a rank loads what its queries need, nothing more
  stats_.budget_bytes = budget_;
}

RankSet::~RankSet() = default;

JobMemoryStats RankSet::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void RankSet::Reserve(Slot& slot, uint64_t bytes) {
  slot.accounted += bytes;
  stats_.accounted_bytes += bytes;
  stats_.peak_accounted_bytes = std::max(stats_.peak_accounted_bytes, stats_.accounted_bytes);
}

bool RankSet::MakeRoom(uint64_t extra, size_t keep) {
  while (stats_.accounted_bytes + extra > budget_) {
    size_t victim = slots_.size();
    for (size_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      if (i == keep || !s.profile || s.pins > 0 || s.opening) continue;
      if (victim == slots_.size() || s.last_used < slots_[victim].last_used) victim = i;
    }
    if (victim == slots_.size()) return false;
    Slot& v = slots_[victim];
    stats_.accounted_bytes -= v.accounted;
    dropped_.push_back(std::move(v.profile));
    v = Slot{};
    --stats_.loaded_ranks;
    ++stats_.evictions;
  }
  return true;
}

// Long: one loop over the slot's states (opening elsewhere, closed, open without room, open with room), each step
// under the lock except the open itself, so that the budget check and the reservation cannot interleave.
Expected<std::shared_ptr<engine::Profile>> RankSet::Acquire(size_t i, engine::Need needs, engine::Need* require,
                                                            const CancelToken& cancel) {
  std::unique_lock lock(mu_);
  bool counted_over = false;
  for (;;) {
    if (cancel.cancelled()) {
      return MakeError(ErrorKind::kCancelled, fmt::format("{} was cancelled", ranks_[i].rank));
    }
    Slot& slot = slots_[i];
    if (slot.opening) {
      changed_.wait_for(lock, std::chrono::milliseconds(50));
      continue;
    }
    if (!slot.profile) {
      // The open itself is counted (kBaseBytes) before it happens: concurrent opens wait for room like loads.
      if (!MakeRoom(kBaseBytes, i)) {
        if (AnyBusy(i)) {
          changed_.wait_for(lock, std::chrono::milliseconds(50));
          continue;
        }
        if (!counted_over) ++stats_.over_budget_ranks;
        counted_over = true;
      }
      Reserve(slot, kBaseBytes);
      slot.opening = true;
      lock.unlock();
      auto opened = opener_ ? opener_(ranks_[i].path, open_, {}, cancel)
                            : engine::Profile::Open(ranks_[i].path, open_, {}, cancel);
      lock.lock();
      slot.opening = false;
      changed_.notify_all();
      if (!opened) {
        stats_.accounted_bytes -= slot.accounted;
        slot = Slot{};
        return opened.error();
      }
      slot.profile = std::move(*opened);
      slot.loaded = {};
      ++stats_.loads;
      ++stats_.loaded_ranks;
    }
    engine::Need want = slot.loaded | needs;
    // The first load of a rank with the cache on and no snapshot yet loads every table, so that the engine writes
    // the warm snapshot (it does once every table has loaded) and reopening the rank after it is dropped is cheap.
    if (open_.use_cache && !slot.profile->info().from_cache) want = want | engine::kAllTables;
    const uint64_t bytes = EstimateRankBytes(slot.profile->info(), want);
    const uint64_t extra = bytes > slot.accounted ? bytes - slot.accounted : 0;
    if (extra > 0 && !MakeRoom(extra, i)) {
      if (AnyBusy(i) || slot.pins > 0) {
        // Wait for a visit to finish (then its rank can go). No visit waits while holding a pin, so one finishes.
        slot.last_used = ++clock_;
        changed_.wait_for(lock, std::chrono::milliseconds(50));
        continue;
      }
      // Alone and still over: this rank alone exceeds the budget. Load it anyway (one rank at a time) and say so.
      if (!counted_over) ++stats_.over_budget_ranks;
      counted_over = true;
    }
    Reserve(slot, extra);
    slot.loaded = want;
    if (require) *require = want;
    ++slot.pins;
    slot.last_used = ++clock_;
    auto profile = slot.profile;
    std::vector<std::shared_ptr<engine::Profile>> dropped;
    dropped.swap(dropped_);
    lock.unlock();
    if (!dropped.empty()) {
      dropped.clear();  // profiles freed outside the lock
      ReturnFreedPages();
    }
    return profile;
  }
}

bool RankSet::AnyBusy(size_t except) const {
  for (size_t j = 0; j < slots_.size(); ++j) {
    if (j != except && (slots_[j].pins > 0 || slots_[j].opening)) return true;
  }
  return false;
}

void RankSet::Unpin(size_t i) {
  {
    std::lock_guard lock(mu_);
    --slots_[i].pins;
  }
  changed_.notify_all();
}

// Long: the worker loop with per-rank status, progress serialised for the sink, and exceptions kept per rank.
std::vector<Status> RankSet::ForEachRank(engine::Need needs, const Visit& visit, const std::vector<size_t>* only,
                                         const CancelToken& cancel, const ProgressSink& progress) {
  std::vector<Status> results(ranks_.size());
  std::vector<size_t> order;
  if (only) {
    for (size_t i : *only) {
      if (i < ranks_.size()) order.push_back(i);
    }
  } else {
    for (size_t i = 0; i < ranks_.size(); ++i) order.push_back(i);
  }
  const size_t n = order.size();
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex progress_mu;
  auto work = [&] {
    for (size_t k = next++; k < n; k = next++) {
      const size_t i = order[k];
      if (cancel.cancelled()) {
        results[i] = MakeError(ErrorKind::kCancelled, fmt::format("{} was cancelled", ranks_[i].rank));
        continue;
      }
      engine::Need require = needs;
      auto profile = Acquire(i, needs, &require, cancel);
      if (!profile) {
        results[i] = profile.error();
      } else {
        try {
          Status loaded = (*profile)->Require(require, cancel);
          results[i] = loaded ? visit(i, **profile) : loaded;
        } catch (const std::exception& e) {
          results[i] = MakeError(ErrorKind::kInternal, fmt::format("{} failed: {}", ranks_[i].rank, e.what()));
        }
        profile->reset();
        Unpin(i);
      }
      const size_t finished = ++done;
      if (progress) {
        std::lock_guard lock(progress_mu);
        progress(100.0 * static_cast<double>(finished) / static_cast<double>(n),
                 fmt::format("{} done ({}/{})", ranks_[i].rank, finished, n));
      }
    }
  };
  const size_t workers = std::min<size_t>(static_cast<size_t>(threads_), n);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (auto& thread : pool) thread.join();
  return results;
}

}  // namespace nsys::core

namespace nsys::core {
namespace {

// Notes in first-seen order, each with the ranks that gave it.
struct NoteGroup {
  std::string text;
  std::vector<size_t> ranks;
};

void AddNote(std::vector<NoteGroup>& groups, std::map<std::string, size_t>& index, const std::string& text,
             size_t rank) {
  auto [it, inserted] = index.emplace(text, groups.size());
  if (inserted) groups.push_back({text, {}});
  auto& list = groups[it->second].ranks;
  if (list.empty() || list.back() != rank) list.push_back(rank);
}

std::string RanksLabel(const std::vector<JobRank>& ranks, const std::vector<size_t>& which) {
  if (which.size() == ranks.size() && ranks.size() > 1) return fmt::format("every rank ({})", ranks.size());
  constexpr size_t kListed = 8;
  std::string out;
  for (size_t k = 0; k < which.size() && k < kListed; ++k) {
    if (k > 0) out += ", ";
    out += ranks[which[k]].rank;
  }
  if (which.size() > kListed) out += fmt::format(" and {} more", which.size() - kListed);
  return out;
}

bool SameColumns(const std::vector<skills::Column>& a, const std::vector<skills::Column>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].type != b[i].type) return false;
  }
  return true;
}

}  // namespace

// Long: one pass over the ranks' results (columns of the first answer, rows prefixed, notes grouped by text).
Expected<skills::Table> MergeRankTables(const std::vector<JobRank>& ranks,
                                        std::vector<Expected<skills::Table>> results) {
  skills::Table merged;
  std::vector<NoteGroup> notes;
  std::map<std::string, size_t> note_index;
  const std::vector<skills::Column>* columns = nullptr;
  std::optional<Error> first_error;
  bool any_cancelled = false;
  size_t answered = 0, declined = 0;
  for (size_t i = 0; i < results.size() && i < ranks.size(); ++i) {
    auto& result = results[i];
    if (!result) {
      any_cancelled = any_cancelled || result.error().kind == ErrorKind::kCancelled;
      if (!first_error) first_error = result.error();
      AddNote(notes, note_index, "error: " + result.error().message, i);
      continue;
    }
    skills::Table& table = *result;
    for (const auto& note : table.notes) AddNote(notes, note_index, note, i);
    if (table.declined) {
      ++declined;
      AddNote(notes, note_index, "declined.", i);
      continue;
    }
    if (!columns) {
      columns = &table.columns;
      merged.columns.push_back({"rank", ValueType::kString, "The rank: its export's file name without the extension"});
      merged.columns.insert(merged.columns.end(), table.columns.begin(), table.columns.end());
    } else if (!SameColumns(*columns, table.columns)) {
      AddNote(notes, note_index, "its columns differ from the first rank's; its rows are left out.", i);
      continue;
    }
    ++answered;
    merged.rows.reserve(merged.rows.size() + table.rows.size());
    for (auto& row : table.rows) {
      std::vector<Value> out;
      out.reserve(row.size() + 1);
      out.emplace_back(ranks[i].rank);
      for (auto& cell : row) out.push_back(std::move(cell));
      merged.rows.push_back(std::move(out));
    }
  }
  if (answered == 0 && declined == 0 && first_error) {
    if (any_cancelled) return MakeError(ErrorKind::kCancelled, "the job's skill was cancelled");
    return *first_error;
  }
  if (any_cancelled) return MakeError(ErrorKind::kCancelled, "the job's skill was cancelled");
  merged.declined = answered == 0;
  for (const auto& group : notes) merged.notes.push_back(RanksLabel(ranks, group.ranks) + ": " + group.text);
  return merged;
}

}  // namespace nsys::core

namespace nsys::core {

std::vector<skills::ArgSpec> JobSkillCommonArgs() {
  return {{"marker", ValueType::kString,
           "Steps are the outermost NVTX ranges (or marks) whose name contains this text, e.g. \"ProfilerStep\"; "
           "empty = iterations found by kernel periodicity.",
           Value(std::string())},
          {"ranks_per_node",
           ValueType::kInt,
           "Consecutive ranks that share a node (and its clock), e.g. 8; 0 = every rank its own node.",
           Value(int64_t{0}),
           false,
           {},
           0.0,
           1e6}};
}

std::optional<std::vector<skills::ArgSpec>> JobSkillArgSpecs(const std::string& name) {
  const skills::job::JobSkill* skill = skills::job::FindJobSkill(name);
  if (!skill) return std::nullopt;
  std::vector<skills::ArgSpec> specs = JobSkillCommonArgs();
  specs.insert(specs.end(), skill->args.begin(), skill->args.end());
  return specs;
}

Expected<skills::Args> CheckJobSkillArgs(const skills::job::JobSkill& skill, const skills::Args& raw) {
  std::vector<skills::ArgSpec> specs = JobSkillCommonArgs();
  specs.insert(specs.end(), skill.args.begin(), skill.args.end());
  skills::Args out;
  for (const auto& [arg_name, value] : raw) {
    const std::string& name = arg_name;  // a lambda may not capture a structured binding before C++20 in clang 14
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const skills::ArgSpec& a) { return a.name == name; });
    if (spec == specs.end()) {
      std::string known;
      for (const auto& a : specs) known += (known.empty() ? "" : ", ") + a.name;
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{} has no argument '{}' (its arguments: {})", skill.name, name, known));
    }
    Value v = value;
    if (spec->type == ValueType::kDouble && std::holds_alternative<int64_t>(v)) {
      v = Value(static_cast<double>(std::get<int64_t>(v)));
    }
    const bool ok = (spec->type == ValueType::kInt && std::holds_alternative<int64_t>(v)) ||
                    (spec->type == ValueType::kDouble && std::holds_alternative<double>(v)) ||
                    (spec->type == ValueType::kString && std::holds_alternative<std::string>(v)) ||
                    (spec->type == ValueType::kBool && std::holds_alternative<bool>(v));
    if (!ok) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("{}: argument '{}' must be of type {}", skill.name,
                                                                name, ValueTypeName(spec->type)));
    }
    if (const auto* text = std::get_if<std::string>(&v);
        text && !spec->choices.empty() &&
        std::find(spec->choices.begin(), spec->choices.end(), *text) == spec->choices.end()) {
      std::string allowed;
      for (const auto& c : spec->choices) allowed += (allowed.empty() ? "" : ", ") + c;
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{}: argument '{}' must be one of {}, not '{}'", skill.name, name, allowed, *text));
    }
    double number = 0;
    if (const auto* i = std::get_if<int64_t>(&v)) number = static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v)) number = *d;
    if ((spec->min && number < *spec->min) || (spec->max && number > *spec->max)) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{}: argument '{}' is out of range [{}, {}]", skill.name, name,
                                   spec->min.value_or(-1e300), spec->max.value_or(1e300)));
    }
    out[name] = std::move(v);
  }
  for (const auto& spec : specs) {
    if (!out.count(spec.name) && !IsNull(spec.default_value)) out[spec.name] = spec.default_value;
  }
  return out;
}

std::vector<int32_t> NodesOfRanks(const std::vector<size_t>& rank_index, int64_t ranks_per_node) {
  std::vector<int32_t> nodes;
  if (ranks_per_node <= 0) return nodes;
  for (size_t i : rank_index) nodes.push_back(static_cast<int32_t>(static_cast<int64_t>(i) / ranks_per_node));
  return nodes;
}

}  // namespace nsys::core
