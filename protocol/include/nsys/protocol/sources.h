#pragma once
// Kernel -> source: the LSP messages on the user's source files (textDocument/codeLens, hover on a range
// name, publishDiagnostics, workspace/executeCommand nsys-ai.revealRange, workspace/didChangeWatchedFiles) and
// nsys/kernelSources. See docs/protocol.md, "Kernel -> source".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "nsys/protocol/documents.h"
#include "nsys/protocol/methods.h"
#include "nsys/protocol/wire_fields.h"

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

// Hand-written reader and writer: the uri is nested in textDocument.
struct CodeLensParams {  // textDocument/codeLens
  std::string uri;       // textDocument.uri
  bool operator==(const CodeLensParams&) const = default;
};

// nsys-ai.revealRange's one argument: a range instance (capture-clock ns) of an open profile.
// Hand-written reader and writer: end must be after start.
struct RevealRangeArgs {
  std::string profile_id;  // "profileId"
  std::string name;
  int64_t start = 0;
  int64_t end = 0;
  bool operator==(const RevealRangeArgs&) const = default;
};

// Hand-written reader and writer: arguments left out when empty.
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
  static constexpr auto WireFields() {
    using S = CodeLens;
    return std::tuple{Field("range", &S::range), Field("command", &S::command)};
  }
  bool operator==(const CodeLens&) const = default;
};

// Hand-written reader and writer: an array, or null.
struct CodeLensResult {  // a JSON array of CodeLens
  std::vector<CodeLens> lenses;
  using WireShape = std::vector<CodeLens>;  // its JSON (shape.h)
  bool operator==(const CodeLensResult&) const = default;
};

// Hand-written reader and writer: arguments must be an array, [] when absent.
struct ExecuteCommandParams {  // workspace/executeCommand
  std::string command;
  Json arguments = Json::array();
  bool operator==(const ExecuteCommandParams&) const = default;
};

struct RangeKernelShape {  // a kernel of a revealed range
  std::string name;
  int64_t calls = 0;
  int64_t gpu_ns = 0;
  static constexpr auto WireFields() {
    using S = RangeKernelShape;
    return std::tuple{Field("name", &S::name), Field("calls", &S::calls), Field("gpuNs", &S::gpu_ns)};
  }
  bool operator==(const RangeKernelShape&) const = default;
};

struct RevealRangeResult {
  std::string url;  // the Perfetto opener page (as nsys/openInPerfetto's url)
  std::string name;
  std::vector<RangeKernelShape> kernels;  // most GPU time first, at most 20
  static constexpr auto WireFields() {
    using S = RevealRangeResult;
    return std::tuple{Field("url", &S::url), Field("name", &S::name), Field("kernels", &S::kernels)};
  }
  bool operator==(const RevealRangeResult&) const = default;
};

enum class FileChangeType { kCreated = 1, kChanged = 2, kDeleted = 3 };

// Hand-written reader and writer: type must be 1, 2 or 3.
struct FileEvent {
  std::string uri;
  FileChangeType type = FileChangeType::kChanged;
  bool operator==(const FileEvent&) const = default;
};

struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> changes;
  static constexpr auto WireFields() {
    using S = DidChangeWatchedFilesParams;
    return std::tuple{Field("changes", &S::changes)};
  }
  bool operator==(const DidChangeWatchedFilesParams&) const = default;
};

// Hand-written reader and writer: kernel must not be empty.
struct KernelSourcesParams {  // nsys/kernelSources
  std::string profile_id;     // "profileId"
  std::string kernel;         // short or demangled name
  bool operator==(const KernelSourcesParams&) const = default;
};

struct KernelSourceShape {
  std::string uri;
  Range range;  // the range name literal
  std::string name;
  double share = 0;  // of the kernel's GPU time in the profile
  int64_t gpu_ns = 0;
  int64_t calls = 0;
  static constexpr auto WireFields() {
    using S = KernelSourceShape;
    return std::tuple{Field("uri", &S::uri),     Field("range", &S::range),  Field("name", &S::name),
                      Field("share", &S::share), Field("gpuNs", &S::gpu_ns), Field("calls", &S::calls)};
  }
  bool operator==(const KernelSourceShape&) const = default;
};

struct KernelSourcesResult {
  std::string kernel;
  std::vector<KernelSourceShape> locations;
  static constexpr auto WireFields() {
    using S = KernelSourcesResult;
    return std::tuple{Field("kernel", &S::kernel), Field("locations", &S::locations)};
  }
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
