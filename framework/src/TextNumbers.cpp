// Numbers from text: whole-token parsing (no trailing garbage), finite values only, and
// diagnostics that name what was being read and where.
#include <algorithm>
#include "interlink/TextNumbers.hpp"

#include <charconv>
#include <cstdint>
#include <cmath>
#include <cstdlib>

namespace interlink {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

enum class NumberStatus { Ok, NotANumber, NotFinite };

NumberStatus readNumber(std::string_view token, double& value) {
  std::string_view digits = token;
  // from_chars refuses a leading '+', which C, C++ streams and every format here accept.
  if (!digits.empty() && digits.front() == '+') {
    digits.remove_prefix(1);
    if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) return NumberStatus::NotANumber;
  }
  if (digits.empty()) return NumberStatus::NotANumber;
  const auto result = fromChars(digits.data(), digits.data() + digits.size(), value);
  if (result.ptr != digits.data() + digits.size()) return NumberStatus::NotANumber;
  if (result.ec == std::errc::result_out_of_range) {
    // Overflow is not finite; underflow reads as the nearest tiny value, as strtod gives it.
    value = std::strtod(std::string(digits).c_str(), nullptr);
    return std::isfinite(value) ? NumberStatus::Ok : NumberStatus::NotFinite;
  }
  if (result.ec != std::errc()) return NumberStatus::NotANumber;
  if (!std::isfinite(value)) return NumberStatus::NotFinite;
  return NumberStatus::Ok;
}

std::string countsText(const std::vector<std::size_t>& counts) {
  std::string out;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (i > 0) out += i + 1 == counts.size() ? " or " : ", ";
    out += std::to_string(counts[i]);
  }
  return out;
}

void reportBadNumber(NumberStatus status, std::string_view token, const SourceLocation& where, std::string_view what,
                     Diagnostics& diagnostics) {
  std::string message = status == NumberStatus::NotFinite ? "expected a finite number for " : "expected a number for ";
  message += what;
  message += ", got '";
  message += token;
  message += "'";
  diagnostics.error(ErrorCode::VALUE_INVALID, std::move(message), where);
}

}  // namespace

std::optional<double> parseShortDecimal(std::string_view token) noexcept {
  // Powers of ten that a double holds exactly.
  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = token.data();
  const char* const end = p + token.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const auto isDigit = [](char c) { return static_cast<unsigned char>(c - '0') < 10; };
  // The digits as one integer (wrapping is harmless: more than 15 significant digits are refused
  // below, before it is used).
  std::uint64_t mantissa = 0;
  const char* const integerBegin = p;
  while (p != end && isDigit(*p)) mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p++ - '0');
  const std::size_t integerDigits = static_cast<std::size_t>(p - integerBegin);
  std::size_t fractionDigits = 0;
  if (p != end && *p == '.') {
    const char* const fractionBegin = ++p;
    while (p != end && isDigit(*p)) mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p++ - '0');
    fractionDigits = static_cast<std::size_t>(p - fractionBegin);
  }
  const std::size_t digits = integerDigits + fractionDigits;
  if (p != end || digits == 0 || fractionDigits > 22) return std::nullopt;
  if (digits > 15) {  // leading zeros ("0.000001234") are not significant
    std::size_t zeros = 0;
    for (const char* c = integerBegin; c != end && zeros < digits; ++c) {
      if (*c == '.') continue;
      if (*c != '0') break;
      ++zeros;
    }
    if (digits - zeros > 15) return std::nullopt;  // beyond 2^53: not exact as a double
  }
  const double value = static_cast<double>(mantissa) / kPowersOfTen[fractionDigits];
  return negative ? -value : value;
}

std::from_chars_result fromChars(const char* first, const char* last, double& value) noexcept {
  if (const std::optional<double> quick = parseShortDecimal(std::string_view(first, static_cast<std::size_t>(last - first)))) {
    value = *quick;
    return {last, std::errc()};
  }
  return std::from_chars(first, last, value);
}

std::optional<double> parseDouble(std::string_view text, const SourceLocation& where, std::string_view what,
                                  Diagnostics& diagnostics) {
  const std::string token = trim(text);
  double value = 0;
  const NumberStatus status = readNumber(token, value);
  if (status != NumberStatus::Ok) {
    reportBadNumber(status, token, where, what, diagnostics);
    return std::nullopt;
  }
  return value;
}

namespace {

/// The white-space separated numbers of `text`, each given to `keep(index, value)`; every bad one
/// is reported. Returns how many there were and whether all were numbers.
template <class Keep>
std::pair<std::size_t, bool> scanDoubles(std::string_view text, const SourceLocation& where, std::string_view what,
                                         Diagnostics& diagnostics, Keep&& keep) {
  bool ok = true;
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isSpace(text[i])) ++i;
    if (i >= text.size()) break;
    const std::size_t begin = i;
    while (i < text.size() && !isSpace(text[i])) ++i;
    const std::string_view token = text.substr(begin, i - begin);
    double value = 0;
    const NumberStatus status = readNumber(token, value);
    if (status != NumberStatus::Ok) {
      reportBadNumber(status, token, where, what, diagnostics);
      ok = false;
    }
    keep(count++, value);
  }
  return {count, ok};
}

void reportCount(const std::vector<std::size_t>& expectedCounts, std::size_t got, std::string_view text,
                 const SourceLocation& where, std::string_view what, Diagnostics& diagnostics, ErrorCode countError) {
  diagnostics.error(countError,
                    "expected " + countsText(expectedCounts) + " numbers for " + std::string(what) + ", got " +
                        std::to_string(got) + " ('" + trim(text) + "')",
                    where);
}

}  // namespace

std::optional<std::vector<double>> parseDoubles(std::string_view text, const SourceLocation& where,
                                                std::string_view what, Diagnostics& diagnostics,
                                                std::vector<std::size_t> expectedCounts, ErrorCode countError) {
  std::vector<double> values;
  values.reserve(expectedCounts.empty() ? 8 : *std::max_element(expectedCounts.begin(), expectedCounts.end()));
  auto [count, ok] = scanDoubles(text, where, what, diagnostics, [&](std::size_t, double value) { values.push_back(value); });
  if (!expectedCounts.empty() && std::find(expectedCounts.begin(), expectedCounts.end(), count) == expectedCounts.end()) {
    reportCount(expectedCounts, count, text, where, what, diagnostics, countError);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return values;
}

bool parseFixedDoubles(std::string_view text, const SourceLocation& where, std::string_view what,
                       Diagnostics& diagnostics, double* out, std::size_t count, ErrorCode countError) {
  auto [got, ok] = scanDoubles(text, where, what, diagnostics, [&](std::size_t index, double value) {
    if (index < count) out[index] = value;
  });
  if (got != count) {
    reportCount({count}, got, text, where, what, diagnostics, countError);
    ok = false;
  }
  return ok;
}

std::optional<bool> parseBool(std::string_view text, const SourceLocation& where, std::string_view what,
                              Diagnostics& diagnostics) {
  const std::string token = toLower(trim(text));
  if (token == "true" || token == "1") return true;
  if (token == "false" || token == "0") return false;
  diagnostics.error(ErrorCode::VALUE_INVALID,
                    "expected true, false, 1 or 0 for " + std::string(what) + ", got '" + trim(text) + "'", where);
  return std::nullopt;
}

std::string toLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && isSpace(text[begin])) ++begin;
  while (end > begin && isSpace(text[end - 1])) --end;
  return std::string(text.substr(begin, end - begin));
}

}  // namespace interlink
