#pragma once
// What one session keeps of documents: the reports it rendered (nsys/report), by uri, for hovers and
// diagnostics, and the text documents the client opened (textDocument/did*), kept for later use (the kernel -> source
// hovers). Thread-safe: requests run on workers, document notifications on the reader thread.
//
// Bounded: at most kMaxOpenDocuments open documents, at most kSessionBytes of their text per session and
// kServerBytes over every session of the server (didChange growth counts too), and one report per profile id. A
// didOpen or didChange past a bound is refused: the document is not kept (a changed one is dropped), and until its
// didClose or a didOpen that fits, `Refusal(uri)` holds the reason (-32803 naming the limit) for requests on it.
#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/documents.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

struct StoredReport {
  std::string profile_id;
  protocol::ReportResult result;
  std::vector<std::string> finding_markdown;  // result.findings[i]'s Markdown
};

// Bytes of open documents across every session of a server (one per process: Server()).
class DocumentBytes {
 public:
  explicit DocumentBytes(size_t limit) : limit_(limit) {}
  static std::shared_ptr<DocumentBytes> Server();  // the process's, kServerBytes
  bool Take(size_t bytes);                         // false (nothing taken) when the total would pass the limit
  void Give(size_t bytes) { used_ -= bytes; }
  size_t used() const { return used_; }
  size_t limit() const { return limit_; }

 private:
  const size_t limit_;
  std::atomic<size_t> used_{0};
};

class SessionDocuments {
 public:
  static constexpr size_t kMaxOpenDocuments = 256;
  // Source files a real editor opens are far below these: the index skips files over 4 MiB, and 64 MiB is 16 such
  // files at once (or a thousand 64 KiB ones); 256 MiB lets four sessions hold that much. 30 didOpen of 15 MiB took a
  // server from 14 to 540 MB before; the bounds hold it under about 14 + 2 x 256 MB whatever the sessions send.
  static constexpr size_t kSessionBytes = size_t{64} << 20;
  static constexpr size_t kServerBytes = size_t{256} << 20;

  explicit SessionDocuments(size_t session_bytes = kSessionBytes,
                            std::shared_ptr<DocumentBytes> server = DocumentBytes::Server());
  ~SessionDocuments();
  SessionDocuments(const SessionDocuments&) = delete;
  SessionDocuments& operator=(const SessionDocuments&) = delete;

  void PutReport(StoredReport report);
  std::optional<StoredReport> Report(const std::string& uri) const;
  void DropReport(const std::string& uri);

  // kLimitExceeded naming the bound when the document was not kept (too many, too many bytes).
  Status Open(const std::string& uri, std::string text);
  // Only documents that are open; kLimitExceeded (and the document dropped) when the new text passes a bound.
  Status Change(const std::string& uri, std::string text);
  void Close(const std::string& uri);
  std::optional<std::string> Text(const std::string& uri) const;
  // Why `uri` is not kept, when its didOpen or didChange was refused (and it was not closed since); ok otherwise.
  Status Refusal(const std::string& uri) const;
  size_t bytes() const;  // of this session's open documents

 private:
  Status Keep(const std::string& uri, std::string text, const char* method);  // with mu_ held
  void Refuse(const std::string& uri, const Error& why);                      // with mu_ held

  mutable std::mutex mu_;
  const size_t session_limit_;
  const std::shared_ptr<DocumentBytes> server_;
  size_t bytes_ = 0;
  std::map<std::string, StoredReport> reports_;  // by uri
  std::map<std::string, std::string> open_;      // uri -> text
  std::map<std::string, Error> refused_;         // uri -> why (at most kMaxOpenDocuments)
};

}  // namespace nsys::lsp
