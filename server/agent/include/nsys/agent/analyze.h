#pragma once
// `analyze`: orient (what the profile is), then check every root cause of the Book against its skill's rows, and
// report the ones that apply as findings ranked by the time at stake. A root cause that does not apply says
// nothing; one that cannot be checked here (its skill declines, a column or the GPU model is missing) is listed as
// Unchecked with the reason. Deterministic: no LLM.
#include <functional>
#include <string>
#include <vector>

#include "nsys/agent/answer.h"
#include "nsys/agent/book.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/engine/profile.h"
#include "nsys/engine/window.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::agent {

struct AnalyzeOptions {
  engine::WindowSpec window;  // default: the whole profile
};

struct Analysis {
  std::string summary;            // orientation and the headline, two or three sentences
  std::string window;             // the window analysed, as the engine describes it
  std::vector<Finding> findings;  // largest time at stake first
  std::vector<Unchecked> unchecked;
  int root_causes_checked = 0;  // Book entries evaluated (applied or not)
};

// Called once per finding as soon as it is known (before ranking), for streaming to clients.
using FindingSink = std::function<void(const Finding&)>;

Expected<Analysis> Analyze(const engine::Profile& profile, const SkillRunner& run, const AnalyzeOptions& options,
                           const FindingSink& on_finding, const CancelToken& cancel, const ProgressSink& progress,
                           const Book& book = BuiltinBook());

// Whether every GPU of the profile has tensor cores (Volta and newer), from its name or chip: 1 yes, 0 no, -1 when
// the export does not name the GPUs.
int TensorCoreGpu(const engine::ProfileInfo& info);

// The same from the kernels' names when the export does not name the GPUs: a kernel built for sm70 or newer
// ("sm80_xmma_gemm_...", "sm90_...", "volta_", "turing_", "ampere_", "hopper_" library kernels) runs only on a GPU
// with tensor cores, so 1; -1 otherwise (older names prove nothing: libraries ship maxwell_ kernels to new GPUs).
// Reads the kernel table (kKernels must be loaded when caps.kernels).
int TensorCoreGpuFromKernelNames(const engine::Profile& profile);

}  // namespace nsys::agent

namespace nsys::agent {
// The whole report: the orientation, each finding (RenderMarkdown(Finding)) in rank order, and what could not be
// checked. What `nsys-ai analyze` prints and `--out DIR` writes as report.md.
std::string RenderMarkdown(const Analysis& analysis);
}  // namespace nsys::agent
