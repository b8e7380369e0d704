#include <nvtx3/nvToolsExt.h>

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void launch(float* x, int n) {
  nvtxRangePushA("launch_scale");
  scale<<<(n + 255) / 256, 256>>>(x, n);
  nvtxRangePop();
  char c = '"';  // a quote in a character literal: nvtxRangePushA("after_char")
  nvtxRangePushA("after_" "char");
  nvtxRangePop();
}
