#include "nsys/lsp/method_table.h"

#include <algorithm>

#include "nsys/protocol/json_parse.h"

namespace nsys::lsp {

void MethodTable::AddRequest(std::string method, RequestFn handler, RequestOptions options) {
  if (entries_.count(method)) throw std::logic_error("method bound twice: " + method);
  Entry entry;
  entry.method = method;
  entry.request = std::move(handler);
  entry.options = std::move(options);
  entries_.emplace(std::move(method), std::move(entry));
}

void MethodTable::AddNotification(std::string method, NotificationFn handler) {
  if (entries_.count(method)) throw std::logic_error("method bound twice: " + method);
  Entry entry;
  entry.method = method;
  entry.notification = std::move(handler);
  entries_.emplace(std::move(method), std::move(entry));
}

void MethodTable::Alias(std::string old_name, std::string_view current,
                        std::vector<std::pair<std::string, std::string>> renamed_keys) {
  const Entry* target = Find(current);
  if (!target || !target->is_request()) throw std::logic_error("alias of an unbound request: " + std::string(current));
  if (entries_.count(old_name) || aliases_.count(old_name)) throw std::logic_error("method bound twice: " + old_name);
  Entry entry = *target;
  entry.method = old_name;
  entry.request = [request = target->request, renamed_keys = std::move(renamed_keys)](const protocol::Json& params,
                                                                                      RequestContext& ctx) {
    return request(protocol::WithOldKeysRenamed(params, renamed_keys), ctx);
  };
  aliases_.emplace(std::move(old_name), std::move(entry));
}

const MethodTable::Entry* MethodTable::Find(std::string_view method) const {
  if (auto it = entries_.find(method); it != entries_.end()) return &it->second;
  auto alias = aliases_.find(method);
  return alias == aliases_.end() ? nullptr : &alias->second;
}

std::vector<std::string> MethodTable::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, _] : entries_) names.push_back(name);
  return names;  // std::map keeps them sorted
}

MethodTable MethodTable::Subset(const std::vector<std::string_view>& methods) const {
  MethodTable subset;
  for (auto method : methods) {
    if (auto it = entries_.find(method); it != entries_.end()) subset.entries_.emplace(it->first, it->second);
  }
  return subset;
}

const MethodTable& ProductMethods() {
  static const MethodTable table = [] {
    MethodTable t;
    BindMethods(t);
    return t;
  }();
  return table;
}

std::vector<std::string> BoundMethodNames() {
  return ProductMethods().Names();
}

}  // namespace nsys::lsp
