// The rank partial's byte form (EncodePartial / DecodePartial), as MPI ranks exchange it: real partials survive the
// round trip unchanged, and damaged bytes are errors, never crashes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "job_test_util.h"

namespace nsys::testing {
namespace {

using namespace skills::job;

TEST(JobCodec, RealPartialsRoundTrip) {
  NSYS_REQUIRE_FIXTURES();
  for (const char* source : {"mfu_2gpu_before.sqlite", "a100_2proc_mpi.sqlite"}) {
    const SplitJob& job = Split(source);
    ASSERT_TRUE(job.ok);
    for (const RankPartial& p : job.partials) {
      const std::string bytes = EncodePartial(p);
      auto back = DecodePartial(bytes);
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_TRUE(*back == p);
    }
  }
  // The merges give the same tables from decoded partials.
  const SplitJob& job = Split("mfu_2gpu_before.sqlite");
  std::vector<RankPartial> decoded;
  for (const RankPartial& p : job.partials) decoded.push_back(*DecodePartial(EncodePartial(p)));
  for (const auto& skill : JobSkills()) {
    const skills::Table a = skill.merge(job.partials, job.node_of_rank, {});
    const skills::Table b = skill.merge(decoded, job.node_of_rank, {});
    EXPECT_EQ(a.rows, b.rows) << skill.name;
    EXPECT_EQ(a.notes, b.notes) << skill.name;
  }
}

TEST(JobCodec, DamagedBytesAreErrors) {
  NSYS_REQUIRE_FIXTURES();
  const SplitJob& job = Split("mfu_2gpu_before.sqlite");
  ASSERT_TRUE(job.ok);
  const std::string bytes = EncodePartial(job.partials[0]);
  for (size_t n = 0; n < bytes.size(); n += 1 + n / 64) {  // every short prefix, then a sample of longer ones
    EXPECT_FALSE(DecodePartial(std::string_view(bytes).substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(DecodePartial(bytes + "x").ok());
  EXPECT_FALSE(DecodePartial("NSRP").ok());
  std::string huge = bytes.substr(0, 8);
  huge += std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);  // a label length far past the buffer
  EXPECT_FALSE(DecodePartial(huge).ok());
  std::mt19937 rng(7);
  int refused = 0;
  for (int i = 0; i < 2000; ++i) {  // flipped bytes: decoded (a changed value) or refused, never a crash
    std::string b = bytes;
    b[rng() % b.size()] ^= static_cast<char>(1 + rng() % 255);
    refused += DecodePartial(b).ok() ? 0 : 1;
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace nsys::testing
