#pragma once
// The TCP server's secret (docs: protocol.md, "TCP authentication"): 32 random bytes, hex-encoded, written at start
// to a file only the server's user can read. A client proves it runs as that user by reading the file and sending
// the token in `initialize` (initializationOptions.token), as Jupyter and VS Code's servers do.
#include <cstdint>
#include <string>

#include "nsys/support/expected.h"

namespace nsys::transport {

// 64 hex digits from getrandom(2).
Expected<std::string> NewToken();

// $XDG_RUNTIME_DIR/nsys-ai/serve-<port>.token when XDG_RUNTIME_DIR is a directory, else
// ${XDG_CACHE_HOME:-~/.cache}/nsys-ai/run/serve-<port>.token.
std::string DefaultTokenPath(uint16_t port);

// The token file while the server runs: created fresh (an existing file or link at the path is replaced, never
// followed) with mode 0600, in a directory created 0700 when missing; removed by Remove() or the destructor.
class TokenFile {
 public:
  TokenFile() = default;
  ~TokenFile() { Remove(); }
  TokenFile(const TokenFile&) = delete;
  TokenFile& operator=(const TokenFile&) = delete;

  Status Write(const std::string& path, const std::string& token);
  void Remove();
  const std::string& path() const { return path_; }

 private:
  std::string path_;  // empty when nothing is written
};

}  // namespace nsys::transport
