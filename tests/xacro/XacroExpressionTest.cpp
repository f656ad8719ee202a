// xacro's ${...} language against what Python (and so ROS's xacro) evaluates, case by case.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

#include "XacroExpression.hpp"
#include "XacroSyntax.hpp"

namespace interlink::xacro {
namespace {

class Names : public Environment {
 public:
  bool lookup(const std::string& name, Value& out) override {
    if (name == "L") {
      out = 0.5;
      return true;
    }
    if (name == "n") {
      out = 3;
      return true;
    }
    if (name == "prefix") {
      out = "left_";
      return true;
    }
    if (name == "limits") {
      out = Dict{{Value("lower"), Value(-2.5)}, {Value("joints"), Value(List{Value("a"), Value("b")})}};
      return true;
    }
    return builtinGlobal(name, out);
  }
};

std::string eval(const std::string& text) {
  Names names;
  return str(evaluate(text, names));
}

std::string error(const std::string& text) {
  Names names;
  try {
    evaluate(text, names);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "no error";
}

TEST(XacroExpression, ArithmeticAsPython) {
  EXPECT_EQ(eval("1 + 2 * 3"), "7");
  EXPECT_EQ(eval("7 / 2"), "3.5");
  EXPECT_EQ(eval("4 / 2"), "2.0");  // true division gives a float
  EXPECT_EQ(eval("7 // 2"), "3");
  EXPECT_EQ(eval("-7 // 2"), "-4");  // floor, not truncation
  EXPECT_EQ(eval("-7 % 3"), "2");
  EXPECT_EQ(eval("L * 2 + n"), "4.0");
  EXPECT_EQ(eval("0.1 * 3"), "0.30000000000000004");  // Python's repr: shortest round trip
  EXPECT_EQ(eval("-(n)"), "-3");
}

TEST(XacroExpression, PowerBindsRightAndTighterThanUnaryMinus) {
  EXPECT_EQ(eval("2 ** 10"), "1024");
  EXPECT_EQ(eval("2 ** 3 ** 2"), "512");
  EXPECT_EQ(eval("-2 ** 2"), "-4");
  EXPECT_EQ(eval("2 ** -1"), "0.5");
  EXPECT_EQ(eval("L ** 2"), "0.25");
  // Python's digit separators in number literals.
  EXPECT_EQ(eval("1_000 + 1"), "1001");
  EXPECT_EQ(eval("1_0.5"), "10.5");
  EXPECT_EQ(eval("0.000_1"), "0.0001");
}

TEST(XacroExpression, FloatsPrintAsPythonPrintsThem) {
  EXPECT_EQ(eval("1e-5"), "1e-05");
  EXPECT_EQ(eval("1e16"), "1e+16");
  EXPECT_EQ(eval("123.0"), "123.0");
  EXPECT_EQ(eval("3e-07"), "3e-07");
  EXPECT_EQ(eval("0.0001"), "0.0001");
  EXPECT_EQ(eval("-0.0"), "-0.0");
  EXPECT_EQ(floatRepr(1.0 / 3.0), "0.3333333333333333");
  // Python's repr of each (the short decimals take a path of their own, the rest to_chars's).
  EXPECT_EQ(floatRepr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(floatRepr(2.675), "2.675");
  EXPECT_EQ(floatRepr(-1.5707963267948966), "-1.5707963267948966");
  EXPECT_EQ(floatRepr(0.0035), "0.0035");
  EXPECT_EQ(floatRepr(1500.0), "1500.0");
  EXPECT_EQ(floatRepr(0.00012345), "0.00012345");
  EXPECT_EQ(floatRepr(123456789.5), "123456789.5");
  EXPECT_EQ(floatRepr(999999999.999999), "999999999.999999");
  EXPECT_EQ(floatRepr(1e9), "1000000000.0");
  EXPECT_EQ(floatRepr(5e-324), "5e-324");
}

TEST(XacroExpression, FloatsReadBackFromTheFewestDigits) {
  // Decimals of up to eight places at every magnitude, and their neighbours: each text reads back
  // as the float, and no shorter one does (to_chars's shortest digits count them).
  std::mt19937_64 random(28112026);
  for (int i = 0; i < 200000; ++i) {
    const double scale = std::pow(10.0, static_cast<double>(random() % 9));
    double value = static_cast<double>(random() % 2000000000ULL) / scale;
    if (i % 3 == 1) value = std::nextafter(value, 1e300);
    if (i % 3 == 2) value = -value;
    const std::string text = floatRepr(value);
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
    char shortest[32];
    const char* const end = std::to_chars(shortest, shortest + sizeof shortest, value, std::chars_format::scientific).ptr;
    const std::string_view scientific(shortest, static_cast<std::size_t>(end - shortest));
    const std::string_view digits = scientific.substr(0, scientific.find('e'));
    const auto significant = [](std::string_view s) {
      std::string kept;
      for (char c : s) {
        if (c >= '0' && c <= '9') kept += c;
      }
      const std::size_t first = kept.find_first_not_of('0');
      if (first == std::string::npos) return std::size_t{1};
      const std::size_t last = kept.find_last_not_of('0');
      return last - first + 1;
    };
    const std::string_view mantissa(text.data(), std::min(text.find('e'), text.size()));
    ASSERT_EQ(significant(mantissa), significant(digits)) << text;
  }
}

TEST(XacroExpression, ComparisonsChainAndLogicReturnsOperands) {
  EXPECT_EQ(eval("1 < n < 5"), "True");
  EXPECT_EQ(eval("1 < n < 2"), "False");
  EXPECT_EQ(eval("n == 3.0"), "True");
  EXPECT_EQ(eval("n != 3"), "False");
  EXPECT_EQ(eval("'a' < 'b'"), "True");
  EXPECT_EQ(eval("n and 'yes'"), "yes");
  EXPECT_EQ(eval("0 or 'fallback'"), "fallback");
  EXPECT_EQ(eval("not n"), "False");
  EXPECT_EQ(eval("not 0 and 1"), "1");
  EXPECT_EQ(eval("None is None"), "True");
}

TEST(XacroExpression, ConditionalExpression) {
  EXPECT_EQ(eval("L / 2.0 if 'x' in 'xyz' else 0"), "0.25");
  EXPECT_EQ(eval("1 if n > 5 else 2 if n > 1 else 3"), "2");
  EXPECT_EQ(eval("1 if True else 1 / 0"), "1");  // the other branch is not evaluated
}

TEST(XacroExpression, StringsAndConcatenation) {
  EXPECT_EQ(eval("prefix + 'link'"), "left_link");
  EXPECT_EQ(eval("\"double\" 'adjacent'"), "doubleadjacent");
  EXPECT_EQ(eval("'ab' * 3"), "ababab");
  EXPECT_EQ(eval("'x y z'.split(' ')[1]"), "y");
  EXPECT_EQ(eval("prefix.upper()"), "LEFT_");
  EXPECT_EQ(eval("'{}_{}'.format(prefix, n)"), "left__3");
  EXPECT_EQ(eval("'it\\'s'"), "it's");
  EXPECT_EQ(eval("str(n) + 'x'"), "3x");
  EXPECT_EQ(eval("'ink' in prefix + 'link'"), "True");
  EXPECT_EQ(eval("len(prefix)"), "5");
}

TEST(XacroExpression, ListsDictsIndexingAndSlices) {
  EXPECT_EQ(eval("[1, 2] + [3]"), "[1, 2, 3]");
  EXPECT_EQ(eval("[1, 'a', 2.5]"), "[1, 'a', 2.5]");
  EXPECT_EQ(eval("[10, 20, 30][-1]"), "30");
  EXPECT_EQ(eval("[10, 20, 30][1:]"), "[20, 30]");
  EXPECT_EQ(eval("'abcdef'[::2]"), "ace");
  EXPECT_EQ(eval("limits['lower']"), "-2.5");
  EXPECT_EQ(eval("limits.lower"), "-2.5");  // xacro's YAML dicts allow dotted keys
  EXPECT_EQ(eval("limits['joints'][1]"), "b");
  EXPECT_EQ(eval("{'a': 1, 'b': [1, 2]}"), "{'a': 1, 'b': [1, 2]}");
  EXPECT_EQ(eval("dict(a=1, b=2)['b']"), "2");
  EXPECT_EQ(eval("limits.get('upper', 1.5)"), "1.5");
  EXPECT_EQ(eval("'lower' in limits"), "True");
  EXPECT_EQ(eval("(1, 2)"), "(1, 2)");
  EXPECT_EQ(eval("[i * 2 for i in range(4) if i > 0]"), "[2, 4, 6]");
  EXPECT_EQ(eval("sorted([3, 1, 2])"), "[1, 2, 3]");
  EXPECT_EQ(eval("sum([1, 2.5])"), "3.5");
  EXPECT_EQ(eval("max(1, 5, 3), min([4, 2])"), "(5, 2)");
}

TEST(XacroExpression, DictKeysAreOneWhenPythonSaysEqual) {
  // A repeated key keeps its place and its first spelling, and takes the last value.
  EXPECT_EQ(eval("{1: 'a', 'x': 0, 1.0: 'b', True: 'c'}"), "{1: 'c', 'x': 0}");
  EXPECT_EQ(eval("dict([(1, 'a'), (1, 'b')])"), "{1: 'b'}");
  EXPECT_EQ(eval("dict({'a': 1, 'b': 2}, a=3)"), "{'a': 3, 'b': 2}");
  // Past the few entries searched linearly: the same answers through the hash index.
  EXPECT_EQ(eval("len(dict([(i % 50, i) for i in range(200)]))"), "50");
  EXPECT_EQ(eval("dict([(i % 50, i) for i in range(200)])[7]"), "157");
  EXPECT_EQ(eval("list(dict([(i % 50, i) for i in range(200)]).keys())[:3]"), "[0, 1, 2]");
  EXPECT_EQ(eval("dict([(float(i), i) for i in range(20)])[3]"), "3");  // 3 == 3.0
  EXPECT_EQ(eval("dict([(-0.0, 'z')] + [(i, i) for i in range(1, 20)])[0]"), "z");
  EXPECT_EQ(eval("dict([((i, 'k'), i) for i in range(20)])[(4, 'k')]"), "4");
  EXPECT_EQ(eval("17 in dict([(i, i) for i in range(20)])"), "True");
  EXPECT_EQ(eval("dict([(i, i) for i in range(30)]) == dict([(29 - i, 29 - i) for i in range(30)])"), "True");
  EXPECT_EQ(eval("{'a': 1} == {'a': 1.0}"), "True");
  // The hash agrees with ==.
  EXPECT_EQ(hashOf(Value(1)), hashOf(Value(1.0)));
  EXPECT_EQ(hashOf(Value(true)), hashOf(Value(1)));
  EXPECT_EQ(hashOf(Value(-0.0)), hashOf(Value(0)));
  EXPECT_EQ(hashOf(Value(List{Value(1), Value(2.0)})), hashOf(Value(List{Value(1.0), Value(2)})));
  EXPECT_EQ(hashOf(Value("joint")), hashOf(Value(std::string("joint"))));
}

TEST(XacroExpression, MathFunctionsPiRadiansDegrees) {
  EXPECT_EQ(eval("pi"), "3.141592653589793");
  EXPECT_EQ(eval("math.pi / 2"), "1.5707963267948966");
  EXPECT_EQ(eval("radians(180)"), "3.141592653589793");
  EXPECT_EQ(eval("degrees(pi / 2)"), "90.0");
  // Rounded as CPython rounds them (x * (pi / 180)): ROS-Industrial's joint limits are written so.
  EXPECT_EQ(eval("radians(145)"), "2.530727415391778");
  EXPECT_EQ(eval("radians(-350)"), "-6.1086523819801535");
  EXPECT_EQ(eval("math.radians(250)"), "4.363323129985824");
  EXPECT_EQ(eval("degrees(0.1)"), "5.729577951308233");
  EXPECT_EQ(eval("degrees(5.5)"), "315.12678732195275");
  EXPECT_EQ(eval("cos(0)"), "1.0");
  EXPECT_EQ(eval("math.sqrt(16)"), "4.0");
  EXPECT_EQ(eval("atan2(1, 1) * 4"), "3.141592653589793");
  EXPECT_EQ(eval("math.floor(2.7)"), "2");
  EXPECT_EQ(eval("fabs(-1.5)"), "1.5");
  EXPECT_EQ(eval("round(2.5)"), "2");  // half to even
  EXPECT_EQ(eval("abs(-3)"), "3");
  EXPECT_EQ(eval("int('12') + float('0.5')"), "12.5");
}

TEST(XacroExpression, ErrorsReadLikePython) {
  EXPECT_EQ(error("undefined_name * 2"), "name 'undefined_name' is not defined");
  EXPECT_EQ(error("1 / 0"), "division by zero");
  EXPECT_NE(error("1 +").find("invalid syntax"), std::string::npos);
  EXPECT_NE(error("'a' + 1").find("can only concatenate str"), std::string::npos);
  EXPECT_NE(error("__import__('os')").find("invalid name"), std::string::npos);
  EXPECT_NE(error("[1][5]").find("index out of range"), std::string::npos);
  EXPECT_NE(error("limits['upper']").find("KeyError"), std::string::npos);
  EXPECT_NE(error("math.sqrt(-1)").find("math domain error"), std::string::npos);
  EXPECT_NE(error("lambda x: x").find("lambda"), std::string::npos);
}

TEST(XacroExpression, HostileInputIsBounded) {
  EXPECT_NE(error("'a' * 10 ** 12").find("too large"), std::string::npos);
  EXPECT_NE(error("2 ** 200").find("64-bit"), std::string::npos);
  EXPECT_NE(error(std::string(5000, '(') + "1" + std::string(5000, ')')).find("nested too deeply"), std::string::npos);
  EXPECT_NE(error("range(10 ** 9)").find("too large"), std::string::npos);
  // Each in one step, not a loop of the exponent or the count (fuzz_xacro_expression's findings):
  EXPECT_EQ(eval("1 ** 18 ** 9"), "1");
  EXPECT_EQ(eval("(-1) ** (10 ** 18 + 1)"), "-1");
  EXPECT_EQ(eval("0 ** (10 ** 18)"), "0");
  EXPECT_EQ(eval("0 ** 0"), "1");
  EXPECT_EQ(eval("3 ** 39"), "4052555153018976267");
  EXPECT_EQ(eval("len('' * 10 ** 18) + len([] * 10 ** 18)"), "0");
  EXPECT_EQ(eval("'ab' * 3 + str([1, 2] * 2)"), "ababab[1, 2, 1, 2]");
  EXPECT_NE(error("'ab' * 2 ** 62").find("too large"), std::string::npos);  // 2 * 2**62 wrapped before
  EXPECT_NE(error("[1, 2] * 2 ** 62").find("too large"), std::string::npos);
}

/// The tree of `text` through `parse`, or the error's message.
template <typename Parse>
std::string treeOrError(Parse parse, const std::string& text) {
  try {
    return describeTree(parse(text).get());
  } catch (const ExpressionError& e) {
    return std::string("error: ") + e.what();
  }
}

// References (a name with `.name`, `['key']` or `[0]` after it) skip the tokens and the grammar's
// descent; what they give must be the grammar's own tree, and what they do not take must reach the
// grammar (its error messages included).
TEST(XacroExpression, ReferencesReadWithoutTheGrammarGiveTheGrammarsTree) {
  const char* const kTexts[] = {
      "prefix", "  prefix\t", "a_1", "_x", "xacro.arg", "a.b.c", "limits['lower']", "limits[\"lower\"]",
      "p['center_of_mass']['wrist_2_cog']", "joints[0]", "joints[12][3]", "m[0].x['y']", "d['']", "d[\"\"]",
      "d['a b']", "d['a.b']", "d['x\\'y']", "d['''x''']", "d['a' 'b']", "d['a']['b'", "d['a']b", "d[01]",
      "d[0x1]", "d[1_0]", "d[1.5]", "d[-1]", "d[99999999999999999999]", "d [0]", "a . b", "True", "None",
      "False.x", "a.True", "a.if", "if", "not", "lambda", "a.", "a..b", "a[", "a]", "a[]", "a['x'", "",
      "   ", "1", "'s'", "x + 1", "f(x)", "a[1:2]", "a['k'] if c else b", "\xc3\xa9t\xc3\xa9", "a.\xc3\xa9",
      "a[b]", "a['\\n']", "a[\"it's\"]", "a['say \"hi\"']", "a['x']\n", "a\n['x']",
  };
  for (const char* text : kTexts) {
    EXPECT_EQ(treeOrError(parseExpression, text), treeOrError(parseExpressionByGrammar, text)) << "text: " << text;
  }
  // The forms the shortcut exists for are trees, not errors.
  for (const char* text : {"prefix", "xacro.arg", "p['com']['x'][2]", "m[0].x['y']"}) {
    EXPECT_EQ(treeOrError(parseExpression, text).rfind("error", 0), std::string::npos) << text;
  }
}

// The budget an expansion installs: strings count by their bytes wherever a node yields one,
// lists by the items of those a node builds, from 256 bytes on; once spent, every later
// evaluation fails.
TEST(XacroExpression, ValueBudgetCountsWhatEvaluationsBuildAndCopy) {
  Names names;
  {
    ValueBudget budget(700);
    EXPECT_EQ(str(evaluate("len('x' * 300) + len(prefix * 10)", names)), "350");  // 300 counted, 50 not
    EXPECT_EQ(str(evaluate("len('y' * 300)", names)), "300");                     // 600
    EXPECT_THROW(evaluate("len('x' * 300)", names), ValueBudgetSpent);           // 900
    EXPECT_TRUE(ValueBudget::spent());
    EXPECT_THROW(evaluate("len('z' * 256)", names), ValueBudgetSpent);  // spent stays spent
    EXPECT_EQ(str(evaluate("len(prefix)", names)), "5");                  // small values are not counted
  }
  EXPECT_FALSE(ValueBudget::spent());
  // Without a budget only the per-value limits apply.
  EXPECT_EQ(str(evaluate("len('x' * 900)", names)), "900");
  // A list counts where it is built, not where it is looked up (lists are shared).
  ValueBudget budget(100 * sizeof(Value));
  EXPECT_EQ(str(evaluate("len(limits['joints']) + len(limits['joints'])", names)), "4");
  EXPECT_THROW(evaluate("len(list(range(200)))", names), ValueBudgetSpent);
}

TEST(XacroExpression, PropertyTextBecomesItsLiteral) {
  EXPECT_TRUE(literalValue("0.5").isFloat());
  EXPECT_TRUE(literalValue("12").isInt());
  EXPECT_TRUE(literalValue("true").isBool());
  EXPECT_EQ(str(literalValue("'quoted'")), "quoted");
  EXPECT_TRUE(literalValue("1_000").isString());  // xacro keeps text with '_' as text
  EXPECT_TRUE(literalValue("abc").isString());
}

}  // namespace
}  // namespace interlink::xacro
