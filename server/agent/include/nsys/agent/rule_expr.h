#pragma once
// The small expression language of the Book of Root Causes' rules: a condition or an amount over one row of a
// skill's result ("launch_bound_kernels / kernels > 0.3 && launch_gap_ns > 0.02 * window_ns"). Numbers, strings in
// double quotes, true/false, column names and a few globals; + - * / % < <= > >= == != && || ! and parentheses;
// functions min(a,b), max(a,b), abs(x), contains(s, sub), starts_with(s, prefix). Booleans are 1 and 0.
// Parsed once when the Book loads (a bad rule fails the Book's test, never a user's request); evaluated per row.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nsys/support/expected.h"
#include "nsys/support/value.h"

namespace nsys::agent {

using ExprValue = std::variant<double, std::string>;

// What a name means while evaluating: a row's cell or a global; nullopt = unknown name (an error naming it).
using NameLookup = std::function<std::optional<ExprValue>(const std::string& name)>;

class Expr {
 public:
  struct Node;
  // kInvalidArgument with the position and what was expected ("at 14: expected ')'").
  static Expected<Expr> Parse(const std::string& text);
  Expected<ExprValue> Evaluate(const NameLookup& lookup) const;
  // A number (a string is an error naming the text); for conditions, non-zero is true.
  Expected<double> EvaluateNumber(const NameLookup& lookup) const;
  // Every name the expression reads (columns and globals), for checking a rule against its skill's columns.
  std::vector<std::string> Names() const;
  // The parts joined by the top-level "&&" ("a && (b || c) && d": a, (b || c), d); the whole when there is none. The
  // expression is true only if each part is.
  std::vector<Expr> Conjuncts() const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

// A table cell as an expression value: numbers and bools as double, strings as strings, null as nullopt.
std::optional<ExprValue> ToExprValue(const Value& cell);

}  // namespace nsys::agent
