#include "common_kernel_family.h"

#include <fmt/format.h>

#include <algorithm>

#include "common_gpu_ops.h"
#include "nsys/skills/kernel_names.h"

namespace nsys::skills::builtin {

ArgSpec FamilyArg() {
  std::string libraries;
  for (const std::string_view library : KernelLibraries())
    libraries += (libraries.empty() ? "" : ", ") + std::string(library);
  return {
      "family", ValueType::kString,
      fmt::format("Kernels only: those the kernel-name decoder (explain's) classifies so, each word a library ({}), "
                  "a kind of work (gemm, conv, attention, elementwise, reduction, softmax, norm, collective, copy, "
                  "fft) or an operation (fwd, bwd, ...), any case; empty = any",
                  libraries),
      Value(std::string())};
}

FamilyMatch::FamilyMatch(const engine::StringPool& strings, std::string_view family) : strings_(strings) {
  for (size_t at = 0; at < family.size();) {
    const size_t end = std::min(family.find(' ', at), family.size());
    if (end > at) words_.emplace_back(family.substr(at, end - at));
    at = end + 1;
  }
}

bool FamilyMatch::operator()(engine::StrId id) {
  if (words_.empty()) return true;
  if (id >= seen_.size()) seen_.resize(std::max<size_t>(id + 1, seen_.size() * 2), -1);
  if (seen_[id] < 0) {
    const KernelIdentity k = DecodeKernelName(strings_.view(id));
    const auto is = [](std::string_view field, std::string_view w) {
      return field.size() == w.size() && StartsWithNoCase(field, w);
    };
    seen_[id] =
        std::all_of(words_.begin(), words_.end(),
                    [&](std::string_view w) { return is(k.library, w) || is(k.category, w) || is(k.operation, w); })
            ? 1
            : 0;
  }
  return seen_[id] == 1;
}

}  // namespace nsys::skills::builtin
