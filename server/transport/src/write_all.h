#pragma once
// Writing a whole buffer to a descriptor, for the transports that write frames to a pipe or a stdio stream.
#include <unistd.h>

#include <cerrno>
#include <string_view>

namespace nsys::transport {

// Writes all of `bytes`, again after an interrupted write; false when the peer is gone (EPIPE) or another error
// occurs (errno says which).
inline bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace nsys::transport
