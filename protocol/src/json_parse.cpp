#include "nsys/protocol/json_parse.h"

#include <string>
#include <utility>
#include <vector>

namespace nsys::protocol {

Json WithOldKeysRenamed(Json value, const std::vector<std::pair<std::string, std::string>>& old_to_new) {
  if (!value.is_object()) return value;
  for (const auto& [old_key, new_key] : old_to_new) {
    auto it = value.find(old_key);
    if (it == value.end() || value.contains(new_key)) continue;
    value[new_key] = std::move(*it);
    value.erase(old_key);
  }
  return value;
}

}  // namespace nsys::protocol
