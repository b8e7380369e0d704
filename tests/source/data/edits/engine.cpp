// Refinement targets in C++: a scoped range, a push/pop pair, a project's scope macro and a function with none.
#include <nvtx3/nvtx3.hpp>

#include <vector>

#define FUSER_PERF_SCOPE(name) nvtx3::scoped_range fuser_scope_{name}

int Prepare(std::vector<float>& v);
float Reduce(const std::vector<float>& v);
void Launch(std::vector<float>& v, int n);

float Step(std::vector<float>& v, int n) {
  nvtx3::scoped_range r{"step"};
  Prepare(v);
  auto total = Reduce(v);  // a declaration: bracketed by push/pop, not a block
  for (int i = 0; i < n; ++i) Launch(v, i);
  const char* label = "a; string { with } braces";
  if (total > 0) {
    return total + Reduce(v);
  }
  Launch(v, n); Prepare(v);
  return total;
}

void Pushed(std::vector<float>& v) {
  nvtxRangePushA("pushed");
  Prepare(v);
  int m = Prepare(v);
  Launch(v,
         m);
  nvtxRangePop();
  Reduce(v);
}

void Segment(std::vector<float>& v) {
  FUSER_PERF_SCOPE("segment");
  {
    Prepare(v);
    Launch(v, 1);
  }
}

int Plain(std::vector<float>& v) {
  Prepare(v);
  return 0;
}
