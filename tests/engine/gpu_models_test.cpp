// A GPU's SM count and compute capability when the export names the GPU but not those facts (old exports), and the
// old TARGET_INFO_CUDA_GPU table. The model table is checked against every real export that states the facts itself.
#include "nsys/engine/gpu_models.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "engine_test_util.h"

namespace nsys::engine {
namespace {

using ::nsys::testing::Exec;
using ::nsys::testing::Fixture;
using ::nsys::testing::OpenOrDie;
using ::nsys::testing::Sql;
using ::nsys::testing::TempDir;
using ::nsys::testing::TestOptions;

std::string ModelText(const std::optional<GpuModel>& m) {
  if (!m) return "unknown";
  return std::to_string(m->sm_count) + " SMs, cc " + std::to_string(m->compute_major) + "." +
         std::to_string(m->compute_minor);
}

TEST(GpuModels, NamesAsExportsWriteThem) {
  const std::map<std::string, std::string> expected = {
      {"NVIDIA A100-SXM4-40GB", "108 SMs, cc 8.0"},
      {"NVIDIA A100-PCIE-40GB", "108 SMs, cc 8.0"},
      {"NVIDIA H100 80GB HBM3", "132 SMs, cc 9.0"},
      {"NVIDIA H100 PCIe", "114 SMs, cc 9.0"},
      {"NVIDIA H100 80GB PCIe", "114 SMs, cc 9.0"},
      {"Tesla V100-SXM2-16GB", "80 SMs, cc 7.0"},
      {"Tesla T4", "40 SMs, cc 7.5"},
      {"GeForce GTX 1650", "14 SMs, cc 7.5"},
      {"GeForce RTX 2080 Ti", "68 SMs, cc 7.5"},
      {"Quadro RTX 6000", "72 SMs, cc 7.5"},
      {"NVIDIA RTX 6000 Ada Generation", "142 SMs, cc 8.9"},
      {"NVIDIA GeForce RTX 3080", "68 SMs, cc 8.6"},
      {"NVIDIA GeForce RTX 3080 12GB", "70 SMs, cc 8.6"},
      {"NVIDIA GeForce RTX 3080 Ti", "80 SMs, cc 8.6"},
      {"NVIDIA GeForce RTX 4070 Laptop GPU", "36 SMs, cc 8.9"},
      {"NVIDIA A10", "72 SMs, cc 8.6"},
      {"NVIDIA A10G", "80 SMs, cc 8.6"},
      {"nvidia l40s", "142 SMs, cc 8.9"},
      // Unknown names give nothing: no guess from a near name.
      {"NVIDIA GeForce RTX 4075", "unknown"},
      {"NVIDIA GeForce RTX 2050 Laptop GPU", "unknown"},
      {"", "unknown"},
      {"NVIDIA", "unknown"},
      {std::string(10000, 'A'), "unknown"},
  };
  for (const auto& [name, said] : expected) EXPECT_EQ(ModelText(LookUpGpuModel(name)), said) << name;
}

TEST(GpuModels, PerSmLimitsByComputeCapability) {
  ASSERT_TRUE(SmLimitsOf(7, 5));
  EXPECT_EQ(SmLimitsOf(7, 5)->max_warps, 32);
  EXPECT_EQ(SmLimitsOf(8, 0)->max_shared_memory, 164 * 1024);
  EXPECT_EQ(SmLimitsOf(8, 6)->max_blocks, 16);
  EXPECT_EQ(SmLimitsOf(9, 0)->max_warps, 64);
  EXPECT_FALSE(SmLimitsOf(0, 0));
  EXPECT_FALSE(SmLimitsOf(5, 2));
}

// The table against the world: every fixture whose TARGET_INFO_GPU states smCount (and computeMajor/Minor where it
// has them) agrees with the model table for that name. Names absent from the table are listed, not failed.
TEST(GpuModels, AgreeWithEveryExportThatStatesTheFacts) {
  NSYS_REQUIRE_FIXTURES();
  int checked = 0;
  for (const auto& dir : {testing::FixturesDir(), Fixture("realworld")}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".sqlite") continue;
      Sql sql(entry.path().string());
      if (sql.Int("SELECT count(*) FROM pragma_table_info('TARGET_INFO_GPU') WHERE name = 'smCount'") == 0) continue;
      const bool has_cc =
          sql.Int("SELECT count(*) FROM pragma_table_info('TARGET_INFO_GPU') WHERE name = 'computeMajor'") > 0;
      sql.Each(std::string("SELECT name, smCount, ") + (has_cc ? "computeMajor, computeMinor" : "0, 0") +
                   " FROM TARGET_INFO_GPU WHERE smCount > 0",
               [&](sqlite3_stmt* s) {
                 const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
                 const auto model = LookUpGpuModel(name);
                 ASSERT_TRUE(model) << name << " in " << entry.path().filename();
                 EXPECT_EQ(model->sm_count, sqlite3_column_int(s, 1)) << name;
                 if (has_cc && sqlite3_column_int(s, 2) > 0) {
                   EXPECT_EQ(model->compute_major, sqlite3_column_int(s, 2)) << name;
                   EXPECT_EQ(model->compute_minor, sqlite3_column_int(s, 3)) << name;
                 }
                 ++checked;
               });
    }
  }
  EXPECT_GE(checked, 12);
}

// An export that names its GPU without SMs (schema 3.0, converted from a 2019 report): the SMs and compute
// capability are the model's, and the device says so.
TEST(GpuModels, AnOldExportGetsItsModelsFacts) {
  NSYS_REQUIRE_FIXTURES();
  auto p = OpenOrDie(Fixture("realworld/gtx1650_keras_tf_darknet53.sqlite"), TestOptions());
  ASSERT_TRUE(p);
  ASSERT_EQ(p->info().devices.size(), 1u);
  const Device& d = p->info().devices[0];
  EXPECT_EQ(d.name, "GeForce GTX 1650");
  EXPECT_EQ(d.sm_count, 14);
  EXPECT_TRUE(d.sm_count_from_model);
  EXPECT_EQ(d.compute_major, 7);
  EXPECT_EQ(d.compute_minor, 5);
  // A newer export states them: nothing comes from the model.
  auto a100 = OpenOrDie(Fixture("a100_2proc_mpi.sqlite"), TestOptions());
  ASSERT_TRUE(a100);
  ASSERT_EQ(a100->info().devices.size(), 1u);
  EXPECT_EQ(a100->info().devices[0].sm_count, 108);
  EXPECT_FALSE(a100->info().devices[0].sm_count_from_model);
}

// The old layout: the GPU named only in TARGET_INFO_CUDA_GPU (keyed by deviceId, SMs in numMultiprocessors). Made
// from a real export by moving its GPU row into that table; the kernels' device ids are unchanged.
TEST(GpuModels, TheOldCudaGpuTableNamesTheGpuAndItsSms) {
  NSYS_REQUIRE_FIXTURES();
  TempDir dir;
  const std::string copy = dir / "old_layout.sqlite";
  std::filesystem::copy_file(Fixture("v100_julia.sqlite"), copy);
  Exec(copy,
       "CREATE TABLE TARGET_INFO_CUDA_GPU (deviceId INTEGER, name TEXT, numMultiprocessors INTEGER, "
       "computeCapabilityMajor INTEGER, computeCapabilityMinor INTEGER);"
       "INSERT INTO TARGET_INFO_CUDA_GPU SELECT id, name, 77, 7, 0 FROM TARGET_INFO_GPU;"
       "DROP TABLE TARGET_INFO_GPU;");
  auto p = OpenOrDie(copy, TestOptions());
  ASSERT_TRUE(p);
  ASSERT_EQ(p->info().devices.size(), 1u);
  const Device& d = p->info().devices[0];
  EXPECT_EQ(d.name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(d.sm_count, 77);  // the table's own figure (made different from the model's 80 to tell them apart)
  EXPECT_FALSE(d.sm_count_from_model);
  EXPECT_EQ(d.compute_major, 7);
}

}  // namespace
}  // namespace nsys::engine
