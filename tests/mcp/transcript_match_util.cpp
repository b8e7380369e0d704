#include <cmath>
#include <map>
#include <string>

#include "mcp/transcript_match.h"

namespace nsys::testing {
namespace {

std::string ReplaceAll(std::string text, const std::map<std::string, std::string>& vars) {
  for (const auto& [name, value] : vars) {
    const std::string token = "${" + name + "}";
    for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size())) {
      text.replace(at, token.size(), value);
    }
  }
  return text;
}

std::string Short(const Json& j) {
  std::string text = j.dump();
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

Json Substitute(const Json& value, const std::map<std::string, std::string>& vars) {
  if (value.is_string()) return ReplaceAll(value.get<std::string>(), vars);
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(Substitute(item, vars));
    return out;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (const auto& [key, item] : value.items()) out[ReplaceAll(key, vars)] = Substitute(item, vars);
    return out;
  }
  return value;
}

std::string Mismatch(const Json& pattern, const Json& actual, const std::string& path) {
  const auto differ = [&](const std::string& what) { return path + ": expected " + what + ", got " + Short(actual); };
  if (pattern.is_string()) {
    const std::string p = pattern.get<std::string>();
    if (p == "${ANY}") return {};
    if (p == "${STRING}") return actual.is_string() ? std::string() : differ("a string");
    if (p == "${NUMBER}") return actual.is_number() ? std::string() : differ("a number");
    if (StartsWith(p, "${CONTAINS:") && p.back() == '}') {
      const std::string needle = p.substr(11, p.size() - 12);
      if (actual.is_string() && actual.get<std::string>().find(needle) != std::string::npos) return {};
      return differ("a string containing \"" + needle + "\"");
    }
    if (StartsWith(p, "${PREFIX:") && p.back() == '}') {
      const std::string prefix = p.substr(9, p.size() - 10);
      if (actual.is_string() && StartsWith(actual.get<std::string>(), prefix)) return {};
      return differ("a string starting with \"" + prefix + "\"");
    }
    return actual == pattern ? std::string() : differ(Short(pattern));
  }
  if (pattern.is_object() && pattern.size() == 1 && pattern.contains("$json")) {
    if (!actual.is_string()) return differ("a string holding JSON");
    const Json parsed = Json::parse(actual.get<std::string>(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return differ("a string holding JSON");
    return Mismatch(pattern["$json"], parsed, path + "(json)");
  }
  if (pattern.is_object() && pattern.size() == 1 && pattern.contains("$near")) {
    const Json& near = pattern["$near"];
    const double x = near.at(0).get<double>();
    const double tolerance = near.at(1).get<double>();
    if (actual.is_number() && std::fabs(actual.get<double>() - x) <= tolerance) return {};
    return differ(std::to_string(x) + " ± " + std::to_string(tolerance));
  }
  if (pattern.is_object()) {
    if (!actual.is_object()) return differ("an object");
    for (const auto& [key, item] : pattern.items()) {
      if (!actual.contains(key)) return path + ": missing member \"" + key + "\"";
      if (std::string m = Mismatch(item, actual[key], path + "." + key); !m.empty()) return m;
    }
    for (const auto& [key, item] : actual.items()) {
      if (!pattern.contains(key)) return path + ": unexpected member \"" + key + "\": " + Short(item);
    }
    return {};
  }
  if (pattern.is_array()) {
    if (!actual.is_array()) return differ("an array");
    if (actual.size() != pattern.size()) {
      return path + ": expected " + std::to_string(pattern.size()) + " elements, got " + std::to_string(actual.size());
    }
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (std::string m = Mismatch(pattern[i], actual[i], path + "[" + std::to_string(i) + "]"); !m.empty()) return m;
    }
    return {};
  }
  return actual == pattern ? std::string() : differ(Short(pattern));
}

}  // namespace nsys::testing
