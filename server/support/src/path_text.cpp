// Paths and client input in the text a client reads (path_text.h).
#include "nsys/support/path_text.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <system_error>

namespace nsys::support {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr char kHexDigits[] = "0123456789ABCDEF";

void AppendEscapedByte(std::string& out, char prefix, unsigned char c) {
  out += prefix;
  out += kHexDigits[c >> 4];
  out += kHexDigits[c & 15];
}

}  // namespace

size_t Utf8SequenceAt(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range (tighter after E0, ED, F0, F4)
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;  // at most U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

uint32_t Utf8CodePoint(std::string_view text, size_t i, size_t n) {
  const auto c = static_cast<unsigned char>(text[i]);
  uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
  return cp;
}

bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceAt(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string FileUri(std::string_view absolute_path) {
  std::string uri = "file://";
  uri.reserve(uri.size() + absolute_path.size());
  for (const char ch : absolute_path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      uri += ch;
    } else {
      AppendEscapedByte(uri, '%', c);
    }
  }
  return uri;
}

std::string PathToText(std::string_view path) {
  if (IsValidUtf8(path) && path.rfind("file:", 0) != 0) return std::string(path);
  if (!path.empty() && path.front() == '/') return FileUri(path);
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(std::filesystem::path(std::string(path)), ec);
  if (ec || absolute.native().empty() || absolute.native().front() != '/') return FileUri(path);  // best effort
  return PathToText(absolute.native());
}

std::string PathFromText(std::string_view text) {
  constexpr std::string_view kScheme = "file://";
  if (text.rfind(kScheme, 0) != 0) return std::string(text);
  std::string_view rest = text.substr(kScheme.size());
  if (!rest.empty() && rest.front() != '/') rest = rest.substr(std::min(rest.find('/'), rest.size()));  // file://host/p
  std::string path;
  path.reserve(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && HexValue(rest[i + 1]) >= 0 && HexValue(rest[i + 2]) >= 0) {
      path += static_cast<char>(HexValue(rest[i + 1]) * 16 + HexValue(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

std::string DisplayText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {
      out += '\\';
      AppendEscapedByte(out, 'x', static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string QuoteInput(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return DisplayText(text);
  size_t cut = max_bytes;
  // Back off to a character boundary: never end inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80 && max_bytes - cut < 3) --cut;
  return DisplayText(text.substr(0, cut)) + "\u2026 (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace nsys::support
