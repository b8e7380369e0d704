#pragma once
// Internal to nsys_mcp: where McpServer::Serve reads its lines from.
#include <signal.h>

#include <chrono>
#include <iosfwd>
#include <istream>
#include <string>

#include "nsys/mcp/mcp_server.h"

namespace nsys::mcp {

// Lines of a std::istream (tests, Run). Never asked to stop.
class StreamLineSource final : public LineSource {
 public:
  explicit StreamLineSource(std::istream& in) : in_(in) {}
  Status Next(std::string& line) override;
  bool StopRequested(std::chrono::milliseconds) override { return false; }

 private:
  std::istream& in_;
};

// SIGTERM and SIGINT as a readable file descriptor (signalfd). Both are blocked in the calling thread, so create it
// before any other thread starts: threads inherit the mask, and one without it would take the default action (death
// by the signal, exit status 143). The mask is left blocked when this is destroyed: the process is ending, and a
// second SIGTERM sent during the shutdown must not turn a clean exit into a killed one.
class ShutdownSignals {
 public:
  ShutdownSignals();
  ~ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;
  int fd() const { return fd_; }  // -1 when signalfd failed (the signals then keep their default action)

 private:
  int fd_ = -1;
};

// Lines of a file descriptor (stdin), read with poll() next to `stop_fd`: a readable stop_fd (a signal arrived)
// ends the reading with kStopped, whatever the input is doing.
class FdLineSource final : public LineSource {
 public:
  FdLineSource(int fd, int stop_fd) : fd_(fd), stop_fd_(stop_fd) {}
  Status Next(std::string& line) override;
  bool StopRequested(std::chrono::milliseconds wait) override;

 private:
  bool Fill();  // reads what is available into pending_; false at end of input or a read error

  int fd_;
  int stop_fd_;
  std::string pending_;    // read, not yet returned
  size_t scanned_ = 0;     // pending_[0, scanned_) holds no '\n'
  bool dropping_ = false;  // inside a line over kMaxLineBytes: its bytes are dropped up to its newline
  bool eof_ = false;
  bool stopped_ = false;
};

}  // namespace nsys::mcp
