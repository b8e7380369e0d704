#include "nsys/support/json_parse.h"

#include <cstddef>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nsys/support/path_text.h"

namespace nsys::support {
namespace {

using Json = nlohmann::json;

constexpr size_t kValid = std::string_view::npos;

bool IsContinuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Returns the offset of the first byte that is not part of a well-formed UTF-8 sequence (Utf8SequenceAt: RFC 3629, no
// overlong forms, no surrogates, nothing past U+10FFFF), or kValid. nlohmann would reject these too, but only with an
// obscure message, and only inside strings.
size_t FindInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8SequenceAt(s, i);
    if (n == 0) return i;
    i += n;
  }
  return kValid;
}

std::string StripExceptionPrefix(const char* what) {
  // "[json.exception.parse_error.101] parse error at ..." → "parse error at ..."
  std::string text = what;
  if (!text.empty() && text.front() == '[') {
    if (auto close = text.find("] "); close != std::string::npos) text.erase(0, close + 2);
  }
  return text;
}

// A member name as a path component in an error message: at most kMax bytes, cut on a character boundary (the
// text is valid UTF-8 by now), so a megabyte-long key cannot make a megabyte-long error.
std::string PathComponent(const std::string& key) {
  constexpr size_t kMax = 64;
  if (key.size() <= kMax) return key;
  size_t cut = kMax;
  while (cut > 0 && IsContinuation(static_cast<unsigned char>(key[cut]))) --cut;
  return key.substr(0, cut) + "...";
}

// nlohmann's SAX interface, building the same value its DOM parser would, plus what that parser cannot do without
// throwing or losing information: a depth limit, a recorded (not thrown) error, and the first duplicate member.
class Builder final : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return Add(Json(nullptr)); }
  bool boolean(bool value) override { return Add(Json(value)); }
  bool number_integer(number_integer_t value) override { return Add(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Add(Json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return Add(Json(value)); }
  bool string(string_t& value) override { return Add(Json(std::move(value))); }
  bool binary(binary_t& value) override { return Add(Json::binary(std::move(value))); }
  bool start_object(std::size_t) override { return Open(Json::object()); }
  bool start_array(std::size_t) override { return Open(Json::array()); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }

  bool key(string_t& name) override {
    if (duplicate_.empty() && open_.back().node->contains(name)) duplicate_ = PathTo(PathComponent(name), false);
    if (open_.size() == 1) root_keys_.push_back(name);
    key_ = std::move(name);
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = "invalid JSON: " + StripExceptionPrefix(e.what());
    return false;
  }

  Json& root() { return root_; }
  const std::string& error() const { return error_; }
  const std::string& duplicate() const { return duplicate_; }
  std::vector<std::string>& root_keys() { return root_keys_; }

 private:
  struct Frame {
    Json* node;
    std::string component;  // this node's path component: a member name, or "[i]" in an array; empty for the root
    bool in_array;          // whether component is an index
  };

  // Where a new value goes: the root, the end of the open array, or the open object's member key_ (replacing an
  // earlier member of that name, as nlohmann's own parser does). Pointers to open containers stay valid: only the
  // innermost one grows.
  Json* Place(Json value, std::string& component, bool& in_array) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back().node;
    if (parent.is_array()) {
      component = "[" + std::to_string(parent.size()) + "]";
      in_array = true;
      parent.push_back(std::move(value));
      return &parent.back();
    }
    component = PathComponent(key_);
    in_array = false;
    Json& slot = parent[key_];
    slot = std::move(value);
    return &slot;
  }

  bool Add(Json value) {
    std::string component;
    bool in_array = false;
    Place(std::move(value), component, in_array);
    return true;
  }

  bool Open(Json container) {
    if (open_.size() >= static_cast<size_t>(kMaxNestingDepth)) {
      error_ = "JSON nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels";
      return false;
    }
    std::string component;
    bool in_array = false;
    Json* node = Place(std::move(container), component, in_array);
    open_.push_back({node, std::move(component), in_array});
    return true;
  }

  bool Close() {
    open_.pop_back();
    return true;
  }

  // "params.args.limit", "[1].id": the open containers' components, then `last`.
  std::string PathTo(const std::string& last, bool last_in_array) const {
    std::string path;
    const auto append = [&path](const std::string& component, bool in_array) {
      if (!path.empty() && !in_array) path += '.';
      path += component;
    };
    for (const auto& frame : open_) {
      if (!frame.component.empty()) append(frame.component, frame.in_array);
    }
    append(last, last_in_array);
    return path;
  }

  Json root_;
  std::vector<Frame> open_;
  std::string key_;
  std::string error_;
  std::string duplicate_;
  std::vector<std::string> root_keys_;
};

}  // namespace

ParsedJson ParseJsonText(std::string_view text) {
  ParsedJson parsed;
  if (const size_t bad = FindInvalidUtf8(text); bad != kValid) {
    parsed.error = "invalid UTF-8 in message body at byte offset " + std::to_string(bad);
    return parsed;
  }
  try {
    Builder builder;
    const bool ok = Json::sax_parse(text, &builder);
    if (!ok || !builder.error().empty()) {
      parsed.error = builder.error().empty() ? "invalid JSON" : builder.error();
      return parsed;
    }
    parsed.value = std::move(builder.root());
    parsed.duplicate = builder.duplicate();
    parsed.root_keys = std::move(builder.root_keys());
  } catch (const std::exception& e) {  // allocation failure on a huge text: still an answer, never an abort
    parsed.error = std::string("cannot parse the JSON text: ") + e.what();
  }
  return parsed;
}

}  // namespace nsys::support
