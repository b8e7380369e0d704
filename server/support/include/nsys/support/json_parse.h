#pragma once
// The one parse of untrusted JSON text: a client's message body or MCP line, an LLM endpoint's reply and the tool
// arguments in it, a cache file. Total: it never throws, whatever the bytes.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace nsys::support {

// Deeper text is refused while parsing: nlohmann's parser is iterative, but code that walks the value (dump, copies,
// conversions) recurses, so a "[[[[...": 1 MB deep text must never become a value.
inline constexpr int kMaxNestingDepth = 512;

struct ParsedJson {
  nlohmann::json value;  // meaningful only when error is empty
  std::string error;     // why the text is not usable JSON (a client's message is answered -32700 with it)
  // The path of the first member name repeated within one object ("method", "params.args.limit", "[1].id"), or
  // empty. The value still holds the last of the repeated members, so a caller can echo a valid id in its error.
  std::string duplicate;
  // The root object's member names in the order the text gives them (a JSON object's value keeps them sorted), for
  // the few inputs whose order means something (a phase map: the first phase that matches wins).
  std::vector<std::string> root_keys;
};

// Checks, in order: well-formed UTF-8 (RFC 3629; the error names the byte offset), then JSON syntax, nesting up to
// kMaxNestingDepth, and numbers: one out of a double's range (1e400, -1e400, a 400-digit integer) is an error, not
// an exception. Duplicate member names are reported in every object, nested ones too: RFC 8259 leaves their meaning
// to each parser (some keep the first, some the last), so a client, a proxy and this server could read different
// values from the same text. Refusing them removes the ambiguity for one map lookup per member.
ParsedJson ParseJsonText(std::string_view text);

}  // namespace nsys::support
