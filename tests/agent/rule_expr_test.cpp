#include "nsys/agent/rule_expr.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nsys::agent {
namespace {

NameLookup Row(std::map<std::string, ExprValue> values) {
  return [values](const std::string& name) -> std::optional<ExprValue> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

double Num(const std::string& text, const NameLookup& row) {
  auto e = Expr::Parse(text);
  EXPECT_TRUE(e) << e.error().message;
  auto v = e->EvaluateNumber(row);
  EXPECT_TRUE(v) << v.error().message;
  return v ? *v : -12345;
}

TEST(RuleExpr, PrecedenceAndComparisons) {
  const auto row = Row({{"a", 6.0}, {"b", 2.0}, {"name", std::string("ncclKernel_AllReduce")}});
  EXPECT_EQ(Num("a + b * 3", row), 12);
  EXPECT_EQ(Num("(a + b) * 3", row), 24);
  EXPECT_EQ(Num("a / b - 1", row), 2);
  EXPECT_EQ(Num("a % 4", row), 2);
  EXPECT_EQ(Num("-a + 1", row), -5);
  EXPECT_EQ(Num("a > 5 && b <= 2", row), 1);
  EXPECT_EQ(Num("a >= 7 || b != 2", row), 0);
  EXPECT_EQ(Num("!(a < b)", row), 1);
  EXPECT_EQ(Num("a / 0", row), 0);  // a share of nothing is nothing
  EXPECT_EQ(Num("min(a, b) + max(a, 10) + abs(-3)", row), 15);
  EXPECT_EQ(Num("name == \"ncclKernel_AllReduce\"", row), 1);
  EXPECT_EQ(Num("contains(name, \"AllReduce\") && starts_with(name, \"nccl\")", row), 1);
  EXPECT_EQ(Num("starts_with(name, \"cutlass\")", row), 0);
  EXPECT_EQ(Num("true && !false", row), 1);
  EXPECT_EQ(Num("1.5e3 < 2000", row), 1);
}

TEST(RuleExpr, ShortCircuitSkipsWhatIsNotNeeded) {
  // `missing` is unknown: only reached when the left side does not decide.
  EXPECT_EQ(Num("0 && missing > 1", Row({})), 0);
  EXPECT_EQ(Num("1 || missing > 1", Row({})), 1);
  auto e = Expr::Parse("1 && missing > 1");
  ASSERT_TRUE(e);
  auto v = e->EvaluateNumber(Row({}));
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "\"1 && missing > 1\": no value named 'missing'");
}

TEST(RuleExpr, ParseErrorsSayWhereAndWhat) {
  auto unclosed = Expr::Parse("(a + b");
  ASSERT_FALSE(unclosed);
  EXPECT_EQ(unclosed.error().message, "in rule expression \"(a + b\" at 6: expected ')'");
  auto fn = Expr::Parse("sqrt(a)");
  ASSERT_FALSE(fn);
  EXPECT_NE(fn.error().message.find("unknown function 'sqrt'"), std::string::npos);
  auto arity = Expr::Parse("min(a)");
  ASSERT_FALSE(arity);
  EXPECT_NE(arity.error().message.find("min takes 2 argument(s), got 1"), std::string::npos);
  EXPECT_FALSE(Expr::Parse("a +"));
  EXPECT_FALSE(Expr::Parse("a b"));
  EXPECT_FALSE(Expr::Parse("\"open"));
}

TEST(RuleExpr, TypeErrorsAreErrorsNotGuesses) {
  auto e = Expr::Parse("name + 1");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->EvaluateNumber(Row({{"name", std::string("k")}})));
  auto s = Expr::Parse("name");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->EvaluateNumber(Row({{"name", std::string("k")}})));
}

TEST(RuleExpr, NamesListsEveryColumnRead) {
  auto e = Expr::Parse("launch_bound_kernels / kernels > 0.3 && contains(api_name, \"x\") || window_ns > 0");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->Names(), (std::vector<std::string>{"api_name", "kernels", "launch_bound_kernels", "window_ns"}));
}

// The parts of the top-level "&&", in order; an "||" or parentheses keep theirs whole.
TEST(RuleExpr, ConjunctsAreThePartsOfTheTopLevelAnd) {
  auto e = Expr::Parse("a > 1 && (b > 2 || c > 3) && idle_pct >= 30 && !(d && e)");
  ASSERT_TRUE(e);
  const std::vector<Expr> parts = e->Conjuncts();
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].Names(), (std::vector<std::string>{"a"}));
  EXPECT_EQ(parts[1].Names(), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(parts[2].Names(), (std::vector<std::string>{"idle_pct"}));
  EXPECT_EQ(parts[3].Names(), (std::vector<std::string>{"d", "e"}));
  const NameLookup idle = [](const std::string& n) -> std::optional<ExprValue> {
    if (n == "idle_pct") return 12.0;
    return std::nullopt;
  };
  EXPECT_EQ(parts[2].EvaluateNumber(idle).value(), 0.0);
  auto single = Expr::Parse("a > 1 || b > 2");
  ASSERT_TRUE(single);
  EXPECT_EQ(single->Conjuncts().size(), 1u);
}

TEST(RuleExpr, CellsBecomeValues) {
  EXPECT_EQ(ToExprValue(Value{int64_t{7}}), std::optional<ExprValue>(7.0));
  EXPECT_EQ(ToExprValue(Value{true}), std::optional<ExprValue>(1.0));
  EXPECT_EQ(ToExprValue(Value{std::string("x")}), std::optional<ExprValue>(std::string("x")));
  EXPECT_EQ(ToExprValue(Value{}), std::nullopt);
}

}  // namespace
}  // namespace nsys::agent
