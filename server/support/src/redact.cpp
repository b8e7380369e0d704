#include "nsys/support/redact.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace nsys::support {
namespace {

char Lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::string Lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), Lower);
  return out;
}

bool StartsWithNoCase(std::string_view text, size_t at, std::string_view word) {
  if (text.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (Lower(text[at + i]) != word[i]) return false;
  }
  return true;
}

// The end of the JSON string whose opening quote is at `open`: the index of its closing quote, or npos.
size_t StringEnd(std::string_view text, size_t open) {
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool IsSecretMemberName(std::string_view name) {
  if (name.size() > 64) return false;
  static constexpr std::array<std::string_view, 7> kWords = {"token",  "key",           "secret",    "password",
                                                             "passwd", "authorization", "credential"};
  const std::string lower = Lowered(name);
  return std::any_of(kWords.begin(), kWords.end(),
                     [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

size_t SkipSpaces(std::string_view text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  return i;
}

// {"token": "abc"} → {"token": "[redacted]"}.
std::string RedactJsonMembers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t quote = text.find('"', i);
    if (quote == std::string_view::npos) break;
    out.append(text.substr(i, quote - i));
    const size_t name_end = StringEnd(text, quote);
    if (name_end == std::string_view::npos) {
      i = quote;
      break;
    }
    const size_t colon = SkipSpaces(text, name_end + 1);
    if (colon < text.size() && text[colon] == ':' && IsSecretMemberName(text.substr(quote + 1, name_end - quote - 1))) {
      const size_t value = SkipSpaces(text, colon + 1);
      if (value < text.size() && text[value] == '"') {
        const size_t value_end = StringEnd(text, value);
        out.append(text.substr(quote, value + 1 - quote));
        out.append(kRedacted);
        out.push_back('"');
        if (value_end == std::string_view::npos) return out;  // cut off mid-value: the rest is the secret
        i = value_end + 1;
        continue;
      }
    }
    out.append(text.substr(quote, name_end + 1 - quote));
    i = name_end + 1;
  }
  out.append(text.substr(std::min(i, text.size())));
  return out;
}

bool EndsAuthority(char c) {
  return c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' ||
         std::isspace(static_cast<unsigned char>(c));
}

// http://user:pw@host/ → http://[redacted]@host/.
std::string RedactUserInfo(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (true) {
    const size_t scheme = text.find("://", i);
    if (scheme == std::string_view::npos) break;
    const size_t start = scheme + 3;
    size_t end = start;
    while (end < text.size() && !EndsAuthority(text[end])) ++end;
    out.append(text.substr(i, start - i));
    const size_t at = text.substr(start, end - start).rfind('@');
    if (at != std::string_view::npos && at > 0) {
      out.append(kRedacted);
      out.append(text.substr(start + at, end - start - at));
    } else {
      out.append(text.substr(start, end - start));
    }
    i = end;
  }
  out.append(text.substr(i));
  return out;
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool IsSecretParameter(std::string_view name) {
  static constexpr std::array<std::string_view, 10> kNames = {"key",  "api_key",  "apikey", "api-key",      "token",
                                                              "auth", "password", "secret", "access_token", "sig"};
  if (name.size() > 16) return false;
  const std::string lower = Lowered(name);
  return std::find(kNames.begin(), kNames.end(), lower) != kNames.end();
}

bool EndsParameterValue(char c) {
  return c == '&' || c == '#' || c == ';' || c == '"' || c == '\'' || c == '<' || c == '>' || c == ',' || c == ')' ||
         std::isspace(static_cast<unsigned char>(c));
}

// ?key=abc&x=1 → ?key=[redacted]&x=1; "token=abc" at the start of a word likewise.
std::string RedactParameters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    out.push_back(c);
    ++i;
    if (c != '=') continue;
    size_t name_start = out.size() - 1;
    while (name_start > 0 && IsNameChar(out[name_start - 1])) --name_start;
    const std::string_view name(out.data() + name_start, out.size() - 1 - name_start);
    const bool at_boundary = name_start == 0 || out[name_start - 1] == '?' || out[name_start - 1] == '&' ||
                             out[name_start - 1] == ';' || out[name_start - 1] == '"' ||
                             std::isspace(static_cast<unsigned char>(out[name_start - 1]));
    if (name.empty() || !at_boundary || !IsSecretParameter(name)) continue;
    size_t end = i;
    while (end < text.size() && !EndsParameterValue(text[end])) ++end;
    if (end > i) out.append(kRedacted);
    i = end;
  }
  return out;
}

bool EndsHeaderValue(char c) {
  return c == '\n' || c == '\r' || c == '"' || c == '\'';
}

// "Authorization: Bearer abc" → "Authorization: [redacted]"; "Bearer abc" → "Bearer [redacted]".
std::string RedactHeaders(std::string_view text) {
  static constexpr std::array<std::string_view, 2> kHeaders = {"authorization:", "api-key:"};
  static constexpr std::array<std::string_view, 1> kSchemes = {"bearer "};
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    bool matched = false;
    for (std::string_view header : kHeaders) {
      if (!StartsWithNoCase(text, i, header)) continue;
      out.append(text.substr(i, header.size()));
      size_t end = i + header.size();
      while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) out.push_back(text[end++]);
      const size_t value = end;
      while (end < text.size() && !EndsHeaderValue(text[end])) ++end;
      if (end > value) out.append(kRedacted);
      i = end;
      matched = true;
      break;
    }
    if (matched) continue;
    for (std::string_view scheme : kSchemes) {
      if ((i > 0 && IsNameChar(text[i - 1])) || !StartsWithNoCase(text, i, scheme)) continue;
      out.append(text.substr(i, scheme.size()));
      size_t end = i + scheme.size();
      const size_t value = end;
      while (end < text.size() && !EndsHeaderValue(text[end]) && text[end] != ' ' && text[end] != ',') ++end;
      if (end > value) out.append(kRedacted);
      i = end;
      matched = true;
      break;
    }
    if (matched) continue;
    out.push_back(text[i++]);
  }
  return out;
}

}  // namespace

std::string RedactSecrets(std::string_view text) {
  return RedactHeaders(RedactParameters(RedactUserInfo(RedactJsonMembers(text))));
}

}  // namespace nsys::support
