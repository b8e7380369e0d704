#pragma once
// The bind table: method names → typed handlers. BindMethods() (bind_table.cpp) is the ONE place that lists every
// method the server answers; the dispatcher, the capabilities (experimental.nsysMethods) and the docs test all
// read it. A handler is a free function:
//
//   Expected<protocol::RunSkillResult> OnRunSkill(const protocol::RunSkillParams&, RequestContext&);
//   void OnCancelRequest(const protocol::CancelParams&, NotificationContext&);
//
// Params are parsed with protocol::Parse<P> (a bad field → -32602 naming it by its JSON path); results convert with
// their ADL to_json. A handler reports failure as an nsys::Error (mapped to a JSON-RPC code in converters.h).
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "nsys/lsp/context.h"
#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/jsonrpc.h"
#include "nsys/protocol/methods.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// Declared outside MethodTable: a nested struct with member initializers cannot be a default argument inside it.
struct RequestMethodOptions {
  std::string progress_title;  // non-empty: the request shows work-done progress under this title
  // Runs on the executor's cheap lane (executor.h), ahead of ordinary work. Only for handlers that answer in
  // microseconds whatever the workspace holds: no table loads, no skill runs, no per-profile query lock.
  bool cheap = false;
};

class MethodTable {
 public:
  using RequestFn = std::function<Expected<protocol::Json>(const protocol::Json& params, RequestContext& ctx)>;
  using NotificationFn = std::function<void(const protocol::Json& params, NotificationContext& ctx)>;

  using RequestOptions = RequestMethodOptions;

  struct Entry {
    std::string method;
    RequestFn request;            // set for requests
    NotificationFn notification;  // set for notifications
    RequestOptions options;
    bool is_request() const { return static_cast<bool>(request); }
  };

  template <typename Params, typename Result>
  void Request(std::string_view method, Expected<Result> (*handler)(const Params&, RequestContext&),
               RequestOptions options = {}) {
    AddRequest(
        std::string(method),
        [handler](const protocol::Json& params, RequestContext& ctx) -> Expected<protocol::Json> {
          auto parsed = ParseParams<Params>(params);
          if (!parsed.ok()) return parsed.error();
          Expected<Result> result = handler(*parsed, ctx);
          if (!result) return result.error();
          if constexpr (std::is_same_v<Result, protocol::Json>) {
            return std::move(result).value();
          } else {
            return protocol::Json(std::move(result).value());
          }
        },
        std::move(options));
  }

  // A capability's request (protocol/capabilities.h): its progress title and lane come from the catalogue's row.
  // Binding a method the catalogue has no row for, or a handler of other params or result types than the row's,
  // throws std::logic_error.
  template <typename Params, typename Result>
  void Bind(std::string_view method, Expected<Result> (*handler)(const Params&, RequestContext&)) {
    const protocol::Capability* row = protocol::CapabilityOfMethod(method);
    if (!row) throw std::logic_error("no capability row for " + std::string(method));
    if (*row->params().type != typeid(Params) || *row->result().type != typeid(Result)) {
      throw std::logic_error("the handler bound to " + std::string(method) +
                             " takes or returns other types than its capability row's");
    }
    Request(method, handler, {.progress_title = std::string(row->progress), .cheap = row->cheap});
  }

  template <typename Params>
  void Notification(std::string_view method, void (*handler)(const Params&, NotificationContext&)) {
    AddNotification(std::string(method),
                    [handler, name = std::string(method)](const protocol::Json& params, NotificationContext& ctx) {
                      auto parsed = ParseParams<Params>(params);
                      if (!parsed.ok())
                        throw std::invalid_argument(parsed.error().message);  // the dispatcher logs it; no reply
                      handler(*parsed, ctx);
                    });
  }

  // Untyped forms (the typed ones above use them). Binding a name twice throws std::logic_error.
  void AddRequest(std::string method, RequestFn handler, RequestOptions options = {});
  void AddNotification(std::string method, NotificationFn handler);

  // An old name of a bound request, answered as `current` with each of `renamed_keys`' old param keys read as its
  // new one (when the new key is absent). Found by Find, never listed by Names: clients discover the current names.
  void Alias(std::string old_name, std::string_view current,
             std::vector<std::pair<std::string, std::string>> renamed_keys = {});

  const Entry* Find(std::string_view method) const;
  std::vector<std::string> Names() const;  // sorted, without the aliases
  // A table with only the named entries of this one (the dispatcher's table before `initialize`).
  MethodTable Subset(const std::vector<std::string_view>& methods) const;

 private:
  template <typename Params>
  static Expected<Params> ParseParams(const protocol::Json& params) {
    if constexpr (std::is_same_v<Params, protocol::Json>) {
      return params;
    } else {
      return protocol::Parse<Params>(params, "params");
    }
  }

  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, Entry, std::less<>> aliases_;
};

// THE bind table of the product (bind_table.cpp).
void BindMethods(MethodTable& table);
const MethodTable& ProductMethods();
// Every method in ProductMethods(), sorted: requests and notifications, LSP and nsys/ ones.
std::vector<std::string> BoundMethodNames();

}  // namespace nsys::lsp
