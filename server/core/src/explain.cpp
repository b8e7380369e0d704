// Workspace::ExplainKernel: the profile's kernel (and runtime) tables loaded, then agent::ExplainKernel with the
// profile's memoised skill runner. Workspace::AddAiParagraph: the model's paragraph on it, never waited on.
// Workspace::ExplainKernelForEditor: both for an editor (with the kernel's source locations).
#include "nsys/agent/explain.h"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "nsys/agent/explain_llm.h"
#include "nsys/core/workspace.h"

namespace nsys::core {

Expected<agent::KernelExplanation> Workspace::ExplainKernel(const std::string& profile_id, const std::string& kernel,
                                                            const CancelToken& cancel, const ProgressSink& progress) {
  auto profile = Get(profile_id);
  if (!profile) return profile.error();
  // kKernels resolves each execution's launch call; a no-op once loaded, which is when hovers come.
  if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  return agent::ExplainKernel(**profile, RunnerFor(profile_id), kernel, cancel, (*profile)->info().source_path);
}

void Workspace::AddAiParagraph(agent::KernelExplanation& explanation, const std::optional<llm::Config>& llm) {
  const bool use_cache = [&] {
    std::lock_guard lock(mu_);
    return config_.open.use_cache;
  }();
  const llm::Config chosen = llm ? *llm : [&] {
    std::lock_guard lock(mu_);
    return config_.llm;
  }();
  if (!chosen.enabled()) return;
  // The replies are the user's data: a private directory (0700) of 0600 files, as the ask answers (llm::AnswerCache).
  const std::string dir = use_cache ? (std::filesystem::path(CacheDir()) / "llm-explain").string() : "";
  const agent::AiParagraph paragraph = paragraphs_->Lookup(explanation, chosen, dir);
  explanation.markdown = agent::WithAiParagraph(explanation.markdown, paragraph);
}

Expected<agent::KernelExplanation> Workspace::ExplainKernelForEditor(
    const std::string& profile_id, const std::string& kernel, const std::string& set_id,
    const std::optional<llm::Config>& llm, const CancelToken& cancel, const ProgressSink& progress) {
  auto explanation = ExplainKernelWithSources(profile_id, kernel, set_id, cancel, progress);
  if (explanation) AddAiParagraph(*explanation, llm);
  return explanation;
}

bool Workspace::WaitForAiParagraphs(std::chrono::milliseconds timeout) {
  return paragraphs_->WaitIdle(timeout);
}

}  // namespace nsys::core
