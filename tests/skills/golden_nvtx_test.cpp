// Golden tests of the NVTX skills. Expected values are NVIDIA's `nsys stats` 2022.4.2 output on the fixture;
// where our default groups PyTorch ranges by operator name, the expectation is the sum of nsys's per-op_id rows.
#include <gtest/gtest.h>

#include <string>

#include "skill_test_util.h"

namespace nsys::testing {
namespace {

TEST(NvtxSummary, H100GroupsOperatorsAcrossOpIds) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "nvtx_summary");
  ASSERT_FALSE(t.declined);
  // nvtxsum has 16582 rows (16782 ranges); stripped of ", op_id = N" they form 176 (name, style) groups summing to
  // 4642216888 ns. The largest: aten::item, 4 rows, 857161889 ns, min 35141, max 428568222.
  ASSERT_EQ(t.rows.size(), 176u);
  EXPECT_EQ(StringCell(t, 0, "range"), "aten::item");
  EXPECT_EQ(StringCell(t, 0, "style"), "PushPop");
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 857161889);
  EXPECT_EQ(IntCell(t, 0, "instances"), 4);
  EXPECT_EQ(IntCell(t, 0, "min_ns"), 35141);
  EXPECT_EQ(IntCell(t, 0, "max_ns"), 428568222);
  int64_t total = 0, instances = 0, exclusive = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    total += IntCell(t, r, "total_time_ns");
    instances += IntCell(t, r, "instances");
    exclusive += IntCell(t, r, "excl_total_ns");
    EXPECT_LE(IntCell(t, r, "excl_total_ns"), IntCell(t, r, "total_time_ns"));
  }
  EXPECT_EQ(total, 4642216888);
  EXPECT_EQ(instances, 16782);
  // Exclusive times telescope: their sum is the time of the outermost ranges per thread (1896792183 ns, computed
  // from NVTX_EVENTS by a separate stack walk over (globalTid, start, end desc)).
  EXPECT_EQ(exclusive, 1896792183);
  EXPECT_NE(JoinNotes(t).find("split_op_id=true"), std::string::npos);
}

TEST(NvtxSummary, SplitOpIdIsNvtxsumRowForRow) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "nvtx_summary", {{"split_op_id", Value(true)}});
  ASSERT_EQ(t.rows.size(), 16582u);
  // nvtxsum row 1: 9.2,428573559,1,428573559.0,...,PushPop,"aten::is_nonzero, op_id = 317126"
  EXPECT_EQ(StringCell(t, 0, "range"), "aten::is_nonzero, op_id = 317126");
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 428573559);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "time_pct"), 9.2);
}

TEST(NvtxSummary, TitanDomainsAndStartEndRanges) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "nvtx_summary");
  ASSERT_EQ(t.rows.size(), 112u);  // nvtxsum: 112 rows
  // 22.8,3009143890,188,16006084.5,16000649.5,8687631,27417446,4137584.0,PushPop,3D_backbone
  EXPECT_EQ(StringCell(t, 0, "range"), "3D_backbone");
  EXPECT_EQ(IntCell(t, 0, "total_time_ns"), 3009143890);
  EXPECT_DOUBLE_EQ(DoubleCell(t, 0, "med_ns"), 16000649.5);
  // Domain names prefix their ranges, from the eventType 75 rows (text stored via textId for the ranges):
  // 16.1,2124630655,188,...,PushPop,TensorRT:ExecutionContext::execute
  const int trt = FindRow(t, "range", "TensorRT:ExecutionContext::execute");
  ASSERT_GE(trt, 0);
  EXPECT_EQ(IntCell(t, trt, "total_time_ns"), 2124630655);
  // 15.3,2023364558,188,10762577.4,10776200.0,7553911,11280198,271562.2,StartEnd,myelin-exec:myelinGraphExecute
  const int myelin = FindRow(t, "range", "myelin-exec:myelinGraphExecute ");
  ASSERT_GE(myelin, 0);
  EXPECT_EQ(StringCell(t, myelin, "style"), "StartEnd");
  EXPECT_EQ(IntCell(t, myelin, "total_time_ns"), 2023364558);
  EXPECT_EQ(IntCell(t, myelin, "instances"), 188);
  EXPECT_EQ(IntCell(t, myelin, "excl_total_ns"), 2023364558);  // start/end ranges have no children
}

TEST(NvtxSummary, DeclinesWithoutNvtx) {
  NSYS_REQUIRE_FIXTURES();
  // nsys: "SKIPPED: mock.sqlite does not contain NV Tools Extension (NVTX) data."
  NSYS_RUN_SKILL(t, "mock.sqlite", "nvtx_summary");
  EXPECT_TRUE(t.declined);
}

TEST(NvtxKernelMap, H100MatchesNvtxkernsum) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(split, kH100, "nvtx_kernel_map", {{"split_op_id", Value(true)}});
  ASSERT_EQ(split.rows.size(), 2677u);  // nvtxkernsum prints 2677 rows
  // Row 1: None,None,None,None,0,142,17036935,119978.4,133153.0,57473,154785,32679.5,<gemm64>: kernels whose launch
  // call is not in this cut window.
  EXPECT_TRUE(IsNull(Cell(split, 0, "nvtx_range")));
  EXPECT_TRUE(IsNull(Cell(split, 0, "pid")));
  EXPECT_EQ(IntCell(split, 0, "nvtx_inst"), 0);
  EXPECT_EQ(IntCell(split, 0, "kern_inst"), 142);
  EXPECT_EQ(IntCell(split, 0, "total_time_ns"), 17036935);
  EXPECT_DOUBLE_EQ(DoubleCell(split, 0, "med_ns"), 133153.0);
  EXPECT_EQ(StringCell(split, 0, "kernel_name"), kGemm64);
  // "aten::mm, op_id = 314286",PushPop,112,112,1,1,57792,...,<gemm64>
  bool found = false;
  for (size_t r = 0; r < split.rows.size(); ++r) {
    if (IsNull(Cell(split, r, "nvtx_range"))) continue;
    if (StringCell(split, r, "nvtx_range") != "aten::mm, op_id = 314286" ||
        StringCell(split, r, "kernel_name") != kGemm64) {
      continue;
    }
    found = true;
    EXPECT_EQ(IntCell(split, r, "pid"), 112);
    EXPECT_EQ(IntCell(split, r, "tid"), 112);
    EXPECT_EQ(IntCell(split, r, "nvtx_inst"), 1);
    EXPECT_EQ(IntCell(split, r, "total_time_ns"), 57792);
  }
  EXPECT_TRUE(found);

  // By operator name: the 53 nvtxkernsum rows of (aten::mm, pid 112, gemm64) sum to 7053186 ns over 53 ranges and
  // 53 kernels, min 57600, max 305920.
  NSYS_RUN_SKILL(merged, kH100, "nvtx_kernel_map");
  int mm = -1;
  for (size_t r = 0; r < merged.rows.size(); ++r) {
    if (IsNull(Cell(merged, r, "nvtx_range"))) continue;
    if (StringCell(merged, r, "nvtx_range") == "aten::mm" && IntCell(merged, r, "pid") == 112 &&
        StringCell(merged, r, "kernel_name") == kGemm64) {
      mm = static_cast<int>(r);
    }
  }
  ASSERT_GE(mm, 0);
  EXPECT_EQ(IntCell(merged, mm, "total_time_ns"), 7053186);
  EXPECT_EQ(IntCell(merged, mm, "nvtx_inst"), 53);
  EXPECT_EQ(IntCell(merged, mm, "kern_inst"), 53);
  EXPECT_EQ(IntCell(merged, mm, "min_ns"), 57600);
  EXPECT_EQ(IntCell(merged, mm, "max_ns"), 305920);
  // The 33 "None" rows of nvtxkernsum hold 1810 kernels without a launch call.
  EXPECT_NE(JoinNotes(merged).find("3442 kernels; 1632"), std::string::npos) << JoinNotes(merged);
}

TEST(NvtxKernelMap, DeclinesWithoutKernels) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, "titanrtx_tensorrt_nvtx.sqlite", "nvtx_kernel_map");
  EXPECT_TRUE(t.declined);
}

TEST(NvtxGpuProjection, H100MatchesNvtxgpuproj) {
  NSYS_REQUIRE_FIXTURES();
  NSYS_RUN_SKILL(t, kH100, "nvtx_gpu_projection", {{"limit", Value(int64_t{0})}});
  ASSERT_EQ(t.rows.size(), 3242u);  // nvtxgpuproj prints 3242 ranges
  // Row 1: "aten::reshape, op_id = 314294",155781294216,2144,155357647753,2668835,PushPop,111,111,1,0,0,5,None,:5
  EXPECT_EQ(StringCell(t, 0, "name"), "aten::reshape, op_id = 314294");
  EXPECT_EQ(IntCell(t, 0, "projected_start_ns"), 155781294216);
  EXPECT_EQ(IntCell(t, 0, "projected_duration_ns"), 2144);
  EXPECT_EQ(IntCell(t, 0, "orig_start_ns"), 155357647753);
  EXPECT_EQ(IntCell(t, 0, "orig_duration_ns"), 2668835);
  EXPECT_EQ(IntCell(t, 0, "numgpuops"), 1);
  EXPECT_EQ(IntCell(t, 0, "lvl"), 0);
  EXPECT_TRUE(IsNull(Cell(t, 0, "parentid")));
  // "FSDP::pre_forward (encoder.block.14.layer.1), op_id = 314311",155781376585,18579276,155370398874,387749,
  // PushPop,111,111,8,0,10,43,None,:43
  const int fsdp = FindRow(t, "name", "FSDP::pre_forward (encoder.block.14.layer.1), op_id = 314311");
  ASSERT_GE(fsdp, 0);
  EXPECT_EQ(IntCell(t, fsdp, "projected_start_ns"), 155781376585);
  EXPECT_EQ(IntCell(t, fsdp, "projected_duration_ns"), 18579276);
  EXPECT_EQ(IntCell(t, fsdp, "orig_duration_ns"), 387749);
  EXPECT_EQ(IntCell(t, fsdp, "numgpuops"), 8);
  // nsys prints NumChild 10: its parent search compares timestamps stored in an SQLite R-tree as 32-bit floats
  // (16 us resolution here, rounded outwards), so it misses that aten::_to_copy 314318 (NVTX_EVENTS rowid 51)
  // exactly encloses aten::copy_ 314320 (rowid 53), and 314323 encloses 314325 (rowids 60, 62), and hangs both
  // copies directly under this range. By the integer timestamps it has 8 direct children with GPU ops.
  EXPECT_EQ(IntCell(t, fsdp, "numchild"), 8);
  EXPECT_EQ(IntCell(t, fsdp, "pid"), 111);

  NSYS_RUN_SKILL(limited, kH100, "nvtx_gpu_projection");  // default limit 1000
  EXPECT_EQ(limited.rows.size(), 1000u);
  EXPECT_NE(JoinNotes(limited).find("first 1000 of 3242"), std::string::npos);
}

}  // namespace
}  // namespace nsys::testing
