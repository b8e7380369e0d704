// DecodeKernelName on the fixtures' real kernel names (a golden list) and on names of the families the fixtures lack,
// written as the libraries print them.
#include "nsys/skills/kernel_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "skill_test_util.h"

namespace nsys::skills {
namespace {

struct Golden {
  std::string name;
  std::string library, category, operation, precision, tile, tensor_cores;
};

void ExpectDecodes(const Golden& g) {
  const KernelIdentity id = DecodeKernelName(g.name);
  SCOPED_TRACE(g.name);
  EXPECT_EQ(id.library, g.library);
  EXPECT_EQ(id.category, g.category);
  EXPECT_EQ(id.operation, g.operation);
  EXPECT_EQ(id.precision, g.precision);
  EXPECT_EQ(id.tile, g.tile);
  EXPECT_EQ(TensorCoreWord(id.tensor_cores), g.tensor_cores);
  EXPECT_FALSE(id.summary.empty());
}

// Names copied from the fixtures' StringIds (h100_2gpu_1s, mfu_2gpu_*, a100_2proc_mpi, h200_nvfuser_nvtx, v100_julia).
TEST(KernelNames, FixtureNamesGolden) {
  const Golden kGolden[] = {
      {"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "cuBLAS", "gemm", "", "bf16", "192x192x64", "yes"},
      {"nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN", "cuBLAS", "gemm", "", "bf16", "96x64x64", "yes"},
      {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)", "NCCL", "collective", "SendRecv", "",
       "", "no"},
      {"void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, (int)128, (int)64, (int)4, (bool)0, (bool)0, "
       "cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)128, (int)64, (int)4, cutlass::bfloat16_t>>, (bool)0, "
       "(bool)0, (bool)0, (bool)0, (bool)0, (bool)1, (bool)0, (bool)0>(flash::Flash_fwd_params)",
       "FlashAttention", "attention", "fwd", "bf16", "128x64", "yes"},
      {"ampere_sgemm_32x128_tn", "cuBLAS", "gemm", "", "fp32", "32x128", "no"},
      {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_"
       "split_k_kernel__5x_cublas",
       "cuBLAS", "gemm", "split-K", "fp32", "128x128x8", "no"},
      {"sm80_xmma_gemm_f64f64_f64f64_f64_nt_n_tilesize32x64x16_stage4_warpsize2x2x1_tensor8x8x4_kernel", "cuBLAS",
       "gemm", "", "fp64", "32x64x16", "yes"},
      {"void cutlass::Kernel<cutlass_80_tensorop_d884gemm_32x64_16x4_nt_align1>(T1::Params)", "CUTLASS", "gemm", "",
       "fp64", "32x64x16", "yes"},
      {"void splitKreduce_kernel<(int)32, (int)16, int, float, float, float, float, (bool)1, (bool)0, (bool)0>("
       "cublasSplitKParams<T6>, const T4 *, const T5 *, T5 *, const T6 *, const T6 *, const T7 *, const T4 *, T7 *, "
       "void *, long, T6 *, int *)",
       "cuBLAS", "gemm", "split-K reduce", "fp32", "", "no"},
      {"void trsm_right_kernel<double, (int)256, (int)4, (bool)0, (bool)0, (bool)0, (bool)0, (bool)1>("
       "cublasTrsmParams<T1>, T1, const T1 *, int)",
       "cuBLAS", "other", "trsm", "fp64", "", "no"},
      {"void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<float>, std::array<char *, "
       "(unsigned long)3>>(int, T2, T3)",
       "PyTorch", "elementwise", "add", "fp32", "", "no"},
      {"void at::native::vectorized_elementwise_kernel<(int)8, at::native::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char *, (unsigned long)3>>(int, T2, T3)",
       "PyTorch", "elementwise", "add", "bf16", "", "no"},
      {"void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
       "float, float>, unsigned int, float, (int)4, (int)4>>(T3)",
       "PyTorch", "reduction", "mean", "fp32", "", "no"},
      {"void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, "
       "int, int, const bool *, int, bool)",
       "PyTorch", "softmax", "fwd", "fp32", "", "no"},
      {"void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, (bool)0>(int, T2, const T1 *, const T1 "
       "*, const T1 *, T2 *, T2 *, T1 *)",
       "PyTorch", "norm", "layer_norm fwd", "fp32", "", "no"},
      {"void at::native::vectorized_elementwise_kernel<(int)4, at::native::tanh_kernel_cuda(at::TensorIteratorBase "
       "&)::[lambda() (instance 2)]::operator ()() const::[lambda() (instance 2)]::operator ()() const::[lambda(float) "
       "(instance 1)], std::array<char *, (unsigned long)2>>(int, T2, T3)",
       "PyTorch", "elementwise", "tanh", "fp32", "", "no"},
      {"<unnamed>::nvfuser_pointwise_f0_c1_r0_g4(<unnamed>::Tensor<<unnamed>::__bfloat, (int)3, (int)3>, "
       "<unnamed>::Tensor<float, (int)3, (int)3>)",
       "nvFuser", "elementwise", "", "bf16", "", "no"},
      {"<unnamed>::nvfuser_inner_persistent_f0_c1_r0_g2(<unnamed>::Tensor<float, (int)3, (int)3>, "
       "<unnamed>::Tensor<float, (int)2, (int)2>)",
       "nvFuser", "reduction", "inner_persistent", "fp32", "", "no"},
      {"add_arrays_(CuDeviceArray<Int64, (int)3, (int)1>, CuDeviceArray<Int64, (int)3, (int)1>, CuDeviceArray<Int64, "
       "(int)3, (int)1>)",
       "CUDA.jl", "other", "add_arrays", "int64", "", "unknown"},
  };
  for (const Golden& g : kGolden) ExpectDecodes(g);
}

// Families the fixtures do not hold, in the spelling their libraries use.
TEST(KernelNames, OtherFamiliesGolden) {
  const Golden kGolden[] = {
      {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm *, unsigned long, ncclWork *)", "NCCL", "collective",
       "AllReduce", "bf16", "", "no"},
      {"void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<(int)64, (int)128, (int)128, "
       "(int)8, (int)4, (int)2, (int)2, (bool)0, (bool)0, cutlass::half_t, Flash_kernel_traits<(int)64, (int)128, "
       "(int)128, (int)8, cutlass::half_t>>, (bool)1, (bool)0, (bool)0, (bool)0, (bool)0, (bool)0>("
       "flash::Flash_bwd_params)",
       "FlashAttention", "attention", "bwd", "fp16", "128x128", "yes"},
      {"fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, "
       "cutlass::arch::Sm80, (bool)1, (int)64, (int)64, (int)64, (bool)1, (bool)1>::Params)",
       "PyTorch", "attention", "fwd", "bf16", "64x64", "yes"},
      {"ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn", "cuBLAS", "gemm", "", "bf16", "128x64", "yes"},
      {"volta_h884gemm_64x64_ldg8_nn", "cuBLAS", "gemm", "", "fp16", "64x64", "yes"},
      {"nvjet_hsh_128x256_64x4_2x1_v_bz_TNT", "cuBLAS", "gemm", "", "fp16", "128x256x64", "yes"},
      {"nvjet_qqtst_128x128_128x6_1x2_h_bz_TNT", "cuBLAS", "gemm", "", "fp8", "128x128x128", "yes"},
      {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__"
       "5x_cublas",
       "cuBLAS", "gemm", "", "bf16", "128x256x64", "yes"},
      {"sm80_xmma_fprop_implicit_gemm_indexed_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_"
       "g1_tensor16x8x16_execute_kernel_cudnn",
       "cuDNN", "conv", "fprop", "fp16", "128x128x32", "yes"},
      // TensorRT builds xmma kernels of its own: their names end in "_trt" (rtx3090_tensorrt_fp16_conv's).
      {"sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x32x64_stage1_"
       "warpsize4x1x1_g1_tensor16x8x16_aligna8_alignc8_execute_kernel_trt",
       "TensorRT", "conv", "fprop", "fp16", "128x32x64", "yes"},
      {"sm50_xmma_pooling_coalescedC_NHWC_kMAX_3_False_execute_kernel_trt", "TensorRT", "other", "", "", "", "unknown"},
      {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<__half, float, (int)512, (bool)1, (int)1>(cudnnTensorStruct, const T1 *, "
       "cudnnTensorStruct, T1 *, const T2 *, const T2 *, T2, T2, T2 *, T2 *, T2 *, T2 *, T2, T2)",
       "cuDNN", "norm", "", "fp16", "", "unknown"},
      {"void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x256_32x3_tn_align8>(T1::Params)",
       "CUTLASS", "gemm", "", "bf16", "128x256x32", "yes"},
      {"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
       "cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<(int)4, "
       "cute::tuple<cute::C<(int)2>, cute::C<(int)1>, cute::C<(int)1>>>, cute::tuple<cute::C<128>, cute::C<256>, "
       "cute::C<64>>, cutlass::float_e4m3_t>>>(T1::Params)",
       "CUTLASS", "gemm", "", "fp8", "128x256x64", "yes"},
      {"triton_poi_fused_add_mul_0", "Triton", "elementwise", "add_mul", "", "", "no"},
      {"triton_red_fused__softmax_1", "Triton", "softmax", "softmax", "", "", "no"},
      {"triton_tem_fused_mm_3", "Triton", "gemm", "mm", "", "", "unknown"},
      {"void at::native::<unnamed>::cunn_SoftMaxBackward<(int)4, float, float, float, "
       "at::native::<unnamed>::SoftMaxBackwardEpilogue>(T4 *, const T2 *, const T2 *, long)",
       "PyTorch", "softmax", "bwd", "fp32", "", "no"},
      {"void cub::CUB_200200_800_NS::DeviceRadixSortOnesweepKernel<cub::CUB_200200_800_NS::DeviceRadixSortPolicy<long, "
       "long, int>::Policy800, (bool)0, long, long, int, int>(int *, int *, const T2 *, T2 *, const T3 *, T3 *, T5, "
       "int, int, cub::CUB_200200_800_NS::detail::identity_decomposer_t)",
       "CUB", "other", "sort", "int64", "", "no"},
      // cuFFT (rtx2080ti_cufcm_cufft's) and the radix kernels of older cuFFT releases.
      {"void regular_fft<256u, 16u, 8u, (padding_t)0, (twiddle_t)0, (loadstore_modifier_t)2, (layout_t)1, unsigned "
       "int, float>(kernel_arguments_t<unsigned int>)",
       "cuFFT", "fft", "", "fp32", "", "no"},
      {"void vector_fft_r2c<256u, 16u, 1u, (padding_t)6, (twiddle_t)0, (loadstore_modifier_t)2, (layout_t)0, unsigned "
       "int, float>(kernel_arguments_t<unsigned int>)",
       "cuFFT", "fft", "r2c", "fp32", "", "no"},
      {"dpRadix0032B::kernel1Mem(unsigned int, unsigned int, int, int, int, int, int, int)", "cuFFT", "fft", "", "fp64",
       "", "no"},
      // XLA's kernels are its HLO instructions (rtx3090_jax_xla_small's); jaxlib's own run as its custom calls.
      {"fusion", "XLA", "elementwise", "", "", "", "unknown"},
      {"fusion_4", "XLA", "elementwise", "", "", "", "unknown"},
      {"input_reduce_fusion_2", "XLA", "reduction", "input_reduce_fusion", "", "", "unknown"},
      {"convert_2", "XLA", "elementwise", "convert", "", "", "unknown"},
      {"shift_right_logical_3", "XLA", "elementwise", "shift_right_logical", "", "", "unknown"},
      {"concatenate_3", "XLA", "other", "concatenate", "", "", "unknown"},
      {"jax::<unnamed>::ThreeFry2x32Kernel(const unsigned int *, const unsigned int *, const unsigned int *, const "
       "unsigned int *, unsigned int *, unsigned int *, long)",
       "XLA", "other", "ThreeFry2x32Kernel", "", "", "no"},
  };
  for (const Golden& g : kGolden) ExpectDecodes(g);
}

// A kernel's own name that looks like an HLO opcode is not XLA's unless it carries an instruction number and no C++
// (an extern "C" add, a templated copy, a C++ convert_2 with parameters).
TEST(KernelNames, OpcodeWordsAloneAreNotXla) {
  for (const char* name : {"add", "convert", "copy_device<int>(int*, int*, int)", "convert_2(float *, int)",
                           "ns::fusion_4", "add_arrays_2", "my_fusion_kernel"}) {
    SCOPED_TRACE(name);
    EXPECT_NE(DecodeKernelName(name).library, "XLA");
  }
}

// Every library a decoder names is one KernelLibraries lists (the words questions may use for a family).
TEST(KernelNames, EveryDecodedLibraryIsListed) {
  const auto libraries = KernelLibraries();
  for (const char* name :
       {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN", "fusion_2",
        "regular_fft<1u>(int)", "triton_poi_fused_add_mul_0", "nvfuser_pointwise_f0_c1_r0_g0",
        "void cub::DeviceReduceKernel<int>(int)", "void thrust::for_each<int>(int)", "trt_volta_scudnn_128x64",
        "void transformer_engine::cast_kernel<float>(float)", "memcpy32_post", "ampere_sgemm_32x128_tn",
        "void cutlass::Kernel<cutlass_80_tensorop_d884gemm_32x64_16x4_nt_align1>(T1::Params)",
        "void flash::flash_fwd_kernel<int>(flash::Flash_fwd_params)", "cudnn::bn_fw_tr_1C11_kernel_NCHW<float>(int)",
        "void at::native::vectorized_elementwise_kernel<(int)4>(int)", "kernel_(CuDeviceArray<Float32, 1, 1>)"}) {
    const std::string library = DecodeKernelName(name).library;
    SCOPED_TRACE(name);
    ASSERT_FALSE(library.empty());
    EXPECT_NE(std::find(libraries.begin(), libraries.end(), library), libraries.end());
  }
}

TEST(KernelNames, UnknownNamesSayUnknown) {
  for (const char* name : {"my_custom_kernel(float *, int)", "", "(", "<unnamed>::", "void <", "kernel1"}) {
    const KernelIdentity id = DecodeKernelName(name);
    SCOPED_TRACE(name);
    EXPECT_EQ(id.library, "");
    EXPECT_EQ(id.category, "other");
    EXPECT_FALSE(id.tensor_cores.has_value());
    EXPECT_NE(id.summary.find("Unknown"), std::string::npos);
  }
}

// Every distinct kernel name of every fixture decodes to a known library (no name left unexplained), without
// crashing on the longest templated names.
TEST(KernelNames, EveryFixtureNameHasALibrary) {
  NSYS_REQUIRE_FIXTURES();
  size_t names = 0;
  for (const char* fixture :
       {"h100_2gpu_1s.sqlite", "mfu_2gpu_before.sqlite", "mfu_2gpu_after.sqlite", "a100_2proc_mpi.sqlite",
        "h200_nvfuser_nvtx.sqlite", "mock.sqlite", "v100_julia.sqlite"}) {
    auto profile = testing::OpenFixture(fixture);
    ASSERT_TRUE(profile);
    ASSERT_TRUE(profile->Require(engine::Need::kKernelRows).ok());
    std::set<engine::StrId> seen(profile->kernels().name.begin(), profile->kernels().name.end());
    for (engine::StrId s : seen) {
      const std::string_view name = profile->strings().view(s);
      const KernelIdentity id = DecodeKernelName(name);
      EXPECT_FALSE(id.library.empty()) << fixture << ": " << name;
      ++names;
    }
  }
  EXPECT_EQ(names, 41u + 27u + 27u + 16u + 16u + 2u + 1u);  // sqlite3: count(distinct demangledName) per fixture
}

}  // namespace
}  // namespace nsys::skills
