#pragma once
// The one redaction of secrets in text that is logged or echoed in an error, so that no API key or token reaches a
// log file or a client: every log line passes through it (support::Log), and so do the LLM client's errors. Linear
// in the text, no regex.
#include <string>
#include <string_view>

namespace nsys::support {

inline constexpr std::string_view kRedacted = "[redacted]";

// `text` with these replaced by "[redacted]":
// - the string value of a JSON member whose name holds "token", "key", "secret", "password", "passwd",
//   "authorization" or "credential" (any case): {"token":"[redacted]"}, {"apiKey":"[redacted]"};
// - the user and password of a URL: http://[redacted]@host/;
// - the value of a parameter named key, api_key, apikey, api-key, token, access_token, auth, password, secret or sig
//   after '?', '&', ';', a space or the start: ?key=[redacted]&a=1, "token=[redacted]";
// - the rest of an "Authorization:", "Proxy-Authorization:", "x-api-key:" or "api-key:" header, and the word after
//   "Bearer ".
std::string RedactSecrets(std::string_view text);

}  // namespace nsys::support
