// CUDA: kernel launches inside a push/pop range, and a function with none.
#include <nvtx3/nvToolsExt.h>

__global__ void scale(float* x, int n) {}
__global__ void shift(float* x, int n) {}

void Run(float* x, int n) {
  nvtxRangePushA("run");
  scale<<<(n + 255) / 256, 256>>>(x, n);
  shift<<<(n + 255) / 256, 256>>>(x, n);
  cudaDeviceSynchronize();
  nvtxRangePop();
}

void Host(float* x, int n) { scale<<<1, 1>>>(x, n); }
