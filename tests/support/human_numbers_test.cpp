#include "nsys/support/human_duration.h"

#include <gtest/gtest.h>

namespace nsys::support {
namespace {

// The figures of a finding on the fixtures keep their form; a 2 GB export's (1,000 copies of the H100 fixture) read
// as people write them.
TEST(HumanDuration, MillisecondsUnderAHundredSecondsWholeSecondsAbove) {
  EXPECT_EQ(HumanDuration(0), "0.0 ms");
  EXPECT_EQ(HumanDuration(2300), "2.3 µs");
  EXPECT_EQ(HumanDuration(99999), "100.0 µs");
  EXPECT_EQ(HumanDuration(1628.9e6), "1628.9 ms");
  EXPECT_EQ(HumanDuration(99.99e9), "99990.0 ms");
  EXPECT_EQ(HumanDuration(1841630.8e6), "1,842 s");
  EXPECT_EQ(HumanDuration(970446.6e6), "970 s");
  EXPECT_EQ(HumanDuration(-250e9), "-250 s");
}

TEST(HumanGigabytes, OneDecimalUnderAThousandWholeAbove) {
  EXPECT_EQ(HumanGigabytes(25.5e9), "25.5 GB");
  EXPECT_EQ(HumanGigabytes(0), "0.0 GB");
  EXPECT_EQ(HumanGigabytes(999.94e9), "999.9 GB");
  EXPECT_EQ(HumanGigabytes(25475.3e9), "25,475 GB");
}

}  // namespace
}  // namespace nsys::support
