#pragma once
// Kernel -> source: the LSP messages on the user's source files (textDocument/codeLens, hover on a range
// name, publishDiagnostics, workspace/executeCommand nsys-ai.revealRange, workspace/didChangeWatchedFiles) and
// nsys/kernelSources. See docs/protocol.md, "Kernel -> source".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nsys/protocol/documents.h"
#include "nsys/protocol/methods.h"

namespace nsys::protocol {

namespace method {
inline constexpr std::string_view kCodeLens = "textDocument/codeLens";
inline constexpr std::string_view kExecuteCommand = "workspace/executeCommand";
inline constexpr std::string_view kDidChangeWatchedFiles = "workspace/didChangeWatchedFiles";
inline constexpr std::string_view kCodeLensRefresh = "workspace/codeLens/refresh";  // server -> client
inline constexpr std::string_view kKernelSources = "nsys/kernelSources";
}  // namespace method

// The command of a lens, and what workspace/executeCommand runs.
inline constexpr std::string_view kRevealRangeCommand = "nsys-ai.revealRange";

struct CodeLensParams {  // textDocument/codeLens
  std::string uri;       // textDocument.uri
  bool operator==(const CodeLensParams&) const = default;
};

// nsys-ai.revealRange's one argument: a range instance (capture-clock ns) of an open profile.
struct RevealRangeArgs {
  std::string profile_id;  // "profileId"
  std::string name;
  int64_t start = 0;
  int64_t end = 0;
  bool operator==(const RevealRangeArgs&) const = default;
};

struct LensCommand {  // LSP Command
  std::string title;
  std::string command;
  std::vector<RevealRangeArgs> arguments;
  bool operator==(const LensCommand&) const = default;
};

struct CodeLens {
  Range range;
  // Every lens carries its title in a command (LSP shows a lens's command title); a range that did not run has
  // an empty command name (nothing to run).
  LensCommand command;
  bool operator==(const CodeLens&) const = default;
};

struct CodeLensResult {  // a JSON array of CodeLens
  std::vector<CodeLens> lenses;
  bool operator==(const CodeLensResult&) const = default;
};

struct ExecuteCommandParams {  // workspace/executeCommand
  std::string command;
  Json arguments = Json::array();
  bool operator==(const ExecuteCommandParams&) const = default;
};

struct RangeKernelShape {  // a kernel of a revealed range
  std::string name;
  int64_t calls = 0;
  int64_t gpu_ns = 0;  // "gpuNs"
  bool operator==(const RangeKernelShape&) const = default;
};

struct RevealRangeResult {
  std::string url;  // the Perfetto opener page (as nsys/openInPerfetto's url)
  std::string name;
  std::vector<RangeKernelShape> kernels;  // most GPU time first, at most 20
  bool operator==(const RevealRangeResult&) const = default;
};

enum class FileChangeType { kCreated = 1, kChanged = 2, kDeleted = 3 };

struct FileEvent {
  std::string uri;
  FileChangeType type = FileChangeType::kChanged;
  bool operator==(const FileEvent&) const = default;
};

struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> changes;
  bool operator==(const DidChangeWatchedFilesParams&) const = default;
};

struct KernelSourcesParams {  // nsys/kernelSources
  std::string profile_id;     // "profileId"
  std::string kernel;         // short or demangled name
  bool operator==(const KernelSourcesParams&) const = default;
};

struct KernelSourceShape {
  std::string uri;
  Range range;  // the range name literal
  std::string name;
  double share = 0;    // of the kernel's GPU time in the profile
  int64_t gpu_ns = 0;  // "gpuNs"
  int64_t calls = 0;
  bool operator==(const KernelSourceShape&) const = default;
};

struct KernelSourcesResult {
  std::string kernel;
  std::vector<KernelSourceShape> locations;
  bool operator==(const KernelSourcesResult&) const = default;
};

#define NSYS_SOURCE_CONVERSIONS(Type)                                  \
  void FromJson(const Json& json, Type& out, const std::string& path); \
  void to_json(Json& json, const Type& value);
NSYS_SOURCE_CONVERSIONS(CodeLensParams)
NSYS_SOURCE_CONVERSIONS(RevealRangeArgs)
NSYS_SOURCE_CONVERSIONS(LensCommand)
NSYS_SOURCE_CONVERSIONS(CodeLens)
NSYS_SOURCE_CONVERSIONS(CodeLensResult)
NSYS_SOURCE_CONVERSIONS(ExecuteCommandParams)
NSYS_SOURCE_CONVERSIONS(RangeKernelShape)
NSYS_SOURCE_CONVERSIONS(RevealRangeResult)
NSYS_SOURCE_CONVERSIONS(FileEvent)
NSYS_SOURCE_CONVERSIONS(DidChangeWatchedFilesParams)
NSYS_SOURCE_CONVERSIONS(KernelSourcesParams)
NSYS_SOURCE_CONVERSIONS(KernelSourceShape)
NSYS_SOURCE_CONVERSIONS(KernelSourcesResult)
#undef NSYS_SOURCE_CONVERSIONS

}  // namespace nsys::protocol
