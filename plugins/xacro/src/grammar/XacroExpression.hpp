#pragma once
// xacro's `${...}` expression language: the part of Python's expression grammar xacro files use
// (literals, names, attributes, calls with keywords, indexing and slices, arithmetic with **,
// comparisons with chaining, in/not in, and/or/not, `a if c else b`, lists, tuples, dicts and
// list comprehensions), parsed into a tree and evaluated against an environment of names.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "XacroValue.hpp"

namespace interlink::xacro {

/// Where an expression finds names: the properties in scope, then the globals.
class Environment {
 public:
  virtual ~Environment() = default;
  /// The value of `name`, or false when it is not defined.
  virtual bool lookup(const std::string& name, Value& out) = 0;
};

struct ExpressionNode;

/// A parsed expression. Parsing throws ExpressionError ("invalid syntax ...") with the offset.
class Expression {
 public:
  explicit Expression(std::string_view text);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  Value evaluate(Environment& environment) const;

 private:
  std::unique_ptr<ExpressionNode> root_;
};

/// Parses and evaluates `text` (what xacro's safe_eval does).
Value evaluate(std::string_view text, Environment& environment);

/// The names every expression sees: xacro's globals (list, dict, len, str, float, int, min, max,
/// round, True, False, sorted, range, ...), `math.*` and the math functions and constants
/// directly (pi, sin, radians, degrees, ...), and `python.*`.
bool builtinGlobal(const std::string& name, Value& out);

/// Python's math.radians and math.degrees, rounded as CPython rounds them: one multiplication by
/// the ratio (pi / 180, 180 / pi). `x * pi / 180` differs in the last digit for many angles
/// (radians(145): 2.5307274153917776 instead of Python's 2.530727415391778).
double pythonRadians(double degrees);
double pythonDegrees(double radians);

/// Members of a value reached with `.name`: string, list and dict methods, dict keys (xacro's
/// YAML dicts allow `d.key`), namespace members. ExpressionError when there is none.
Value attributeOf(const Value& object, const std::string& name);

/// The items a `for` (and list(), tuple(), sorted(), ...) runs over: a list or tuple's items, a
/// string's characters, a dict's keys. ExpressionError for anything else.
List iterate(const Value& v);

/// The largest string or list an expression may build (a bound on hostile input).
inline constexpr std::size_t kMaxValueSize = std::size_t{16} << 20;
/// The most items a list built by an expression may hold.
inline constexpr std::size_t kMaxListItems = std::size_t{1} << 20;

/// What the evaluations on this thread may build and copy in all, while one is installed: the
/// bytes of every string an expression node yields (a string is copied wherever it is used) and
/// the items of every list, tuple or dict one builds (those are shared, not copied; sizeof(Value)
/// per item). The per-value limits above leave this open: three hundred properties of 16 MB each,
/// or one of 16 MB used ten thousand times, took all memory or minutes. An expansion installs one
/// while it runs.
class ValueBudget {
 public:
  explicit ValueBudget(std::size_t limitBytes);
  ~ValueBudget();
  ValueBudget(const ValueBudget&) = delete;
  ValueBudget& operator=(const ValueBudget&) = delete;

  /// Values smaller than this are not counted: only volume makes a bomb, and reaching the budget
  /// (a thread-local) costs a call from a plugin.
  static constexpr std::size_t kCountedFrom = 256;
  /// charge() for a value of `bytes`, when it is large enough to count.
  static void count(std::size_t bytes) {
    if (bytes >= kCountedFrom) charge(bytes);
  }
  /// Counts `bytes` against the installed budget, if any; once it is spent, this and every later
  /// charge throw ValueBudgetSpent.
  static void charge(std::size_t bytes);
  /// Whether the budget installed on this thread is spent.
  static bool spent();
  /// What a spent budget says (its limit), as ValueBudgetSpent says it.
  static std::string spentMessage();

 private:
  std::size_t limit_;
  std::size_t used_ = 0;
  ValueBudget* previous_;
};

class ValueBudgetSpent : public ExpressionError {
 public:
  using ExpressionError::ExpressionError;
};

}  // namespace interlink::xacro
