// Jobs spread over MPI processes: the share of each process, the byte form of its halves, the gather on process 0.
#include "nsys/mpi/mpi_job.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>

#include "nsys/skills/job_partials.h"

#if NSYS_AI_HAVE_MPI
#include <mpi.h>

#include <algorithm>
#include <utility>
#include <variant>
#endif

namespace nsys::mpi {
namespace {

constexpr uint32_t kMagic = 0x4e534d50;  // "NSMP"
constexpr uint8_t kVersion = 1;
constexpr int kMaxErrorKind = static_cast<int>(ErrorKind::kInternal);

void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutI64(std::string& out, int64_t v) {
  PutU64(out, static_cast<uint64_t>(v));
}
void PutString(std::string& out, std::string_view s) {
  PutU64(out, s.size());
  out.append(s);
}
void PutError(std::string& out, const Error& error) {
  out.push_back(static_cast<char>(error.kind));
  PutString(out, error.message);
}

// Reads what the Put functions wrote; every length is checked against what is left.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool U8(uint8_t& v) {
    if (bytes_.size() < 1) return false;
    v = static_cast<uint8_t>(bytes_[0]);
    bytes_.remove_prefix(1);
    return true;
  }
  bool U64(uint64_t& v) {
    if (bytes_.size() < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<uint8_t>(bytes_[i])} << (8 * i);
    bytes_.remove_prefix(8);
    return true;
  }
  bool I64(int64_t& v) {
    uint64_t u = 0;
    if (!U64(u)) return false;
    v = static_cast<int64_t>(u);
    return true;
  }
  bool Bytes(std::string_view& v) {
    uint64_t n = 0;
    if (!U64(n) || n > bytes_.size()) return false;
    v = bytes_.substr(0, n);
    bytes_.remove_prefix(n);
    return true;
  }
  bool String(std::string& v) {
    std::string_view s;
    if (!Bytes(s)) return false;
    v.assign(s);
    return true;
  }
  bool ErrorOf(Error& error) {
    uint8_t kind = 0;
    if (!U8(kind) || kind > kMaxErrorKind) return false;
    error.kind = static_cast<ErrorKind>(kind);
    return String(error.message);
  }
  bool Header() {
    uint64_t magic = 0;
    uint8_t version = 0;
    return U64(magic) && magic == kMagic && U8(version) && version == kVersion;
  }
  // A count of items each at least `min_bytes` long: no more than what is left can hold.
  bool Count(uint64_t& n, size_t min_bytes) { return U64(n) && n <= bytes_.size() / min_bytes; }
  bool AtEnd() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

Error Damaged(std::string_view what) {
  return MakeError(ErrorKind::kInvalidArgument, fmt::format("a process sent damaged {} (nsys-ai --mpi)", what));
}

// One length-prefixed partial (skills::job::EncodePartial's bytes), decoded with every length checked; `where` names
// the field in the error when the bytes are cut.
Expected<skills::job::RankPartial> ReadPartial(Reader& in, std::string_view where) {
  std::string_view encoded;
  if (!in.Bytes(encoded)) return Damaged(where);
  return skills::job::DecodePartial(encoded);
}

}  // namespace

std::vector<size_t> ShareOf(size_t n, int process, int processes) {
  std::vector<size_t> share;
  if (processes < 1 || process < 0 || process >= processes) return share;
  const size_t k = static_cast<size_t>(processes), p = static_cast<size_t>(process);
  const size_t base = n / k, extra = n % k;
  const size_t begin = p * base + std::min(p, extra);
  const size_t size = base + (p < extra ? 1 : 0);
  for (size_t i = begin; i < begin + size; ++i) share.push_back(i);
  return share;
}

std::string EncodeReportParts(const std::vector<core::RankReportPart>& parts, const core::JobMemoryStats& memory) {
  std::string out;
  PutU64(out, kMagic);
  out.push_back(static_cast<char>(kVersion));
  for (uint64_t v : {memory.budget_bytes, memory.accounted_bytes, memory.peak_accounted_bytes,
                     static_cast<uint64_t>(memory.loads), static_cast<uint64_t>(memory.evictions),
                     static_cast<uint64_t>(memory.loaded_ranks), static_cast<uint64_t>(memory.over_budget_ranks)}) {
    PutU64(out, v);
  }
  PutU64(out, parts.size());
  for (const auto& part : parts) {
    const core::RankSummary& s = part.summary;
    PutString(out, s.rank);
    PutString(out, s.path);
    for (int64_t v : {s.kernels, s.gpu_time_ns, s.nccl_kernels, s.nccl_time_ns, s.steps}) PutI64(out, v);
    out.push_back(s.step_time_ns ? 1 : 0);
    PutI64(out, s.step_time_ns.value_or(0));
    out.push_back(part.error ? 1 : 0);
    if (part.error) PutError(out, *part.error);
    out.push_back(part.partial ? 1 : 0);
    if (part.partial) PutString(out, skills::job::EncodePartial(*part.partial));
  }
  return out;
}

// Long: one field after another, each read checked, in EncodeReportParts' order.
Expected<std::vector<core::RankReportPart>> DecodeReportParts(std::string_view bytes, core::JobMemoryStats* memory) {
  Reader in(bytes);
  if (!in.Header()) return Damaged("rank parts (header)");
  uint64_t m[7] = {};
  for (auto& v : m) {
    if (!in.U64(v)) return Damaged("rank parts (memory)");
  }
  if (memory) {
    *memory = core::JobMemoryStats{m[0],
                                   m[1],
                                   m[2],
                                   static_cast<int64_t>(m[3]),
                                   static_cast<int64_t>(m[4]),
                                   static_cast<size_t>(m[5]),
                                   static_cast<size_t>(m[6])};
  }
  uint64_t n = 0;
  if (!in.Count(n, 60)) return Damaged("rank parts (count)");
  std::vector<core::RankReportPart> parts(n);
  for (auto& part : parts) {
    core::RankSummary& s = part.summary;
    uint8_t has_step = 0, has_error = 0, has_partial = 0;
    int64_t step = 0;
    bool ok = in.String(s.rank) && in.String(s.path) && in.I64(s.kernels) && in.I64(s.gpu_time_ns) &&
              in.I64(s.nccl_kernels) && in.I64(s.nccl_time_ns) && in.I64(s.steps) && in.U8(has_step) && has_step <= 1 &&
              in.I64(step) && in.U8(has_error) && has_error <= 1;
    if (!ok) return Damaged("rank parts (summary)");
    if (has_step) s.step_time_ns = step;
    if (has_error) {
      Error error;
      if (!in.ErrorOf(error)) return Damaged("rank parts (error)");
      part.error = std::move(error);
    }
    if (!in.U8(has_partial) || has_partial > 1) return Damaged("rank parts (partial flag)");
    if (has_partial) {
      auto partial = ReadPartial(in, "rank parts (partial)");
      if (!partial) return partial.error();
      part.partial = std::move(*partial);
    }
  }
  if (!in.AtEnd()) return Damaged("rank parts (trailing bytes)");
  return parts;
}

std::string EncodePartials(const std::vector<Expected<skills::job::RankPartial>>& parts) {
  std::string out;
  PutU64(out, kMagic);
  out.push_back(static_cast<char>(kVersion));
  PutU64(out, parts.size());
  for (const auto& part : parts) {
    out.push_back(part ? 1 : 0);
    if (part) {
      PutString(out, skills::job::EncodePartial(*part));
    } else {
      PutError(out, part.error());
    }
  }
  return out;
}

Expected<std::vector<Expected<skills::job::RankPartial>>> DecodePartials(std::string_view bytes) {
  Reader in(bytes);
  uint64_t n = 0;
  if (!in.Header() || !in.Count(n, 9)) return Damaged("partials (header)");
  std::vector<Expected<skills::job::RankPartial>> parts;
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t ok = 0;
    if (!in.U8(ok) || ok > 1) return Damaged("partials (flag)");
    if (ok) {
      auto partial = ReadPartial(in, "partials (partial)");
      if (!partial) return partial.error();
      parts.push_back(std::move(*partial));
    } else {
      Error error;
      if (!in.ErrorOf(error)) return Damaged("partials (error)");
      parts.push_back(std::move(error));
    }
  }
  if (!in.AtEnd()) return Damaged("partials (trailing bytes)");
  return parts;
}

#if NSYS_AI_HAVE_MPI

bool Built() {
  return true;
}

namespace {

// MPI_Init on construction unless done, MPI_Finalize on destruction when it initialised.
class Session {
 public:
  Session() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      MPI_Init(nullptr, nullptr);
      owner_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~Session() {
    if (owner_) MPI_Finalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  bool owner_ = false;
  int rank_ = 0, size_ = 1;
};

// A process's message: 1 + its payload, or 0 + the error that stopped it before it had one.
std::string Wrap(const Expected<std::string>& payload) {
  std::string out;
  if (payload) {
    out.push_back(1);
    out += *payload;
  } else {
    out.push_back(0);
    PutError(out, payload.error());
  }
  return out;
}

// Every process's message on process 0, in process order (MPI_Gather of the sizes, then MPI_Gatherv of the bytes);
// nothing elsewhere. MPI counts are ints: past 2 GiB in all, every process is told (MPI_Bcast) and fails.
Expected<std::vector<std::string>> Gather(const Session& session, const std::string& message) {
  int size =
      message.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ? -1 : static_cast<int>(message.size());
  const bool root = session.rank() == 0;
  std::vector<int> sizes(root ? session.size() : 0);
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(sizes.size());
  int64_t total = 0;
  int fits = 1;
  for (size_t p = 0; p < sizes.size(); ++p) {
    if (sizes[p] < 0 || total + sizes[p] > std::numeric_limits<int>::max()) fits = 0;
    offsets[p] = static_cast<int>(std::min<int64_t>(total, std::numeric_limits<int>::max()));
    total += std::max(sizes[p], 0);
  }
  MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!fits) return MakeError(ErrorKind::kLimitExceeded, "the job's partial results are over 2 GiB encoded");
  std::string all(root ? static_cast<size_t>(total) : 0, '\0');
  MPI_Gatherv(message.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::string> messages;
  for (size_t p = 0; p < sizes.size(); ++p) messages.push_back(all.substr(offsets[p], sizes[p]));
  return messages;
}

// The payload of a gathered message, or the error its process sent.
Expected<std::string_view> Unwrap(std::string_view message, size_t process) {
  if (message.empty()) return Damaged(fmt::format("an empty message (process {})", process));
  if (message[0] == 1) return message.substr(1);
  Reader in(message.substr(1));
  Error error;
  if (message[0] != 0 || !in.ErrorOf(error)) return Damaged(fmt::format("a message (process {})", process));
  return error;
}

// This process's share of the job `request` names: the job opened, and the indices of its ranks to load here.
struct Share {
  std::string job_id;
  std::vector<size_t> ranks;
};
Expected<Share> OpenShare(const Session& session, core::Workspace& workspace, const core::JobRequest& request,
                          const CancelToken& cancel) {
  auto job = workspace.OpenJob(request, cancel);
  if (!job) return job.error();
  return Share{job->id, ShareOf(job->ranks.size(), session.rank(), session.size())};
}

// Gathers every process's payload on process 0 and decodes each with `decode` (in process order). Elsewhere: its
// own error, or nothing.
template <typename Decode>
Status GatherAll(const Session& session, const Expected<std::string>& payload, const Decode& decode) {
  auto messages = Gather(session, Wrap(payload));
  if (!payload) return payload.error();  // this process's own error first
  if (!messages) return messages.error();
  for (size_t p = 0; p < messages->size(); ++p) {
    auto body = Unwrap((*messages)[p], p);
    if (!body) return body.error();
    if (Status decoded = decode(*body); !decoded) return decoded;
  }
  return {};
}

}  // namespace

Expected<MpiResult<core::JobReport>> ReportJob(core::Workspace& workspace, const core::JobRequest& request,
                                               const CancelToken& cancel, const ProgressSink& progress) {
  Session session;
  const bool root = session.rank() == 0;
  auto share = OpenShare(session, workspace, request, cancel);
  Expected<std::string> payload = [&]() -> Expected<std::string> {
    if (!share) return share.error();
    auto parts = workspace.ReportJobRanks(share->job_id, share->ranks, cancel, root ? progress : ProgressSink{});
    if (!parts) return parts.error();
    auto memory = workspace.JobStats(share->job_id);
    return EncodeReportParts(*parts, memory ? *memory : core::JobMemoryStats{});
  }();
  std::vector<core::RankReportPart> parts;
  core::JobMemoryStats memory;
  Status gathered = GatherAll(session, payload, [&](std::string_view body) -> Status {
    core::JobMemoryStats theirs;
    auto decoded = DecodeReportParts(body, &theirs);
    if (!decoded) return decoded.error();
    for (auto& part : *decoded) parts.push_back(std::move(part));
    memory.budget_bytes = theirs.budget_bytes;  // the same on every process
    memory.accounted_bytes += theirs.accounted_bytes;
    memory.peak_accounted_bytes += theirs.peak_accounted_bytes;
    memory.loads += theirs.loads;
    memory.evictions += theirs.evictions;
    memory.loaded_ranks += theirs.loaded_ranks;
    memory.over_budget_ranks += theirs.over_budget_ranks;
    return {};
  });
  if (!gathered) return gathered.error();
  MpiResult<core::JobReport> result;
  result.root = root;
  if (!root) return result;
  auto report = workspace.MergeJobReport(share->job_id, std::move(parts), cancel);
  if (!report) return report.error();
  report->memory = memory;
  result.value = std::move(*report);
  return result;
}

Expected<MpiResult<skills::Table>> RunSkillOnJob(core::Workspace& workspace, const core::JobRequest& request,
                                                 const std::string& skill, const skills::Args& args,
                                                 const CancelToken& cancel, const ProgressSink& progress) {
  Session session;
  const bool root = session.rank() == 0;
  auto share = OpenShare(session, workspace, request, cancel);
  Expected<std::string> payload = [&]() -> Expected<std::string> {
    if (!share) return share.error();
    if (!skills::job::FindJobSkill(skill)) {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("--mpi runs job skills (job_*), not '{}'", skill));
    }
    // The step marker is checked with the skill's arguments by the merge; here it only picks the partials.
    std::string marker;
    if (auto it = args.find("marker"); it != args.end()) {
      if (const auto* text = std::get_if<std::string>(&it->second)) marker = *text;
    }
    auto parts =
        workspace.JobPartialsOfRanks(share->job_id, share->ranks, marker, cancel, root ? progress : ProgressSink{});
    if (!parts) return parts.error();
    return EncodePartials(*parts);
  }();
  std::vector<Expected<skills::job::RankPartial>> parts;
  Status gathered = GatherAll(session, payload, [&](std::string_view body) -> Status {
    auto decoded = DecodePartials(body);
    if (!decoded) return decoded.error();
    for (auto& part : *decoded) parts.push_back(std::move(part));
    return {};
  });
  if (!gathered) return gathered.error();
  MpiResult<skills::Table> result;
  result.root = root;
  if (!root) return result;
  auto table = workspace.MergeJobSkill(share->job_id, skill, args, std::move(parts), cancel);
  if (!table) return table.error();
  result.value = std::move(*table);
  return result;
}

#else

bool Built() {
  return false;
}

Expected<MpiResult<core::JobReport>> ReportJob(core::Workspace&, const core::JobRequest&, const CancelToken&,
                                               const ProgressSink&) {
  return MakeError(ErrorKind::kUnsupported, "this nsys-ai was built without MPI (--mpi needs NSYS_AI_MPI)");
}

Expected<MpiResult<skills::Table>> RunSkillOnJob(core::Workspace&, const core::JobRequest&, const std::string&,
                                                 const skills::Args&, const CancelToken&, const ProgressSink&) {
  return MakeError(ErrorKind::kUnsupported, "this nsys-ai was built without MPI (--mpi needs NSYS_AI_MPI)");
}

#endif

}  // namespace nsys::mpi
