#pragma once
// A small Expected<T> (g++ 12 has no std::expected in C++20) and the engine's error type.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace nsys {

// Error kinds the engine reports. The LSP layer maps them to JSON-RPC codes; the CLI to exit codes.
enum class ErrorKind {
  kInvalidArgument,  // a bad argument from the caller (unknown skill, window outside the profile, ...)
  kNotFound,         // a missing file, profile id, skill, device
  kBadInput,         // the file exists but is not something we can read (not an export, truncated, ...)
  kUnsupported,      // the data a request needs is not in this profile (the skill declines)
  kCancelled,        // cooperative cancellation was observed
  kLimitExceeded,    // a resource limit was hit (a time budget, a row or byte cap); the message names it and its value
  kInternal,         // a bug or an unexpected system failure
};

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;  // a full sentence naming the problem, shown to the user as is
};

inline Error MakeError(ErrorKind kind, std::string message) {
  return Error{kind, std::move(message)};
}

template <typename T>
class Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

// Expected<void>.
class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace nsys
