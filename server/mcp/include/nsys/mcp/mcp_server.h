#pragma once
// nsys-ai as an MCP (Model Context Protocol) server, so coding agents can open profiles and run skills.
//
// Transport: MCP's stdio transport, one JSON-RPC 2.0 message per line (UTF-8, no Content-Length, no embedded
// newlines), replies on stdout, logs on stderr. Messages are parsed by nsys_protocol's ParseMessage, so malformed
// lines get the same -32700/-32600 errors as the LSP server (JSON-RPC batches included: refused).
//
// Batches: protocol version 2025-03-26 requires JSON-RPC batches (2025-06-18 removed them again), so a JSON array
// line is handled as a batch, answered by an array, only when that version was negotiated; otherwise it is refused
// with -32600 like in the LSP server.
//
// Methods: initialize, notifications/initialized, ping, tools/list, tools/call. Before `initialize`, only
// `initialize` and `ping` are answered; anything else gets -32002. The server is synchronous: one request at a
// time, in order, so notifications/cancelled is accepted and ignored (a request is answered before the next line
// is read).
//
// Tools (snake_case arguments): open_profile {path, no_cache?}, profile_info {profile_id}, list_skills {},
// run_skill {profile_id, skill, args?}. Results are one text content item holding compact JSON, the same shapes as
// the LSP methods nsys/openProfile, nsys/listSkills (with the common arguments listed) and nsys/runSkill. A tool
// that fails (bad arguments, a missing file, a skill error) returns isError: true with the message as text, so the
// model can correct itself; an unknown tool name is a JSON-RPC -32602 error.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/core/workspace.h"
#include "nsys/protocol/jsonrpc.h"

namespace nsys::mcp {

// The protocol versions this server speaks; the tools subset it uses is the same in all of them. A client asking
// for one of these gets it back; any other request gets the latest (the spec's rule), and the client decides.
const std::vector<std::string>& SupportedProtocolVersions();
inline constexpr std::string_view kLatestProtocolVersion = "2025-06-18";

// Lines longer than this are answered with a parse error without being buffered whole.
inline constexpr size_t kMaxLineBytes = 64u * 1024u * 1024u;

class McpServer {
 public:
  explicit McpServer(core::Workspace& workspace);

  // Handles one line (without its newline; a trailing '\r' is ignored). Returns the reply line to write (without a
  // newline), or nullopt for notifications, responses and blank lines. Never throws.
  std::optional<std::string> HandleLine(std::string_view line);

  // Reads lines from `in` until EOF, writing each reply and a newline to `out` and flushing. Returns 0 at EOF,
  // 1 when `out` fails (the client went away).
  int Run(std::istream& in, std::ostream& out);

  bool initialized() const { return initialized_; }
  const std::string& protocol_version() const { return protocol_version_; }  // empty before initialize

 private:
  std::optional<std::string> HandleBatch(std::string_view line);
  protocol::Response HandleRequest(const protocol::Request& request);
  protocol::Response Initialize(const protocol::Request& request);
  protocol::Json ListTools() const;
  protocol::Response CallTool(const protocol::Request& request);

  core::Workspace& workspace_;
  bool initialized_ = false;
  std::string protocol_version_;
  std::string client_name_;
};

// Serves MCP on stdin/stdout with a Workspace built from `config`, until stdin closes. For `nsys-ai mcp`.
int RunMcpStdio(const core::WorkspaceConfig& config);

}  // namespace nsys::mcp
