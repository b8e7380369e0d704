#include "nsys/support/render_text.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nsys/support/path_text.h"

namespace nsys::support {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// C1 controls, and the bidirectional formatting characters that reorder what follows them (Unicode's Bidi_Control
// set: LRM, RLM, ALM, the embeddings and overrides, the isolates), and the line and paragraph separators.
bool IsInvisibleControl(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

// Whether a bare URL (http://, https://, ftp://, mailto:, www.) starts at text[i], as GFM's autolinks find them: at
// the start, after whitespace or an opening parenthesis or bracket.
bool StartsUrl(const std::string& text, size_t i) {
  if (i > 0 && !std::isspace(static_cast<unsigned char>(text[i - 1])) && text[i - 1] != '(' && text[i - 1] != '[' &&
      text[i - 1] != '*' && text[i - 1] != '_' && text[i - 1] != '~') {
    return false;
  }
  std::string head = text.substr(i, 8);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return head.starts_with("http://") || head.starts_with("https://") || head.starts_with("www.") ||
         head.starts_with("mailto:") || head.starts_with("ftp://");
}

// Whether the ']' at text[i] would close a link's or an image's text ("](", "][") or a reference definition's label
// ("]:"): escaping that ']' is enough, and "[CUDA memcpy HtoD]" stays as it reads.
bool OpensLink(const std::string& text, size_t i) {
  return text[i] == ']' && i + 1 < text.size() && (text[i + 1] == '(' || text[i + 1] == '[' || text[i + 1] == ':');
}

void AppendByteEscape(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 0xf];
}

// The bare URL that StartsUrl found at text[i], up to whitespace or one of `stops`, appended as a code span (GFM links
// a bare URL whatever escapes it holds, never a code span); returns where it ends.
size_t AppendUrlAsCode(std::string& out, const std::string& text, size_t i, std::string_view stops) {
  size_t end = i;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
         stops.find(text[end]) == std::string_view::npos) {
    ++end;
  }
  out += MarkdownCode(std::string_view(text).substr(i, end - i));
  return end;
}

}  // namespace

std::string VisibleControls(std::string_view text, std::string_view keep) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {  // not UTF-8: the byte itself, escaped
      AppendByteEscape(out, c);
      ++i;
      continue;
    }
    if (n == 1) {
      if ((c < 0x20 || c == 0x7f) && keep.find(static_cast<char>(c)) == std::string_view::npos) {
        AppendByteEscape(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const uint32_t cp = Utf8CodePoint(text, i, n);
    if (IsInvisibleControl(cp)) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 0xf];
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string MarkdownText(std::string_view raw) {
  const std::string text = VisibleControls(raw, "\n\r");
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    if (StartsUrl(text, i)) {
      i = AppendUrlAsCode(out, text, i, "|");  // a '|' ends it: a table cell would end there
      continue;
    }
    const char c = text[i];
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      if (OpensLink(text, i) || std::string_view("\\`<>|&").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
    ++i;
  }
  return out;
}

std::string MarkdownCode(std::string_view text, bool in_table) {
  std::string body;
  body.reserve(text.size());
  for (char c : VisibleControls(text, "\n\r")) {
    if (c == '\n' || c == '\r') {
      body += ' ';
    } else if (c == '|' && in_table) {
      body += "\\|";
    } else {
      body += c;
    }
  }
  size_t longest = 0;
  for (size_t i = 0; i < body.size();) {
    size_t run = 0;
    while (i + run < body.size() && body[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run > 0 ? run : 1;
  }
  const std::string fence(longest + 1, '`');
  // CommonMark strips one space at each end when both ends have one and the text is not all spaces: a span that
  // starts or ends with a backtick, or with a space, gets a space inside each fence, which is stripped again.
  if (body.empty()) return "` `";
  if (body.find_first_not_of(' ') == std::string::npos) return "`" + body + "`";  // all spaces: CommonMark keeps them
  const bool pad = body.front() == '`' || body.back() == '`' || body.front() == ' ' || body.back() == ' ';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string MarkdownFromModel(std::string_view raw) {
  const std::string text = VisibleControls(raw, "\n\t");
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '`') {  // a code span or fence: up to the next run of as many backticks, copied as it is
      size_t run = 0;
      while (i + run < text.size() && text[i + run] == '`') ++run;
      size_t close = i + run;
      for (;;) {
        close = text.find(std::string(run, '`'), close);
        if (close == std::string::npos) break;
        size_t n = 0;
        while (close + n < text.size() && text[close + n] == '`') ++n;
        if (n == run) break;
        close += n;
      }
      const size_t end = close == std::string::npos ? i + run : close + run;
      out.append(text, i, end - i);
      i = end;
      continue;
    }
    if (StartsUrl(text, i)) {
      i = AppendUrlAsCode(out, text, i, "");
      continue;
    }
    if (OpensLink(text, i) || std::string_view("<>&").find(text[i]) != std::string_view::npos) out += '\\';
    out += text[i++];
  }
  return out;
}

std::string HtmlText(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : VisibleControls(text, "\n\t")) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string TerminalText(std::string_view text, bool keep_newlines) {
  return VisibleControls(text, keep_newlines ? "\n\t" : "\t");
}

}  // namespace nsys::support
