// A RankPartial as bytes and back (job_partials.h), for MPI: "NSRP", a version, then the fields in declaration
// order; integers little-endian, strings and vectors prefixed by their length.
#include <bit>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common_nccl.h"
#include "nsys/skills/job_partials.h"

namespace nsys::skills::job {
namespace {

static_assert(std::endian::native == std::endian::little, "the partial codec writes the host's byte order");
constexpr char kMagic[4] = {'N', 'S', 'R', 'P'};
constexpr uint32_t kVersion = 2;  // 2: each collective's compute-covered parts

class Writer {
 public:
  template <typename T>
  void Put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void Put(const std::string& s) {
    Put<uint64_t>(s.size());
    out_ += s;
  }
  template <typename T, typename Fn>
  void PutAll(const std::vector<T>& v, Fn&& each) {
    Put<uint64_t>(v.size());
    for (const T& x : v) each(*this, x);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  bool Get(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (in_.size() < sizeof v) return false;
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return true;
  }
  bool Get(std::string& s) {
    uint64_t n = 0;
    if (!Get(n) || n > in_.size()) return false;
    s.assign(in_.data(), n);
    in_.remove_prefix(n);
    return true;
  }
  // A vector whose elements take at least `min_bytes` each: the count is checked against what is left before
  // anything is allocated.
  template <typename T, typename Fn>
  bool GetAll(std::vector<T>& v, size_t min_bytes, Fn&& each) {
    uint64_t n = 0;
    if (!Get(n) || n > in_.size() / min_bytes) return false;
    v.resize(n);
    for (T& x : v) {
      if (!each(*this, x)) return false;
    }
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

void PutStep(Writer& w, const StepSample& s) {
  w.Put(s.index), w.Put(s.device), w.Put(s.start), w.Put(s.end), w.Put(s.gpu_busy), w.Put(s.kernels);
}
bool GetStep(Reader& r, StepSample& s) {
  return r.Get(s.index) && r.Get(s.device) && r.Get(s.start) && r.Get(s.end) && r.Get(s.gpu_busy) && r.Get(s.kernels);
}
void PutCollective(Writer& w, const CollectiveSample& c) {
  w.Put(c.kind), w.Put(c.channel), w.Put(c.ordinal), w.Put(c.device), w.Put(c.stream), w.Put(c.start), w.Put(c.end);
  w.PutAll(c.covered, [](Writer& o, const std::pair<Ns, Ns>& iv) { o.Put(iv.first), o.Put(iv.second); });
}
bool GetCollective(Reader& r, CollectiveSample& c) {
  return r.Get(c.kind) && r.Get(c.channel) && r.Get(c.ordinal) && r.Get(c.device) && r.Get(c.stream) &&
         r.Get(c.start) && r.Get(c.end) &&
         r.GetAll(c.covered, 16, [](Reader& i, std::pair<Ns, Ns>& iv) { return i.Get(iv.first) && i.Get(iv.second); });
}
void PutTotals(Writer& w, const CollectiveTotals& c) {
  w.Put(c.kind), w.Put(c.count), w.Put(c.total_ns), w.Put(c.busy_ns), w.Put(c.overlap_ns), w.Put(c.bytes);
}
bool GetTotals(Reader& r, CollectiveTotals& c) {
  return r.Get(c.kind) && r.Get(c.count) && r.Get(c.total_ns) && r.Get(c.busy_ns) && r.Get(c.overlap_ns) &&
         r.Get(c.bytes);
}

bool GetScalars(Reader& r, RankPartial& p) {
  uint8_t has_clock = 0;
  if (!r.Get(has_clock) || has_clock > 1) return false;
  p.has_session_clock = has_clock == 1;
  return r.Get(p.session_utc_ns) && r.Get(p.session_clock_ns) && r.Get(p.first_ns) && r.Get(p.last_ns) &&
         r.Get(p.kernels) && r.Get(p.kernel_ns) && r.Get(p.compute_ns) && r.Get(p.compute_busy_ns) &&
         r.Get(p.comm_ns) && r.Get(p.comm_busy_ns) && r.Get(p.comm_overlap_ns) && r.Get(p.step_method);
}

// What the merges rely on: step indices index the rank's steps (the heat map's width), collective kinds are known.
// Times keep the engine's rule (|t| < 2^62, start <= end), so that differences cannot overflow.
bool Consistent(const RankPartial& p) {
  constexpr Ns kLimit = Ns{1} << 62;
  auto span_ok = [&](Ns start, Ns end) { return -kLimit < start && start <= end && end < kLimit; };
  for (const StepSample& s : p.steps) {
    if (s.index < 0 || static_cast<uint64_t>(s.index) >= p.steps.size() || !span_ok(s.start, s.end)) return false;
  }
  constexpr uint8_t kKinds = static_cast<uint8_t>(builtin::Collective::kCount);
  for (const CollectiveSample& c : p.collectives) {
    if (c.kind == 0 || c.kind >= kKinds || !span_ok(c.start, c.end)) return false;
    Ns at = c.start;  // covered parts: inside the kernel, disjoint, in order
    for (const auto& [from, to] : c.covered) {
      if (from < at || to <= from || to > c.end) return false;
      at = to;
    }
  }
  for (const CollectiveTotals& c : p.collective_totals) {
    if (c.kind == 0 || c.kind >= kKinds) return false;
  }
  return true;
}

}  // namespace

std::string EncodePartial(const RankPartial& p) {
  Writer w;
  for (char c : kMagic) w.Put(c);
  w.Put(kVersion);
  w.Put(p.label);
  w.PutAll(p.pids, [](Writer& o, uint32_t v) { o.Put(v); });
  w.PutAll(p.devices, [](Writer& o, int32_t v) { o.Put(v); });
  w.Put<uint8_t>(p.has_session_clock ? 1 : 0), w.Put(p.session_utc_ns), w.Put(p.session_clock_ns), w.Put(p.first_ns),
      w.Put(p.last_ns);
  w.Put(p.kernels), w.Put(p.kernel_ns), w.Put(p.compute_ns), w.Put(p.compute_busy_ns), w.Put(p.comm_ns);
  w.Put(p.comm_busy_ns), w.Put(p.comm_overlap_ns), w.Put(p.step_method);
  w.PutAll(p.steps, PutStep);
  w.PutAll(p.collectives, PutCollective);
  w.PutAll(p.collective_totals, PutTotals);
  w.PutAll(p.notes, [](Writer& o, const std::string& s) { o.Put(s); });
  return w.Take();
}

Expected<RankPartial> DecodePartial(std::string_view bytes) {
  Reader r(bytes);
  char magic[4] = {};
  uint32_t version = 0;
  for (char& c : magic) r.Get(c);
  if (std::memcmp(magic, kMagic, 4) != 0 || !r.Get(version) || version != kVersion) {
    return MakeError(ErrorKind::kInvalidArgument, "not a rank partial of this version (NSRP v2)");
  }
  RankPartial p;
  const bool ok = r.Get(p.label) && r.GetAll(p.pids, 4, [](Reader& i, uint32_t& v) { return i.Get(v); }) &&
                  r.GetAll(p.devices, 4, [](Reader& i, int32_t& v) { return i.Get(v); }) && GetScalars(r, p) &&
                  r.GetAll(p.steps, 44, GetStep) && r.GetAll(p.collectives, 45, GetCollective) &&
                  r.GetAll(p.collective_totals, 41, GetTotals) &&
                  r.GetAll(p.notes, 8, [](Reader& i, std::string& s) { return i.Get(s); }) && r.done() && Consistent(p);
  if (!ok) return MakeError(ErrorKind::kInvalidArgument, "a rank partial is truncated or malformed");
  return p;
}

}  // namespace nsys::skills::job
