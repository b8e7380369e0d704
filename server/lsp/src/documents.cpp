#include "nsys/lsp/documents.h"

#include <fmt/format.h>

#include <utility>

#include "nsys/support/human_bytes.h"

namespace nsys::lsp {

std::shared_ptr<DocumentBytes> DocumentBytes::Server() {
  static const std::shared_ptr<DocumentBytes> server = std::make_shared<DocumentBytes>(SessionDocuments::kServerBytes);
  return server;
}

bool DocumentBytes::Take(size_t bytes) {
  size_t used = used_.load();
  do {
    if (bytes > limit_ || used > limit_ - bytes) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes));
  return true;
}

SessionDocuments::SessionDocuments(size_t session_bytes, std::shared_ptr<DocumentBytes> server)
    : session_limit_(session_bytes), server_(std::move(server)) {}

SessionDocuments::~SessionDocuments() {
  server_->Give(bytes_);
}

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

Status SessionDocuments::Keep(const std::string& uri, std::string text, const char* method) {
  auto it = open_.find(uri);
  const size_t old = it == open_.end() ? 0 : it->second.size();
  const size_t bytes = text.size();
  auto refuse = [&](std::string why) {
    Error error = MakeError(ErrorKind::kLimitExceeded,
                            fmt::format("{}: '{}' is not kept: {}; close documents first", method, uri, why));
    Refuse(uri, error);
    return error;
  };
  if (it == open_.end() && open_.size() >= kMaxOpenDocuments) {
    return refuse(
        fmt::format("this session has {} open documents (the limit on open documents per session)", kMaxOpenDocuments));
  }
  // The old text is given back first: a document that grows is counted once, at its new size.
  if (bytes_ - old + bytes > session_limit_) {
    return refuse(fmt::format("{} of text would pass {} (the limit on a session's open documents)",
                              support::HumanBytes(static_cast<int64_t>(bytes)),
                              support::HumanBytes(static_cast<int64_t>(session_limit_))));
  }
  server_->Give(old);
  if (!server_->Take(bytes)) {
    bytes_ -= old;
    if (it != open_.end()) open_.erase(it);
    return refuse(fmt::format("{} of text would pass {} (the server's limit on open documents, all sessions)",
                              support::HumanBytes(static_cast<int64_t>(bytes)),
                              support::HumanBytes(static_cast<int64_t>(server_->limit()))));
  }
  bytes_ = bytes_ - old + bytes;
  open_[uri] = std::move(text);
  refused_.erase(uri);
  return {};
}

void SessionDocuments::Refuse(const std::string& uri, const Error& why) {
  if (auto it = open_.find(uri); it != open_.end()) {  // a refused change drops the text it would replace
    bytes_ -= it->second.size();
    server_->Give(it->second.size());
    open_.erase(it);
  }
  if (refused_.size() >= kMaxOpenDocuments && !refused_.count(uri)) refused_.erase(refused_.begin());
  refused_[uri] = why;
}

Status SessionDocuments::Open(const std::string& uri, std::string text) {
  std::lock_guard lock(mu_);
  return Keep(uri, std::move(text), "textDocument/didOpen");
}

Status SessionDocuments::Change(const std::string& uri, std::string text) {
  std::lock_guard lock(mu_);
  if (!open_.count(uri)) return {};
  return Keep(uri, std::move(text), "textDocument/didChange");
}

void SessionDocuments::Close(const std::string& uri) {
  std::lock_guard lock(mu_);
  refused_.erase(uri);
  auto it = open_.find(uri);
  if (it == open_.end()) return;
  bytes_ -= it->second.size();
  server_->Give(it->second.size());
  open_.erase(it);
}

std::optional<std::string> SessionDocuments::Text(const std::string& uri) const {
  std::lock_guard lock(mu_);
  auto it = open_.find(uri);
  if (it == open_.end()) return std::nullopt;
  return it->second;
}

Status SessionDocuments::Refusal(const std::string& uri) const {
  std::lock_guard lock(mu_);
  auto it = refused_.find(uri);
  if (it == refused_.end()) return {};
  return it->second;
}

size_t SessionDocuments::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

}  // namespace nsys::lsp
