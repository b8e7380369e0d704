#include "nsys/core/version.h"

#ifndef NSYS_AI_VERSION
#error "NSYS_AI_VERSION must be defined by the build (server/CMakeLists.txt)"
#endif

namespace nsys::core {

std::string_view Version() {
  return NSYS_AI_VERSION;
}

}  // namespace nsys::core
