#pragma once
// Paths and client input in the text a client reads: any path must survive the round trip, and no quoted input may
// flood or corrupt a reply. Two rules, one place:
//
//  - THE JSON form of a file path, on every face (CLI --format json, LSP, MCP): the path itself when its bytes are
//    valid UTF-8 and it does not start with "file:"; otherwise its file:// URI (RFC 8089: every byte but ASCII
//    letters, digits, "-._~/" percent-encoded as %XX), which is lossless for any byte. Every parameter that takes a
//    path takes either form back (PathFromText), so a client can send any path it was given and open the same file.
//    A relative path that needs the URI form is made absolute first (a URI has no relative form).
//  - What an error message or a note quotes from its input (a path, an id, a name): valid UTF-8 (a byte that is not
//    part of a UTF-8 sequence is written \xHH) and at most kQuotedInputBytes of it, then "… (N bytes)"; and every
//    error message a face sends at most kErrorMessageBytes, by the same function.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace nsys::support {

inline constexpr size_t kQuotedInputBytes = 256;
// Every error message a face sends (LSP, MCP, the CLI's stderr) is QuoteInput(message, kErrorMessageBytes): a message
// that quoted its input whole is still bounded, and always valid UTF-8.
inline constexpr size_t kErrorMessageBytes = 4096;

// The length of the well-formed UTF-8 sequence at text[i] (i < text.size(): shortest forms only, no surrogates, at
// most U+10FFFF), or 0 when the byte there does not start one. The one UTF-8 check of the project.
size_t Utf8SequenceAt(std::string_view text, size_t i);

// The code point of the `n`-byte sequence at text[i], `n` being what Utf8SequenceAt gave (at least 1).
uint32_t Utf8CodePoint(std::string_view text, size_t i, size_t n);

// Whether `text` is well-formed UTF-8 (every sequence as Utf8SequenceAt reads it).
bool IsValidUtf8(std::string_view text);

// A file:// URI of an absolute path: every byte but ASCII letters, digits and "-._~/" as %XX (upper-case hex).
std::string FileUri(std::string_view absolute_path);

// The JSON form of a path (above).
std::string PathToText(std::string_view path);

// A path from its JSON form: a file:// URI percent-decoded (a host part is dropped: file://host/p is /p), anything
// else as it is. PathFromText(PathToText(p)) names the file p names, byte for byte when p is absolute.
std::string PathFromText(std::string_view text);

// `text` as valid UTF-8: each byte that is not part of a well-formed sequence becomes the four characters \xHH.
std::string DisplayText(std::string_view text);

// What a message quotes of its input: DisplayText of at most `max_bytes` of `text` (cut on a character boundary),
// followed by "… (N bytes)" when it was cut.
std::string QuoteInput(std::string_view text, size_t max_bytes = kQuotedInputBytes);

}  // namespace nsys::support
