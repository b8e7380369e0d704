#pragma once
// One HTTP POST over libcurl with a streamed response body: timeouts, a byte cap, and cancellation that aborts the
// transfer within ~50 ms. Nothing here logs headers (they carry the key).
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/support/cancel.h"
#include "nsys/support/expected.h"

namespace nsys::llm::internal {

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"; may hold the key: never logged
  std::string body;
};

struct HttpLimits {
  std::chrono::milliseconds connect{10'000};
  std::chrono::milliseconds total{120'000};  // the whole exchange
  std::chrono::milliseconds stall{60'000};   // no byte received for this long
  size_t max_body_bytes = 16u << 20;         // a longer reply is cut off (kLimitExceeded)
};

struct HttpOutcome {
  long status = 0;
  std::string error_body;                                // the body of a non-2xx response (at most 64 KiB)
  std::optional<std::chrono::milliseconds> retry_after;  // the Retry-After header, in seconds form
};

// Receives the body of a 2xx response as it arrives; an error aborts the transfer and is returned as is.
using BodySink = std::function<Status(std::string_view bytes)>;

// Errors: kCancelled, kLimitExceeded (a timeout or the byte cap, naming the limit), kInternal (network failure,
// naming the host part of the URL and curl's reason), or the sink's own error. A non-2xx status is not an error
// here: the caller decides (retry, message).
Expected<HttpOutcome> Post(const HttpRequest& request, const HttpLimits& limits, const BodySink& on_body,
                           const CancelToken& cancel);

// Sleeps up to `delay`, returning early (false) when `cancel` is set.
bool SleepUnlessCancelled(std::chrono::milliseconds delay, const CancelToken& cancel);

}  // namespace nsys::llm::internal
