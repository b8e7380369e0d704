// Workspace::ExplainKernel: the profile's kernel (and runtime) tables loaded, then agent::ExplainKernel with the
// profile's memoised skill runner. Workspace::AddAiParagraph: the model's paragraph on it, never waited on.
// Workspace::ExplainKernelForEditor: both for an editor (with the kernel's source locations).
#include "nsys/agent/explain.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "nsys/agent/explain_llm.h"
#include "nsys/core/workspace.h"

namespace nsys::core {

namespace explain_features {

Expected<agent::KernelExplanation> Explain(const Expected<std::shared_ptr<engine::Profile>>& profile,
                                           const agent::SkillRunner& run, const std::string& kernel,
                                           const CancelToken& cancel, const ProgressSink& progress) {
  if (!profile) return profile.error();
  // kKernels resolves each execution's launch call; a no-op once loaded, which is when hovers come.
  if (Status loaded = (*profile)->Require(engine::Need::kKernels, cancel, progress); !loaded.ok()) {
    return loaded.error();
  }
  return agent::ExplainKernel(**profile, run, kernel, cancel, (*profile)->info().source_path);
}

// The model's paragraph on `explanation` with `config` (the session's model, else the server's), never waited on.
void AddParagraph(agent::KernelExplanation& explanation, const WorkspaceConfig& config,
                  const std::optional<llm::Config>& llm, const std::string& cache_dir,
                  agent::KernelParagraphs& paragraphs) {
  const llm::Config chosen = llm ? *llm : config.llm;
  if (!chosen.enabled()) return;
  // The replies are the user's data: a private directory (0700) of 0600 files, as the ask answers (llm::AnswerCache).
  const std::string dir = config.open.use_cache ? (std::filesystem::path(cache_dir) / "llm-explain").string() : "";
  const agent::AiParagraph paragraph = paragraphs.Lookup(explanation, chosen, dir);
  explanation.markdown = agent::WithAiParagraph(explanation.markdown, paragraph);
}

}  // namespace explain_features

Expected<agent::KernelExplanation> Workspace::ExplainKernel(const std::string& profile_id, const std::string& kernel,
                                                            const CancelToken& cancel, const ProgressSink& progress) {
  return explain_features::Explain(Get(profile_id), RunnerFor(profile_id), kernel, cancel, progress);
}

void Workspace::AddAiParagraph(agent::KernelExplanation& explanation, const std::optional<llm::Config>& llm) {
  explain_features::AddParagraph(explanation, config(), llm, CacheDir(), *paragraphs_);
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
