#pragma once
// The annotation index of a workspace: every source file under its roots (gitignored files, VCS and build
// directories, files over the size limit and non-source files skipped), open editor buffers overriding the disk,
// kept current one file at a time. Thread-safe: every method may be called from any thread.
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys/source/annotation.h"
#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::source {

struct IndexLimits {
  uint64_t max_file_bytes = 4ull << 20;  // larger files are skipped (generated code, data)
  size_t max_files = 200000;             // source files indexed per root; past it the walk stops and says so
};

struct IndexStats {
  size_t files = 0;        // source files scanned
  size_t annotations = 0;  // found in them
  size_t too_large = 0;    // skipped by max_file_bytes
  size_t ignored = 0;      // files and directories skipped by .gitignore or as VCS/build directories
  bool truncated = false;  // max_files was reached
};

class AnnotationIndex {
 public:
  explicit AnnotationIndex(IndexLimits limits = {});

  // Walks the directory `root` and (re)indexes every source file under it; what was indexed under it before is
  // replaced, except open buffers. kNotFound when root is not a directory, kCancelled when cancelled.
  Expected<IndexStats> AddRoot(const std::string& root, const CancelToken& cancel);
  void RemoveRoot(const std::string& root);  // forgets the files under it (open buffers stay)

  // An editor buffer's text overrides the file on disk until CloseText (then the disk is read again).
  void SetText(const std::string& path, std::string_view text);
  void CloseText(const std::string& path);
  // Re-reads one file from disk (saved, or created/changed outside the editor); a file that is gone, ignored or too
  // large is removed. Open buffers are left as they are.
  void Refresh(const std::string& path);
  void Remove(const std::string& path);

  // Annotations named exactly `name`, and the prefix_only ones whose literal prefix begins `name`.
  std::vector<Annotation> FindByName(std::string_view name) const;
  std::vector<Annotation> InFile(const std::string& path) const;
  std::vector<std::string> Files() const;
  size_t size() const;  // annotations in all files
  // The roots whose last walk stopped at IndexLimits::max_files (their other files are not indexed), sorted.
  std::vector<std::string> TruncatedRoots() const;

  // Whether the walk would skip `path` (under one of the roots): .gitignore, VCS/build directories, extension.
  bool Skipped(const std::string& path) const;

 private:
  struct FileEntry {
    std::vector<Annotation> annotations;
    bool open = false;  // an editor buffer
  };
  void Put(const std::string& path, std::vector<Annotation> annotations, bool open);  // under mu_
  void Drop(const std::string& path);                                                 // under mu_
  std::string RootOf(const std::string& path) const;                                  // under mu_

  IndexLimits limits_;
  mutable std::mutex mu_;
  std::set<std::string> roots_;
  std::set<std::string> truncated_roots_;  // roots whose last walk reached max_files
  std::map<std::string, FileEntry> files_;
  std::unordered_map<std::string, std::set<std::string>> by_name_;    // name -> files
  std::unordered_map<std::string, std::set<std::string>> by_prefix_;  // prefix_only name -> files
};

// The absolute, lexically normal form of a path, as the index keys files.
std::string NormalPath(const std::string& path);

}  // namespace nsys::source
