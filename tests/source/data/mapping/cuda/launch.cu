// A CUDA host function launching a fused kernel inside nvFuser's range names (test data for the source mapping).
#include <nvtx3/nvtx3.hpp>

__global__ void nvfuser_pointwise(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f;
}

void runKernelWithInput(float* out, const float* in, int n) {
  nvtx3::scoped_range run{"FusionKernelRuntime::runKernelWithInput"};
  {
    nvtx3::scoped_range launch("ExecutorRunFusion::cuLaunchKernel");
    nvfuser_pointwise<<<(n + 255) / 256, 256>>>(out, in, n);
  }
  nvtxRangePushA("ExecutorDispatch::run2");
  nvtxRangePop();
}
