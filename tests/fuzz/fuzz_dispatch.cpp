// libFuzzer target: arbitrary bytes → FrameDecoder → ParseMessage → the real dispatcher with the product bind table,
// in synchronous mode (InlineExecutor) over a real Workspace. Checks that nothing crashes and that everything the
// server sends back is a well-framed, parseable JSON-RPC message.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_dispatch
//   ./build-asan/tests/fuzz/fuzz_dispatch -runs=20000 tests/fuzz/corpus
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "nsys/core/workspace.h"
#include "nsys/lsp/session.h"
#include "nsys/protocol/framing.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/support/executor.h"
#include "nsys/support/log.h"

namespace {

nsys::core::WorkspaceConfig FuzzConfig() {
  nsys::core::WorkspaceConfig config;
  config.default_skill_dirs = false;              // nothing from $HOME
  config.open.use_cache = false;                  // never write a cache
  config.open.load_all_in_background = false;     // no threads outliving the input
  config.open.nsys_binary = "/nonexistent/nsys";  // never convert a .nsys-rep
  return config;
}

void CheckOutput(const std::string& bytes) {
  nsys::protocol::FrameDecoder decoder;
  for (const auto& frame : decoder.Feed(bytes)) {
    if (frame.kind != nsys::protocol::Frame::Kind::kBody) {
      std::fprintf(stderr, "the server sent a bad frame: %s\n", frame.error.c_str());
      std::abort();
    }
    auto parsed = nsys::protocol::ParseMessage(frame.body);
    if (!parsed.message) {
      std::fprintf(stderr, "the server sent an unparseable message: %s\n", frame.body.c_str());
      std::abort();
    }
  }
  if (decoder.HasPartial()) {
    std::fprintf(stderr, "the server sent a truncated frame\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    nsys::support::SetLogLevel(nsys::support::LogLevel::kError);
    return true;
  }();
  (void)quiet;
  static nsys::support::InlineExecutor executor;
  nsys::core::Workspace workspace(FuzzConfig());
  std::string output;
  {
    nsys::lsp::Session session(workspace, executor, [&output](std::string bytes) { output += bytes; });
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    // Two splits of the same bytes must not matter to the decoder: feed the first byte's worth separately.
    const size_t split = size > 0 ? data[0] % (size + 1) : 0;
    session.OnBytes(input.substr(0, split));
    session.OnBytes(input.substr(split));
    session.OnDisconnect();
  }
  CheckOutput(output);
  return 0;
}
