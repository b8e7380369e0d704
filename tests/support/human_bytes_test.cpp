#include "nsys/support/human_bytes.h"

#include <gtest/gtest.h>

namespace nsys::support {
namespace {

TEST(HumanBytes, BinaryUnits) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(1023), "1023 B");
  EXPECT_EQ(HumanBytes(1024), "1.0 KiB");
  EXPECT_EQ(HumanBytes(1536), "1.5 KiB");
  EXPECT_EQ(HumanBytes(int64_t{5} * 1024 * 1024), "5.0 MiB");
  EXPECT_EQ(HumanBytes(85899345920), "80.0 GiB");  // an H100's memory
  EXPECT_EQ(HumanBytes(int64_t{3} << 40), "3.0 TiB");
  EXPECT_EQ(HumanBytes(int64_t{1} << 60), "1024.0 PiB");  // the largest unit keeps growing
  EXPECT_EQ(HumanBytes(-5), "-5 B");
}

}  // namespace
}  // namespace nsys::support
