// Clock alignment of a run: split_ranks.py gives every node a known clock offset (its manifest); AlignClocks must
// recover each node's offset relative to node 0 within the uncertainty it states, and exactly 0 without skew.
#include <gtest/gtest.h>

#include <cstdlib>

#include "run_test_util.h"

namespace nsys::testing {
namespace {

using skills::run::AlignClocks;
using skills::run::ClockAlignment;

void Dump(const ClockAlignment& a, const SplitRun& run) {
  for (const auto& n : a.nodes) {
    const int64_t truth = run.manifest[n.ranks[0]].clock_offset_ns - run.manifest[0].clock_offset_ns;
    std::printf("node %d ranks %zu offset %lld unc %lld truth %lld err %lld matched %lld %s\n", n.node, n.ranks.size(),
                (long long)n.offset_ns, (long long)n.uncertainty_ns, (long long)truth, (long long)(n.offset_ns - truth),
                (long long)n.matched, n.method.c_str());
  }
}

TEST(RunClocks, RecoversNodeOffsetsOfAReplicatedSkewedSplit) {
  NSYS_REQUIRE_FIXTURES();
  const SplitRun& run = Split("mfu_2gpu_after.sqlite", "--replicate 8 --ranks-per-node 4 --skew-ns 2000000");
  ASSERT_TRUE(run.ok);
  const ClockAlignment a = AlignClocks(run.partials, run.node_of_rank);
  Dump(a, run);
}

TEST(RunClocks, MixedNodes) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* f : {"mfu_2gpu_after.sqlite", "mfu_2gpu_before.sqlite"}) {
    for (const char* args :
         {"--replicate 3 --ranks-per-node 3 --skew-ns 2000000", "--replicate 2 --ranks-per-node 1 --skew-ns 2000000"}) {
      const SplitRun& run = Split(f, args);
      ASSERT_TRUE(run.ok);
      const ClockAlignment a = AlignClocks(run.partials, run.node_of_rank);
      std::printf("%s %s\n", f, args);
      Dump(a, run);
    }
  }
}

}  // namespace
}  // namespace nsys::testing
