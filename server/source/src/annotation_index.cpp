// The workspace's annotation index (see annotation_index.h).
#include "nsys/source/annotation_index.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

#include "nsys/source/gitignore.h"
#include "nsys/source/scanner.h"
#include "nsys/support/log.h"

namespace nsys::source {
namespace {

namespace fs = std::filesystem;

bool SkippedDirName(const std::string& name) {
  static const std::set<std::string> kNames = {".git",  ".hg",    ".svn",   "node_modules", "__pycache__",
                                               ".venv", "venv",   ".tox",   ".mypy_cache",  ".pytest_cache",
                                               "build", "_build", ".cache", ".eggs",        "site-packages"};
  return kNames.count(name) || name.rfind("cmake-build-", 0) == 0 || name.rfind("build-", 0) == 0 ||
         name.rfind("bazel-", 0) == 0;
}

// A build tree by its content (a CMake build directory of any name).
bool IsBuildDir(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "CMakeCache.txt", ec);
}

bool ReadSmallFile(const fs::path& path, uint64_t max_bytes, std::string& out) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > max_bytes) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.resize(static_cast<size_t>(size));
  in.read(out.data(), static_cast<std::streamsize>(size));
  out.resize(static_cast<size_t>(in.gcount()));
  return true;
}

// A repository's .gitignore is untrusted: matching is linear in path x pattern bytes, so the bytes read bound the
// work per path. Real .gitignore files are a few KiB; past 64 KiB only the lines within it are used, and a log line
// says so (a 1 MiB file of 14-star lines took 0.8 s per path before).
constexpr uint64_t kMaxGitignoreBytes = 64 << 10;

IgnoreFile ReadIgnoreFile(const fs::path& dir, const std::string& rel) {
  std::ifstream in(dir / ".gitignore", std::ios::binary);
  if (!in) return IgnoreFile::Parse("", rel);
  std::string text(kMaxGitignoreBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxGitignoreBytes) {
    text.resize(kMaxGitignoreBytes);
    const size_t last_newline = text.rfind('\n');
    text.resize(last_newline == std::string::npos ? 0 : last_newline + 1);  // whole lines only
    support::LogWarn((dir / ".gitignore").string() + ": over " + std::to_string(kMaxGitignoreBytes >> 10) +
                     " KiB; only its first " + std::to_string(text.size()) + " bytes of lines are used");
  }
  return IgnoreFile::Parse(text, rel);
}

class Walker {
 public:
  Walker(const IndexLimits& limits, const CancelToken& cancel) : limits_(limits), cancel_(cancel) {}
  bool Dir(const fs::path& dir, const std::string& rel);  // false when cancelled
  IndexStats stats;
  std::vector<std::pair<std::string, std::vector<Annotation>>> found;

 private:
  void File(const fs::path& path, Language language);
  const IndexLimits& limits_;
  const CancelToken& cancel_;
  IgnoreStack ignores_;
};

bool Walker::Dir(const fs::path& dir, const std::string& rel) {
  if (cancel_.cancelled()) return false;
  ignores_.Push(ReadIgnoreFile(dir, rel));
  std::error_code ec;
  std::vector<std::pair<fs::path, bool>> entries;  // sorted for a stable order
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code e2;
    if (it->is_symlink(e2) && it->is_directory(e2)) continue;  // no cycles through links
    const bool is_dir = it->is_directory(e2);
    if (!is_dir && !it->is_regular_file(e2)) continue;
    entries.emplace_back(it->path(), is_dir);
  }
  std::sort(entries.begin(), entries.end());
  bool ok = true;
  for (const auto& [path, is_dir] : entries) {
    const std::string name = path.filename().string();
    const std::string child = rel.empty() ? name : rel + "/" + name;
    if (stats.truncated) break;
    if (ignores_.Ignored(child, is_dir) || (is_dir && (SkippedDirName(name) || IsBuildDir(path)))) {
      ++stats.ignored;
      continue;
    }
    if (is_dir) {
      if (!(ok = Dir(path, child))) break;
    } else if (const Language language = LanguageOfPath(name); language != Language::kUnknown) {
      File(path, language);
    }
  }
  ignores_.Pop();
  return ok;
}

void Walker::File(const fs::path& path, Language language) {
  if (stats.files >= limits_.max_files) {
    stats.truncated = true;
    return;
  }
  std::string text;
  if (!ReadSmallFile(path, limits_.max_file_bytes, text)) {
    ++stats.too_large;  // (or unreadable)
    return;
  }
  ++stats.files;
  std::string key = path.lexically_normal().string();
  auto annotations = ScanSource(text, language, key);
  stats.annotations += annotations.size();
  found.emplace_back(std::move(key), std::move(annotations));
}

bool Under(const std::string& path, const std::string& root) {
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
         (root.back() == '/' || path[root.size()] == '/');
}

}  // namespace

std::string NormalPath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  std::string s = p.lexically_normal().string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

AnnotationIndex::AnnotationIndex(IndexLimits limits) : limits_(limits) {}

Expected<IndexStats> AnnotationIndex::AddRoot(const std::string& root_path, const CancelToken& cancel) {
  const std::string root = NormalPath(root_path);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return MakeError(ErrorKind::kNotFound, "The workspace folder '" + root + "' is not a directory.");
  }
  Walker walker(limits_, cancel);
  if (!walker.Dir(root, "")) return MakeError(ErrorKind::kCancelled, "Indexing '" + root + "' was cancelled.");
  std::lock_guard<std::mutex> lock(mu_);
  roots_.insert(root);
  if (walker.stats.truncated) {
    truncated_roots_.insert(root);
  } else {
    truncated_roots_.erase(root);
  }
  std::vector<std::string> stale;
  for (const auto& [path, entry] : files_) {
    if (!entry.open && Under(path, root)) stale.push_back(path);
  }
  for (const auto& path : stale) Drop(path);
  for (auto& [path, annotations] : walker.found) {
    const auto it = files_.find(path);
    if (it != files_.end() && it->second.open) continue;  // the editor's text wins
    Put(path, std::move(annotations), false);
  }
  return walker.stats;
}

std::vector<std::string> AnnotationIndex::TruncatedRoots() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {truncated_roots_.begin(), truncated_roots_.end()};
}

void AnnotationIndex::RemoveRoot(const std::string& root_path) {
  const std::string root = NormalPath(root_path);
  std::lock_guard<std::mutex> lock(mu_);
  roots_.erase(root);
  truncated_roots_.erase(root);
  std::vector<std::string> gone;
  for (const auto& [path, entry] : files_) {
    if (!entry.open && Under(path, root) && RootOf(path).empty()) gone.push_back(path);
  }
  for (const auto& path : gone) Drop(path);
}

void AnnotationIndex::SetText(const std::string& path_in, std::string_view text) {
  const std::string path = NormalPath(path_in);
  const Language language = LanguageOfPath(path);
  auto annotations =
      text.size() <= limits_.max_file_bytes ? ScanSource(text, language, path) : std::vector<Annotation>{};
  std::lock_guard<std::mutex> lock(mu_);
  Drop(path);
  Put(path, std::move(annotations), true);
}

void AnnotationIndex::CloseText(const std::string& path_in) {
  const std::string path = NormalPath(path_in);
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = files_.find(path);
    if (it == files_.end()) return;
    it->second.open = false;
  }
  Refresh(path);
}

void AnnotationIndex::Refresh(const std::string& path_in) {
  const std::string path = NormalPath(path_in);
  const Language language = LanguageOfPath(path);
  std::string text;
  const bool keep =
      language != Language::kUnknown && !Skipped(path) && ReadSmallFile(path, limits_.max_file_bytes, text);
  auto annotations = keep ? ScanSource(text, language, path) : std::vector<Annotation>{};
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = files_.find(path);
  if (it != files_.end() && it->second.open) return;
  Drop(path);
  if (keep) Put(path, std::move(annotations), false);
}

void AnnotationIndex::Remove(const std::string& path_in) {
  const std::string path = NormalPath(path_in);
  std::lock_guard<std::mutex> lock(mu_);
  Drop(path);
}

bool AnnotationIndex::Skipped(const std::string& path_in) const {
  const std::string path = NormalPath(path_in);
  std::string root;
  {
    std::lock_guard<std::mutex> lock(mu_);
    root = RootOf(path);
  }
  if (LanguageOfPath(path) == Language::kUnknown) return true;
  if (root.empty()) return false;  // outside every root: nothing says to skip it
  const std::string rel = path.substr(root.size() + (root.back() == '/' ? 0 : 1));
  IgnoreStack ignores;
  fs::path dir = root;
  std::string dir_rel;
  for (size_t at = 0;;) {
    ignores.Push(ReadIgnoreFile(dir, dir_rel));
    const size_t slash = rel.find('/', at);
    const std::string name = rel.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
    const std::string child = rel.substr(0, slash);
    const bool is_dir = slash != std::string::npos;
    if (ignores.Ignored(child, is_dir)) return true;
    if (!is_dir) return false;
    dir /= name;
    if (SkippedDirName(name) || IsBuildDir(dir)) return true;
    dir_rel = child;
    at = slash + 1;
  }
}

std::vector<Annotation> AnnotationIndex::FindByName(std::string_view name) const {
  std::vector<Annotation> out;
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> paths;
  if (const auto it = by_name_.find(std::string(name)); it != by_name_.end()) paths = it->second;
  for (size_t n = 1; n <= name.size() && !by_prefix_.empty(); ++n) {
    const auto it = by_prefix_.find(std::string(name.substr(0, n)));
    if (it != by_prefix_.end()) paths.insert(it->second.begin(), it->second.end());
  }
  for (const auto& path : paths) {
    for (const auto& a : files_.at(path).annotations) {
      const bool hit = a.prefix_only ? name.substr(0, a.name.size()) == a.name : a.name == name;
      if (hit) out.push_back(a);
    }
  }
  return out;
}

std::vector<Annotation> AnnotationIndex::InFile(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = files_.find(NormalPath(path));
  return it == files_.end() ? std::vector<Annotation>{} : it->second.annotations;
}

std::vector<std::string> AnnotationIndex::Files() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [path, entry] : files_) out.push_back(path);
  return out;
}

size_t AnnotationIndex::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& [path, entry] : files_) n += entry.annotations.size();
  return n;
}

void AnnotationIndex::Put(const std::string& path, std::vector<Annotation> annotations, bool open) {
  for (const auto& a : annotations) (a.prefix_only ? by_prefix_ : by_name_)[a.name].insert(path);
  FileEntry& entry = files_[path];
  entry.annotations = std::move(annotations);
  entry.open = open;
}

void AnnotationIndex::Drop(const std::string& path) {
  const auto it = files_.find(path);
  if (it == files_.end()) return;
  for (const auto& a : it->second.annotations) {
    auto& map = a.prefix_only ? by_prefix_ : by_name_;
    const auto names = map.find(a.name);
    if (names == map.end()) continue;
    names->second.erase(path);
    if (names->second.empty()) map.erase(names);
  }
  files_.erase(it);
}

std::string AnnotationIndex::RootOf(const std::string& path) const {
  std::string best;
  for (const auto& root : roots_) {
    if (Under(path, root) && root.size() > best.size()) best = root;
  }
  return best;
}

}  // namespace nsys::source
