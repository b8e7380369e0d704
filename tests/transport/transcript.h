#pragma once
// JSON-RPC transcripts (tests/transcripts/*.transcript) run against the real binary, over stdio or TCP.
//
// Format, one directive per line ('#' comments and blank lines are ignored):
//   >>> {json}        send the message, framed with Content-Length
//   >>>raw TEXT       send TEXT as raw bytes; escapes: \r \n \t \\ \xHH
//   >>>body TEXT      send TEXT (same escapes) as a body with a correct Content-Length header, JSON or not
//   <<< {json}        expect a message that matches (see below); consecutive <<< lines are satisfied in any order
//                     before the next >>> is sent; a reply the block did not expect fails the transcript
//   --- close         close the client's write side (stdin, or the socket's)
//   --- exit N        expect the server to end the session: exit code N over stdio, the connection closed over TCP
//   --- only stdio    (or tcp) run this transcript over that transport only
// Over TCP every `initialize` sent without initializationOptions.token gets the server's token added, so the same
// transcript authenticates there; one that sets a token keeps it (to test a wrong one).
// Matching: objects match when every expected member matches (extra members are fine: volatile fields are simply
// left out); arrays must have the same length; "${ANY}" matches any value; "${CONTAINS}text" matches a string that
// contains text. "${FIXTURES}" is replaced by the fixtures folder before parsing (transcripts that use it skip
// when the fixtures are absent). Server→client requests are answered with a null result.
#include <string>
#include <vector>

#include "rpc_client.h"

namespace nsys::testing {

struct TranscriptStep {
  enum class Kind { kSend, kSendRaw, kExpect, kClose, kExit };
  Kind kind = Kind::kSend;
  int line = 0;
  std::string bytes;  // kSend (framed), kSendRaw
  Json message;       // kSend
  Json expected;      // kExpect
  int exit_code = 0;  // kExit
};

struct Transcript {
  std::string name;
  bool needs_fixtures = false;
  std::string only;  // "", "stdio" or "tcp"
  std::vector<TranscriptStep> steps;
};

// Parses a transcript; `error` names the line of a bad directive.
bool ParseTranscript(const std::string& path, Transcript& out, std::string& error);
// True when `actual` matches `expected` by the rules above.
bool JsonMatches(const Json& expected, const Json& actual);
std::vector<std::string> TranscriptFiles();  // tests/transcripts/*.transcript, sorted

enum class TransportKind { kStdio, kTcp };
// Runs it; returns an empty string on success, else what went wrong (with the server's stderr tail).
std::string RunTranscript(const Transcript& transcript, TransportKind transport);

}  // namespace nsys::testing
