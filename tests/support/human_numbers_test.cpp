#include "nsys/support/human_numbers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

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

// The one thousands formatter (the CLI's tables, the Book's counts, the figures above), every int64_t included.
TEST(Thousands, GroupsOfThreeAndTheSign) {
  EXPECT_EQ(Thousands(0), "0");
  EXPECT_EQ(Thousands(999), "999");
  EXPECT_EQ(Thousands(1842), "1,842");
  EXPECT_EQ(Thousands(1234567), "1,234,567");
  EXPECT_EQ(Thousands(-250), "-250");
  EXPECT_EQ(Thousands(-1234567), "-1,234,567");
  EXPECT_EQ(Thousands(std::numeric_limits<int64_t>::min()), "-9,223,372,036,854,775,808");
  EXPECT_EQ(Thousands(std::numeric_limits<int64_t>::max()), "9,223,372,036,854,775,807");
}

TEST(HumanGigabytes, OneDecimalUnderAThousandWholeAbove) {
  EXPECT_EQ(HumanGigabytes(25.5e9), "25.5 GB");
  EXPECT_EQ(HumanGigabytes(0), "0.0 GB");
  EXPECT_EQ(HumanGigabytes(999.94e9), "999.9 GB");
  EXPECT_EQ(HumanGigabytes(25475.3e9), "25,475 GB");
}

}  // namespace
}  // namespace nsys::support
