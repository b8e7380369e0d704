#pragma once
// What one session keeps of documents (issue 11): the reports it rendered (nsys/report), by uri, for hovers and
// diagnostics, and the text documents the client opened (textDocument/did*), kept for later use (issue 12's source
// hovers). Thread-safe: requests run on workers, document notifications on the reader thread. Bounded: at most
// kMaxOpenDocuments open documents (further opens are ignored until some close) and one report per profile id.
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/documents.h"

namespace nsys::lsp {

struct StoredReport {
  std::string profile_id;
  protocol::ReportResult result;
  std::vector<std::string> finding_markdown;  // result.findings[i]'s Markdown
};

class SessionDocuments {
 public:
  static constexpr size_t kMaxOpenDocuments = 256;

  void PutReport(StoredReport report);
  std::optional<StoredReport> Report(const std::string& uri) const;
  void DropReport(const std::string& uri);

  // False when the document was not kept (too many open).
  bool Open(const std::string& uri, std::string text);
  void Change(const std::string& uri, std::string text);  // only documents that are open
  void Close(const std::string& uri);
  std::optional<std::string> Text(const std::string& uri) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, StoredReport> reports_;  // by uri
  std::map<std::string, std::string> open_;      // uri -> text
};

}  // namespace nsys::lsp
