// The names xacro puts into every expression (its create_global_symbols): a subset of Python's
// builtins, the math module, and the methods of strings, lists and dicts.
#include <algorithm>
#include <cmath>
#include <map>

#include "XacroExpression.hpp"

namespace interlink::xacro {

namespace {

using Call = std::function<Value(const Arguments&, const KeywordArguments&)>;

void arity(const std::string& name, const Arguments& args, std::size_t least, std::size_t most) {
  if (args.size() < least || args.size() > most) {
    throw ExpressionError(name + "() takes " + (least == most ? std::to_string(least) : std::to_string(least) + " to " + std::to_string(most)) +
                          " arguments (" + std::to_string(args.size()) + " given)");
  }
}

Value function(std::string name, Call call) { return Function{std::move(name), std::move(call)}; }

/// A function of positional arguments only.
Value positional(std::string name, std::size_t least, std::size_t most, std::function<Value(const Arguments&)> body) {
  return function(name, [name, least, most, body](const Arguments& args, const KeywordArguments& keywords) {
    if (!keywords.empty()) throw ExpressionError(name + "() takes no keyword arguments");
    arity(name, args, least, most);
    return body(args);
  });
}

Value mathOf(std::string name, double (*f)(double)) {
  return positional(name, 1, 1, [f](const Arguments& a) { return Value(f(toDouble(a[0]))); });
}

}  // namespace

List iterate(const Value& v) {
  if (v.isList() || v.isTuple()) return v.sequence();
  if (v.isString()) {
    List out;
    for (char c : v.string()) out.emplace_back(std::string(1, c));
    return out;
  }
  if (v.isDict()) {
    List out;
    for (const auto& entry : v.dict()) out.push_back(entry.first);
    return out;
  }
  throw ExpressionError("'" + typeName(v) + "' object is not iterable");
}

namespace {

Value toFloat(const Value& v) {
  if (v.isString()) {
    double d = 0;
    if (!parsePythonFloat(v.string(), d)) throw ExpressionError("could not convert string to float: " + repr(v));
    return d;
  }
  return toDouble(v);
}

Value toInteger(const Value& v) {
  if (v.isString()) {
    std::int64_t i = 0;
    if (!parsePythonInt(v.string(), i)) throw ExpressionError("invalid literal for int() with base 10: " + repr(v));
    return i;
  }
  if (v.isFloat()) {
    const double d = std::get<double>(v.v);
    if (!std::isfinite(d)) throw ExpressionError("cannot convert float " + floatRepr(d) + " to integer");
    if (std::fabs(d) >= 9.2e18) throw ExpressionError("integer out of range");
    return static_cast<std::int64_t>(std::trunc(d));
  }
  return toInt(v);
}

/// Python's round: half to even.
double roundHalfEven(double x) { return std::nearbyint(x); }

Value extreme(const std::string& name, const Arguments& args, bool wantMax) {
  if (args.empty()) throw ExpressionError(name + " expected at least 1 argument, got 0");
  const List items = args.size() == 1 ? iterate(args[0]) : args;
  if (items.empty()) throw ExpressionError(name + "() arg is an empty sequence");
  Value best = items[0];
  for (const Value& v : items) {
    if (wantMax ? less(best, v) : less(v, best)) best = v;
  }
  return best;
}

List sortedList(List items) {
  std::stable_sort(items.begin(), items.end(), [](const Value& a, const Value& b) { return less(a, b); });
  return items;
}

Value rangeOf(const Arguments& a) {
  std::int64_t start = 0, stop = 0, step = 1;
  if (a.size() == 1) stop = toInt(a[0]);
  else {
    start = toInt(a[0]);
    stop = toInt(a[1]);
    if (a.size() == 3) step = toInt(a[2]);
  }
  if (step == 0) throw ExpressionError("range() arg 3 must not be zero");
  const long double count = (static_cast<long double>(stop) - start) / step;
  if (count > static_cast<long double>(kMaxListItems)) throw ExpressionError("range too large (value too large)");
  List out;
  for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.emplace_back(i);
  return out;
}

/// The builtins xacro exposes, by name; built once.
const std::map<std::string, Value>& builtinTable() {
  static const std::map<std::string, Value> table = [] {
    std::map<std::string, Value> t;
    t["True"] = true;
    t["False"] = false;
    t["None"] = Value();
    t["list"] = positional("list", 0, 1, [](const Arguments& a) { return a.empty() ? Value(List{}) : Value(iterate(a[0])); });
    t["tuple"] = positional("tuple", 0, 1, [](const Arguments& a) { return Value(Tuple{a.empty() ? List{} : iterate(a[0])}); });
    t["dict"] = function("dict", [](const Arguments& a, const KeywordArguments& k) {
      Dict out;
      if (a.size() > 1) throw ExpressionError("dict expected at most 1 argument");
      if (!a.empty()) {
        if (a[0].isDict()) out = a[0].dict();
        else {
          for (const Value& pair : iterate(a[0])) {
            if (!(pair.isList() || pair.isTuple()) || pair.sequence().size() != 2) {
              throw ExpressionError("dictionary update sequence element has wrong length");
            }
            out.set(pair.sequence()[0], pair.sequence()[1]);
          }
        }
      }
      for (const auto& [name, value] : k) out.set(Value(name), value);
      return Value(std::move(out));
    });
    t["len"] = positional("len", 1, 1, [](const Arguments& a) {
      if (a[0].isString()) return Value(static_cast<std::int64_t>(a[0].string().size()));
      if (a[0].isDict()) return Value(static_cast<std::int64_t>(a[0].dict().size()));
      if (a[0].isList() || a[0].isTuple()) return Value(static_cast<std::int64_t>(a[0].sequence().size()));
      throw ExpressionError("object of type '" + typeName(a[0]) + "' has no len()");
    });
    t["str"] = positional("str", 0, 1, [](const Arguments& a) { return Value(a.empty() ? std::string() : str(a[0])); });
    t["repr"] = positional("repr", 1, 1, [](const Arguments& a) { return Value(repr(a[0])); });
    t["float"] = positional("float", 0, 1, [](const Arguments& a) { return a.empty() ? Value(0.0) : toFloat(a[0]); });
    t["int"] = positional("int", 0, 1, [](const Arguments& a) { return a.empty() ? Value(0) : toInteger(a[0]); });
    t["bool"] = positional("bool", 0, 1, [](const Arguments& a) { return Value(!a.empty() && truthy(a[0])); });
    t["min"] = positional("min", 1, 1000, [](const Arguments& a) { return extreme("min", a, false); });
    t["max"] = positional("max", 1, 1000, [](const Arguments& a) { return extreme("max", a, true); });
    t["abs"] = positional("abs", 1, 1, [](const Arguments& a) {
      if (a[0].isFloat()) return Value(std::fabs(toDouble(a[0])));
      const std::int64_t i = toInt(a[0], "a number");
      return Value(i < 0 ? -i : i);
    });
    t["round"] = positional("round", 1, 2, [](const Arguments& a) {
      if (a.size() == 1 || a[1].isNone()) {
        if (!a[0].isFloat()) return Value(toInt(a[0], "a number"));
        return toInteger(Value(roundHalfEven(toDouble(a[0]))));
      }
      const double scale = std::pow(10.0, static_cast<double>(toInt(a[1])));
      if (!a[0].isFloat()) return a[0];
      return Value(roundHalfEven(toDouble(a[0]) * scale) / scale);
    });
    t["sum"] = positional("sum", 1, 2, [](const Arguments& a) {
      Value total = a.size() > 1 ? a[1] : Value(0);
      for (const Value& v : iterate(a[0])) {
        const bool ints = !total.isFloat() && !v.isFloat();
        total = ints ? Value(toInt(total, "a number") + toInt(v, "a number")) : Value(toDouble(total) + toDouble(v));
      }
      return total;
    });
    t["sorted"] = positional("sorted", 1, 1, [](const Arguments& a) { return Value(sortedList(iterate(a[0]))); });
    t["reversed"] = positional("reversed", 1, 1, [](const Arguments& a) {
      List items = iterate(a[0]);
      std::reverse(items.begin(), items.end());
      return Value(std::move(items));
    });
    t["range"] = positional("range", 1, 3, rangeOf);
    t["any"] = positional("any", 1, 1, [](const Arguments& a) {
      const List items = iterate(a[0]);
      return Value(std::any_of(items.begin(), items.end(), truthy));
    });
    t["all"] = positional("all", 1, 1, [](const Arguments& a) {
      const List items = iterate(a[0]);
      return Value(std::all_of(items.begin(), items.end(), truthy));
    });
    t["zip"] = positional("zip", 0, 100, [](const Arguments& a) {
      std::vector<List> lists;
      std::size_t n = a.empty() ? 0 : SIZE_MAX;
      for (const Value& v : a) {
        lists.push_back(iterate(v));
        n = std::min(n, lists.back().size());
      }
      List out;
      for (std::size_t i = 0; i < n; ++i) {
        List row;
        for (const List& l : lists) row.push_back(l[i]);
        out.emplace_back(Tuple{std::move(row)});
      }
      return Value(std::move(out));
    });
    t["enumerate"] = positional("enumerate", 1, 1, [](const Arguments& a) {
      List out;
      std::int64_t i = 0;
      for (const Value& v : iterate(a[0])) out.emplace_back(Tuple{List{Value(i++), v}});
      return Value(std::move(out));
    });
    t["map"] = positional("map", 2, 2, [](const Arguments& a) {
      if (!a[0].isFunction()) throw ExpressionError("map() needs a function");
      List out;
      for (const Value& v : iterate(a[1])) out.push_back(a[0].function().call({v}, {}));
      return Value(std::move(out));
    });
    // math: the functions and constants, also reachable directly (as xacro exposes them).
    std::map<std::string, Value> math;
    math["pi"] = M_PI;
    math["e"] = M_E;
    math["tau"] = 2 * M_PI;
    math["inf"] = HUGE_VAL;
    math["nan"] = std::nan("");
    const std::pair<const char*, double (*)(double)> unary[] = {
        {"sin", std::sin},   {"cos", std::cos},     {"tan", std::tan},     {"asin", std::asin}, {"acos", std::acos},
        {"atan", std::atan}, {"sinh", std::sinh},   {"cosh", std::cosh},   {"tanh", std::tanh}, {"asinh", std::asinh},
        {"acosh", std::acosh}, {"atanh", std::atanh}, {"exp", std::exp},   {"expm1", std::expm1}, {"log10", std::log10},
        {"log2", std::log2}, {"log1p", std::log1p}, {"fabs", std::fabs},   {"erf", std::erf},   {"erfc", std::erfc},
        {"gamma", std::tgamma}, {"lgamma", std::lgamma}};
    for (const auto& [name, f] : unary) math[name] = mathOf(name, f);
    math["sqrt"] = positional("sqrt", 1, 1, [](const Arguments& a) {
      const double x = toDouble(a[0]);
      if (x < 0) throw ExpressionError("math domain error");
      return Value(std::sqrt(x));
    });
    math["log"] = positional("log", 1, 2, [](const Arguments& a) {
      const double x = toDouble(a[0]);
      if (x <= 0) throw ExpressionError("math domain error");
      return Value(a.size() == 2 ? std::log(x) / std::log(toDouble(a[1])) : std::log(x));
    });
    math["radians"] = positional("radians", 1, 1, [](const Arguments& a) { return Value(pythonRadians(toDouble(a[0]))); });
    math["degrees"] = positional("degrees", 1, 1, [](const Arguments& a) { return Value(pythonDegrees(toDouble(a[0]))); });
    math["atan2"] = positional("atan2", 2, 2, [](const Arguments& a) { return Value(std::atan2(toDouble(a[0]), toDouble(a[1]))); });
    math["pow"] = positional("pow", 2, 2, [](const Arguments& a) { return Value(std::pow(toDouble(a[0]), toDouble(a[1]))); });
    math["hypot"] = positional("hypot", 1, 100, [](const Arguments& a) {
      double s = 0;
      for (const Value& v : a) s += toDouble(v) * toDouble(v);
      return Value(std::sqrt(s));
    });
    math["fmod"] = positional("fmod", 2, 2, [](const Arguments& a) { return Value(std::fmod(toDouble(a[0]), toDouble(a[1]))); });
    math["copysign"] = positional("copysign", 2, 2, [](const Arguments& a) { return Value(std::copysign(toDouble(a[0]), toDouble(a[1]))); });
    math["floor"] = positional("floor", 1, 1, [](const Arguments& a) { return toInteger(Value(std::floor(toDouble(a[0])))); });
    math["ceil"] = positional("ceil", 1, 1, [](const Arguments& a) { return toInteger(Value(std::ceil(toDouble(a[0])))); });
    math["trunc"] = positional("trunc", 1, 1, [](const Arguments& a) { return toInteger(Value(std::trunc(toDouble(a[0])))); });
    math["isnan"] = positional("isnan", 1, 1, [](const Arguments& a) { return Value(std::isnan(toDouble(a[0]))); });
    math["isinf"] = positional("isinf", 1, 1, [](const Arguments& a) { return Value(std::isinf(toDouble(a[0]))); });
    math["isfinite"] = positional("isfinite", 1, 1, [](const Arguments& a) { return Value(std::isfinite(toDouble(a[0]))); });
    math["isclose"] = function("isclose", [](const Arguments& a, const KeywordArguments& k) {
      arity("isclose", a, 2, 2);
      double rel = 1e-9, absolute = 0;
      for (const auto& [name, v] : k) {
        if (name == "rel_tol") rel = toDouble(v);
        else if (name == "abs_tol") absolute = toDouble(v);
        else throw ExpressionError("isclose() got an unexpected keyword argument '" + name + "'");
      }
      const double x = toDouble(a[0]), y = toDouble(a[1]);
      return Value(x == y || std::fabs(x - y) <= std::max(rel * std::max(std::fabs(x), std::fabs(y)), absolute));
    });
    auto mathTable = std::make_shared<std::map<std::string, Value>>(math);
    for (const auto& [name, value] : math) t.emplace(name, value);
    t["math"] = Namespace{"math", [mathTable](const std::string& name, Value& out) {
                            auto found = mathTable->find(name);
                            if (found == mathTable->end()) return false;
                            out = found->second;
                            return true;
                          }};
    auto pythonTable = std::make_shared<std::map<std::string, Value>>(t);
    t["python"] = Namespace{"python", [pythonTable](const std::string& name, Value& out) {
                              auto found = pythonTable->find(name);
                              if (found == pythonTable->end()) return false;
                              out = found->second;
                              return true;
                            }};
    return t;
  }();
  return table;
}

// Methods --------------------------------------------------------------------------------------

Value bound(const std::string& name, Call call) { return function(name, std::move(call)); }

std::string stripped(const std::string& s, const Arguments& a, bool left, bool right) {
  const std::string chars = a.empty() || a[0].isNone() ? std::string(" \t\n\r\f\v") : a[0].string();
  std::size_t from = 0, to = s.size();
  if (left) {
    while (from < to && chars.find(s[from]) != std::string::npos) ++from;
  }
  if (right) {
    while (to > from && chars.find(s[to - 1]) != std::string::npos) --to;
  }
  return s.substr(from, to - from);
}

Value split(const std::string& s, const Arguments& a) {
  List out;
  const std::int64_t maxSplit = a.size() > 1 ? toInt(a[1]) : -1;
  if (a.empty() || a[0].isNone()) {
    std::size_t i = 0;
    std::int64_t splits = 0;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (i < s.size()) {
      while (i < s.size() && space(s[i])) ++i;
      if (i >= s.size()) break;
      if (maxSplit >= 0 && splits == maxSplit) {
        std::string rest = s.substr(i);
        while (!rest.empty() && space(rest.back())) rest.pop_back();
        out.emplace_back(rest);
        break;
      }
      std::size_t j = i;
      while (j < s.size() && !space(s[j])) ++j;
      out.emplace_back(s.substr(i, j - i));
      ++splits;
      i = j;
    }
    return out;
  }
  const std::string& sep = a[0].string();
  if (sep.empty()) throw ExpressionError("empty separator");
  std::size_t from = 0;
  std::int64_t splits = 0;
  for (;;) {
    const std::size_t at = s.find(sep, from);
    if (at == std::string::npos || (maxSplit >= 0 && splits == maxSplit)) break;
    out.emplace_back(s.substr(from, at - from));
    from = at + sep.size();
    ++splits;
  }
  out.emplace_back(s.substr(from));
  return out;
}

/// str.format with {} / {0} / {name} fields (no format specs beyond the field name).
std::string format(const std::string& pattern, const Arguments& a, const KeywordArguments& k) {
  std::string out;
  std::size_t automatic = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '{' && i + 1 < pattern.size() && pattern[i + 1] == '{') {
      out += '{';
      ++i;
    } else if (c == '}' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
      out += '}';
      ++i;
    } else if (c == '{') {
      const std::size_t close = pattern.find('}', i);
      if (close == std::string::npos) throw ExpressionError("Single '{' encountered in format string");
      const std::string field = pattern.substr(i + 1, close - i - 1);
      if (field.find(':') != std::string::npos || field.find('!') != std::string::npos) {
        throw ExpressionError("format specifications are not supported: {" + field + "}");
      }
      if (field.empty()) {
        if (automatic >= a.size()) throw ExpressionError("Replacement index out of range");
        out += str(a[automatic++]);
      } else if (field[0] >= '0' && field[0] <= '9') {
        const auto index = static_cast<std::size_t>(std::stoul(field));
        if (index >= a.size()) throw ExpressionError("Replacement index out of range");
        out += str(a[index]);
      } else {
        bool found = false;
        for (const auto& [name, value] : k) {
          if (name == field) {
            out += str(value);
            found = true;
          }
        }
        if (!found) throw ExpressionError("KeyError: '" + field + "'");
      }
      i = close;
    } else {
      out += c;
    }
  }
  return out;
}

Value stringMethod(const std::string& s, const std::string& name) {
  const auto method = [&](std::size_t least, std::size_t most, std::function<Value(const Arguments&)> body) {
    return positional(name, least, most, std::move(body));
  };
  const auto needString = [](const Value& v) -> const std::string& {
    if (!v.isString()) throw ExpressionError("must be str, not " + typeName(v));
    return v.string();
  };
  if (name == "split") return method(0, 2, [s](const Arguments& a) { return split(s, a); });
  if (name == "strip") return method(0, 1, [s](const Arguments& a) { return Value(stripped(s, a, true, true)); });
  if (name == "lstrip") return method(0, 1, [s](const Arguments& a) { return Value(stripped(s, a, true, false)); });
  if (name == "rstrip") return method(0, 1, [s](const Arguments& a) { return Value(stripped(s, a, false, true)); });
  if (name == "lower" || name == "upper") {
    const bool upper = name == "upper";
    return method(0, 0, [s, upper](const Arguments&) {
      std::string out = s;
      for (char& c : out) c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
      return Value(out);
    });
  }
  if (name == "replace") {
    return method(2, 2, [s, needString](const Arguments& a) {
      const std::string& from = needString(a[0]);
      const std::string& to = needString(a[1]);
      if (from.empty()) throw ExpressionError("replace with an empty pattern is not supported");
      std::string out;
      std::size_t at = 0;
      for (std::size_t hit; (hit = s.find(from, at)) != std::string::npos; at = hit + from.size()) {
        out += s.substr(at, hit - at) + to;
        if (out.size() > kMaxValueSize) throw ExpressionError("value too large");
      }
      return Value(out + s.substr(at));
    });
  }
  if (name == "startswith") return method(1, 1, [s, needString](const Arguments& a) { return Value(s.rfind(needString(a[0]), 0) == 0); });
  if (name == "endswith") {
    return method(1, 1, [s, needString](const Arguments& a) {
      const std::string& end = needString(a[0]);
      return Value(s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0);
    });
  }
  if (name == "find") {
    return method(1, 1, [s, needString](const Arguments& a) {
      const auto at = s.find(needString(a[0]));
      return Value(at == std::string::npos ? std::int64_t{-1} : static_cast<std::int64_t>(at));
    });
  }
  if (name == "count") {
    return method(1, 1, [s, needString](const Arguments& a) {
      const std::string& what = needString(a[0]);
      std::int64_t n = 0;
      if (what.empty()) return Value(static_cast<std::int64_t>(s.size() + 1));
      for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
      return Value(n);
    });
  }
  if (name == "join") {
    return method(1, 1, [s](const Arguments& a) {
      std::string out;
      bool first = true;
      for (const Value& v : iterate(a[0])) {
        if (!v.isString()) throw ExpressionError("sequence item: expected str instance, " + typeName(v) + " found");
        out += (first ? "" : s) + v.string();
        first = false;
        if (out.size() > kMaxValueSize) throw ExpressionError("value too large");
      }
      return Value(out);
    });
  }
  if (name == "isdigit") {
    return method(0, 0, [s](const Arguments&) {
      return Value(!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }));
    });
  }
  if (name == "format") {
    return bound("format", [s](const Arguments& a, const KeywordArguments& k) { return Value(format(s, a, k)); });
  }
  throw ExpressionError("'str' object has no attribute '" + name + "'");
}

}  // namespace

double pythonRadians(double degrees) {
  constexpr double kRadiansPerDegree = M_PI / 180.0;
  return degrees * kRadiansPerDegree;
}

double pythonDegrees(double radians) {
  constexpr double kDegreesPerRadian = 180.0 / M_PI;
  return kDegreesPerRadian * radians;
}

bool builtinGlobal(const std::string& name, Value& out) {
  const auto& table = builtinTable();
  auto found = table.find(name);
  if (found == table.end()) return false;
  out = found->second;
  return true;
}

Value attributeOf(const Value& object, const std::string& name) {
  if (object.isNamespace()) {
    Value out;
    if (object.nameSpace().member(name, out)) return out;
    throw ExpressionError("name '" + name + "' is not defined in namespace '" + object.nameSpace().name + "'");
  }
  if (object.isString()) return stringMethod(object.string(), name);
  if (object.isDict()) {
    // xacro's YAML dicts give their keys as attributes too (YamlDictWrapper).
    if (const Value* found = object.dict().find(Value(name))) return *found;
    const auto dict = std::get<std::shared_ptr<const Dict>>(object.v);
    if (name == "get") {
      return positional("get", 1, 2, [dict](const Arguments& a) {
        const Value* found = dict->find(a[0]);
        return found ? *found : a.size() > 1 ? a[1] : Value();
      });
    }
    if (name == "keys" || name == "values" || name == "items") {
      return positional(name, 0, 0, [dict, name](const Arguments&) {
        List out;
        for (const auto& [k, v] : *dict) {
          if (name == "keys") out.push_back(k);
          else if (name == "values") out.push_back(v);
          else out.emplace_back(Tuple{List{k, v}});
        }
        return Value(std::move(out));
      });
    }
    throw ExpressionError("The yaml dictionary has no key '" + name + "'");
  }
  if (object.isList() || object.isTuple()) {
    const Value sequence = object;
    if (name == "index" || name == "count") {
      return positional(name, 1, 1, [sequence, name](const Arguments& a) {
        const List& items = sequence.sequence();
        std::int64_t n = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (!equal(items[i], a[0])) continue;
          if (name == "index") return Value(static_cast<std::int64_t>(i));
          ++n;
        }
        if (name == "index") throw ExpressionError(repr(a[0]) + " is not in list");
        return Value(n);
      });
    }
  }
  throw ExpressionError("'" + typeName(object) + "' object has no attribute '" + name + "'");
}

}  // namespace interlink::xacro
