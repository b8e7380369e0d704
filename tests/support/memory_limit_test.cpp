#include "nsys/support/memory_limit.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace nsys::support {
namespace {

namespace fs = std::filesystem;

class CgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "nsys-cgroup-XXXXXX").string();
    root_ = mkdtemp(tmpl.data());
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& relative, const std::string& text) {
    fs::create_directories(fs::path(root_ + relative).parent_path());
    std::ofstream(root_ + relative) << text;
  }
  std::string root_;
};

TEST_F(CgroupTree, V2ReadsMemoryMaxOfTheProcessGroup) {
  Write("/user.slice/job7/memory.max", "4294967296\n");
  EXPECT_EQ(CgroupMemoryLimit("0::/user.slice/job7\n", root_), uint64_t{4} << 30);
  Write("/user.slice/job7/memory.max", "max\n");
  EXPECT_EQ(CgroupMemoryLimit("0::/user.slice/job7\n", root_), 0u);
}

TEST_F(CgroupTree, V1ReadsTheMemoryControllersLimitAndIgnoresNoLimit) {
  const std::string self = "12:pids:/\n9:cpuset,cpu:/bench\n8:memory:/bench\n1:name=systemd:/\n";
  Write("/memory/bench/memory.limit_in_bytes", "2147483648\n");
  EXPECT_EQ(CgroupMemoryLimit(self, root_), uint64_t{2} << 30);
  Write("/memory/bench/memory.limit_in_bytes", "9223372036854771712\n");  // v1's "no limit"
  EXPECT_EQ(CgroupMemoryLimit(self, root_), 0u);
}

TEST_F(CgroupTree, NoFilesOrNoMemoryControllerMeanNoLimit) {
  EXPECT_EQ(CgroupMemoryLimit("0::/nowhere\n", root_), 0u);
  EXPECT_EQ(CgroupMemoryLimit("4:cpu:/x\ngarbage\n", root_), 0u);
}

TEST(MemoryLimit, IsAtMostThePhysicalMemory) {
  const uint64_t physical =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t limit = MemoryLimitBytes();
  EXPECT_GT(limit, 0u);
  EXPECT_LE(limit, physical);
}

}  // namespace
}  // namespace nsys::support
