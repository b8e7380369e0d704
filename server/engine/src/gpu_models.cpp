#include "nsys/engine/gpu_models.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace nsys::engine {
namespace {

struct Entry {
  std::string_view key;  // the model's words, lower case, as LookUpGpuModel reduces a name
  GpuModel model;
};

// SM counts and compute capabilities from NVIDIA's published specifications (the CUDA C++ Programming Guide's list
// of GPUs by compute capability and each product's core count / 64 or 128 cores per SM).
constexpr Entry kModels[] = {
    // Pascal
    {"p100", {56, 6, 0}},
    {"p40", {30, 6, 1}},
    {"p4", {20, 6, 1}},
    {"titan xp", {30, 6, 1}},
    {"gtx 1080 ti", {28, 6, 1}},
    {"gtx 1080", {20, 6, 1}},
    {"gtx 1070 ti", {19, 6, 1}},
    {"gtx 1070", {15, 6, 1}},
    {"gtx 1060 3gb", {9, 6, 1}},
    {"gtx 1060", {10, 6, 1}},
    {"gtx 1050 ti", {6, 6, 1}},
    // Volta
    {"v100", {80, 7, 0}},
    {"v100s", {80, 7, 0}},
    {"titan v", {80, 7, 0}},
    // Turing
    {"t4", {40, 7, 5}},
    {"titan rtx", {72, 7, 5}},
    {"rtx 8000", {72, 7, 5}},
    {"rtx 6000", {72, 7, 5}},
    {"rtx 5000", {48, 7, 5}},
    {"rtx 4000", {36, 7, 5}},
    {"rtx 2080 ti", {68, 7, 5}},
    {"rtx 2080 super", {48, 7, 5}},
    {"rtx 2080", {46, 7, 5}},
    {"rtx 2070 super", {40, 7, 5}},
    {"rtx 2070", {36, 7, 5}},
    {"rtx 2060 super", {34, 7, 5}},
    {"rtx 2060", {30, 7, 5}},
    {"gtx 1660 ti", {24, 7, 5}},
    {"gtx 1660 super", {22, 7, 5}},
    {"gtx 1660", {22, 7, 5}},
    {"gtx 1650 super", {20, 7, 5}},
    {"gtx 1650", {14, 7, 5}},
    // Ampere
    {"a100", {108, 8, 0}},
    {"a800", {108, 8, 0}},
    {"a30", {56, 8, 0}},
    {"a40", {84, 8, 6}},
    {"a10", {72, 8, 6}},
    {"a10g", {80, 8, 6}},
    {"a2", {10, 8, 6}},
    {"rtx a6000", {84, 8, 6}},
    {"rtx a5000", {64, 8, 6}},
    {"rtx a4000", {48, 8, 6}},
    {"rtx a2000", {26, 8, 6}},
    {"rtx 3090 ti", {84, 8, 6}},
    {"rtx 3090", {82, 8, 6}},
    {"rtx 3080 ti", {80, 8, 6}},
    {"rtx 3080 12gb", {70, 8, 6}},
    {"rtx 3080", {68, 8, 6}},
    {"rtx 3070 ti", {48, 8, 6}},
    {"rtx 3070", {46, 8, 6}},
    {"rtx 3060 ti", {38, 8, 6}},
    {"rtx 3060", {28, 8, 6}},
    {"rtx 3050", {20, 8, 6}},
    {"rtx 3080 laptop", {48, 8, 6}},
    {"rtx 3070 laptop", {40, 8, 6}},
    {"rtx 3060 laptop", {30, 8, 6}},
    // Ada
    {"l4", {58, 8, 9}},
    {"l40", {142, 8, 9}},
    {"l40s", {142, 8, 9}},
    {"rtx 6000 ada", {142, 8, 9}},
    {"rtx 4090", {128, 8, 9}},
    {"rtx 4080 super", {80, 8, 9}},
    {"rtx 4080", {76, 8, 9}},
    {"rtx 4070 ti super", {66, 8, 9}},
    {"rtx 4070 ti", {60, 8, 9}},
    {"rtx 4070 super", {56, 8, 9}},
    {"rtx 4070", {46, 8, 9}},
    {"rtx 4060 ti", {34, 8, 9}},
    {"rtx 4060", {24, 8, 9}},
    {"rtx 4090 laptop", {76, 8, 9}},
    {"rtx 4080 laptop", {58, 8, 9}},
    {"rtx 4070 laptop", {36, 8, 9}},
    {"rtx 4060 laptop", {24, 8, 9}},
    {"rtx 4050 laptop", {20, 8, 9}},
    // Hopper
    {"h100", {132, 9, 0}},
    {"h100 pcie", {114, 9, 0}},
    {"h800", {132, 9, 0}},
    {"h200", {132, 9, 0}},
    {"h20", {78, 9, 0}},
    {"gh200", {132, 9, 0}},
    // Blackwell
    {"b200", {148, 10, 0}},
    {"rtx 5090", {170, 12, 0}},
    {"rtx 5080", {84, 12, 0}},
    {"rtx 5070 ti", {70, 12, 0}},
    {"rtx 5070", {48, 12, 0}},
};

bool IsVendorWord(std::string_view w) {
  return w == "nvidia" || w == "geforce" || w == "tesla" || w == "quadro" || w == "gpu" || w == "generation";
}
bool IsMemoryWord(std::string_view w) {  // "40gb", "12gb"
  return w.size() > 2 && w.substr(w.size() - 2) == "gb" &&
         std::all_of(w.begin(), w.end() - 2, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}
bool IsBoardWord(std::string_view w) {  // form factor and memory type: the same chip
  return w.rfind("sxm", 0) == 0 || w.rfind("hbm", 0) == 0 || w == "pcie" || w == "nvl";
}

std::optional<GpuModel> Find(const std::vector<std::string>& words) {
  std::string key;
  for (const auto& w : words) key += (key.empty() ? "" : " ") + w;
  for (const Entry& e : kModels) {
    if (e.key == key) return e.model;
  }
  return std::nullopt;
}

}  // namespace

std::optional<GpuModel> LookUpGpuModel(std::string_view name) {
  if (name.size() > 256) return std::nullopt;
  std::vector<std::string> words;
  std::string word;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  std::erase_if(words, [](const std::string& w) { return IsVendorWord(w); });
  if (words.empty()) return std::nullopt;
  // The whole name first, then without the memory size, then without the board words too.
  if (auto m = Find(words)) return m;
  std::erase_if(words, [](const std::string& w) { return IsMemoryWord(w); });
  if (auto m = Find(words)) return m;
  std::erase_if(words, [](const std::string& w) { return IsBoardWord(w); });
  return Find(words);
}

std::optional<SmLimits> SmLimitsOf(int32_t major, int32_t minor) {
  constexpr int32_t kRegisters = 64 * 1024;
  constexpr int64_t kKiB = 1024;
  switch (major * 10 + minor) {
    case 60:
      return SmLimits{64, 32, kRegisters, 64 * kKiB};
    case 61:
      return SmLimits{64, 32, kRegisters, 96 * kKiB};
    case 70:
      return SmLimits{64, 32, kRegisters, 96 * kKiB};
    case 75:
      return SmLimits{32, 16, kRegisters, 64 * kKiB};
    case 80:
      return SmLimits{64, 32, kRegisters, 164 * kKiB};
    case 86:
      return SmLimits{48, 16, kRegisters, 100 * kKiB};
    case 89:
      return SmLimits{48, 24, kRegisters, 100 * kKiB};
    case 90:
      return SmLimits{64, 32, kRegisters, 228 * kKiB};
    default:
      return std::nullopt;
  }
}

}  // namespace nsys::engine
