#pragma once
// The values of xacro's expression language: the Python objects xacro's `${...}` can make
// (None, bool, int, float, str, list, tuple, dict, functions and namespaces), with Python's
// conversions, comparisons and text forms, so that `${0.1*3}` prints as xacro prints it.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace interlink::xacro {

/// An expression failed as Python would fail: the message reads like Python's ("name 'x' is not
/// defined", "division by zero").
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Value;
using List = std::vector<Value>;
class Dict;
using Arguments = std::vector<Value>;
using KeywordArguments = std::vector<std::pair<std::string, Value>>;

struct Function {
  std::string name;
  std::function<Value(const Arguments&, const KeywordArguments&)> call;
};

/// Something with named members looked up when asked (xacro's include namespaces, `math`):
/// returns false when it has no member `name`.
struct Namespace {
  std::string name;
  std::function<bool(const std::string& name, Value& out)> member;
};

struct Tuple {
  List items;
};

struct Value {
  using Storage = std::variant<std::monostate, bool, std::int64_t, double, std::string, std::shared_ptr<const List>,
                               std::shared_ptr<const Tuple>, std::shared_ptr<const Dict>,
                               std::shared_ptr<const Function>, std::shared_ptr<const Namespace>>;
  Storage v;

  Value() = default;
  Value(bool b) : v(b) {}
  Value(int i) : v(std::int64_t{i}) {}
  Value(std::int64_t i) : v(i) {}
  Value(double d) : v(d) {}
  Value(std::string s) : v(std::move(s)) {}
  Value(const char* s) : v(std::string(s)) {}
  Value(List l) : v(std::make_shared<const List>(std::move(l))) {}
  Value(Tuple t) : v(std::make_shared<const Tuple>(std::move(t))) {}
  Value(Dict d);
  Value(Function f) : v(std::make_shared<const Function>(std::move(f))) {}
  Value(Namespace n) : v(std::make_shared<const Namespace>(std::move(n))) {}

  bool isNone() const { return v.index() == 0; }
  bool isBool() const { return std::holds_alternative<bool>(v); }
  bool isInt() const { return std::holds_alternative<std::int64_t>(v); }
  bool isFloat() const { return std::holds_alternative<double>(v); }
  /// bool, int or float (Python's bool is an int).
  bool isNumber() const { return isBool() || isInt() || isFloat(); }
  bool isString() const { return std::holds_alternative<std::string>(v); }
  bool isList() const { return std::holds_alternative<std::shared_ptr<const List>>(v); }
  bool isTuple() const { return std::holds_alternative<std::shared_ptr<const Tuple>>(v); }
  bool isDict() const { return std::holds_alternative<std::shared_ptr<const Dict>>(v); }
  bool isFunction() const { return std::holds_alternative<std::shared_ptr<const Function>>(v); }
  bool isNamespace() const { return std::holds_alternative<std::shared_ptr<const Namespace>>(v); }

  const std::string& string() const { return std::get<std::string>(v); }
  const List& list() const { return *std::get<std::shared_ptr<const List>>(v); }
  const List& tuple() const { return std::get<std::shared_ptr<const Tuple>>(v)->items; }
  /// The items of a list or a tuple.
  const List& sequence() const { return isList() ? list() : tuple(); }
  const Dict& dict() const;
  const Function& function() const { return *std::get<std::shared_ptr<const Function>>(v); }
  const Namespace& nameSpace() const { return *std::get<std::shared_ptr<const Namespace>>(v); }
};

/// Python's dict: insertion-ordered; a key set again keeps its place and takes the new value.
/// Keys are compared as Python's == compares them (1, 1.0 and True are one key). A dict of more
/// than a few entries finds its keys through a hash index: YAML files and dict literals can be
/// large, and a linear search per key made building one quadratic (a 200 000-key YAML mapping
/// ran for minutes).
class Dict {
 public:
  using Entry = std::pair<Value, Value>;
  using const_iterator = std::vector<Entry>::const_iterator;

  Dict() = default;
  /// The entries in order, as a dict display ({k: v, ...}): a repeated key takes the later value.
  Dict(std::initializer_list<Entry> entries);

  /// dict[key] = value.
  void set(Value key, Value value);
  /// dict[key], or nullptr.
  const Value* find(const Value& key) const;

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }

 private:
  /// Up to this many entries a key is looked for linearly, without an index.
  static constexpr std::size_t kLinearEntries = 8;
  /// The entry whose key equals `key`, or size().
  std::size_t position(const Value& key) const;
  std::vector<Entry> entries_;
  std::unordered_multimap<std::size_t, std::size_t> index_;  // hashOf(key) -> entry, past kLinearEntries
};

inline Value::Value(Dict d) : v(std::make_shared<const Dict>(std::move(d))) {}
inline const Dict& Value::dict() const { return *std::get<std::shared_ptr<const Dict>>(v); }

/// A hash of the value that agrees with equal(): equal values hash alike (numbers by their value as
/// a double, so that 1, 1.0 and True do). Dicts hash by their size, functions and namespaces by
/// identity.
std::size_t hashOf(const Value& value);

/// Python's type name ("int", "str", ...), for messages.
std::string typeName(const Value& value);
/// Python's truth value.
bool truthy(const Value& value);
/// The value as a double (bool, int, float), else ExpressionError naming `what`.
double toDouble(const Value& value, const char* what = "a number");
/// The value as an integer (bool, int), else ExpressionError.
std::int64_t toInt(const Value& value, const char* what = "an integer");
/// Python's str(): what xacro writes into an attribute.
std::string str(const Value& value);
/// Python's repr(): strings quoted, as inside printed lists.
std::string repr(const Value& value);
/// Python's repr() of a float: the shortest text that reads back to the same number.
std::string floatRepr(double value);
/// Python's ==.
bool equal(const Value& a, const Value& b);
/// Python's <, or ExpressionError when the types do not order.
bool less(const Value& a, const Value& b);

/// xacro's reading of a property written as text: 'quoted' loses its quotes, an int or float
/// literal becomes that number, true/false a bool, anything else (or text with '_') stays text.
Value literalValue(const std::string& text);
/// The same, taking the text: a text that stays a string is moved into the value, not copied.
Value literalValue(std::string&& text);
/// Python's int(text) and float(text) on a string; false when Python would raise.
bool parsePythonInt(std::string_view text, std::int64_t& out);
bool parsePythonFloat(std::string_view text, double& out);
/// A number as written without its '_' digit separators (Python literals, YAML 1.1 numbers):
/// `text` itself when it has none, else the digits copied into `storage`.
std::string_view withoutDigitSeparators(std::string_view text, std::string& storage);

}  // namespace interlink::xacro
