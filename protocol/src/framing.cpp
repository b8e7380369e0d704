#include "nsys/protocol/framing.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace nsys::protocol {
namespace {

constexpr std::string_view kContentLength = "content-length";

char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return Lower(x) == Lower(y); });
}

std::string_view Trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// RFC 9110 token characters: what a header name may consist of.
bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

// A short, printable rendering of untrusted input for error messages.
std::string Preview(std::string_view s) {
  constexpr size_t kMax = 60;
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  out += s.size() > kMax ? "\"..." : "\"";
  return out;
}

// The first case-insensitive occurrence of `needle` (lower case) in `haystack` at or after `from`, or npos.
size_t FindIgnoreCase(std::string_view haystack, std::string_view needle, size_t from) {
  if (from > haystack.size()) return std::string_view::npos;
  const auto it = std::search(haystack.begin() + static_cast<std::ptrdiff_t>(from), haystack.end(), needle.begin(),
                              needle.end(), [](char a, char b) { return Lower(a) == b; });
  return it == haystack.end() ? std::string_view::npos : static_cast<size_t>(it - haystack.begin());
}

// The length of the longest tail of `text` that is a case-insensitive proper prefix of "content-length".
size_t NamePrefixAtEnd(std::string_view text) {
  for (size_t n = std::min(text.size(), kContentLength.size() - 1); n > 0; --n) {
    if (EqualsIgnoreCase(text.substr(text.size() - n), kContentLength.substr(0, n))) return n;
  }
  return 0;
}

Frame ErrorFrame(Frame::Problem problem, std::string error) {
  Frame frame;
  frame.kind = Frame::Kind::kError;
  frame.problem = problem;
  frame.error = std::move(error);
  return frame;
}

}  // namespace

FrameDecoder::FrameDecoder(FramingLimits limits) : limits_(limits) {}

std::vector<Frame> FrameDecoder::Feed(std::string_view bytes) {
  std::vector<Frame> out;
  while (true) {
    if (state_ == State::kSkipBody) {
      // Skipped bytes are taken from the buffer first, then straight from the input, never copied.
      size_t n = std::min(skip_remaining_, buffer_.size() - pos_);
      pos_ += n;
      skip_remaining_ -= n;
      n = std::min(skip_remaining_, bytes.size());
      bytes.remove_prefix(n);
      skip_remaining_ -= n;
      if (skip_remaining_ > 0) break;
      StartHeaderBlock();
      continue;
    }
    if (!bytes.empty()) {
      if (pos_ > 0) {
        buffer_.erase(0, pos_);
        pos_ = 0;
      }
      buffer_.append(bytes);
      bytes = {};
    }
    if (!Step(out)) break;
  }
  buffer_.erase(0, pos_);
  pos_ = 0;
  return out;
}

bool FrameDecoder::Step(std::vector<Frame>& out) {
  switch (state_) {
    case State::kHeader:
      return StepHeader(out);
    case State::kResync:
      return StepResync();
    case State::kBody: {
      if (buffer_.size() - pos_ < body_length_) return false;
      Frame frame;
      frame.body = buffer_.substr(pos_, body_length_);
      pos_ += body_length_;
      out.push_back(std::move(frame));
      StartHeaderBlock();
      return true;
    }
    case State::kSkipBody:
      return true;  // handled in Feed, which owns the unbuffered input
  }
  return false;
}

bool FrameDecoder::StepHeader(std::vector<Frame>& out) {
  const size_t line_start = pos_;
  const size_t newline = buffer_.find('\n', pos_);
  if (newline == std::string::npos) {
    const size_t pending = buffer_.size() - pos_;
    if (header_bytes_ + pending > limits_.max_header_bytes) {
      StartResync(out, Frame::Problem::kTooLarge,
                  "header block exceeds " + std::to_string(limits_.max_header_bytes) + " bytes", line_start + 1);
      return true;
    }
    return false;
  }
  std::string_view line(buffer_.data() + pos_, newline - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const size_t line_bytes = newline + 1 - pos_;
  pos_ = newline + 1;

  if (line.empty()) {
    if (header_started_) FinishHeaderBlock(out);
    return true;  // a blank line before any header is ignored
  }
  header_started_ = true;
  header_bytes_ += line_bytes;
  // After an error the search for the next header starts inside the bad line itself: a frame sent right after a
  // body whose Content-Length was too short sits in the middle of that line ("...}Content-Length: 40").
  if (header_bytes_ > limits_.max_header_bytes) {
    StartResync(out, Frame::Problem::kTooLarge,
                "header block exceeds " + std::to_string(limits_.max_header_bytes) + " bytes", line_start + 1);
    return true;
  }
  if (std::string error = ParseHeaderLine(line); !error.empty()) {
    StartResync(out, Frame::Problem::kMalformed, std::move(error), line_start + 1);
  }
  return true;
}

std::string FrameDecoder::ParseHeaderLine(std::string_view line) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return "malformed header line (no ':'): " + Preview(line);
  const std::string_view name = Trim(line.substr(0, colon));
  const std::string_view value = Trim(line.substr(colon + 1));
  if (!IsToken(name)) return "malformed header name in line " + Preview(line);

  if (EqualsIgnoreCase(name, "Content-Length")) {
    if (value.empty()) return "empty Content-Length header";
    if (value.front() == '-') return "negative Content-Length: " + Preview(value);
    uint64_t length = 0;
    for (char c : value) {
      if (c < '0' || c > '9') return "Content-Length is not a number: " + Preview(value);
      const auto digit = static_cast<uint64_t>(c - '0');
      if (length > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
        return "Content-Length is too large: " + Preview(value);
      }
      length = length * 10 + digit;
    }
    if (length > std::numeric_limits<size_t>::max()) return "Content-Length is too large: " + Preview(value);
    if (has_length_ && body_length_ != length) {
      return "conflicting Content-Length headers: " + std::to_string(body_length_) + " and " + std::to_string(length);
    }
    has_length_ = true;
    body_length_ = static_cast<size_t>(length);
  } else if (EqualsIgnoreCase(name, "Content-Type")) {
    std::string_view rest = value;
    while (!rest.empty()) {
      const size_t semicolon = rest.find(';');
      const std::string_view part = Trim(rest.substr(0, semicolon));
      rest = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 1);
      const size_t equals = part.find('=');
      if (equals == std::string_view::npos || !EqualsIgnoreCase(Trim(part.substr(0, equals)), "charset")) continue;
      std::string_view charset = Trim(part.substr(equals + 1));
      if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"') {
        charset = charset.substr(1, charset.size() - 2);
      }
      if (!EqualsIgnoreCase(charset, "utf-8") && !EqualsIgnoreCase(charset, "utf8") && deferred_error_.empty()) {
        deferred_error_ = "unsupported charset " + Preview(charset) + " (only utf-8 is supported); message skipped";
      }
    }
  }
  return {};
}

void FrameDecoder::FinishHeaderBlock(std::vector<Frame>& out) {
  if (!has_length_) {
    StartResync(out, Frame::Problem::kMalformed, "missing Content-Length header", pos_);
    return;
  }
  std::string error = deferred_error_;
  Frame::Problem problem = Frame::Problem::kMalformed;
  if (error.empty() && body_length_ > limits_.max_body_bytes) {
    problem = Frame::Problem::kTooLarge;
    error = "body of " + std::to_string(body_length_) + " bytes exceeds the limit of " +
            std::to_string(limits_.max_body_bytes) + " bytes; skipping it";
  }
  if (!error.empty()) {
    out.push_back(ErrorFrame(problem, std::move(error)));
    skip_remaining_ = body_length_;
    state_ = State::kSkipBody;
    return;
  }
  state_ = State::kBody;
}

bool FrameDecoder::StepResync() {
  const std::string_view text(buffer_);
  size_t from = pos_;
  while (true) {
    const size_t at = FindIgnoreCase(text, kContentLength, from);
    if (at == std::string_view::npos) {
      // Keep only a tail that could begin the name of a header split across reads ("...Content-Le").
      pos_ = std::max(pos_, text.size() - NamePrefixAtEnd(text.substr(from)));
      return false;
    }
    // The name may be followed by blanks before its ':' (ParseHeaderLine trims them too).
    size_t colon = at + kContentLength.size();
    while (colon < text.size() && (text[colon] == ' ' || text[colon] == '\t')) ++colon;
    if (colon < text.size() && text[colon] == ':') {
      pos_ = at;
      StartHeaderBlock();
      return true;
    }
    if (colon == text.size() && colon - at <= limits_.max_header_bytes) {
      pos_ = at;  // undecided until more bytes arrive
      return false;
    }
    from = at + 1;  // "Content-Length" in some other text
  }
}

void FrameDecoder::StartHeaderBlock() {
  state_ = State::kHeader;
  header_bytes_ = 0;
  header_started_ = false;
  has_length_ = false;
  body_length_ = 0;
  deferred_error_.clear();
  skip_remaining_ = 0;
}

void FrameDecoder::StartResync(std::vector<Frame>& out, Frame::Problem problem, std::string error, size_t resume_at) {
  out.push_back(ErrorFrame(problem, std::move(error)));
  StartHeaderBlock();
  state_ = State::kResync;
  pos_ = std::min(resume_at, buffer_.size());
}

bool FrameDecoder::HasPartial() const {
  switch (state_) {
    case State::kBody:
    case State::kSkipBody:
      return true;
    case State::kHeader:
      return header_started_ || buffer_.find_first_not_of("\r\n", pos_) != std::string::npos;
    case State::kResync:
      return false;
  }
  return false;
}

size_t FrameDecoder::buffered_bytes() const {
  return buffer_.size() - pos_;
}

std::string EncodeFrame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace nsys::protocol
