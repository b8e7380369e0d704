#include "nsys/lsp/session_sources.h"

#include <algorithm>
#include <utility>

#include "nsys/support/log.h"
#include "nsys/wire/documents.h"

namespace nsys::lsp {

SessionSources::SessionSources(core::Workspace& workspace) : workspace_(workspace) {
  auto id = workspace_.OpenSourceSet();
  if (id) {
    set_id_ = *id;
  } else {
    support::LogWarn("no source set for this session: " + id.error().message);
  }
}

SessionSources::~SessionSources() {
  Close();
}

std::string SessionSources::set_id() const {
  std::lock_guard lock(mu_);
  return set_id_;
}

void SessionSources::Close() {
  std::string id;
  {
    std::lock_guard lock(mu_);
    id.swap(set_id_);
    indexing_ = false;
  }
  indexed_.notify_all();
  if (!id.empty()) workspace_.CloseSourceSet(id);
}

void SessionSources::SetRoots(std::vector<std::string> roots) {
  std::lock_guard lock(mu_);
  roots_ = std::move(roots);
  indexing_ = !roots_.empty();
}

void SessionSources::IndexingDone() {
  {
    std::lock_guard lock(mu_);
    indexing_ = false;
  }
  indexed_.notify_all();
}

bool SessionSources::WaitIndexed(const CancelToken& cancel, std::chrono::milliseconds limit) const {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::unique_lock lock(mu_);
  while (indexing_ && !cancel.cancelled() && std::chrono::steady_clock::now() < deadline) {
    indexed_.wait_for(lock, std::chrono::milliseconds(50));
  }
  return !indexing_;
}

std::vector<std::string> SessionSources::roots() const {
  std::lock_guard lock(mu_);
  return roots_;
}

void SessionSources::SetCodeLensRefresh(bool supported) {
  std::lock_guard lock(mu_);
  code_lens_refresh_ = supported;
}

bool SessionSources::code_lens_refresh() const {
  std::lock_guard lock(mu_);
  return code_lens_refresh_;
}

void SessionSources::ProfileOpened(const std::string& profile_id) {
  std::lock_guard lock(mu_);
  opened_.erase(std::remove(opened_.begin(), opened_.end(), profile_id), opened_.end());
  opened_.push_back(profile_id);
  if (opened_.size() > 2 * core::WorkspaceConfig{}.max_open_ids) opened_.erase(opened_.begin());
}

void SessionSources::ProfileClosed(const std::string& profile_id) {
  std::lock_guard lock(mu_);
  opened_.erase(std::remove(opened_.begin(), opened_.end(), profile_id), opened_.end());
}

std::string SessionSources::ActiveProfile() const {
  std::vector<std::string> opened;
  {
    std::lock_guard lock(mu_);
    opened = opened_;
  }
  for (auto it = opened.rbegin(); it != opened.rend(); ++it) {
    if (workspace_.Describe(*it)) return *it;
  }
  return "";
}

bool SessionSources::MarkPublished(const std::string& uri, bool has) {
  std::lock_guard lock(mu_);
  const bool had = published_.count(uri) > 0;
  if (has)
    published_.insert(uri);
  else
    published_.erase(uri);
  return had;
}

std::vector<std::string> SessionSources::Published() const {
  std::lock_guard lock(mu_);
  return {published_.begin(), published_.end()};
}

void SessionSources::RememberUri(const std::string& path, const std::string& uri) {
  std::lock_guard lock(mu_);
  if (uris_.size() >= kMaxUris && !uris_.count(path)) uris_.erase(uris_.begin());
  uris_[path] = uri;
}

std::string SessionSources::UriOf(const std::string& path) const {
  std::lock_guard lock(mu_);
  auto it = uris_.find(path);
  return it != uris_.end() ? it->second : wire::FileUri(path);
}

}  // namespace nsys::lsp
