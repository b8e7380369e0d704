#pragma once
// The loopback HTTP side channel that hands traces to a local Perfetto UI (docs: guides/perfetto-and-editors.md).
//
// Binds 127.0.0.1 (or ::1) only. Every published trace gets a random 128-bit token that expires (1 h by default).
// Routes, exactly (no directory listing, no file-system paths, anything else 404 — POST /status included):
//   GET /p/<token>/               the opener page: fetches trace.pftrace from its own origin and hands it to the
//                                 Perfetto UI with the PING/PONG postMessage protocol
//   GET /p/<token>/trace.pftrace  the trace bytes, streamed from the file with Content-Length
// With `perfetto_port` (9001) a second listener serves the `https://ui.perfetto.dev/#!/?url=` deep link:
//   GET /<token>/trace.pftrace    the same bytes with Access-Control-Allow-Origin: <perfetto origin>
//
// Threading: requests are served on the io_context's thread; Publish() and the accessors may be called from any
// thread. Stop() and the destructor must run on the io thread or while the io_context is not running.
#include <asio.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "nsys/core/traces.h"
#include "nsys/support/expected.h"

namespace nsys::transport {

inline constexpr std::string_view kDefaultPerfettoOrigin = "https://ui.perfetto.dev";

struct HttpSideChannelOptions {
  std::string host = "127.0.0.1";         // loopback only: anything else is refused
  uint16_t port = 0;                      // 0 = any free port
  std::optional<uint16_t> perfetto_port;  // e.g. 9001 for the #!/?url= deep link fallback
  std::string perfetto_origin = std::string(kDefaultPerfettoOrigin);
  std::chrono::seconds token_lifetime{3600};
  std::string cache_dir;  // traces live in <cache_dir>/traces; empty = support::ResolveCacheDir("") (the default)
  std::chrono::seconds request_timeout{30};  // to receive a request's head
  // At most this many traces are published at once (each is a full trace on disk): publishing one more retires the
  // oldest link and deletes its file, so repeated nsys/openInPerfetto calls cannot fill the disk within the hour.
  size_t max_traces = 8;
};

// Checks a Perfetto origin: "https://host[:port]" or "http://host[:port]", nothing after the authority.
Status CheckPerfettoOrigin(const std::string& origin);

class HttpSideChannel final : public core::TracePublisher {
 public:
  using Clock = std::chrono::steady_clock;

  HttpSideChannel(asio::io_context& io, HttpSideChannelOptions options);
  ~HttpSideChannel() override;
  HttpSideChannel(const HttpSideChannel&) = delete;
  HttpSideChannel& operator=(const HttpSideChannel&) = delete;

  // Binds the listener(s); idempotent. Publish() calls it when needed. Errors name the refused host or busy port.
  Status Listen();
  // Serves `trace.path` (which the channel now owns: it is deleted when its token expires or the channel stops).
  Expected<core::PublishedTrace> Publish(core::TraceToPublish trace) override;
  std::string TraceDirectory() const override;

  uint16_t port() const;
  std::optional<uint16_t> perfetto_port() const;  // nullopt when not asked for, or when its port was busy
  std::string perfetto_port_problem() const;      // why the deep-link port could not be bound ("" if it was)
  size_t live_tokens() const;  // unexpired tokens (expired ones are dropped, and their files deleted, on the way)
  // When the last live token expires (nullopt when none is live).
  std::optional<Clock::time_point> last_expiry() const;
  void Stop();

  // Tests move time forward without sleeping.
  void SetClockForTesting(std::function<Clock::time_point()> now);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace nsys::transport
