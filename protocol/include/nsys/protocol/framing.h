#pragma once
// LSP base-protocol framing: "Content-Length: N\r\n[Content-Type: ...\r\n]\r\n" + N bytes of body.
// The decoder is a pure function of the bytes fed to it: no I/O, no clocks, so it is unit-testable and fuzzable.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nsys::protocol {

struct FramingLimits {
  size_t max_header_bytes = 8 * 1024;  // whole header block
  // A larger announced body is refused before any of it is read. 16 MiB: 64 connections each holding a partial
  // body stay under 1 GiB (docs/protocol.md, "Limits").
  size_t max_body_bytes = 16u * 1024u * 1024u;
};

// One decoded item: a message body, or a framing error. After an error the decoder resynchronises by
// discarding input up to the next "Content-Length:" header name, wherever it starts (not only at a line start:
// back-to-back frames put the next header right after a body); an oversized body is skipped without buffering it.
struct Frame {
  enum class Kind { kBody, kError } kind = Kind::kBody;
  // kError: why, as a value (the JSON-RPC code follows from it, never from the text). kTooLarge: a header block or
  // an announced body past FramingLimits; kMalformed: anything else (a bad header line, a missing or conflicting
  // Content-Length, a charset other than utf-8).
  enum class Problem { kNone, kMalformed, kTooLarge } problem = Problem::kNone;
  std::string body;  // kBody
  std::string
      error;  // kError: what was wrong ("missing Content-Length header", "body of 2147483648 bytes exceeds ...")
};

// Decisions (each has a test in tests/protocol/framing_test.cpp):
//  - Header lines end in CRLF; a bare LF is accepted too (lenient: some hand-written clients send it). Header names
//    are case-insensitive; surrounding whitespace of names and values is ignored; unknown headers are ignored.
//  - Blank lines before a header block are ignored (a stray CRLF after a body is harmless).
//  - Content-Length must be decimal digits. Missing, empty, negative, non-numeric or past 2^64 → an error frame and a
//    resync. Repeated with the same value → accepted (RFC 9110 lets a recipient do this); with different values →
//    error and resync.
//  - Content-Type is optional, its media type is not checked (vscode-jsonrpc sends application/vscode-jsonrpc).
//    A charset other than utf-8/utf8 (case-insensitive, quoted or not) → an error frame and the body is skipped.
//  - A header block past max_header_bytes → error and resync, without waiting for its end.
//  - A body past max_body_bytes → an error frame as soon as the header block ends; then exactly that many bytes are
//    skipped as they arrive (never buffered): an announced 2 GB body costs no memory.
//  - A malformed header line (no ':' or a name that is not an HTTP token, e.g. a raw JSON line) → error and resync
//    right away, so junk typed on stdio is reported without waiting for a blank line.
//  - Resync: the next "Content-Length" (any case, then optional blanks, then ':') anywhere after the start of the
//    bad line, so "...}Content-Length: 40" (a frame right after a body whose length was too short) is found. The
//    name may be split across Feed calls: a tail that could begin it ("...Content-Le") waits for more; everything
//    before it is dropped, so junk costs no memory. One error frame per bad stretch, however long.
class FrameDecoder {
 public:
  explicit FrameDecoder(FramingLimits limits = {});
  // Feeds bytes (any split) and returns the frames completed by them, in order.
  std::vector<Frame> Feed(std::string_view bytes);
  // True when a frame is partially buffered (for "client disconnected mid-message" logs).
  bool HasPartial() const;
  size_t buffered_bytes() const;

 private:
  enum class State { kHeader, kBody, kSkipBody, kResync };
  bool Step(std::vector<Frame>& out);  // false: needs more input
  bool StepHeader(std::vector<Frame>& out);
  bool StepResync();
  void FinishHeaderBlock(std::vector<Frame>& out);
  std::string ParseHeaderLine(std::string_view line);  // an error, or empty
  void StartHeaderBlock();
  // Reports `error` and searches for the next header from buffer_[resume_at] on.
  void StartResync(std::vector<Frame>& out, Frame::Problem problem, std::string error, size_t resume_at);

  FramingLimits limits_;
  State state_ = State::kHeader;
  std::string buffer_;  // unconsumed input is buffer_[pos_, size); compacted after each Feed
  size_t pos_ = 0;
  // The header block being read.
  size_t header_bytes_ = 0;
  bool header_started_ = false;
  bool has_length_ = false;
  size_t body_length_ = 0;
  std::string
      deferred_error_;  // (malformed) known before the body's length is (e.g. a bad charset): reported at block end
  size_t skip_remaining_ = 0;
};

// Frames a body for sending.
std::string EncodeFrame(std::string_view body);

}  // namespace nsys::protocol
