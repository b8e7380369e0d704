#pragma once
// Driving the real nsys-ai binary: a subprocess with pipes, a framed JSON-RPC connection over any pair of file
// descriptors (the child's stdio, or a TCP socket), and `serve --listen` with its port read from stderr.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace nsys::testing {

using Json = nlohmann::json;

class Subprocess {
 public:
  // Starts `argv[0]` with `argv`; its stdin/stdout are pipes, stderr is collected.
  explicit Subprocess(const std::vector<std::string>& argv);
  ~Subprocess();  // kills the child if it still runs
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  int stdin_fd() const { return stdin_fd_; }
  int stdout_fd() const { return stdout_fd_; }
  void CloseStdin();
  // Waits for the child to exit; nullopt on timeout. The exit code, or 128+signal when killed.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  void Signal(int signal);
  std::string Stderr();
  // Waits until stderr contains `text`; returns false on timeout or when the child exits first.
  bool WaitForStderr(const std::string& text, std::chrono::milliseconds timeout);
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  std::optional<int> exit_code_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string stderr_;
  bool stderr_closed_ = false;
  std::thread stderr_reader_;
};

// Content-Length framed JSON-RPC over a read fd and a write fd (the same fd for a socket).
class FramedConnection {
 public:
  FramedConnection(int read_fd, int write_fd, bool owns_fds);
  ~FramedConnection();

  void SendRaw(const std::string& bytes);
  void Send(const Json& message);
  // Shuts the write side (a socket's, or closes the write fd).
  void CloseWrite();
  // Stops reading and closes the descriptors it owns (a client that vanishes).
  void Abort();

  // Waits for a message matching `predicate` that has not been taken yet, takes it and returns it.
  std::optional<Json> Take(const std::function<bool(const Json&)>& predicate, std::chrono::milliseconds timeout);
  Json AwaitReply(const Json& id, std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Messages received and not taken.
  std::vector<Json> Pending();
  // True once the peer closed its side (EOF).
  bool WaitForEof(std::chrono::milliseconds timeout);
  // If set, runs (on the reader thread) for every server→client request; the default answers {"result": null}.
  void AnswerServerRequests(bool answer) { answer_requests_ = answer; }
  // Framing problems seen in what the server sent (must stay empty).
  std::vector<std::string> FramingErrors();

 private:
  void ReadLoop();

  int read_fd_, write_fd_;
  bool owns_fds_;
  bool answer_requests_ = true;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Json> received_;
  std::vector<std::string> framing_errors_;
  bool eof_ = false;
  std::mutex write_mu_;
  bool write_closed_ = false;
  std::atomic<bool> stop_{false};
  std::thread reader_;
};

// Connects to 127.0.0.1:port; returns the socket fd or -1.
int ConnectTcp(int port);
// A framed connection to 127.0.0.1:port (a failed connect fails the test).
std::unique_ptr<FramedConnection> Connect(int port);

// Starts `nsys-ai serve --listen 127.0.0.1:0 [extra...]` and reads the port and the token file from its stderr
// ("listening on 127.0.0.1:PORT (token in PATH)"). Unless `extra_args` names one, the token file goes in a fresh
// private temporary folder (removed with the struct).
struct TcpServerProcess {
  std::shared_ptr<void> temp_dir;  // declared first: removed after the process is gone
  std::unique_ptr<Subprocess> process;
  int port = 0;
  std::string token_file;
  std::string token;  // the token file's content (without the newline)
};
TcpServerProcess StartTcpServer(const std::vector<std::string>& extra_args = {});

// `initialize` params with initializationOptions.token (and the other options given).
Json InitializeParams(const std::string& token, Json initialization_options = Json::object());
// Sends `initialize` with the token (id "init") and `initialized`; returns the reply.
Json InitializeWithToken(FramedConnection& connection, const std::string& token);

std::string NsysAiBinary();

// Runs the binary to completion with the given args (stdin closed); returns {exit code, stdout, stderr}.
struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
RunResult RunNsysAi(const std::vector<std::string>& args,
                    std::chrono::milliseconds timeout = std::chrono::seconds(120));

}  // namespace nsys::testing
