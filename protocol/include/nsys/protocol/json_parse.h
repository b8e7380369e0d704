#pragma once
// The JSON value of the wire, the one parse of untrusted JSON text (nsys/support/json_parse.h, shared with the LLM
// client and the caches) and what the wire adds to it.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "nsys/support/json_parse.h"

namespace nsys::protocol {

using Json = nlohmann::json;
using support::kMaxNestingDepth;
using support::ParsedJson;
using support::ParseJsonText;

// An object's members under their old names (the first of each pair) moved to their new ones, where the new name is
// absent: what an old method or tool name's params are read as. Anything but an object is returned as it is.
Json WithOldKeysRenamed(Json value, const std::vector<std::pair<std::string, std::string>>& old_to_new);

}  // namespace nsys::protocol
