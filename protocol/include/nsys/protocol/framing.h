#pragma once
// LSP base-protocol framing: "Content-Length: N\r\n[Content-Type: ...\r\n]\r\n" + N bytes of body.
// The decoder is a pure function of the bytes fed to it: no I/O, no clocks, so it is unit-testable and fuzzable.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nsys::protocol {

struct FramingLimits {
  size_t max_header_bytes = 8 * 1024;           // whole header block
  size_t max_body_bytes = 256u * 1024u * 1024u;  // a larger announced body is refused before any of it is read
};

// One decoded item: a message body, or a framing error. After an error the decoder resynchronises by
// discarding input up to the next "Content-Length:" header; an oversized body is skipped without buffering it.
struct Frame {
  enum class Kind { kBody, kError } kind = Kind::kBody;
  std::string body;   // kBody
  std::string error;  // kError: what was wrong ("missing Content-Length header", "body of 2147483648 bytes exceeds ...")
};

class FrameDecoder {
 public:
  explicit FrameDecoder(FramingLimits limits = {});
  // Feeds bytes (any split) and returns the frames completed by them, in order.
  std::vector<Frame> Feed(std::string_view bytes);
  // True when a frame is partially buffered (for "client disconnected mid-message" logs).
  bool HasPartial() const;
  size_t buffered_bytes() const;

 private:
  enum class State { kHeader, kBody, kSkipBody };
  FramingLimits limits_;
  State state_ = State::kHeader;
  std::string buffer_;
  size_t body_length_ = 0;
  size_t skip_remaining_ = 0;
};

// Frames a body for sending.
std::string EncodeFrame(std::string_view body);

}  // namespace nsys::protocol
