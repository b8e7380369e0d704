// Unit tests of the helpers behind the analysis skills (interval sweeps, NCCL name parsing, the GPU peak
// table). The references here are brute-force or literal implementations of the definitions, written in the
// test, never the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "../../skills/builtin/common_gpu_peaks.h"
#include "../../skills/builtin/common_intervals.h"
#include "../../skills/builtin/common_nccl.h"

namespace nsys::skills::builtin {
namespace {

std::vector<Interval> RandomIntervals(std::mt19937& rng, int n, int horizon, int max_len) {
  std::uniform_int_distribution<int> start(0, horizon), len(0, max_len);
  std::vector<Interval> v;
  for (int i = 0; i < n; ++i) {
    const Ns s = start(rng);
    v.push_back({s, s + len(rng)});  // includes zero-length ops
  }
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  return v;
}

// NVIDIA's gpu-starv pairing, literally: sort starts and ends separately, pair end j with start j+1, keep
// end < start and length > threshold.
std::vector<Interval> PairingGaps(const std::vector<Interval>& ops, Ns threshold) {
  std::vector<Ns> starts, ends;
  for (const Interval& op : ops) {
    starts.push_back(op.start);
    ends.push_back(op.end);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  std::vector<Interval> gaps;
  for (size_t j = 0; j + 1 < ops.size(); ++j) {
    if (ends[j] < starts[j + 1] && starts[j + 1] - ends[j] > threshold) gaps.push_back({ends[j], starts[j + 1]});
  }
  return gaps;
}

// Unit-resolution occupancy: which integer instants [t, t+1) are covered.
std::vector<bool> Cover(const std::vector<Interval>& v, int horizon) {
  std::vector<bool> c(static_cast<size_t>(horizon), false);
  for (const Interval& iv : v) {
    for (Ns t = iv.start; t < iv.end; ++t) c[static_cast<size_t>(t)] = true;
  }
  return c;
}

TEST(AnalysisIntervals, IdleGapsEqualNvidiaPairingOnRandomOps) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const auto ops = RandomIntervals(rng, 1 + trial % 40, 300, trial % 3 == 0 ? 5 : 60);
    for (Ns threshold : {0, 3, 20}) {
      const auto expected = PairingGaps(ops, threshold);
      const auto got = IdleGaps(ops, threshold);
      EXPECT_EQ(SweepIdle(ops, threshold).busy, TotalLength(UnionOfSorted(ops))) << "trial " << trial;
      ASSERT_EQ(got.size(), expected.size()) << "trial " << trial << " threshold " << threshold;
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].start, expected[i].start);
        EXPECT_EQ(got[i].end, expected[i].end);
      }
    }
  }
}

TEST(AnalysisIntervals, UnionIntersectionDifferenceMatchBruteForce) {
  std::mt19937 rng(11);
  constexpr int kHorizon = 400;
  for (int trial = 0; trial < 500; ++trial) {
    const auto raw_a = RandomIntervals(rng, trial % 30, kHorizon - 60, 50);
    const auto a = UnionOfSorted(raw_a);
    const auto b = UnionOf(RandomIntervals(rng, trial % 17, kHorizon - 60, 40));
    const auto ca = Cover(a, kHorizon), cb = Cover(b, kHorizon);
    Ns len_a = 0, both = 0, only_a = 0;
    for (int t = 0; t < kHorizon; ++t) {
      len_a += ca[static_cast<size_t>(t)];
      both += ca[static_cast<size_t>(t)] && cb[static_cast<size_t>(t)];
      only_a += ca[static_cast<size_t>(t)] && !cb[static_cast<size_t>(t)];
    }
    EXPECT_EQ(TotalLength(a), len_a);
    for (size_t i = 1; i < a.size(); ++i) EXPECT_LT(a[i - 1].end, a[i].start) << "union not disjoint";
    EXPECT_EQ(IntersectionLength(a, b), both);
    const auto diff = Difference(a, b);
    EXPECT_EQ(TotalLength(diff), only_a);
    EXPECT_EQ(Cover(diff, kHorizon), [&] {
      std::vector<bool> c(kHorizon);
      for (int t = 0; t < kHorizon; ++t)
        c[static_cast<size_t>(t)] = ca[static_cast<size_t>(t)] && !cb[static_cast<size_t>(t)];
      return c;
    }());
    // The streaming forms agree with the stored ones.
    Ns streamed_union = 0;
    IntersectionSweep sweep(&b);
    ForEachUnionInterval(raw_a, [&](const Interval& iv) {
      streamed_union += iv.length();
      sweep.Add(iv);
    });
    EXPECT_EQ(streamed_union, len_a);
    EXPECT_EQ(sweep.total(), both);
    const Ns lo = trial % 97, hi = lo + trial % 211;
    Ns clipped = 0;
    for (Ns t = lo; t < hi && t < kHorizon; ++t) clipped += ca[static_cast<size_t>(t)];
    EXPECT_EQ(ClippedLength(a, lo, hi), clipped);
  }
}

TEST(AnalysisNccl, ParsesCollectivesFromRealKernelNames) {
  // Names as Nsight exports them (mfu_2gpu_before's SendRecv; NCCL 2.x and 2.19+ naming).
  EXPECT_EQ(ClassifyCommKernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)"),
            Collective::kSendRecv);
  EXPECT_EQ(ClassifyCommKernel("ncclDevKernel_SendRecv"), Collective::kSendRecv);
  EXPECT_EQ(ClassifyCommKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), Collective::kAllReduce);
  EXPECT_EQ(ClassifyCommKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"),
            Collective::kAllGather);
  EXPECT_EQ(ClassifyCommKernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL"), Collective::kReduceScatter);
  EXPECT_EQ(ClassifyCommKernel("ncclKernel_Broadcast_RING_LL_Sum_int8_t"), Collective::kBroadcast);
  EXPECT_EQ(ClassifyCommKernel("ncclKernel_Reduce_RING_LL_Sum_half"), Collective::kReduce);
  EXPECT_EQ(ClassifyCommKernel("ncclAllReduceRingLLKernel_sum_f32(ncclColl)"), Collective::kAllReduce);
  EXPECT_EQ(ClassifyCommKernel("void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"), Collective::kSendRecv);
  EXPECT_EQ(ClassifyCommKernel("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096>)"), Collective::kGeneric);
  EXPECT_EQ(ClassifyCommKernel("rcclKernel_AllToAll"), Collective::kAllToAll);
  // Compute kernels, including ones that mention a collective word elsewhere.
  EXPECT_EQ(ClassifyCommKernel("void at::native::reduce_kernel<512, 1>(at::native::ReduceOp<float>)"),
            Collective::kNone);
  EXPECT_EQ(ClassifyCommKernel("flash_fwd_kernel"), Collective::kNone);
  EXPECT_EQ(ClassifyCommKernel("void at::native::vectorized_elementwise_kernel<4, AllReduceFunctor>()"),
            Collective::kNone);
}

TEST(AnalysisGpuPeaks, MatchesNsightDeviceNamesAndRefusesUnknownOnes) {
  auto key = [](const char* name) {
    const GpuPeak* p = MatchGpuPeak(name);
    return p ? p->key : std::string("<none>");
  };
  // Names from the fixtures' TARGET_INFO_GPU and from Nsight exports of the listed parts.
  EXPECT_EQ(key("NVIDIA A100-PCIE-40GB"), "A100 40GB PCIe");  // a100_2proc_mpi
  EXPECT_EQ(key("NVIDIA H200"), "H200");                      // h200_nvfuser_nvtx
  EXPECT_EQ(key("NVIDIA H100 80GB HBM3"), "H100 SXM");
  EXPECT_EQ(key("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(key("NVIDIA H100 NVL"), "H100 NVL");
  EXPECT_EQ(key("NVIDIA A100-SXM4-80GB"), "A100 80GB SXM");
  EXPECT_EQ(key("NVIDIA A100-SXM4-40GB"), "A100 40GB SXM");
  EXPECT_EQ(key("NVIDIA A100 80GB PCIe"), "A100 80GB PCIe");
  EXPECT_EQ(key("NVIDIA B200"), "B200");
  EXPECT_EQ(key("NVIDIA L40S"), "L40S");
  EXPECT_EQ(key("NVIDIA A10"), "A10");
  EXPECT_EQ(key("H100 SXM"), "H100 SXM");  // a user's gpu= argument
  // Not in the table: no guess.
  EXPECT_EQ(key("NVIDIA GeForce RTX 3080"), "<none>");  // mock
  EXPECT_EQ(key("Tesla V100-SXM2-16GB"), "<none>");     // v100_julia
  EXPECT_EQ(key("NVIDIA TITAN RTX"), "<none>");         // titanrtx_tensorrt_nvtx
  EXPECT_EQ(key("NVIDIA A10G"), "<none>");
  EXPECT_EQ(key("NVIDIA GH200 480GB"), "<none>");
  EXPECT_EQ(key("NVIDIA H200 NVL"), "<none>");
  EXPECT_EQ(key("NVIDIA H100"), "<none>");  // form factor unknown
  EXPECT_EQ(key(""), "<none>");
  // The analysis guide's numbers.
  const GpuPeak* h100 = MatchGpuPeak("NVIDIA H100 80GB HBM3");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(PeakTflops(*h100, "bf16"), 989);
  EXPECT_EQ(PeakTflops(*h100, "fp8"), 1979);
  EXPECT_EQ(PeakTflops(*h100, "tf32"), 495);
  EXPECT_EQ(h100->memory_gbs, 3350);
  const GpuPeak* l40s = MatchGpuPeak("NVIDIA L40S");
  ASSERT_NE(l40s, nullptr);
  EXPECT_EQ(PeakTflops(*l40s, "fp8"), 733);
  EXPECT_EQ(PeakTflops(*MatchGpuPeak("NVIDIA H200"), "fp8"), 0);  // not in the table: callers decline
}

}  // namespace
}  // namespace nsys::skills::builtin
