// Workspace's source sets: one annotation index per editor session, kept by id.
#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <mutex>

#include "nsys/core/workspace.h"
#include "nsys/source/annotation_index.h"
#include "nsys/support/path_text.h"
#include "stores.h"

namespace nsys::core {

SourceSpan SpanOf(const source::Annotation& annotation) {
  return {annotation.file, annotation.line, annotation.column, annotation.end_line, annotation.end_column};
}

std::string TruncatedRootWarning(const std::string& root) {
  return fmt::format(
      "'{}' has more than {} source files, more than the index takes: the rest were skipped, so "
      "ranges named only in them are not found.",
      support::QuoteInput(root), source::IndexLimits{}.max_files);
}

std::string NormalSourcePath(const std::string& path) {
  return source::NormalPath(path);
}

Expected<std::string> SourceSets::Open() {
  std::lock_guard lock(mu_);
  if (sets_.size() >= kMaxSourceSets) {
    return MakeError(
        ErrorKind::kLimitExceeded,
        fmt::format("At most {} source sets may be open at once (one per editor session).", kMaxSourceSets));
  }
  std::string id = fmt::format("s{}", next_++);
  sets_[id] = std::make_shared<source::AnnotationIndex>();
  return id;
}

void SourceSets::Close(const std::string& set_id) {
  std::shared_ptr<source::AnnotationIndex> dropped;  // freed outside the lock
  std::lock_guard lock(mu_);
  auto it = sets_.find(set_id);
  if (it == sets_.end()) return;
  dropped = std::move(it->second);
  sets_.erase(it);
}

Expected<std::shared_ptr<source::AnnotationIndex>> SourceSets::Find(const std::string& set_id) const {
  std::lock_guard lock(mu_);
  auto it = sets_.find(set_id);
  if (it == sets_.end()) return MakeError(ErrorKind::kNotFound, "No source set '" + set_id + "'.");
  return it->second;
}

Expected<std::string> Workspace::OpenSourceSet() {
  return source_sets_->Open();
}

void Workspace::CloseSourceSet(const std::string& set_id) {
  source_sets_->Close(set_id);
}

Expected<std::shared_ptr<source::AnnotationIndex>> Workspace::SourceSet(const std::string& set_id) const {
  return source_sets_->Find(set_id);
}

// The source features, each over one set (SourceSets::With looks it up for the Workspace call).
namespace source_features {

Expected<SourceIndexStats> IndexRoots(source::AnnotationIndex& set, const std::vector<std::string>& roots,
                                      const CancelToken& cancel, const ProgressSink& progress) {
  SourceIndexStats total;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "Indexing sources was cancelled.");
    if (progress) progress(100.0 * static_cast<double>(i) / static_cast<double>(roots.size()), roots[i]);
    auto stats = set.AddRoot(roots[i], cancel);
    if (!stats) {
      if (stats.error().kind == ErrorKind::kCancelled) return stats.error();
      total.warnings.push_back(support::QuoteInput(stats.error().message, support::kErrorMessageBytes));
      continue;
    }
    ++total.roots;
    total.files += stats->files;
    total.annotations += stats->annotations;
    total.too_large += stats->too_large;
    total.ignored += stats->ignored;
    total.truncated |= stats->truncated;
    if (stats->truncated) total.warnings.push_back(TruncatedRootWarning(source::NormalPath(roots[i])));
  }
  if (progress) progress(100.0, fmt::format("{} files, {} annotations", total.files, total.annotations));
  return total;
}

// An editor's text of a file (open, changed, closed, saved): only files of a language the index reads.
Status OnText(source::AnnotationIndex& set, const std::string& path, const std::function<void()>& change) {
  if (source::LanguageOfPath(path) != source::Language::kUnknown) change();
  return {};
}

Status Remove(source::AnnotationIndex& set, const std::string& path) {
  set.Remove(path);
  return {};
}

Expected<std::vector<source::Annotation>> AnnotationsIn(const source::AnnotationIndex& set, const std::string& path) {
  return set.InFile(source::NormalPath(path));
}

Expected<std::vector<std::string>> FilesWithAnnotations(const source::AnnotationIndex& set) {
  std::vector<std::string> files;
  for (auto& file : set.Files()) {
    if (!set.InFile(file).empty()) files.push_back(std::move(file));
  }
  return files;
}

}  // namespace source_features

Expected<SourceIndexStats> Workspace::IndexSources(const std::string& set_id, const std::vector<std::string>& roots,
                                                   const CancelToken& cancel, const ProgressSink& progress) {
  return source_sets_->With(
      set_id, [&](source::AnnotationIndex& s) { return source_features::IndexRoots(s, roots, cancel, progress); });
}

Status Workspace::SetSourceText(const std::string& set_id, const std::string& path, const std::string& text) {
  return source_sets_->With(set_id, [&](source::AnnotationIndex& s) {
    return source_features::OnText(s, path, [&] { s.SetText(path, text); });
  });
}

Status Workspace::CloseSourceText(const std::string& set_id, const std::string& path) {
  return source_sets_->With(
      set_id, [&](source::AnnotationIndex& s) { return source_features::OnText(s, path, [&] { s.CloseText(path); }); });
}

Status Workspace::RefreshSource(const std::string& set_id, const std::string& path) {
  return source_sets_->With(
      set_id, [&](source::AnnotationIndex& s) { return source_features::OnText(s, path, [&] { s.Refresh(path); }); });
}

Status Workspace::RemoveSource(const std::string& set_id, const std::string& path) {
  return source_sets_->With(set_id, [&](source::AnnotationIndex& s) { return source_features::Remove(s, path); });
}

Expected<std::vector<std::string>> Workspace::SourceFiles(const std::string& set_id) const {
  return source_sets_->With(set_id,
                            [](source::AnnotationIndex& s) { return source_features::FilesWithAnnotations(s); });
}

Expected<std::vector<source::Annotation>> Workspace::SourceAnnotations(const std::string& set_id,
                                                                       const std::string& path) const {
  return source_sets_->With(set_id,
                            [&](source::AnnotationIndex& s) { return source_features::AnnotationsIn(s, path); });
}

}  // namespace nsys::core
