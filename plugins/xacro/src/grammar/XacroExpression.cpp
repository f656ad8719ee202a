#include "XacroExpression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "XacroSyntax.hpp"

namespace interlink::xacro {

// Values and operators ------------------------------------------------------------------------

namespace {

void checkSize(std::size_t size, std::size_t limit = kMaxValueSize) {
  if (size > limit) {
    throw ExpressionError("value too large (" + std::to_string(size) + " items or bytes; the limit is " +
                          std::to_string(limit) + ")");
  }
}

Value intResult(long double exact, std::int64_t result) {
  if (exact > static_cast<long double>(std::numeric_limits<std::int64_t>::max()) ||
      exact < static_cast<long double>(std::numeric_limits<std::int64_t>::min())) {
    throw ExpressionError("integer result out of the 64-bit range Interlink's xacro supports");
  }
  return result;
}

/// `size` items repeated `n` times, checked against `limit` without overflowing.
std::size_t repeatedSize(std::size_t size, std::int64_t n, std::size_t limit) {
  const auto times = static_cast<std::size_t>(n);
  if (size != 0 && times > limit / size) {
    throw ExpressionError("value too large (" + std::to_string(size) + " items or bytes repeated " + std::to_string(n) +
                          " times; the limit is " + std::to_string(limit) + ")");
  }
  return size * times;
}

Value repeat(const Value& sequence, const Value& count) {
  const std::int64_t n = std::max<std::int64_t>(0, toInt(count, "an integer"));
  if (sequence.isString()) {
    const std::string& once = sequence.string();
    const std::size_t total = repeatedSize(once.size(), n, kMaxValueSize);
    // By doubling: 'a' * 16000000 appended one character at a time took 0.2 s, and '' * 10**18
    // looped 10**18 times.
    std::string out;
    if (total == 0) return out;
    out.reserve(total);
    out += once;
    while (out.size() * 2 <= total) out += out;
    out.append(out, 0, total - out.size());
    return out;
  }
  const List& once = sequence.sequence();
  List out;
  out.reserve(repeatedSize(once.size(), n, kMaxListItems));
  if (!once.empty()) {
    for (std::int64_t i = 0; i < n; ++i) out.insert(out.end(), once.begin(), once.end());
  }
  if (sequence.isTuple()) return Tuple{std::move(out)};
  return out;
}

[[noreturn]] void unsupported(const std::string& op, const Value& a, const Value& b) {
  throw ExpressionError("unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
}

double floorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

Value binaryOperation(const std::string& op, const Value& a, const Value& b) {
  const bool numbers = a.isNumber() && b.isNumber();
  const bool integers = numbers && !a.isFloat() && !b.isFloat();
  if (op == "+") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) + y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) + toDouble(b);
    if (a.isString() && b.isString()) {
      checkSize(a.string().size() + b.string().size());
      std::string out;  // one allocation of the final size (a + b copied a, then grew it)
      out.reserve(a.string().size() + b.string().size());
      out += a.string();
      out += b.string();
      return out;
    }
    if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
      List out = a.sequence();
      out.insert(out.end(), b.sequence().begin(), b.sequence().end());
      checkSize(out.size(), kMaxListItems);
      if (a.isTuple()) return Tuple{std::move(out)};
      return out;
    }
    if (a.isString() || b.isString()) {
      throw ExpressionError("can only concatenate str (not \"" + typeName(a.isString() ? b : a) + "\") to str");
    }
    unsupported(op, a, b);
  }
  if (op == "-") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) - y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) - toDouble(b);
    unsupported(op, a, b);
  }
  if (op == "*") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) * y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) * toDouble(b);
    if ((a.isString() || a.isList() || a.isTuple()) && (b.isInt() || b.isBool())) return repeat(a, b);
    if ((b.isString() || b.isList() || b.isTuple()) && (a.isInt() || a.isBool())) return repeat(b, a);
    unsupported(op, a, b);
  }
  if (op == "/") {
    if (!numbers) unsupported(op, a, b);
    if (toDouble(b) == 0.0) throw ExpressionError(integers ? "division by zero" : "float division by zero");
    return toDouble(a) / toDouble(b);
  }
  if (op == "//" || op == "%") {
    if (a.isString() && op == "%") throw ExpressionError("printf-style formatting ('%') is not supported");
    if (!numbers) unsupported(op, a, b);
    if (toDouble(b) == 0.0) {
      throw ExpressionError(integers ? "integer division or modulo by zero" : "float modulo");
    }
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      std::int64_t q = x / y;
      std::int64_t r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) {
        --q;
        r += y;
      }
      return op == "//" ? Value(q) : Value(r);
    }
    const double x = toDouble(a), y = toDouble(b);
    return op == "//" ? Value(std::floor(x / y)) : Value(floorMod(x, y));
  }
  if (op == "**") {
    if (!numbers) unsupported(op, a, b);
    if (integers && toInt(b) >= 0) {
      const long double exact = std::pow(static_cast<long double>(toInt(a)), static_cast<long double>(toInt(b)));
      const std::int64_t base = toInt(a);
      const std::int64_t exponent = toInt(b);
      intResult(exact, 0);  // throws unless the result fits
      // 0, 1 and -1 fit for any exponent: answered without a loop of `exponent` steps (1 ** 18 ** 9
      // ran for hours, fuzz_xacro_expression's finding); other bases fit only below 64.
      if (base == 0) return std::int64_t{exponent == 0 ? 1 : 0};
      if (base == 1) return std::int64_t{1};
      if (base == -1) return std::int64_t{exponent % 2 == 0 ? 1 : -1};
      std::int64_t result = 1;
      for (std::int64_t i = 0; i < exponent; ++i) result *= base;
      return result;
    }
    const double x = toDouble(a), y = toDouble(b);
    if (x == 0.0 && y < 0) throw ExpressionError("0.0 cannot be raised to a negative power");
    if (x < 0 && std::floor(y) != y) throw ExpressionError("complex results are not supported");
    return std::pow(x, y);
  }
  throw ExpressionError("unknown operator " + op);
}

bool contains(const Value& container, const Value& item) {
  if (container.isString()) {
    if (!item.isString()) throw ExpressionError("'in <string>' requires string as left operand, not " + typeName(item));
    return container.string().find(item.string()) != std::string::npos;
  }
  if (container.isList() || container.isTuple()) {
    for (const Value& v : container.sequence()) {
      if (equal(v, item)) return true;
    }
    return false;
  }
  if (container.isDict()) return container.dict().find(item) != nullptr;
  if (container.isNamespace()) {
    Value ignored;
    return item.isString() && container.nameSpace().member(item.string(), ignored);
  }
  throw ExpressionError("argument of type '" + typeName(container) + "' is not iterable");
}

bool compare(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return equal(a, b);
  if (op == "!=") return !equal(a, b);
  if (op == "<") return less(a, b);
  if (op == ">") return less(b, a);
  if (op == "<=") return !less(b, a);
  if (op == ">=") return !less(a, b);
  if (op == "in") return contains(b, a);
  if (op == "not in") return !contains(b, a);
  const bool same = (a.isNone() && b.isNone()) || (a.isBool() && b.isBool() && equal(a, b)) ||
                    (a.v.index() == b.v.index() && a.v.index() >= 5 && equal(a, b));
  return op == "is" ? same : !same;
}

std::int64_t normalisedIndex(std::int64_t index, std::size_t size) {
  const auto n = static_cast<std::int64_t>(size);
  if (index < 0) index += n;
  if (index < 0 || index >= n) throw ExpressionError("index out of range");
  return index;
}

Value indexValue(const Value& object, const Value& key) {
  if (object.isDict()) {
    if (const Value* found = object.dict().find(key)) return *found;
    throw ExpressionError("KeyError: " + repr(key));
  }
  if (object.isList() || object.isTuple()) {
    return object.sequence()[static_cast<std::size_t>(normalisedIndex(toInt(key, "an integer index"), object.sequence().size()))];
  }
  if (object.isString()) {
    const auto i = normalisedIndex(toInt(key, "an integer index"), object.string().size());
    return std::string(1, object.string()[static_cast<std::size_t>(i)]);
  }
  if (object.isNamespace() && key.isString()) return attributeOf(object, key.string());
  throw ExpressionError("'" + typeName(object) + "' object is not subscriptable");
}

Value sliceValue(const Value& object, const Value* start, const Value* stop, const Value* step) {
  const std::size_t size = object.isString() ? object.string().size()
                           : (object.isList() || object.isTuple()) ? object.sequence().size()
                                                                    : throw ExpressionError("'" + typeName(object) + "' object is not subscriptable");
  const auto n = static_cast<std::int64_t>(size);
  const std::int64_t by = step && !step->isNone() ? toInt(*step) : 1;
  if (by == 0) throw ExpressionError("slice step cannot be zero");
  const auto bound = [&](const Value* v, std::int64_t fallback) {
    if (!v || v->isNone()) return fallback;
    std::int64_t i = toInt(*v);
    if (i < 0) i += n;
    return by > 0 ? std::clamp<std::int64_t>(i, 0, n) : std::clamp<std::int64_t>(i, -1, n - 1);
  };
  const std::int64_t from = bound(start, by > 0 ? 0 : n - 1);
  const std::int64_t to = bound(stop, by > 0 ? n : -1);
  std::vector<std::size_t> picked;
  for (std::int64_t i = from; by > 0 ? i < to : i > to; i += by) picked.push_back(static_cast<std::size_t>(i));
  if (object.isString()) {
    std::string out;
    for (std::size_t i : picked) out += object.string()[i];
    return out;
  }
  List out;
  for (std::size_t i : picked) out.push_back(object.sequence()[i]);
  if (object.isTuple()) return Tuple{std::move(out)};
  return out;
}

/// The environment of a comprehension: its variable, then the enclosing names.
class ComprehensionScope : public Environment {
 public:
  ComprehensionScope(Environment& outer, std::string name) : outer_(outer), name_(std::move(name)) {}
  bool lookup(const std::string& name, Value& out) override {
    if (name == name_) {
      out = value;
      return true;
    }
    return outer_.lookup(name, out);
  }
  Value value;

 private:
  Environment& outer_;
  std::string name_;
};

Value evaluateNode(const ExpressionNode& node, Environment& env);

/// A node's value before the budget sees it.
Value evaluateUncounted(const ExpressionNode& node, Environment& env) {
  switch (node.kind) {
    case NodeKind::Literal: return node.literal;
    case NodeKind::Name: {
      if (node.name.rfind("__", 0) == 0) throw ExpressionError("Use of invalid name(s): " + node.name);
      Value out;
      if (env.lookup(node.name, out)) return out;
      throw ExpressionError("name '" + node.name + "' is not defined");
    }
    case NodeKind::List:
    case NodeKind::Tuple: {
      List items;
      for (const auto& kid : node.kids) items.push_back(evaluateNode(*kid, env));
      if (node.kind == NodeKind::Tuple) return Tuple{std::move(items)};
      return items;
    }
    case NodeKind::Dict: {
      Dict items;
      for (std::size_t i = 0; i + 1 < node.kids.size(); i += 2) {
        Value key = evaluateNode(*node.kids[i], env);
        items.set(std::move(key), evaluateNode(*node.kids[i + 1], env));
      }
      return items;
    }
    case NodeKind::Attribute: {
      if (node.name.rfind("__", 0) == 0) throw ExpressionError("Use of invalid name(s): " + node.name);
      return attributeOf(evaluateNode(*node.kids[0], env), node.name);
    }
    case NodeKind::Call: {
      const Value function = evaluateNode(*node.kids[0], env);
      if (!function.isFunction()) throw ExpressionError("'" + typeName(function) + "' object is not callable");
      Arguments positional;
      KeywordArguments keywords;
      for (std::size_t i = 1; i < node.kids.size(); ++i) {
        Value v = evaluateNode(*node.kids[i], env);
        if (node.operators[i - 1].empty()) positional.push_back(std::move(v));
        else keywords.emplace_back(node.operators[i - 1], std::move(v));
      }
      return function.function().call(positional, keywords);
    }
    case NodeKind::Index: return indexValue(evaluateNode(*node.kids[0], env), evaluateNode(*node.kids[1], env));
    case NodeKind::Slice: {
      const Value object = evaluateNode(*node.kids[0], env);
      Value bounds[3];
      for (int i = 0; i < 3; ++i) {
        if (node.kids[static_cast<std::size_t>(i) + 1]) bounds[i] = evaluateNode(*node.kids[static_cast<std::size_t>(i) + 1], env);
      }
      return sliceValue(object, &bounds[0], &bounds[1], &bounds[2]);
    }
    case NodeKind::Unary: {
      const Value operand = evaluateNode(*node.kids[0], env);
      if (!operand.isNumber()) throw ExpressionError("bad operand type for unary " + node.name + ": '" + typeName(operand) + "'");
      if (node.name == "~") return ~toInt(operand);
      if (node.name == "+") return operand.isBool() ? Value(toInt(operand)) : operand;
      if (operand.isFloat()) return -toDouble(operand);
      return binaryOperation("-", Value(0), operand);
    }
    case NodeKind::Binary:
      return binaryOperation(node.name, evaluateNode(*node.kids[0], env), evaluateNode(*node.kids[1], env));
    case NodeKind::Compare: {
      Value left = evaluateNode(*node.kids[0], env);
      for (std::size_t i = 0; i < node.operators.size(); ++i) {
        Value right = evaluateNode(*node.kids[i + 1], env);
        if (!compare(node.operators[i], left, right)) return false;
        left = std::move(right);
      }
      return true;
    }
    case NodeKind::And: {
      Value left = evaluateNode(*node.kids[0], env);
      return truthy(left) ? evaluateNode(*node.kids[1], env) : left;
    }
    case NodeKind::Or: {
      Value left = evaluateNode(*node.kids[0], env);
      return truthy(left) ? left : evaluateNode(*node.kids[1], env);
    }
    case NodeKind::Not: return !truthy(evaluateNode(*node.kids[0], env));
    case NodeKind::Conditional:
      return truthy(evaluateNode(*node.kids[0], env)) ? evaluateNode(*node.kids[1], env) : evaluateNode(*node.kids[2], env);
    case NodeKind::Comprehension: {
      ComprehensionScope scope(env, node.name);
      List out;
      for (Value& item : iterate(evaluateNode(*node.kids[1], env))) {
        scope.value = std::move(item);
        if (node.kids.size() > 2 && !truthy(evaluateNode(*node.kids[2], scope))) continue;
        out.push_back(evaluateNode(*node.kids[0], scope));
        checkSize(out.size(), kMaxListItems);
      }
      return out;
    }
  }
  throw ExpressionError("unknown expression");
}

/// Every node's value counts against the installed ValueBudget: a string by its bytes (it is a
/// copy), a list, tuple or dict that this node built by its items (looked up, it is shared).
Value evaluateNode(const ExpressionNode& node, Environment& env) {
  Value value = evaluateUncounted(node, env);
  std::size_t size = 0;
  if (value.isString()) {
    size = value.string().size();
  } else if (node.kind != NodeKind::Name && node.kind != NodeKind::Attribute && node.kind != NodeKind::Index) {
    if (value.isList() || value.isTuple()) size = value.sequence().size() * sizeof(Value);
    if (value.isDict()) size = value.dict().size() * 2 * sizeof(Value);
  }
  ValueBudget::count(size);
  return value;
}

}  // namespace

Expression::Expression(std::string_view text) : root_(parseExpression(text)) {}
Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

namespace {
thread_local ValueBudget* activeBudget = nullptr;  // the innermost installed on this thread
}  // namespace

ValueBudget::ValueBudget(std::size_t limitBytes) : limit_(limitBytes), previous_(activeBudget) { activeBudget = this; }

ValueBudget::~ValueBudget() { activeBudget = previous_; }

void ValueBudget::charge(std::size_t bytes) {
  ValueBudget* const budget = activeBudget;
  if (!budget) return;
  const std::size_t left = budget->limit_ - std::min(budget->used_, budget->limit_);
  budget->used_ = bytes > left ? budget->limit_ + 1 : budget->used_ + bytes;  // no overflow
  if (budget->used_ > budget->limit_) throw ValueBudgetSpent(spentMessage());
}

bool ValueBudget::spent() { return activeBudget && activeBudget->used_ > activeBudget->limit_; }

std::string ValueBudget::spentMessage() {
  const std::size_t limit = activeBudget ? activeBudget->limit_ : 0;
  return "the expressions built or copied more than " + std::to_string(limit >> 20) +
         " MiB of strings and lists in all (a value bomb?)";
}

Value Expression::evaluate(Environment& environment) const { return evaluateNode(*root_, environment); }

Value evaluate(std::string_view text, Environment& environment) { return Expression(text).evaluate(environment); }

}  // namespace interlink::xacro
