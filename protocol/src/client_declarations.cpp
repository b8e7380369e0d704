// The clients' generated declarations (capabilities.h: ClientDeclarationsTypeScript): every object the catalogue's
// params and results hold, written from its field list, and the method map. The walk is deterministic (objects by
// name), so the generated file changes only when a protocol type or a row does.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nsys/protocol/capabilities.h"
#include "nsys/protocol/shape.h"

namespace nsys::protocol {
namespace {

using ShapeKind = Shape::Kind;

struct Objects {
  std::map<std::string, const Shape*> by_name;  // every kObject and kOpaque reached
  std::set<std::string> sent_by_client;         // those a params reaches: a defaulted member may be left out
};

void Reach(const Shape& shape, bool params, Objects& out) {
  if (shape.kind == ShapeKind::kObject || shape.kind == ShapeKind::kOpaque) {
    const bool seen = out.by_name.count(shape.name) > 0;
    const bool newly_sent = params && out.sent_by_client.insert(shape.name).second;
    out.by_name.emplace(shape.name, &shape);
    if (seen && !newly_sent) return;
  }
  for (const ShapeFn element : shape.elements) Reach(element(), params, out);
  for (const ShapeMember& member : shape.members) Reach(member.shape(), params, out);
}

std::string TypeScript(const Shape& shape) {
  switch (shape.kind) {
    case ShapeKind::kString:
      return "string";
    case ShapeKind::kInteger:
    case ShapeKind::kNumber:
      return "number";
    case ShapeKind::kBoolean:
      return "boolean";
    case ShapeKind::kNull:
      return "null";
    case ShapeKind::kAny:
      return "unknown";
    case ShapeKind::kArray: {
      const Shape& element = shape.elements[0]();
      const std::string inner = TypeScript(element);
      return element.kind == ShapeKind::kUnion ? "(" + inner + ")[]" : inner + "[]";
    }
    case ShapeKind::kMap:
      return "Record<string, " + TypeScript(shape.elements[0]()) + ">";
    case ShapeKind::kUnion: {
      std::vector<std::string> seen;  // int64_t and double are both `number`
      std::string out;
      for (const ShapeFn alternative : shape.elements) {
        const std::string type = TypeScript(alternative());
        if (std::find(seen.begin(), seen.end(), type) != seen.end()) continue;
        seen.push_back(type);
        out += (out.empty() ? "" : " | ") + type;
      }
      return out;
    }
    case ShapeKind::kObject:
    case ShapeKind::kOpaque:
      return shape.name;
  }
  return "unknown";
}

std::string Interface(const Shape& shape, bool sent_by_client) {
  if (shape.kind == ShapeKind::kOpaque) {
    return "/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */\n"
           "export type " +
           shape.name + " = unknown;\n";
  }
  std::string out = "export interface " + shape.name + " {\n";
  for (const ShapeMember& member : shape.members) {
    const bool may_be_absent = member.omitted_when_absent || (member.defaulted && sent_by_client);
    out += "  " + member.name + (may_be_absent ? "?: " : ": ") + TypeScript(member.shape()) + ";\n";
  }
  return out + "}\n";
}

}  // namespace

std::string ClientDeclarationsTypeScript() {
  Objects objects;
  for (const Capability& row : Capabilities()) {
    if (row.params) Reach(row.params(), true, objects);
    if (row.result) Reach(row.result(), false, objects);
  }
  std::string out =
      "// Generated from protocol/'s field lists and the capability catalogue (protocol/src/capabilities.cpp) by\n"
      "// tests/protocol/client_declarations_test.cpp; NSYS_AI_WRITE_DOCS=1 there rewrites it. Do not edit by hand.\n"
      "// A member marked `?` may be absent: the server leaves it out, or (in params) reads its absence as the\n"
      "// default.\n";
  for (const auto& [name, shape] : objects.by_name) {
    out += "\n" + Interface(*shape, objects.sent_by_client.count(name) > 0);
  }
  out +=
      "\n/** Every capability's method, with the params it takes and the result it answers. */\n"
      "export interface NsysMethods {\n";
  for (const Capability& row : Capabilities()) {
    if (!row.params || !row.result) continue;
    out += "  '" + std::string(row.method) + "': { params: " + TypeScript(row.params()) +
           "; result: " + TypeScript(row.result()) + " };\n";
  }
  return out + "}\n";
}

}  // namespace nsys::protocol
