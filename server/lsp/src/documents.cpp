#include "nsys/lsp/documents.h"

namespace nsys::lsp {

void SessionDocuments::PutReport(StoredReport report) {
  std::lock_guard lock(mu_);
  const std::string uri = report.result.uri;
  reports_[uri] = std::move(report);
}

std::optional<StoredReport> SessionDocuments::Report(const std::string& uri) const {
  std::lock_guard lock(mu_);
  auto it = reports_.find(uri);
  if (it == reports_.end()) return std::nullopt;
  return it->second;
}

void SessionDocuments::DropReport(const std::string& uri) {
  std::lock_guard lock(mu_);
  reports_.erase(uri);
}

bool SessionDocuments::Open(const std::string& uri, std::string text) {
  std::lock_guard lock(mu_);
  if (open_.size() >= kMaxOpenDocuments && !open_.count(uri)) return false;
  open_[uri] = std::move(text);
  return true;
}

void SessionDocuments::Change(const std::string& uri, std::string text) {
  std::lock_guard lock(mu_);
  if (auto it = open_.find(uri); it != open_.end()) it->second = std::move(text);
}

void SessionDocuments::Close(const std::string& uri) {
  std::lock_guard lock(mu_);
  open_.erase(uri);
}

std::optional<std::string> SessionDocuments::Text(const std::string& uri) const {
  std::lock_guard lock(mu_);
  auto it = open_.find(uri);
  if (it == open_.end()) return std::nullopt;
  return it->second;
}

}  // namespace nsys::lsp
