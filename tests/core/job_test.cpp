// Jobs of rank exports: file listing and naming, memory sizes, and the oracle: the rank files that
// ../shared/tools/split_ranks.py makes from a multi-process export, analysed as a job, give rank by rank exactly
// the numbers the source export gives process by process. Rank sets are made at test time in a temp directory.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "nsys/core/workspace.h"
#include "sanitizers.h"
#include "trace/trace_test_util.h"
#include "workspace_test_util.h"

namespace nsys::testing {
namespace {

namespace fs = std::filesystem;

// A directory for one set of rank files, under this process's temporary root (removed when the program ends).
fs::path RankSetDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("nsys_ai_job_test_" + std::to_string(::getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

struct TempRoot {
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / ("nsys_ai_job_test_" + std::to_string(::getpid())), ec);
  }
};
TempRoot temp_root;  // removes every rank set when the test program ends

std::string SplitTool() {
  return (fs::path(FixturesDir()) / ".." / "tools" / "split_ranks.py").string();
}

// Runs split_ranks.py SRC OUT [extra]; the output directory, or empty (the test fails) when it did not work.
fs::path Split(const std::string& fixture, const std::string& name, const std::string& extra = "") {
  const fs::path out = RankSetDir(name);
  const std::string cmd = "python3 '" + SplitTool() + "' '" + Fixture(fixture) + "' '" + out.string() + "' " + extra +
                          " > '" + (out / "split.log").string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << "split_ranks.py failed: " << cmd;
    return {};
  }
  return out;
}

// ---- names, order, sizes ----

TEST(JobFiles, NaturalOrderPutsRank2BeforeRank10) {
  EXPECT_TRUE(core::NaturalLess("rank2", "rank10"));
  EXPECT_FALSE(core::NaturalLess("rank10", "rank2"));
  EXPECT_TRUE(core::NaturalLess("rank0009", "rank0010"));
  EXPECT_TRUE(core::NaturalLess("node1_rank3", "node2_rank0"));
  EXPECT_TRUE(core::NaturalLess("a", "b"));
  EXPECT_TRUE(core::NaturalLess("rank", "rank0"));
  EXPECT_FALSE(core::NaturalLess("rank7", "rank7"));
  EXPECT_TRUE(core::NaturalLess("rank1", "rank01"));  // equal numbers: fewer leading zeros first, a strict order
  EXPECT_TRUE(core::NaturalLess("r99999999999999999999999", "r100000000000000000000000"));  // beyond 64 bits
}

TEST(JobFiles, DirectoryListsRankExportsNamedByFileAndNaturallyOrdered) {
  const fs::path dir = RankSetDir("listing");
  for (const char* name :
       {"rank10.sqlite", "rank2.sqlite", "rank1.nsys-rep", "rank3.qdrep", "manifest.json", "notes.txt"}) {
    std::ofstream(dir / name) << "x";
  }
  fs::create_directories(dir / "sub.sqlite");  // a directory is not a rank
  auto ranks = core::ListJobFiles({.directory = dir.string()});
  ASSERT_TRUE(ranks.ok()) << ranks.error().message;
  ASSERT_EQ(ranks->size(), 4u);
  EXPECT_EQ((*ranks)[0].rank, "rank1");
  EXPECT_EQ((*ranks)[1].rank, "rank2");
  EXPECT_EQ((*ranks)[2].rank, "rank3");  // a .qdrep report is a rank too
  EXPECT_EQ((*ranks)[2].path, (dir / "rank3.qdrep").string());
  EXPECT_EQ((*ranks)[3].rank, "rank10");
  EXPECT_EQ((*ranks)[3].path, (dir / "rank10.sqlite").string());
  EXPECT_EQ((*ranks)[3].file_size, 1);

  std::ofstream(dir / "rank2.nsys-rep") << "x";  // rank2 twice: refused, naming it
  auto twice = core::ListJobFiles({.directory = dir.string()});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(twice.error().message.find("rank2"), std::string::npos) << twice.error().message;

  auto missing = core::ListJobFiles({.paths = {(dir / "nope.sqlite").string()}});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  auto neither = core::ListJobFiles({});
  ASSERT_FALSE(neither.ok());
  EXPECT_EQ(neither.error().kind, ErrorKind::kInvalidArgument);
  auto empty = core::ListJobFiles({.directory = RankSetDir("empty").string()});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("no rank exports"), std::string::npos) << empty.error().message;
}

// An entry named like a rank that is not a regular file is skipped with a note naming it and why, never
// silently; a rank's name is valid UTF-8 and its path exact.
TEST(JobFiles, EntriesThatAreNotRanksAreNamedInNotes) {
  const fs::path dir = RankSetDir("skipped");
  std::ofstream(dir / "rank0.sqlite") << "x";
  std::ofstream(dir / "rank\xFF.sqlite") << "x";
  std::ofstream(dir / "split.log") << "x";  // not named like a rank: no note
  ASSERT_EQ(::mkfifo((dir / "rank1.sqlite").c_str(), 0600), 0);
  fs::create_symlink(dir / "nowhere.sqlite", dir / "rank2.sqlite");
  fs::create_directories(dir / "rank3.sqlite");
  fs::create_directory_symlink(dir / "rank3.sqlite", dir / "rank4.nsys-rep");
  std::vector<std::string> skipped;
  auto ranks = core::ListJobFiles({.directory = dir.string()}, &skipped);
  ASSERT_TRUE(ranks.ok()) << ranks.error().message;
  ASSERT_EQ(ranks->size(), 2u);
  EXPECT_EQ((*ranks)[0].rank, "rank0");
  EXPECT_EQ((*ranks)[1].rank, "rank\\xFF");
  EXPECT_EQ((*ranks)[1].path, (dir / "rank\xFF.sqlite").string());
  std::sort(skipped.begin(), skipped.end());
  EXPECT_EQ(skipped, (std::vector<std::string>{"rank1.sqlite was skipped: a FIFO",
                                               "rank2.sqlite was skipped: a dangling symbolic link",
                                               "rank3.sqlite was skipped: a directory",
                                               "rank4.nsys-rep was skipped: a symbolic link to a directory"}));
}

TEST(JobFiles, ParsesMemorySizes) {
  EXPECT_EQ(*core::ParseByteSize("4G"), uint64_t{4} << 30);
  EXPECT_EQ(*core::ParseByteSize("512M"), uint64_t{512} << 20);
  EXPECT_EQ(*core::ParseByteSize("1.5GiB"), uint64_t{3} << 29);
  EXPECT_EQ(*core::ParseByteSize("64k"), uint64_t{64} << 10);
  EXPECT_EQ(*core::ParseByteSize("1073741824"), uint64_t{1} << 30);
  EXPECT_EQ(*core::ParseByteSize("100B"), 100u);
  for (const char* bad : {"", "G", "-1G", "0", "4X", "4GG", "nan", "1e30T"}) {
    auto parsed = core::ParseByteSize(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
  }
}

// ---- the oracle ----

// The pids of the source's processes that ran GPU work, sorted: split_ranks.py's rank order (its gpu_processes()).
std::vector<int64_t> GpuPids(engine::Profile& profile) {
  EXPECT_TRUE(profile.Require(engine::Need::kKernelRows | engine::Need::kMemcpy).ok());
  std::set<int64_t> pids;
  for (uint32_t pid : profile.kernels().pid) pids.insert(pid);
  for (uint32_t pid : profile.memcpys().pid) pids.insert(pid);
  return {pids.begin(), pids.end()};
}

struct OracleCall {
  std::string skill;
  skills::Args args;
};

// Skills whose rows carry no time relative to the profile start (a rank's profile starts at its own first event,
// the source's at the first of any process, so `start_s`-style columns legitimately differ).
std::vector<OracleCall> OracleCalls() {
  return {{"top_kernels", {{"limit", Value(int64_t{0})}}},
          {"cuda_api_summary", {}},
          {"nccl_breakdown", {}},
          {"memory_transfers", {}},
          {"kernel_size_stats", {}},
          {"sync_apis", {}}};
}

void ExpectJobEqualsSourcePerProcess(const std::string& fixture) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split(fixture, fixture);
  ASSERT_FALSE(dir.empty());
  core::Workspace workspace(Hermetic());
  auto source = workspace.Open(Fixture(fixture));
  ASSERT_TRUE(source.ok()) << source.error().message;
  const std::vector<int64_t> pids = GpuPids(*LoadedProfile(workspace, source->id));
  auto job = workspace.OpenJob({.directory = dir.string()});
  ASSERT_TRUE(job.ok()) << job.error().message;
  ASSERT_EQ(job->ranks.size(), pids.size());  // one rank per GPU process; manifest.json is not a rank
  for (const auto& call : OracleCalls()) {
    SCOPED_TRACE(fixture + " " + call.skill);
    auto merged = workspace.RunSkillOnJob(job->id, call.skill, call.args, {});
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    size_t checked_rows = 0;
    for (size_t i = 0; i < pids.size(); ++i) {
      skills::Args args = call.args;
      args["pid"] = Value(pids[i]);
      auto expected = workspace.RunSkill(source->id, call.skill, args);
      ASSERT_TRUE(expected.ok()) << expected.error().message;
      if (expected->declined) continue;
      ASSERT_FALSE(merged->declined);
      ASSERT_EQ(merged->columns.size(), expected->columns.size() + 1);
      EXPECT_EQ(merged->columns[0].name, "rank");
      for (size_t c = 0; c < expected->columns.size(); ++c)
        EXPECT_EQ(merged->columns[c + 1].name, expected->columns[c].name);
      std::vector<std::vector<Value>> rows;
      for (const auto& row : merged->rows) {
        if (std::get<std::string>(row[0]) != job->ranks[i].rank) continue;
        rows.emplace_back(row.begin() + 1, row.end());
      }
      EXPECT_EQ(rows, expected->rows) << job->ranks[i].rank << " vs pid " << pids[i];
      checked_rows += rows.size();
    }
    if (!merged->declined) {
      EXPECT_EQ(checked_rows, merged->rows.size());  // every row came from one of the ranks
    }
  }
  EXPECT_TRUE(workspace.CloseJob(job->id).ok());
  EXPECT_FALSE(workspace.CloseJob(job->id).ok());
}

TEST(JobOracle, Mfu2gpuBeforeRankByRankEqualsTheSourcePerProcess) {
  ExpectJobEqualsSourcePerProcess("mfu_2gpu_before.sqlite");
}
TEST(JobOracle, Mfu2gpuAfterRankByRankEqualsTheSourcePerProcess) {
  ExpectJobEqualsSourcePerProcess("mfu_2gpu_after.sqlite");
}
TEST(JobOracle, A100TwoProcessMpiRankByRankEqualsTheSourcePerProcess) {
  ExpectJobEqualsSourcePerProcess("a100_2proc_mpi.sqlite");
}

// ---- bounded memory ----

// A line of /proc/self/status after its key ("" when /proc says nothing).
std::string ProcStatusLine(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) return line.substr(key.size() + 1);
  }
  return "";
}

// VmHWM, VmRSS, RssAnon or RssFile of this process, in bytes (0 when /proc says nothing).
int64_t ProcStatusBytes(const std::string& key) {
  const std::string value = ProcStatusLine(key);
  return value.empty() ? 0 : std::stoll(value) * 1024;
}

// 32 copies of mfu_2gpu_after's two ranks = 64 rank files (87.6 MB) under a 128 MiB budget: three ranks fit by
// estimate (each ~41 MiB, mostly the measured cost of an open profile), so most are dropped and reopened, every rank
// still answers with its source process's rows, and this process's peak RSS grows by less than the budget while the job
// works (VmHWM reset through /proc/self/clear_refs).
TEST(JobMemory, SixtyFourRanksAnswerUnderTheBudget) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_after.sqlite", "rep64", "--replicate 32");
  ASSERT_FALSE(dir.empty());
  // With transparent huge pages set to `always`, khugepaged may fold a sparse heap's 4 KiB pages into 2 MiB ones, so
  // RSS grows with no allocation at all. The budget bounds what the job allocates: this process opts out of THP for
  // the measurement (the kernel's own per-process switch; nothing else changes).
  prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
  // The source's per-process rows, from a workspace of their own that is gone (its background load and warm-up
  // joined, its pages given back) before the job's memory is measured.
  std::vector<std::vector<std::vector<Value>>> expected;
  {
    core::Workspace reference(Hermetic());
    auto source = reference.Open(Fixture("mfu_2gpu_after.sqlite"));
    ASSERT_TRUE(source.ok()) << source.error().message;
    const std::vector<int64_t> pids = GpuPids(*LoadedProfile(reference, source->id));
    ASSERT_EQ(pids.size(), 2u);
    for (int64_t pid : pids) {
      auto table = reference.RunSkill(source->id, "top_kernels", {{"limit", Value(int64_t{0})}, {"pid", Value(pid)}});
      ASSERT_TRUE(table.ok()) << table.error().message;
      expected.push_back(table->rows);
    }
  }
#if defined(__GLIBC__) && !NSYS_AI_TEST_ASAN  // under ASan the heap is the sanitizer's (see RankSet's trim)
  malloc_trim(0);
#endif
  core::WorkspaceConfig config = Hermetic();
  config.open.use_cache = true;  // reopens from the warm snapshot, in a cache of this test's own
  config.open.cache_dir = (dir / "cache").string();
  core::Workspace workspace(config);

  constexpr uint64_t kBudget = uint64_t{128} << 20;
  auto job = workspace.OpenJob({.directory = dir.string(), .memory_budget_bytes = kBudget, .threads = 2});
  ASSERT_TRUE(job.ok()) << job.error().message;
  ASSERT_EQ(job->ranks.size(), 64u);
  EXPECT_EQ(job->ranks[2].rank, "rank0002");
  EXPECT_EQ(job->ranks[10].rank, "rank0010");
  const bool can_reset = static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5");
  const int64_t rss_before = ProcStatusBytes("VmRSS");
  int progress_reports = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass reopens dropped ranks (from the snapshot cache)
    skills::Args args{{"limit", Value(int64_t{0})}, {"base", Value(pass == 1)}};
    auto merged = workspace.RunSkillOnJob(job->id, "top_kernels", args, {}, {},
                                          [&](double, const std::string&) { ++progress_reports; });
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    std::printf("pass %d: RSS %lld, peak %lld\n", pass, static_cast<long long>(ProcStatusBytes("VmRSS")),
                static_cast<long long>(ProcStatusBytes("VmHWM")));
    if (pass == 1) break;
    size_t row = 0;
    for (size_t i = 0; i < 64; ++i) {
      for (const auto& want : expected[i % 2]) {
        ASSERT_LT(row, merged->rows.size());
        EXPECT_EQ(std::get<std::string>(merged->rows[row][0]), job->ranks[i].rank);
        EXPECT_EQ(std::vector<Value>(merged->rows[row].begin() + 1, merged->rows[row].end()), want) << i;
        ++row;
      }
    }
    EXPECT_EQ(row, merged->rows.size());
  }
  EXPECT_GE(progress_reports, 64);
  auto stats = workspace.JobStats(job->id);
  ASSERT_TRUE(stats.ok());
  EXPECT_LE(stats->peak_accounted_bytes, kBudget);
  EXPECT_GT(stats->evictions, 0);
  EXPECT_GT(stats->loads, 64);  // dropped ranks were opened again
  EXPECT_EQ(stats->over_budget_ranks, 0u);
  const int64_t peak = ProcStatusBytes("VmHWM");
  // Under AddressSanitizer the process's RSS is the sanitizer's (shadow memory, a quarantine of freed blocks of up to
  // 256 MiB), not the job's: the accounting above is checked there, the resident set in the Release build.
  if (!NSYS_AI_TEST_ASAN && can_reset && rss_before > 0) {
    EXPECT_LT(peak - rss_before, static_cast<int64_t>(kBudget))
        << "peak RSS " << peak << " vs " << rss_before << " before the job; now RSS " << ProcStatusBytes("VmRSS")
        << " (anonymous " << ProcStatusBytes("RssAnon") << ", file " << ProcStatusBytes("RssFile") << "), threads "
        << ProcStatusLine("Threads") << ", ranks loaded " << stats->loaded_ranks << ", peak accounted "
        << stats->peak_accounted_bytes;
  }
  std::printf("64 ranks under the budget: RSS before %lld, peak %lld; %lld loads, %lld evictions\n",
              static_cast<long long>(rss_before), static_cast<long long>(peak), static_cast<long long>(stats->loads),
              static_cast<long long>(stats->evictions));
}

// ---- a job's trace ----

// mfu_2gpu_after split into 4 ranks (2 copies of its 2 processes), 2 ranks per node, each node's clock shifted by
// split_ranks.py's offset in [0, 2 ms). In the job's trace every rank is a top-level track group named by the rank,
// and on the aligned clock each rank's first kernel sits where the source export has its process's first kernel, all
// ranks moved by one and the same amount (node 0's own offset; the alignment is exact when every node holds the same
// mix of processes, as the clock tests show).
TEST(JobTrace, EachRankIsATrackGroupOnTheAlignedClock) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir =
      Split("mfu_2gpu_after.sqlite", "trace_skew", "--replicate 2 --ranks-per-node 2 --skew-ns 2000000");
  ASSERT_FALSE(dir.empty());
  core::Workspace workspace(Hermetic());
  std::map<int64_t, int64_t> first_kernel;  // source pid -> its first kernel's start (capture clock)
  {
    auto source = workspace.Open(Fixture("mfu_2gpu_after.sqlite"));
    ASSERT_TRUE(source.ok()) << source.error().message;
    const auto profile = LoadedProfile(workspace, source->id);
    ASSERT_TRUE(profile->Require(engine::Need::kKernelRows).ok());
    const auto& k = profile->kernels();
    for (size_t i = 0; i < k.size(); ++i) {
      auto [it, inserted] = first_kernel.emplace(k.pid[i], k.start[i]);
      if (!inserted) it->second = std::min(it->second, k.start[i]);
    }
    ASSERT_TRUE(workspace.Close(source->id).ok());
  }
  ASSERT_EQ(first_kernel.size(), 2u);
  auto job = workspace.OpenJob({.directory = dir.string()});
  ASSERT_TRUE(job.ok()) << job.error().message;
  ASSERT_EQ(job->ranks.size(), 4u);
  const std::string out = (dir / "run.pftrace").string();
  auto exported = workspace.ExportJobTrace({.job_id = job->id, .ranks_per_node = 2, .output = out});
  ASSERT_TRUE(exported.ok()) << exported.error().message;
  ASSERT_EQ(exported->ranks.size(), 4u);
  EXPECT_EQ(exported->path, out);
  EXPECT_EQ(exported->ranks[0].method, "reference");
  EXPECT_EQ(exported->ranks[0].offset_ns, 0);
  EXPECT_EQ(exported->ranks[1].offset_ns, 0);  // same node
  EXPECT_EQ(exported->ranks[2].method, "nccl_ends");
  EXPECT_EQ(exported->ranks[2].offset_ns, exported->ranks[3].offset_ns);
  EXPECT_NE(exported->ranks[2].offset_ns, 0);    // the skew is real (seed 1: node 1 is 0.91 ms off node 0)
  EXPECT_EQ(exported->stats.kernels, 2 * 3587);  // sqlite3: SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL
  for (const auto& r : exported->ranks) {
    EXPECT_TRUE(r.error.empty()) << r.rank << ": " << r.error;
    EXPECT_GT(r.slices, 0) << r.rank;
  }
  const auto validation = core::ValidateTraceFile(out);
  EXPECT_TRUE(validation.ok) << validation.summary;

  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(static_cast<int64_t>(bytes.size()), exported->stats.bytes);
  const auto trace = trace::testing::Decode(bytes);
  ASSERT_TRUE(trace.error.empty()) << trace.error;
  auto group_of = [&](uint64_t uuid) {  // the top-level track above a track
    while (trace.tracks.count(uuid) && trace.tracks.at(uuid).parent != 0) uuid = trace.tracks.at(uuid).parent;
    return trace.tracks.count(uuid) ? trace.tracks.at(uuid).name : std::string();
  };
  for (const auto& [uuid, track] : trace.tracks) {
    EXPECT_FALSE(track.pid.has_value()) << "no process descriptors in a job's trace (ranks share pids): " << track.name;
    if (track.parent == 0) EXPECT_EQ(track.name.rfind("rank000", 0), 0u) << track.name;
  }
  std::map<std::string, int64_t> first_in_trace;  // rank -> its first kernel on the job's clock
  for (const auto& e : trace.events) {
    if (e.type != 1 || e.category != "cuda.kernel") continue;
    auto [it, inserted] = first_in_trace.emplace(group_of(e.track), e.ts);
    if (!inserted) it->second = std::min(it->second, e.ts);
  }
  ASSERT_EQ(first_in_trace.size(), 4u);
  // Ranks alternate the source's processes (rank0000: the lower pid); every rank moved by node 0's offset.
  const int64_t pids[2] = {first_kernel.begin()->first, std::next(first_kernel.begin())->first};
  const int64_t shift = first_in_trace["rank0000"] - first_kernel[pids[0]];
  EXPECT_GE(shift, 0);
  EXPECT_LT(shift, 2000000);
  for (int r = 0; r < 4; ++r) {
    const std::string name = "rank000" + std::to_string(r);
    EXPECT_EQ(first_in_trace[name] - first_kernel[pids[r % 2]], shift) << name;
  }
}

// ---- analyze on a job ----

// The cross-rank causes of the same 4-rank skewed set: the straggler finding's figures are job_stragglers' own (the
// rank whose lateness cost the others most, by rank); a job without NCCL (a100_2proc_mpi: MPI, no collective kernels)
// lists the straggler cause as unchecked, saying why.
// A rank file that is not an export: the trace still holds the readable ranks, and that rank's entry carries the
// error its load met (not a placeholder), while the analyses' notes say it was left out.
TEST(JobTrace, ARankThatCannotBeReadCarriesItsOwnError) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir = Split("mfu_2gpu_before.sqlite", "trace_bad_rank");
  ASSERT_FALSE(dir.empty());
  std::ofstream(dir / "rank0002.sqlite") << "this is not an SQLite database, just text long enough to be read";
  core::Workspace workspace(Hermetic());
  auto job = workspace.OpenJob({.directory = dir.string()});
  ASSERT_TRUE(job.ok()) << job.error().message;
  ASSERT_EQ(job->ranks.size(), 3u);
  std::string open_error;
  {
    auto direct = workspace.Open((dir / "rank0002.sqlite").string());
    ASSERT_FALSE(direct.ok());
    open_error = direct.error().message;
  }
  auto exported = workspace.ExportJobTrace({.job_id = job->id, .output = (dir / "run.pftrace").string()});
  ASSERT_TRUE(exported.ok()) << exported.error().message;
  ASSERT_EQ(exported->ranks.size(), 3u);
  EXPECT_TRUE(exported->ranks[0].error.empty()) << exported->ranks[0].error;
  EXPECT_TRUE(exported->ranks[1].error.empty()) << exported->ranks[1].error;
  EXPECT_EQ(exported->ranks[2].error, open_error);
  EXPECT_EQ(exported->ranks[2].slices, 0);
  EXPECT_EQ(exported->stats.kernels, 1993 + 2017);  // sqlite3 on the two readable rank files
}

TEST(RunAnalyze, FindsTheStragglerWithTheJobSkillsFigures) {
  NSYS_REQUIRE_FIXTURES();
  const fs::path dir =
      Split("mfu_2gpu_after.sqlite", "analyze_skew", "--replicate 2 --ranks-per-node 2 --skew-ns 2000000");
  ASSERT_FALSE(dir.empty());
  core::Workspace workspace(Hermetic());
  auto job = workspace.OpenJob({.directory = dir.string()});
  ASSERT_TRUE(job.ok()) << job.error().message;
  auto table = workspace.RunSkillOnJob(job->id, "job_stragglers",
                                       {{"by", Value(std::string("rank"))}, {"ranks_per_node", Value(int64_t{2})}}, {});
  ASSERT_TRUE(table.ok()) << table.error().message;
  size_t caused = 0, last = 0;
  for (size_t c = 0; c < table->columns.size(); ++c) {
    if (table->columns[c].name == "caused_ns") caused = c;
    if (table->columns[c].name == "times_last") last = c;
  }
  ASSERT_GT(caused, 0u);
  size_t top = 0;
  for (size_t r = 0; r < table->rows.size(); ++r) {
    if (std::get<int64_t>(table->rows[r][caused]) > std::get<int64_t>(table->rows[top][caused])) top = r;
  }
  const int64_t lost = std::get<int64_t>(table->rows[top][caused]);
  const std::string rank = std::get<std::string>(table->rows[top][0]);

  auto analysis = workspace.AnalyzeJob(job->id, 2);
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  ASSERT_FALSE(analysis->findings.empty()) << analysis->summary;
  const agent::Finding& f = analysis->findings.front();
  EXPECT_EQ(f.root_cause, "job_straggler");
  EXPECT_EQ(f.at_stake_ns, lost);
  EXPECT_GT(lost, 0);
  EXPECT_EQ(
      f.title.rfind(
          rank + " is the last to start " + std::to_string(std::get<int64_t>(table->rows[top][last])) + " of ", 0),
      0u)
      << f.title;
  ASSERT_EQ(f.answer.evidence.size(), 1u);
  EXPECT_EQ(f.answer.evidence[0].rows.size(), 4u);
  EXPECT_EQ(f.answer.verify,
            "nsys-ai skill run job_stragglers --job " + dir.string() + " --arg by=rank --arg ranks_per_node=2");
  for (size_t i = 1; i < analysis->findings.size(); ++i) {
    EXPECT_LE(analysis->findings[i].at_stake_ns, analysis->findings[i - 1].at_stake_ns);
  }

  const fs::path mpi = Split("a100_2proc_mpi.sqlite", "analyze_mpi");
  ASSERT_FALSE(mpi.empty());
  auto mpi_job = workspace.OpenJob({.directory = mpi.string()});
  ASSERT_TRUE(mpi_job.ok()) << mpi_job.error().message;
  auto mpi_analysis = workspace.AnalyzeJob(mpi_job->id);
  ASSERT_TRUE(mpi_analysis.ok()) << mpi_analysis.error().message;
  for (const auto& finding : mpi_analysis->findings) EXPECT_NE(finding.root_cause, "job_straggler");
  ASSERT_EQ(mpi_analysis->unchecked.size(), 1u);
  EXPECT_EQ(mpi_analysis->unchecked[0].root_cause, "job_straggler");
  EXPECT_FALSE(workspace.AnalyzeJob("j999").ok());
}

}  // namespace
}  // namespace nsys::testing
