#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "nsys/protocol/framing.h"
#include "transcript.h"

namespace nsys::testing {
namespace {

constexpr auto kStepTimeout = std::chrono::seconds(60);

std::string Unescape(const std::string& text, std::string& error) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    if (c == 'r')
      out += '\r';
    else if (c == 'n')
      out += '\n';
    else if (c == 't')
      out += '\t';
    else if (c == '\\')
      out += '\\';
    else if (c == 'x' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
             std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      error = fmt::format("unknown escape \\{}", c);
    }
  }
  return out;
}

std::string Tail(const std::string& text, size_t n = 3000) {
  return text.size() <= n ? text : text.substr(text.size() - n);
}

bool IsResponse(const Json& m) {
  return m.contains("id") && !m.contains("method");
}

// The step's bytes, with `token` put in an `initialize` that has none (TCP; `token` is empty over stdio).
std::string WithToken(const TranscriptStep& step, const std::string& token) {
  const Json& m = step.message;
  if (token.empty() || !m.is_object() || m.value("method", "") != "initialize" || !m.contains("params")) {
    return step.bytes;
  }
  Json with = m;
  Json& options = with["params"]["initializationOptions"];
  if (options.is_null()) options = Json::object();
  if (!options.is_object() || options.contains("token")) return step.bytes;
  options["token"] = token;
  return protocol::EncodeFrame(with.dump());
}

}  // namespace

bool JsonMatches(const Json& expected, const Json& actual) {
  if (expected.is_string()) {
    const auto& e = expected.get_ref<const std::string&>();
    if (e == "${ANY}") return true;
    if (e.rfind("${CONTAINS}", 0) == 0) {
      return actual.is_string() && actual.get_ref<const std::string&>().find(e.substr(11)) != std::string::npos;
    }
  }
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      auto found = actual.find(it.key());
      if (found == actual.end() || !JsonMatches(it.value(), *found)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (!JsonMatches(expected[i], actual[i])) return false;
    }
    return true;
  }
  return expected == actual;
}

bool ParseTranscript(const std::string& path, Transcript& out, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return false;
  }
  out.name = std::filesystem::path(path).stem().string();
  std::string line;
  int number = 0;
  const std::string fixtures = FixturesDir();
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (line.find("${FIXTURES}") != std::string::npos) {
      out.needs_fixtures = true;
      for (size_t at; (at = line.find("${FIXTURES}")) != std::string::npos;) line.replace(at, 11, fixtures);
    }
    TranscriptStep step;
    step.line = number;
    auto parse_json = [&](const std::string& text, Json& json) {
      json = Json::parse(text, nullptr, false);
      if (json.is_discarded()) error = fmt::format("{}:{}: not JSON: {}", path, number, text);
      return !json.is_discarded();
    };
    if (line.rfind(">>>raw ", 0) == 0) {
      step.kind = TranscriptStep::Kind::kSendRaw;
      step.bytes = Unescape(line.substr(7), error);
    } else if (line.rfind(">>>body ", 0) == 0) {
      step.kind = TranscriptStep::Kind::kSendRaw;
      step.bytes = protocol::EncodeFrame(Unescape(line.substr(8), error));
    } else if (line.rfind(">>> ", 0) == 0) {
      Json json;
      if (!parse_json(line.substr(4), json)) return false;
      step.kind = TranscriptStep::Kind::kSend;
      step.bytes = protocol::EncodeFrame(json.dump());
      step.message = std::move(json);
    } else if (line.rfind("<<< ", 0) == 0) {
      step.kind = TranscriptStep::Kind::kExpect;
      if (!parse_json(line.substr(4), step.expected)) return false;
    } else if (line == "--- only stdio" || line == "--- only tcp") {
      out.only = line.substr(9);
      continue;
    } else if (line == "--- close") {
      step.kind = TranscriptStep::Kind::kClose;
    } else if (line.rfind("--- exit ", 0) == 0) {
      step.kind = TranscriptStep::Kind::kExit;
      step.exit_code = std::stoi(line.substr(9));
    } else {
      error = fmt::format("{}:{}: unknown directive: {}", path, number, line);
    }
    if (!error.empty()) return false;
    out.steps.push_back(std::move(step));
  }
  return true;
}

std::vector<std::string> TranscriptFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(NSYS_AI_TEST_DATA_DIR) + "/transcripts")) {
    if (entry.is_regular_file() && entry.path().extension() == ".transcript") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string RunTranscript(const Transcript& transcript, TransportKind transport) {
  std::unique_ptr<Subprocess> process;
  std::unique_ptr<FramedConnection> connection;
  std::shared_ptr<void> token_dir;  // outlives the process
  std::string token;
  if (transport == TransportKind::kStdio) {
    process = std::make_unique<Subprocess>(std::vector<std::string>{NsysAiBinary(), "serve", "--stdio", "--no-cache"});
    connection = std::make_unique<FramedConnection>(process->stdout_fd(), process->stdin_fd(), false);
  } else {
    auto server = StartTcpServer({"--no-cache"});
    if (server.port == 0) return "the TCP server did not report its port; stderr:\n" + server.process->Stderr();
    token_dir = server.temp_dir;
    token = server.token;
    process = std::move(server.process);
    const int fd = ConnectTcp(server.port);
    if (fd < 0) return fmt::format("cannot connect to port {}", server.port);
    connection = std::make_unique<FramedConnection>(fd, fd, true);
  }
  auto fail = [&](const std::string& what) {
    std::string pending;
    for (const auto& m : connection->Pending()) pending += "  " + m.dump() + "\n";
    return fmt::format("{}\nunmatched messages from the server:\n{}server stderr (tail):\n{}", what, pending,
                       Tail(process->Stderr()));
  };

  std::vector<const TranscriptStep*> expectations;
  auto flush = [&]() -> std::string {
    for (const auto* step : expectations) {
      auto found = connection->Take([&](const Json& m) { return JsonMatches(step->expected, m); }, kStepTimeout);
      if (!found) return fail(fmt::format("line {}: no message matched {}", step->line, step->expected.dump()));
    }
    expectations.clear();
    for (const auto& m : connection->Pending()) {
      if (IsResponse(m)) return fail("a reply the transcript did not expect: " + m.dump());
    }
    return {};
  };

  for (const auto& step : transcript.steps) {
    if (step.kind != TranscriptStep::Kind::kExpect) {
      if (auto problem = flush(); !problem.empty()) return problem;
    }
    switch (step.kind) {
      case TranscriptStep::Kind::kSend:
        connection->SendRaw(WithToken(step, token));
        break;
      case TranscriptStep::Kind::kSendRaw:
        connection->SendRaw(step.bytes);
        break;
      case TranscriptStep::Kind::kExpect:
        expectations.push_back(&step);
        break;
      case TranscriptStep::Kind::kClose:
        connection->CloseWrite();
        if (transport == TransportKind::kStdio) process->CloseStdin();  // the process owns the pipe
        break;
      case TranscriptStep::Kind::kExit:
        if (transport == TransportKind::kStdio) {
          const auto code = process->Wait(kStepTimeout);
          if (!code) return fail(fmt::format("line {}: the server did not exit", step.line));
          if (*code != step.exit_code) {
            return fail(fmt::format("line {}: exit code {}, expected {}", step.line, *code, step.exit_code));
          }
        } else if (!connection->WaitForEof(kStepTimeout)) {
          return fail(fmt::format("line {}: the server did not close the connection", step.line));
        }
        break;
    }
  }
  if (auto problem = flush(); !problem.empty()) return problem;
  if (auto errors = connection->FramingErrors(); !errors.empty())
    return fail("bad framing from the server: " + errors[0]);
  if (transport == TransportKind::kTcp) {
    // The server must have survived whatever this client did: it still accepts and answers.
    process->Signal(SIGTERM);
    const auto code = process->Wait(kStepTimeout);
    if (code != 0) return fail(fmt::format("the TCP server exited with {} on SIGTERM", code.value_or(-1)));
  }
  return {};
}

}  // namespace nsys::testing
