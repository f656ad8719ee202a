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

}  // namespace interlink::xacro
