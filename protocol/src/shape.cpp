// The JSON shapes of protocol types (shape.h): the one non-template part, a struct's name.
#include "nsys/protocol/shape.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

namespace nsys::protocol {

std::string ShapeName(const std::type_info& type) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && demangled ? demangled.get() : type.name();
  // "nsys::protocol::AskResult" -> "AskResult"; a nested struct keeps its owner ("Owner::Inner" -> "OwnerInner").
  constexpr std::string_view kNamespace = "nsys::protocol::";
  if (name.starts_with(kNamespace)) name.erase(0, kNamespace.size());
  for (size_t at = name.find("::"); at != std::string::npos; at = name.find("::")) name.erase(at, 2);
  return name;
}

}  // namespace nsys::protocol
