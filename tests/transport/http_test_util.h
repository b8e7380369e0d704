#pragma once
// Test helpers for the HTTP side channel: a blocking HTTP/1.1 client over a real loopback socket.
#include <algorithm>
#include <array>
#include <asio.hpp>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace nsys::transport::testing {

struct HttpResponse {
  int status = 0;                              // 0 = no response (connection refused or closed without one)
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Sends `raw` as is and reads until the server closes. `on_body` (optional) receives the body in pieces instead of
// it being kept in `body`, so a large download costs no memory here.
inline HttpResponse RawRequest(uint16_t port, const std::string& raw,
                               const std::function<void(std::string_view)>& on_body = {},
                               const std::string& host = "127.0.0.1") {
  HttpResponse response;
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  asio::error_code ec;
  socket.connect({asio::ip::make_address(host), port}, ec);
  if (ec) return response;
  asio::write(socket, asio::buffer(raw), ec);
  if (ec) return response;
  std::string head;
  bool in_body = false;
  std::array<char, 64 * 1024> buf;
  for (;;) {
    const size_t n = socket.read_some(asio::buffer(buf), ec);
    if (n > 0) {
      std::string_view data(buf.data(), n);
      if (!in_body) {
        head.append(data);
        const size_t end = head.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        std::string rest = head.substr(end + 4);
        head.resize(end);
        in_body = true;
        if (on_body)
          on_body(rest);
        else
          response.body += rest;
      } else if (on_body) {
        on_body(data);
      } else {
        response.body.append(data);
      }
    }
    if (ec) break;
  }
  if (!in_body) return response;
  const size_t line_end = head.find("\r\n");
  const std::string status_line = head.substr(0, line_end);
  if (status_line.rfind("HTTP/1.1 ", 0) == 0) response.status = std::stoi(status_line.substr(9, 3));
  size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t next = head.find("\r\n", pos);
    if (next == std::string::npos) next = head.size();
    const std::string line = head.substr(pos, next - pos);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      response.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
    }
    pos = next + 2;
  }
  return response;
}

inline HttpResponse Request(uint16_t port, const std::string& method, const std::string& path,
                            const std::string& extra_headers = "",
                            const std::function<void(std::string_view)>& on_body = {}) {
  return RawRequest(port,
                    method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n" +
                        extra_headers + "Connection: close\r\n\r\n",
                    on_body);
}

inline HttpResponse Get(uint16_t port, const std::string& path) {
  return Request(port, "GET", path);
}

}  // namespace nsys::transport::testing
