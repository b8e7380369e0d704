#include "nsys/agent/rule_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <set>
#include <string_view>
#include <utility>

namespace nsys::agent {

struct Expr::Node {
  enum class Kind { kNumber, kString, kName, kUnary, kBinary, kCall } kind = Kind::kNumber;
  double number = 0;
  std::string text;  // string literal, name, operator or function
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;
using Node = Expr::Node;

// Recursive descent over the text; errors carry the byte offset.
class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Expected<NodePtr> ParseAll() {
    auto root = Or();
    if (!root) return root;
    Skip();
    if (i_ != s_.size()) return Fail("unexpected '" + s_.substr(i_, 1) + "'");
    return root;
  }

 private:
  void Skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  // Longer operators are tried first where they share a prefix ("<=" before "<"), so a plain compare is enough.
  bool Eat(std::string_view op) {
    Skip();
    if (s_.compare(i_, op.size(), op) != 0) return false;
    i_ += op.size();
    return true;
  }
  Error Fail(const std::string& what) const {
    return Error{ErrorKind::kInvalidArgument, fmt::format("in rule expression \"{}\" at {}: {}", s_, i_, what)};
  }
  static NodePtr Make(Node::Kind kind, std::string text, std::vector<NodePtr> args) {
    auto n = std::make_shared<Node>();
    n->kind = kind;
    n->text = std::move(text);
    n->args = std::move(args);
    return n;
  }

  // One precedence level of left-associative binary operators.
  template <typename Next>
  Expected<NodePtr> Level(std::initializer_list<std::string_view> ops, Next next) {
    auto left = (this->*next)();
    if (!left) return left;
    for (;;) {
      bool matched = false;
      for (std::string_view op : ops) {
        if (!Eat(op)) continue;
        auto right = (this->*next)();
        if (!right) return right;
        left = Make(Node::Kind::kBinary, std::string(op), {*left, *right});
        matched = true;
        break;
      }
      if (!matched) return left;
    }
  }
  Expected<NodePtr> Or() { return Level({"||"}, &Parser::And); }
  Expected<NodePtr> And() { return Level({"&&"}, &Parser::Compare); }
  Expected<NodePtr> Compare() { return Level({"<=", ">=", "==", "!=", "<", ">"}, &Parser::Add); }
  Expected<NodePtr> Add() { return Level({"+", "-"}, &Parser::Mul); }
  Expected<NodePtr> Mul() { return Level({"*", "/", "%"}, &Parser::Unary); }

  Expected<NodePtr> Unary() {
    for (std::string_view op : {"!", "-"}) {
      if (!Eat(op)) continue;
      auto operand = Unary();
      if (!operand) return operand;
      return Make(Node::Kind::kUnary, std::string(op), {*operand});
    }
    return Primary();
  }

  Expected<NodePtr> Primary() {
    Skip();
    if (i_ >= s_.size()) return Fail("expected a value");
    const char c = s_[i_];
    if (c == '(') {
      ++i_;
      auto inner = Or();
      if (!inner) return inner;
      if (!Eat(")")) return Fail("expected ')'");
      return inner;
    }
    if (c == '"') return String();
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return NameOrCall();
    return Fail(fmt::format("unexpected '{}'", c));
  }

  Expected<NodePtr> String() {
    const size_t close = s_.find('"', i_ + 1);
    if (close == std::string::npos) return Fail("unterminated string");
    auto n = Make(Node::Kind::kString, s_.substr(i_ + 1, close - i_ - 1), {});
    i_ = close + 1;
    return n;
  }

  Expected<NodePtr> Number() {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s_.substr(i_), &used);
    } catch (...) {
      return Fail("expected a number");
    }
    i_ += used;
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kNumber;
    n->number = v;
    return NodePtr(n);
  }

  Expected<NodePtr> NameOrCall() {
    const size_t begin = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    std::string name = s_.substr(begin, i_ - begin);
    if (name == "true" || name == "false") {
      auto n = std::make_shared<Node>();
      n->number = name == "true" ? 1 : 0;
      return NodePtr(n);
    }
    if (!Eat("(")) return Make(Node::Kind::kName, std::move(name), {});
    static const std::set<std::string> functions = {"min", "max", "abs", "contains", "starts_with"};
    if (!functions.count(name)) return Fail("unknown function '" + name + "'");
    std::vector<NodePtr> args;
    if (!Eat(")")) {
      do {
        auto arg = Or();
        if (!arg) return arg;
        args.push_back(*arg);
      } while (Eat(","));
      if (!Eat(")")) return Fail("expected ')' after the arguments of " + name);
    }
    const size_t want = name == "abs" ? 1 : 2;
    if (args.size() != want) return Fail(fmt::format("{} takes {} argument(s), got {}", name, want, args.size()));
    return Make(Node::Kind::kCall, std::move(name), std::move(args));
  }

  const std::string& s_;
  size_t i_ = 0;
};

Expected<ExprValue> Eval(const Node& n, const NameLookup& lookup);

Expected<double> EvalNumber(const Node& n, const NameLookup& lookup) {
  auto v = Eval(n, lookup);
  if (!v) return v.error();
  if (const auto* d = std::get_if<double>(&*v)) return *d;
  return MakeError(ErrorKind::kInvalidArgument,
                   "expected a number, got the string \"" + std::get<std::string>(*v) + "\"");
}

Expected<ExprValue> EvalBinary(const Node& n, const NameLookup& lookup) {
  const std::string& op = n.text;
  if (op == "&&" || op == "||") {  // short-circuit: a row may lack what the right side reads only when it matters
    auto l = EvalNumber(*n.args[0], lookup);
    if (!l) return l.error();
    if (op == "&&" && *l == 0) return ExprValue{0.0};
    if (op == "||" && *l != 0) return ExprValue{1.0};
    auto r = EvalNumber(*n.args[1], lookup);
    if (!r) return r.error();
    return ExprValue{*r != 0 ? 1.0 : 0.0};
  }
  auto l = Eval(*n.args[0], lookup);
  if (!l) return l;
  auto r = Eval(*n.args[1], lookup);
  if (!r) return r;
  if (op == "==" || op == "!=") {
    const bool eq = *l == *r;
    return ExprValue{(op == "==") == eq ? 1.0 : 0.0};
  }
  const auto* a = std::get_if<double>(&*l);
  const auto* b = std::get_if<double>(&*r);
  if (a == nullptr || b == nullptr) return MakeError(ErrorKind::kInvalidArgument, "'" + op + "' needs numbers");
  if (op == "+") return ExprValue{*a + *b};
  if (op == "-") return ExprValue{*a - *b};
  if (op == "*") return ExprValue{*a * *b};
  if (op == "/") return ExprValue{*b == 0 ? 0.0 : *a / *b};  // a share of nothing is nothing, not NaN
  if (op == "%") return ExprValue{*b == 0 ? 0.0 : std::fmod(*a, *b)};
  if (op == "<") return ExprValue{*a < *b ? 1.0 : 0.0};
  if (op == "<=") return ExprValue{*a <= *b ? 1.0 : 0.0};
  if (op == ">") return ExprValue{*a > *b ? 1.0 : 0.0};
  return ExprValue{*a >= *b ? 1.0 : 0.0};  // ">="
}

Expected<ExprValue> EvalCall(const Node& n, const NameLookup& lookup) {
  if (n.text == "contains" || n.text == "starts_with") {
    auto s = Eval(*n.args[0], lookup);
    if (!s) return s;
    auto sub = Eval(*n.args[1], lookup);
    if (!sub) return sub;
    const auto* hay = std::get_if<std::string>(&*s);
    const auto* needle = std::get_if<std::string>(&*sub);
    if (hay == nullptr || needle == nullptr) {
      return MakeError(ErrorKind::kInvalidArgument, n.text + " needs two strings");
    }
    const bool yes = n.text == "contains" ? hay->find(*needle) != std::string::npos : hay->rfind(*needle, 0) == 0;
    return ExprValue{yes ? 1.0 : 0.0};
  }
  auto a = EvalNumber(*n.args[0], lookup);
  if (!a) return a.error();
  if (n.text == "abs") return ExprValue{std::fabs(*a)};
  auto b = EvalNumber(*n.args[1], lookup);
  if (!b) return b.error();
  return ExprValue{n.text == "min" ? std::min(*a, *b) : std::max(*a, *b)};
}

Expected<ExprValue> Eval(const Node& n, const NameLookup& lookup) {
  switch (n.kind) {
    case Node::Kind::kNumber:
      return ExprValue{n.number};
    case Node::Kind::kString:
      return ExprValue{n.text};
    case Node::Kind::kName: {
      auto v = lookup(n.text);
      if (!v) return MakeError(ErrorKind::kNotFound, "no value named '" + n.text + "'");
      return *v;
    }
    case Node::Kind::kUnary: {
      auto v = EvalNumber(*n.args[0], lookup);
      if (!v) return v.error();
      return ExprValue{n.text == "!" ? (*v == 0 ? 1.0 : 0.0) : -*v};
    }
    case Node::Kind::kBinary:
      return EvalBinary(n, lookup);
    case Node::Kind::kCall:
      return EvalCall(n, lookup);
  }
  return MakeError(ErrorKind::kInternal, "bad expression node");
}

void CollectNames(const Node& n, std::set<std::string>& out) {
  if (n.kind == Node::Kind::kName) out.insert(n.text);
  for (const auto& a : n.args) CollectNames(*a, out);
}

}  // namespace

Expected<Expr> Expr::Parse(const std::string& text) {
  Expr e;
  e.text_ = text;
  Parser parser(e.text_);
  auto root = parser.ParseAll();
  if (!root) return root.error();
  e.root_ = *root;
  return e;
}

Expected<ExprValue> Expr::Evaluate(const NameLookup& lookup) const {
  auto v = Eval(*root_, lookup);
  if (!v) return Error{v.error().kind, "\"" + text_ + "\": " + v.error().message};
  return v;
}

Expected<double> Expr::EvaluateNumber(const NameLookup& lookup) const {
  auto v = EvalNumber(*root_, lookup);
  if (!v) return Error{v.error().kind, "\"" + text_ + "\": " + v.error().message};
  return v;
}

std::vector<std::string> Expr::Names() const {
  std::set<std::string> names;
  CollectNames(*root_, names);
  return {names.begin(), names.end()};
}

std::vector<Expr> Expr::Conjuncts() const {
  std::vector<Expr> parts;
  if (!root_) return parts;
  std::vector<NodePtr> pending{root_};
  while (!pending.empty()) {  // left to right: the right operand waits below the left one
    NodePtr n = pending.back();
    pending.pop_back();
    if (n->kind == Node::Kind::kBinary && n->text == "&&" && n->args.size() == 2) {
      pending.push_back(n->args[1]);
      pending.push_back(n->args[0]);
      continue;
    }
    Expr part;
    part.text_ = text_;
    part.root_ = std::move(n);
    parts.push_back(std::move(part));
  }
  return parts;
}

std::optional<ExprValue> ToExprValue(const Value& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1.0 : 0.0;
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return std::nullopt;
}

}  // namespace nsys::agent
