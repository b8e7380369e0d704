#include "http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "nsys/llm/config.h"
#include "nsys/support/redact.h"

namespace nsys::llm::internal {
namespace {

constexpr size_t kMaxErrorBody = 64u << 10;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// What the callbacks share with the transfer loop.
struct Transfer {
  const BodySink* on_body = nullptr;
  const CancelToken* cancel = nullptr;
  CURL* easy = nullptr;
  size_t max_body_bytes = 0;
  size_t received = 0;
  std::string error_body;
  bool error_body_full = false;  // the error body reached kMaxErrorBody: the transfer was stopped there
  std::optional<std::chrono::milliseconds> retry_after;
  std::optional<Error> sink_error;  // set when the sink (or the byte cap) stopped the transfer
  std::chrono::steady_clock::time_point last_byte = std::chrono::steady_clock::now();
};

bool IsSuccess(long status) {
  return status >= 200 && status < 300;
}

size_t OnWrite(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const size_t n = size * count;
  t.last_byte = std::chrono::steady_clock::now();
  long status = 0;
  curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
  if (!IsSuccess(status)) {  // an error body: kept (bounded) for the message, never streamed
    t.error_body.append(data, std::min(n, kMaxErrorBody - std::min(kMaxErrorBody, t.error_body.size())));
    if (t.error_body.size() < kMaxErrorBody) return n;
    // Nothing past what is kept is read: an endpoint that streams an endless error body would hold the request
    // (and its memory) until the total timeout. Returning less than n stops the transfer with CURLE_WRITE_ERROR.
    t.error_body_full = true;
    return 0;
  }
  t.received += n;
  if (t.received > t.max_body_bytes) {
    t.sink_error = MakeError(ErrorKind::kLimitExceeded,
                             fmt::format("the LLM's reply passed {} bytes and was cut off", t.max_body_bytes));
    return 0;
  }
  if (Status s = (*t.on_body)(std::string_view(data, n)); !s) {
    t.sink_error = s.error();
    return 0;
  }
  return n;
}

// Retry-After in its delay-seconds form; the HTTP-date form is left to the caller's backoff.
size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const size_t n = size * count;
  t.last_byte = std::chrono::steady_clock::now();
  std::string_view line(data, n);
  constexpr std::string_view kName = "retry-after:";
  if (line.size() > kName.size()) {
    std::string head(line.substr(0, kName.size()));
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    if (head == kName) {
      std::string_view rest = line.substr(kName.size());
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
      double seconds = 0;
      size_t digits = 0;
      while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
      if (digits > 0 && digits <= 6) {
        seconds = std::stod(std::string(rest.substr(0, digits)));
        t.retry_after = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
      }
    }
  }
  return n;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& t = *static_cast<Transfer*>(user);
  return t.cancel->cancelled() ? 1 : 0;  // non-zero aborts with CURLE_ABORTED_BY_CALLBACK
}

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct MultiDeleter {
  void operator()(CURLM* m) const { curl_multi_cleanup(m); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// "http://127.0.0.1:4711" of "http://127.0.0.1:4711/v1/chat": errors name where, not the whole URL.
std::string Origin(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t path = url.find_first_of("/?#", scheme == std::string::npos ? 0 : scheme + 3);
  return support::RedactSecrets(path == std::string::npos ? url : url.substr(0, path));
}

Error CurlError(CURLcode code, const HttpRequest& request, const HttpLimits& limits, const char* detail) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return MakeError(
          ErrorKind::kLimitExceeded,
          fmt::format("the LLM at {} did not answer in time ({}; timeout {} ms, connect {} ms, stall "
                      "{} ms)",
                      Origin(request.url), detail, limits.total.count(), limits.connect.count(), limits.stall.count()));
    case CURLE_ABORTED_BY_CALLBACK:
      return MakeError(ErrorKind::kCancelled, "the LLM request was cancelled");
    default:
      return MakeError(ErrorKind::kInternal, fmt::format("could not reach the LLM at {}: {}", Origin(request.url),
                                                         *detail != '\0' ? detail : curl_easy_strerror(code)));
  }
}

void SetOptions(CURL* e, const HttpRequest& request, const HttpLimits& limits, curl_slist* headers, Transfer& t,
                char* error_buffer) {
  curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &OnWrite);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  curl_easy_setopt(e, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::min(limits.connect, limits.total).count()));
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(limits.total.count()));
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");  // identity or what libcurl can decode
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);   // a redirect would carry the key elsewhere
  // Only HTTP(S): a file:// or other URL would read what it names and hand it back as a "reply", leaking a local file.
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
}

// The multi interface rather than curl_easy_perform so that the loop wakes every 50 ms to look at the cancel token
// and the stall clock: the progress callback alone may wait up to a second on a silent connection, and libcurl's
// low-speed limit averages over seconds, so a burst hides a stall.
CURLcode Drive(CURLM* multi, const Transfer& t, const HttpLimits& limits, const CancelToken& cancel,
               char* error_buffer) {
  int running = 1;
  while (true) {
    if (curl_multi_perform(multi, &running) != CURLM_OK) return CURLE_FAILED_INIT;
    int queued = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
      if (msg->msg == CURLMSG_DONE) return msg->data.result;
    }
    if (running == 0) return CURLE_OK;
    if (cancel.cancelled()) return CURLE_ABORTED_BY_CALLBACK;
    if (std::chrono::steady_clock::now() - t.last_byte > limits.stall) {
      std::snprintf(error_buffer, CURL_ERROR_SIZE, "no data for %lld ms", static_cast<long long>(limits.stall.count()));
      return CURLE_OPERATION_TIMEDOUT;
    }
    curl_multi_poll(multi, nullptr, 0, 50, nullptr);
  }
}

}  // namespace

Expected<HttpOutcome> Post(const HttpRequest& request, const HttpLimits& limits, const BodySink& on_body,
                           const CancelToken& cancel) {
  GlobalInit();
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "the LLM request was cancelled");
  if (Status ok = CheckBaseUrl(request.url); !ok) {
    return MakeError(ErrorKind::kInvalidArgument, "the LLM's URL " + ok.error().message);
  }
  std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  std::unique_ptr<CURLM, MultiDeleter> multi(curl_multi_init());
  if (!easy || !multi) return MakeError(ErrorKind::kInternal, "libcurl could not start a transfer");
  Transfer t;
  t.on_body = &on_body;
  t.cancel = &cancel;
  t.easy = easy.get();
  t.max_body_bytes = limits.max_body_bytes;
  curl_slist* list = nullptr;
  for (const std::string& h : request.headers) {
    curl_slist* head = curl_slist_append(list, h.c_str());
    if (head == nullptr) {
      curl_slist_free_all(list);
      return MakeError(ErrorKind::kInternal, "libcurl could not build the request headers");
    }
    list = head;
  }
  std::unique_ptr<curl_slist, ListDeleter> headers(list);
  char error_buffer[CURL_ERROR_SIZE] = {0};
  SetOptions(easy.get(), request, limits, headers.get(), t, error_buffer);
  curl_multi_add_handle(multi.get(), easy.get());
  const CURLcode result = Drive(multi.get(), t, limits, cancel, error_buffer);
  curl_multi_remove_handle(multi.get(), easy.get());

  if (t.sink_error) return *t.sink_error;
  if (cancel.cancelled()) return MakeError(ErrorKind::kCancelled, "the LLM request was cancelled");
  if (result != CURLE_OK && !(result == CURLE_WRITE_ERROR && t.error_body_full)) {
    return CurlError(result, request, limits, error_buffer);
  }
  HttpOutcome outcome;
  curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &outcome.status);
  if (outcome.status < 100) {  // no HTTP status line: nothing it sent is shown
    return MakeError(ErrorKind::kBadInput, fmt::format("the LLM at {} did not answer with HTTP", Origin(request.url)));
  }
  outcome.error_body = std::move(t.error_body);
  outcome.retry_after = t.retry_after;
  return outcome;
}

bool SleepUnlessCancelled(std::chrono::milliseconds delay, const CancelToken& cancel) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (std::chrono::steady_clock::now() < until) {
    if (cancel.cancelled()) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(20), until - std::chrono::steady_clock::now()));
  }
  return !cancel.cancelled();
}

}  // namespace nsys::llm::internal
