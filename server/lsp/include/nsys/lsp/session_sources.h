#pragma once
// What one session keeps for the kernel -> source features. Its source set in the workspace (opened when
// `initialize` is accepted, closed with the session), the roots it indexes, whether the client takes
// workspace/codeLens/refresh, the profiles it opened (the ACTIVE profile is the last one still open), and the source
// files it published diagnostics on (so that a file left without any is cleared). Thread-safe.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "nsys/core/workspace.h"

namespace nsys::lsp {

class SessionSources {
 public:
  explicit SessionSources(core::Workspace& workspace);
  ~SessionSources();  // Close()
  SessionSources(const SessionSources&) = delete;
  SessionSources& operator=(const SessionSources&) = delete;

  // The session's source set ("" when the workspace refused one: too many sessions, or after Close).
  std::string set_id() const;
  void Close();  // closes the set in the workspace; idempotent

  // Sets the roots; with any, the set counts as being indexed until IndexingDone (the `initialized` indexing).
  void SetRoots(std::vector<std::string> roots);
  void IndexingDone();
  // Waits (at most `limit`, or until cancelled) for the first indexing, so that a request sent right after
  // `initialize` answers from the whole source tree. True when indexed.
  bool WaitIndexed(const CancelToken& cancel, std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
  std::vector<std::string> roots() const;
  void SetCodeLensRefresh(bool supported);
  bool code_lens_refresh() const;

  void ProfileOpened(const std::string& profile_id);
  void ProfileClosed(const std::string& profile_id);
  // The last profile this session opened that the workspace still has open; "" when none.
  std::string ActiveProfile() const;

  // Held while the source views are refreshed or republished (source_handlers.cpp): refreshes run one at a time, so
  // that an older one (of a profile no longer active) cannot publish after a newer one.
  std::mutex& publish_mutex() { return publish_mu_; }

  // Remembers that `uri` now has (or, with `has` false, no longer has) published source diagnostics; returns
  // whether it had before.
  bool MarkPublished(const std::string& uri, bool has);
  std::vector<std::string> Published() const;

  // The uri the client used for a file it opened (publishDiagnostics answers with it); else FileUri(path).
  void RememberUri(const std::string& path, const std::string& uri);
  std::string UriOf(const std::string& path) const;

 private:
  core::Workspace& workspace_;
  mutable std::mutex mu_;
  std::mutex publish_mu_;  // taken before mu_, never while holding it
  std::string set_id_;
  std::vector<std::string> roots_;
  bool code_lens_refresh_ = false;
  bool indexing_ = false;
  mutable std::condition_variable indexed_;
  std::vector<std::string> opened_;  // profile ids, oldest first
  std::set<std::string> published_;
  std::map<std::string, std::string> uris_;  // path -> client uri, bounded by kMaxUris
  static constexpr size_t kMaxUris = 4096;
};

}  // namespace nsys::lsp
