#include "XacroValue.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>

#include "interlink/AsciiCase.hpp"

namespace interlink::xacro {

std::string typeName(const Value& value) {
  switch (value.v.index()) {
    case 0: return "NoneType";
    case 1: return "bool";
    case 2: return "int";
    case 3: return "float";
    case 4: return "str";
    case 5: return "list";
    case 6: return "tuple";
    case 7: return "dict";
    case 8: return "builtin_function_or_method";
    default: return "namespace";
  }
}

bool truthy(const Value& value) {
  if (value.isNone()) return false;
  if (value.isBool()) return std::get<bool>(value.v);
  if (value.isInt()) return std::get<std::int64_t>(value.v) != 0;
  if (value.isFloat()) return std::get<double>(value.v) != 0.0;
  if (value.isString()) return !value.string().empty();
  if (value.isList() || value.isTuple()) return !value.sequence().empty();
  if (value.isDict()) return !value.dict().empty();
  return true;
}

double toDouble(const Value& value, const char* what) {
  if (value.isFloat()) return std::get<double>(value.v);
  if (value.isInt()) return static_cast<double>(std::get<std::int64_t>(value.v));
  if (value.isBool()) return std::get<bool>(value.v) ? 1.0 : 0.0;
  throw ExpressionError(std::string("must be ") + what + ", not " + typeName(value));
}

std::int64_t toInt(const Value& value, const char* what) {
  if (value.isInt()) return std::get<std::int64_t>(value.v);
  if (value.isBool()) return std::get<bool>(value.v) ? 1 : 0;
  throw ExpressionError(std::string("must be ") + what + ", not " + typeName(value));
}

namespace {

/// Python's repr of `value` when it is a decimal of at most six places between 1e-4 and 1e9,
/// as most floats of a robot description are (0.1, -1.5708, 0.0035): the fewest places whose
/// decimal reads back as `value` are the shortest digits that do, which is what repr writes, and
/// the division by a power of ten (exact below 2^53, correctly rounded) says whether it reads
/// back. Else false (to_chars finds the digits).
bool shortDecimalRepr(double value, std::string& out) {
  const double magnitude = std::fabs(value);
  if (!(magnitude >= 1e-4 && magnitude < 1e9)) return false;
  static constexpr double kScale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
  static constexpr std::uint64_t kIntegerScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
  for (std::size_t places = 0; places < std::size(kScale); ++places) {
    const double units = std::nearbyint(magnitude * kScale[places]);
    if (units / kScale[places] != magnitude) continue;
    const auto whole = static_cast<std::uint64_t>(units);
    char buffer[32];
    char* p = buffer + sizeof buffer;
    std::uint64_t fraction = whole % kIntegerScale[places];
    if (places == 0) *--p = '0';
    for (std::size_t k = 0; k < places; ++k) {
      *--p = static_cast<char>('0' + fraction % 10);
      fraction /= 10;
    }
    *--p = '.';
    std::uint64_t integer = whole / kIntegerScale[places];
    do {
      *--p = static_cast<char>('0' + integer % 10);
      integer /= 10;
    } while (integer != 0);
    if (value < 0) *--p = '-';
    out.assign(p, buffer + sizeof buffer);
    return true;
  }
  return false;
}

}  // namespace

std::string floatRepr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::string shortest; shortDecimalRepr(value, shortest)) return shortest;
  // The shortest digits that read back (to_chars), laid out as Python's repr lays them out:
  // positional for exponents -4..15, else d.ddde±XX. Built in one buffer: this runs for every
  // float an expansion writes (FR3: ~240 per load), and the piecewise strings cost 1.4 K
  // instructions a call.
  char scientific[32];
  const char* const end = std::to_chars(scientific, scientific + sizeof scientific, value, std::chars_format::scientific).ptr;
  const char* p = scientific;
  char out[48];
  std::size_t n = 0;
  if (*p == '-') {
    out[n++] = '-';
    ++p;
  }
  // "d[.ddd]e±XX": the digits without the point, then the exponent.
  char digits[20];
  std::size_t count = 0;
  for (; p != end && *p != 'e'; ++p) {
    if (*p != '.') digits[count++] = *p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+'), end, exponent);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int k = -1; k > exponent; --k) out[n++] = '0';
      for (std::size_t k = 0; k < count; ++k) out[n++] = digits[k];
    } else {
      const auto whole = static_cast<std::size_t>(exponent) + 1;
      for (std::size_t k = 0; k < whole; ++k) out[n++] = k < count ? digits[k] : '0';
      out[n++] = '.';
      if (count <= whole) {
        out[n++] = '0';
      } else {
        for (std::size_t k = whole; k < count; ++k) out[n++] = digits[k];
      }
    }
    return std::string(out, n);
  }
  out[n++] = digits[0];
  if (count > 1) {
    out[n++] = '.';
    for (std::size_t k = 1; k < count; ++k) out[n++] = digits[k];
  }
  out[n++] = 'e';
  out[n++] = exponent < 0 ? '-' : '+';
  const int magnitude = exponent < 0 ? -exponent : exponent;
  if (magnitude >= 100) out[n++] = static_cast<char>('0' + magnitude / 100);
  out[n++] = static_cast<char>('0' + magnitude / 10 % 10);
  out[n++] = static_cast<char>('0' + magnitude % 10);
  return std::string(out, n);
}

namespace {

std::string quoted(const std::string& s) {
  const bool useDouble = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char quote = useDouble ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == quote) out += std::string("\\") + quote;
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out + quote;
}

std::string joined(const List& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + repr(items[i]);
  return out;
}

}  // namespace

std::string repr(const Value& value) {
  if (value.isString()) return quoted(value.string());
  return str(value);
}

std::string str(const Value& value) {
  switch (value.v.index()) {
    case 0: return "None";
    case 1: return std::get<bool>(value.v) ? "True" : "False";
    case 2: return std::to_string(std::get<std::int64_t>(value.v));
    case 3: return floatRepr(std::get<double>(value.v));
    case 4: return value.string();
    case 5: return "[" + joined(value.list()) + "]";
    case 6: return "(" + joined(value.tuple()) + (value.tuple().size() == 1 ? ",)" : ")");
    case 7: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, v] : value.dict()) {
        out += (first ? "" : ", ") + repr(k) + ": " + repr(v);
        first = false;
      }
      return out + "}";
    }
    case 8: return "<built-in function " + value.function().name + ">";
    default: return "<namespace " + value.nameSpace().name + ">";
  }
}

bool equal(const Value& a, const Value& b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) return toDouble(a) == toDouble(b);
    return toInt(a) == toInt(b);
  }
  if (a.v.index() != b.v.index()) return false;  // [1] != (1,) in Python too
  if (a.isNone()) return true;
  if (a.isString()) return a.string() == b.string();
  if (a.isList() || a.isTuple()) {
    const List& x = a.sequence();
    const List& y = b.sequence();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.isDict()) {
    if (a.dict().size() != b.dict().size()) return false;
    for (const auto& [k, v] : a.dict()) {
      const Value* other = b.dict().find(k);
      if (!other || !equal(v, *other)) return false;
    }
    return true;
  }
  if (a.isFunction()) return &a.function() == &b.function();
  return &a.nameSpace() == &b.nameSpace();
}

bool less(const Value& a, const Value& b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) return toDouble(a) < toDouble(b);
    return toInt(a) < toInt(b);
  }
  if (a.isString() && b.isString()) return a.string() < b.string();
  if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
    const List& x = a.sequence();
    const List& y = b.sequence();
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (!equal(x[i], y[i])) return less(x[i], y[i]);
    }
    return x.size() < y.size();
  }
  throw ExpressionError("'<' not supported between instances of '" + typeName(a) + "' and '" + typeName(b) + "'");
}

std::size_t hashOf(const Value& value) {
  constexpr std::size_t kMix = 0x9E3779B97F4A7C15ull;
  if (value.isNumber()) {
    const double number = toDouble(value);
    return std::hash<double>{}(number == 0 ? 0.0 : number);  // -0.0 == 0.0
  }
  switch (value.v.index()) {
    case 0: return kMix;
    case 4: return std::hash<std::string>{}(value.string());
    case 5:
    case 6: {
      std::size_t h = value.v.index();
      for (const Value& item : value.sequence()) h = (h ^ hashOf(item)) * kMix;
      return h;
    }
    case 7: return value.dict().size() * kMix;  // equal() ignores the order of the entries
    case 8: return std::hash<const void*>{}(&value.function());
    default: return std::hash<const void*>{}(&value.nameSpace());
  }
}

Dict::Dict(std::initializer_list<Entry> entries) {
  for (const Entry& entry : entries) set(entry.first, entry.second);
}

std::size_t Dict::position(const Value& key) const {
  if (index_.empty()) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (equal(entries_[i].first, key)) return i;
    }
    return entries_.size();
  }
  const auto [first, last] = index_.equal_range(hashOf(key));
  for (auto at = first; at != last; ++at) {
    if (equal(entries_[at->second].first, key)) return at->second;
  }
  return entries_.size();
}

const Value* Dict::find(const Value& key) const {
  const std::size_t at = position(key);
  return at < entries_.size() ? &entries_[at].second : nullptr;
}

void Dict::set(Value key, Value value) {
  if (const std::size_t at = position(key); at < entries_.size()) {
    entries_[at].second = std::move(value);
    return;
  }
  entries_.emplace_back(std::move(key), std::move(value));
  if (!index_.empty()) {
    index_.emplace(hashOf(entries_.back().first), entries_.size() - 1);
  } else if (entries_.size() > kLinearEntries) {
    index_.reserve(entries_.size() * 2);
    for (std::size_t i = 0; i < entries_.size(); ++i) index_.emplace(hashOf(entries_[i].first), i);
  }
}

namespace {

std::string_view trimmed(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

/// Python's int(text): optional sign, decimal digits, surrounding white space.
bool parsePythonInt(std::string_view text, std::int64_t& out) {
  text = trimmed(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return false;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

std::string_view withoutDigitSeparators(std::string_view text, std::string& storage) {
  if (text.find('_') == std::string_view::npos) return text;  // nearly every number: no copy
  storage.clear();
  for (char c : text) {
    if (c != '_') storage += c;
  }
  return storage;
}

/// Python's float(text): a decimal literal, inf, infinity or nan in any case, white space around.
bool parsePythonFloat(std::string_view text, double& out) {
  text = trimmed(text);
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  // Compared without a lower-case copy: every property value is tried as a number.
  const auto is = [body](std::string_view lower) { return equalsIgnoringAsciiCase(body, lower); };
  if (is("inf") || is("infinity")) {
    out = negative ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (is("nan")) {
    out = std::nan("");
    return true;
  }
  if (body.empty() || !((body.front() >= '0' && body.front() <= '9') || body.front() == '.')) return false;
  double value = 0;
  const auto result = std::from_chars(body.data(), body.data() + body.size(), value);
  if (result.ec != std::errc() || result.ptr != body.data() + body.size()) return false;
  out = negative ? -value : value;
  return true;
}

namespace {

/// What literalValue makes of `text` when it does not stay the text itself: the text without its
/// quotes, a number or a bool.
std::optional<Value> literalOf(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') return Value(text.substr(1, text.size() - 2));
  if (text.find('_') != std::string::npos) return std::nullopt;
  std::int64_t i = 0;
  if (parsePythonInt(text, i)) return Value(i);
  double d = 0;
  if (parsePythonFloat(text, d)) return Value(d);
  const std::string_view view = text;
  if (view == "true" || view == "True") return Value(true);
  if (view == "false" || view == "False") return Value(false);
  return std::nullopt;
}

}  // namespace

Value literalValue(const std::string& text) {
  if (std::optional<Value> literal = literalOf(text)) return std::move(*literal);
  return text;
}

Value literalValue(std::string&& text) {
  if (std::optional<Value> literal = literalOf(text)) return std::move(*literal);
  return std::move(text);
}

}  // namespace interlink::xacro
