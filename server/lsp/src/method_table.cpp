#include "nsys/lsp/method_table.h"

#include <algorithm>

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

const MethodTable::Entry* MethodTable::Find(std::string_view method) const {
  auto it = entries_.find(method);
  return it == entries_.end() ? nullptr : &it->second;
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
