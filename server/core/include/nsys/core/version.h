#pragma once
#include <string_view>

namespace nsys::core {

// The nsys-ai version ("0.1.0"), for serverInfo and `nsys-ai version`.
std::string_view Version();

}  // namespace nsys::core
