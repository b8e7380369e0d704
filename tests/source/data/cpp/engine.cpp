// Engine with NVTX ranges. nvtxRangePushA("in_a_comment") must not count.
#include <nvtx3/nvtx3.hpp>
#include <string>

/* nvtxRangePushA("in_a_block_comment"); */
#define FUSER_PERF_SCOPE(name) nvtx3::scoped_range _r { name }

namespace engine {

static const char* kDoc = R"doc(nvtxRangePushA("in_a_raw_string")
still raw)doc";

void Prepare(int n) {
  nvtxRangePushA("prepare");
  nvtxRangePushW(L"prepare_wide");
  nvtxRangePop();
  nvtxRangePop();
}

class Runner {
 public:
  Runner(int n) : n_(n), name_{"runner"} {
    nvtx3::scoped_range r{"construct"};
  }
  int Run() const {
    NVTX3_FUNC_RANGE();
    FUSER_PERF_SCOPE("run_kernels");
    auto id = nvtxRangeStartA("async_work");
    Log(name_, "not the first argument");
    auto lambda = [this](int k) {
      nvtx3::scoped_range inner("lambda_body");
      return k;
    };
    return lambda(n_);
  }

 private:
  int n_;
  std::string name_;
};

#if 0
void Old() { nvtxRangePushA("disabled"); }
#endif

auto Trailing(int x) -> int {
  nvtx3::scoped_range_in<my_domain> r("trailing" " joined");
  if (x) {
    printf("x=%d\n", x);
  }
  return x;
}

void Layers(int n) {
  for (int i = 0; i < n; ++i) {
    nvtx3::scoped_range layer{"layer_" + std::to_string(i)};
    nvtxRangePushA(R"(raw "quoted" name)");
    nvtxRangePop();
  }
}

}  // namespace engine
