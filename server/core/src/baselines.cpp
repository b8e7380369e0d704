// Named baselines: the workspace file .nsys-ai/baselines.json. Core has no JSON library (layering), and the file
// holds one fixed shape, so it is written here by hand and read by a small strict reader of that shape.
#include "nsys/core/baselines.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "nsys/support/cache_dir.h"

namespace nsys::core {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFileBytes = 4 << 20;  // thousands of baselines; a bigger file is not ours
constexpr int kMaxDepth = 8;

// A JSON value of the baselines file: objects, arrays, strings, integers, true/false/null.
struct JValue {
  enum class Kind { kNull, kBool, kInt, kString, kArray, kObject } kind = Kind::kNull;
  int64_t integer = 0;
  std::string text;
  std::vector<JValue> items;
  // An object's members as parallel lists: a pair holding JValue is an incomplete type here, which clang refuses.
  std::vector<std::string> keys;
  std::vector<JValue> values;
  const JValue* Get(const std::string& key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &values[i];
    }
    return nullptr;
  }
};

class JReader {
 public:
  explicit JReader(std::string_view s) : s_(s) {}
  Expected<JValue> Document() {
    JValue v;
    if (!Value(v, 0)) return MakeError(ErrorKind::kInvalidArgument, error_);
    Skip();
    if (i_ != s_.size()) {
      Bad("unexpected text after the document");
      return MakeError(ErrorKind::kInvalidArgument, error_);
    }
    return v;
  }

 private:
  bool Bad(const std::string& what) {
    if (error_.empty()) error_ = fmt::format("{} at byte {}", what, i_);
    return false;
  }
  void Skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return Bad("expected a JSON value");
    i_ += word.size();
    return true;
  }
  bool String(std::string& out) {
    ++i_;  // the opening quote
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (static_cast<unsigned char>(c) < 0x20) return Bad("control character in a string");
      if (c == '\\') {
        if (i_ >= s_.size()) break;
        const char e = s_[i_++];
        const std::string_view simple = "\"\\/bfnrt", mapped = "\"\\/\b\f\n\r\t";
        const auto at = simple.find(e);
        if (at == std::string_view::npos) return Bad("unsupported escape in a string");  // we never write \u
        c = mapped[at];
      }
      out += c;
    }
    if (i_ >= s_.size()) return Bad("unterminated string");
    ++i_;
    return true;
  }
  bool Integer(JValue& v) {
    const size_t start = i_;
    if (s_[i_] == '-') ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    const std::string digits(s_.substr(start, i_ - start));
    errno = 0;
    char* end = nullptr;
    v.integer = std::strtoll(digits.c_str(), &end, 10);
    if (digits.empty() || digits == "-" || errno != 0 || *end != '\0') return Bad("expected an integer");
    v.kind = JValue::Kind::kInt;
    return true;
  }
  // One case per JSON value kind.
  bool Value(JValue& v, int depth) {
    if (depth > kMaxDepth) return Bad("nested too deeply");
    Skip();
    if (i_ >= s_.size()) return Bad("unexpected end");
    const char c = s_[i_];
    if (c == '"') {
      v.kind = JValue::Kind::kString;
      return String(v.text);
    }
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      v.kind = object ? JValue::Kind::kObject : JValue::Kind::kArray;
      ++i_;
      Skip();
      if (i_ < s_.size() && s_[i_] == (object ? '}' : ']')) return ++i_, true;
      for (;;) {
        Skip();
        std::string key;
        if (object) {
          if (i_ >= s_.size() || s_[i_] != '"') return Bad("expected a member name");
          if (!String(key)) return false;
          Skip();
          if (i_ >= s_.size() || s_[i_] != ':') return Bad("expected ':'");
          ++i_;
        }
        JValue item;
        if (!Value(item, depth + 1)) return false;
        if (object) {
          v.keys.push_back(std::move(key));
          v.values.push_back(std::move(item));
        } else {
          v.items.push_back(std::move(item));
        }
        Skip();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == (object ? '}' : ']')) return ++i_, true;
        return Bad(object ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (c == 't') return v.kind = JValue::Kind::kBool, Literal("true");
    if (c == 'f') return v.kind = JValue::Kind::kBool, Literal("false");
    if (c == 'n') return Literal("null");
    return Integer(v);
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string error_;
};

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) continue;  // not in a path we accept; dropped rather than \u
        out += c;
    }
  }
  return out + "\"";
}

bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

std::string NowUtc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct FileStat {
  int64_t size = 0, mtime_ns = 0;
};
std::optional<FileStat> StatRegular(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStat{static_cast<int64_t>(st.st_size),
                  static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

Expected<Baseline> BaselineOf(const JValue& v, size_t index) {
  auto text = [&](const char* key) -> const JValue* {
    const JValue* m = v.Get(key);
    return m != nullptr && m->kind == JValue::Kind::kString ? m : nullptr;
  };
  auto integer = [&](const char* key) -> const JValue* {
    const JValue* m = v.Get(key);
    return m != nullptr && m->kind == JValue::Kind::kInt ? m : nullptr;
  };
  if (v.kind != JValue::Kind::kObject || !text("name") || !text("path") || !integer("size") || !integer("mtimeNs")) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("baselines[{}] needs name and path (strings), size and mtimeNs (integers)", index));
  }
  Baseline b{text("name")->text, text("path")->text, integer("size")->integer, integer("mtimeNs")->integer, ""};
  if (const JValue* at = text("taggedAt")) b.tagged_at = at->text;
  return b;
}

Expected<std::string> ReadSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kInternal, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) {
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("{} is over {} bytes: not a baselines file", path, kMaxFileBytes));
    }
  }
  return text;
}

Status Write(const std::string& dir, const std::vector<Baseline>& list) {
  const fs::path file = BaselinesFile(dir);
  // .nsys-ai is this user's, 0700, and the new file a fresh private temporary renamed into place: a link
  // planted at a predictable temporary name is never followed.
  auto temp = support::CreatePrivateFile(file.parent_path().string(), "." + file.filename().string() + ".tmp.");
  if (!temp) return temp.error();
  std::string text = "{\n  \"version\": 1,\n  \"baselines\": [";
  for (size_t i = 0; i < list.size(); ++i) {
    const Baseline& b = list[i];
    text += fmt::format("{}\n    {{\"name\": {}, \"path\": {}, \"size\": {}, \"mtimeNs\": {}, \"taggedAt\": {}}}",
                        i == 0 ? "" : ",", Quote(b.name), Quote(b.path), b.size, b.mtime_ns, Quote(b.tagged_at));
  }
  text += list.empty() ? "]\n}\n" : "\n  ]\n}\n";
  // A file that exists keeps its mode (a team may share it); a new one stays 0600.
  struct stat old {};
  if (::lstat(file.c_str(), &old) == 0 && S_ISREG(old.st_mode)) ::fchmod(temp->fd, old.st_mode & 0777);
  bool ok = true;
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(temp->fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  ok = ::close(temp->fd) == 0 && ok;
  if (!ok || ::rename(temp->path.c_str(), file.c_str()) != 0) {
    ::unlink(temp->path.c_str());
    return MakeError(ErrorKind::kInternal, fmt::format("cannot write {}", file.string()));
  }
  return {};
}

std::string Names(const std::vector<Baseline>& list) {
  std::string out;
  for (const auto& b : list) out += (out.empty() ? "" : ", ") + b.name;
  return out.empty() ? "none yet: tag one with `nsys-ai baseline tag NAME FILE`" : out;
}

}  // namespace

std::string BaselinesFile(const std::string& dir) {
  return (fs::path(dir.empty() ? "." : dir) / ".nsys-ai" / "baselines.json").string();
}

Expected<std::vector<Baseline>> ListBaselines(const std::string& dir) {
  const std::string file = BaselinesFile(dir);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::vector<Baseline>{};
  auto text = ReadSmallFile(file);
  if (!text) return text.error();
  auto doc = JReader(*text).Document();
  auto bad = [&](const std::string& what) {
    return MakeError(ErrorKind::kInvalidArgument, fmt::format("{} is not a baselines file: {}", file, what));
  };
  if (!doc) return bad(doc.error().message);
  const JValue* list = doc->Get("baselines");
  if (doc->kind != JValue::Kind::kObject || list == nullptr || list->kind != JValue::Kind::kArray) {
    return bad("expected an object with a \"baselines\" array");
  }
  std::vector<Baseline> out;
  for (size_t i = 0; i < list->items.size(); ++i) {
    auto b = BaselineOf(list->items[i], i);
    if (!b) return bad(b.error().message);
    out.push_back(std::move(*b));
  }
  std::sort(out.begin(), out.end(), [](const Baseline& a, const Baseline& b) { return a.name < b.name; });
  return out;
}

Expected<Baseline> TagBaseline(const std::string& dir, const std::string& name, const std::string& profile_path) {
  if (!ValidName(name)) {
    return MakeError(
        ErrorKind::kInvalidArgument,
        fmt::format("baseline name '{}' is not accepted: use 1 to 64 letters, digits, '.', '_' or '-'", name));
  }
  std::error_code ec;
  const std::string path = fs::absolute(profile_path, ec).lexically_normal().string();
  const auto st = StatRegular(path);
  if (!st) return MakeError(ErrorKind::kNotFound, fmt::format("{} is not a file", profile_path));
  auto list = ListBaselines(dir);
  if (!list) return list.error();
  list->erase(std::remove_if(list->begin(), list->end(), [&](const Baseline& b) { return b.name == name; }),
              list->end());
  Baseline b{name, path, st->size, st->mtime_ns, NowUtc()};
  list->push_back(b);
  std::sort(list->begin(), list->end(), [](const Baseline& x, const Baseline& y) { return x.name < y.name; });
  if (Status written = Write(dir, *list); !written) return written.error();
  return b;
}

Expected<ResolvedBaseline> ResolveBaseline(const std::string& dir, const std::string& name) {
  auto list = ListBaselines(dir);
  if (!list) return list.error();
  for (const auto& b : *list) {
    if (b.name != name) continue;
    const auto st = StatRegular(b.path);
    if (!st) {
      return MakeError(
          ErrorKind::kNotFound,
          fmt::format("baseline '{}' points at {}, which is no longer a file; tag it again", name, b.path));
    }
    ResolvedBaseline out{b, std::nullopt};
    if (st->size != b.size || st->mtime_ns != b.mtime_ns) {
      out.changed = fmt::format(
          "baseline '{}' ({}) changed since it was tagged at {} (size {} → {} bytes): it may be another run now", name,
          b.path, b.tagged_at, b.size, st->size);
    }
    return out;
  }
  return MakeError(ErrorKind::kNotFound,
                   fmt::format("no baseline named '{}' in {} (known: {})", name, BaselinesFile(dir), Names(*list)));
}

}  // namespace nsys::core
