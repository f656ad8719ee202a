// Boost.Spirit X3 grammars for the HRDF value types. The grammar follows the ANTLR grammar of the
// HRDF repository (GRAMMAR.md): additive / multiplicative / unary / primary expressions over
// decimal floating constants and `pi`.
#include "HrdfGrammar.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <boost/spirit/home/x3.hpp>

namespace interlink::hrdf::grammar {
namespace {

namespace x3 = boost::spirit::x3;
using Iterator = std::string_view::const_iterator;

// The spec's white space: " \t\r\n" (x3::space would also take \f and \v).
const auto whitespace = x3::char_(" \t\r\n");

// --- floating point ---------------------------------------------------------------------------
// DecimalFloatingConstant: (digits '.' digits? | '.' digits | digits) exponent?. Matched as raw
// text and converted with from_chars so that "inf" or "nan" can never slip through.
const auto exponentPart = x3::char_("eE") >> -x3::char_("+-") >> +x3::digit;
const auto unsignedNumberText =
    x3::raw[x3::lexeme[((+x3::digit >> -(x3::lit('.') >> *x3::digit)) | (x3::lit('.') >> +x3::digit)) >>
                       -exponentPart]];
const auto signedNumberText =
    x3::raw[x3::lexeme[-x3::char_("+-") >> ((+x3::digit >> -(x3::lit('.') >> *x3::digit)) |
                                             (x3::lit('.') >> +x3::digit)) >>
                       -exponentPart]];

// Set by toDouble when a number is too small in magnitude for a double (1e-400): the callers say
// so, rather than reporting it as out of range or not finite. One parse at a time per thread.
thread_local bool numberUnderflowed = false;
constexpr const char* kUnderflowMessage =
    "underflows: its magnitude is below the smallest double (4.9e-324); write 0 if that is meant";

double toDouble(const boost::iterator_range<Iterator>& range) {
  const char* first = &*range.begin();
  const char* last = first + range.size();
  if (first != last && *first == '+') ++first;  // from_chars does not take a leading '+'
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value, std::chars_format::general);
  (void)end;
  if (error == std::errc::result_out_of_range && std::abs(std::strtod(std::string(first, last).c_str(), nullptr)) < 1) {
    numberUnderflowed = true;
    return 0;
  }
  // Overflow: reported by the callers' finiteness checks.
  if (error != std::errc()) return std::numeric_limits<double>::infinity();
  return value;
}

// --- formula -----------------------------------------------------------------------------------
struct AdditiveId;
struct MultiplicativeId;
struct UnaryId;
struct PrimaryId;
const x3::rule<AdditiveId, double> additive = "formula";
const x3::rule<MultiplicativeId, double> multiplicative = "term";
const x3::rule<UnaryId, double> unary = "number, 'pi', sign or '('";
const x3::rule<PrimaryId, double> primary = "number, 'pi' or '('";

const auto assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
const auto add = [](auto& ctx) { x3::_val(ctx) += x3::_attr(ctx); };
const auto subtract = [](auto& ctx) { x3::_val(ctx) -= x3::_attr(ctx); };
const auto multiply = [](auto& ctx) { x3::_val(ctx) *= x3::_attr(ctx); };
const auto divide = [](auto& ctx) { x3::_val(ctx) /= x3::_attr(ctx); };
const auto negate = [](auto& ctx) { x3::_val(ctx) = -x3::_attr(ctx); };
const auto number = [](auto& ctx) { x3::_val(ctx) = toDouble(x3::_attr(ctx)); };
const auto piConstant = [](auto& ctx) { x3::_val(ctx) = M_PI; };

// `pi` is case sensitive and must not run into an identifier ("pi2", "pi_2").
const auto piKeyword = x3::lexeme[x3::lit("pi") >> !(x3::alnum | x3::char_('_'))];

const auto additive_def = multiplicative[assign] >>
                          *((x3::lit('+') > multiplicative[add]) | (x3::lit('-') > multiplicative[subtract]));
const auto multiplicative_def =
    unary[assign] >> *((x3::lit('*') > unary[multiply]) | (x3::lit('/') > unary[divide]));
const auto unary_def = (x3::lit('-') > unary[negate]) | (x3::lit('+') > unary[assign]) | primary[assign];
const auto primary_def =
    unsignedNumberText[number] | piKeyword[piConstant] | (x3::lit('(') > additive[assign] > x3::lit(')'));

BOOST_SPIRIT_DEFINE(additive, multiplicative, unary, primary)

// --- rotation product --------------------------------------------------------------------------
struct RotationTermId;
const x3::rule<RotationTermId, Eigen::Matrix3d> rotationTerm = "Rx(...), Ry(...) or Rz(...)";

Eigen::Matrix3d axisRotation(char axis, double angle) {
  const Eigen::Vector3d unit = axis == 'x' ? Eigen::Vector3d::UnitX()
                               : axis == 'y' ? Eigen::Vector3d::UnitY()
                                             : Eigen::Vector3d::UnitZ();
  return Eigen::AngleAxisd(angle, unit).toRotationMatrix();
}

const auto rotationTerm_def =
    (x3::lexeme[x3::lit('R') >> x3::char_("xyz")] > x3::lit('(') > additive > x3::lit(')'))[([](auto& ctx) {
      using boost::fusion::at_c;
      x3::_val(ctx) = axisRotation(at_c<0>(x3::_attr(ctx)), at_c<1>(x3::_attr(ctx)));
    })];

BOOST_SPIRIT_DEFINE(rotationTerm)

// --- helpers -----------------------------------------------------------------------------------
std::size_t offsetOf(std::string_view text, Iterator where) {
  return static_cast<std::size_t>(where - text.begin());
}

std::size_t skipWhitespace(std::string_view text, std::size_t from) {
  while (from < text.size() && (text[from] == ' ' || text[from] == '\t' || text[from] == '\r' || text[from] == '\n'))
    ++from;
  return from;
}

std::string describeAt(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return "end of text";
  std::size_t end = offset;
  while (end < text.size() && end - offset < 12 && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' &&
         text[end] != '\n')
    ++end;
  if (end == offset) end = offset + 1;
  return "'" + std::string(text.substr(offset, end - offset)) + "'";
}

template <class T>
ParseResult<T> failure(std::size_t offset, std::string message) {
  ParseResult<T> result;
  result.error = ParseError{offset, std::move(message)};
  return result;
}

/// The first byte outside ASCII, if any. Numbers and formulas are ASCII, and Spirit's character
/// classes are defined for ASCII only (a byte >= 0x80 is a negative char: `isdigit` of it is
/// undefined behaviour, and an assertion in a build with assertions).
std::optional<std::size_t> firstNonAscii(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) return i;
  }
  return std::nullopt;
}

template <class T>
ParseResult<T> nonAsciiFailure(std::size_t offset, const char* what) {
  return failure<T>(offset, std::string("expected ") + what + ", got a character outside ASCII (numbers and formulas are ASCII)");
}

/// Finds the first place where parentheses and unary signs nest deeper than the limit, so that a
/// hostile formula cannot exhaust the stack of the recursive descent.
std::optional<std::size_t> tooDeep(std::string_view text) {
  std::size_t depth = 0;
  std::size_t signRun = 0;
  bool operandExpected = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '(') {
      ++depth;
      operandExpected = true;
    } else if (c == ')') {
      if (depth > 0) --depth;
      operandExpected = false;
      signRun = 0;
    } else if ((c == '+' || c == '-') && operandExpected) {
      ++signRun;
    } else if (c == '+' || c == '-' || c == '*' || c == '/') {
      operandExpected = true;
      signRun = 0;
    } else {
      operandExpected = false;
      signRun = 0;
    }
    if (depth + signRun > kMaxFormulaDepth) return i;
  }
  return std::nullopt;
}

template <class T, class Parser>
ParseResult<T> runFormulaParser(std::string_view text, const Parser& parser, const char* whatWhole,
                                const char* firstExpected) {
  if (auto outside = firstNonAscii(text)) return nonAsciiFailure<T>(*outside, whatWhole);
  if (auto deep = tooDeep(text))
    return failure<T>(*deep, "formula nested deeper than " + std::to_string(kMaxFormulaDepth) + " levels");
  numberUnderflowed = false;
  Iterator first = text.begin();
  T value{};
  try {
    const bool matched = x3::phrase_parse(first, text.end(), parser, whitespace, value);
    if (!matched) {
      const std::size_t at = skipWhitespace(text, 0);
      return failure<T>(at, std::string("expected ") + whatWhole + " (" + firstExpected + "), got " +
                                describeAt(text, at));
    }
  } catch (const x3::expectation_failure<Iterator>& e) {
    const std::size_t at = skipWhitespace(text, offsetOf(text, e.where()));
    return failure<T>(at, "expected " + e.which() + ", got " + describeAt(text, at));
  }
  const std::size_t rest = skipWhitespace(text, offsetOf(text, first));
  if (rest != text.size())
    return failure<T>(rest, std::string("unexpected ") + describeAt(text, rest) +
                                "; expected an operator or the end of " + whatWhole);
  if (numberUnderflowed) return failure<T>(skipWhitespace(text, 0), std::string("a number in the formula ") + kUnderflowMessage);
  ParseResult<T> result;
  result.value = value;
  return result;
}

/// Reads `count` floating point values separated by white space (at least one character).
ParseResult<std::vector<double>> parseFloatList(std::string_view text, std::size_t count, const char* what) {
  if (auto outside = firstNonAscii(text)) return nonAsciiFailure<std::vector<double>>(*outside, what);
  std::vector<double> values;
  std::size_t at = skipWhitespace(text, 0);
  while (at < text.size()) {
    if (values.size() == count)
      return failure<std::vector<double>>(at, std::string("too many values: ") + what + " has exactly " +
                                                  std::to_string(count) + " numbers");
    Iterator first = text.begin() + static_cast<std::ptrdiff_t>(at);
    boost::iterator_range<Iterator> raw;
    const bool matched = x3::parse(first, text.end(), signedNumberText, raw);
    const std::size_t end = offsetOf(text, first);
    if (!matched)
      return failure<std::vector<double>>(at, std::string("expected a floating point number (") + what + " value " +
                                                  std::to_string(values.size() + 1) + "), got " +
                                                  describeAt(text, at));
    if (end < text.size() && skipWhitespace(text, end) == end)
      return failure<std::vector<double>>(end, std::string("expected white space after a number in the ") + what +
                                                   ", got " + describeAt(text, end));
    numberUnderflowed = false;
    values.push_back(toDouble(raw));
    if (numberUnderflowed)
      return failure<std::vector<double>>(at, std::string("a number in the ") + what + " " + kUnderflowMessage);
    if (!std::isfinite(values.back()))
      return failure<std::vector<double>>(at, std::string("number out of range in the ") + what);
    at = skipWhitespace(text, end);
  }
  if (values.size() != count)
    return failure<std::vector<double>>(text.size(), std::string("expected ") + std::to_string(count) +
                                                         " numbers for the " + what + ", got " +
                                                         std::to_string(values.size()));
  ParseResult<std::vector<double>> result;
  result.value = std::move(values);
  return result;
}

}  // namespace

ParseResult<double> parseFloat(std::string_view text) {
  auto list = parseFloatList(text, 1, "floating point value");
  if (!list.ok()) {
    ParseResult<double> result;
    result.error = list.error;
    if (result.error.message.rfind("too many", 0) == 0)
      result.error.message = "unexpected " + describeAt(text, result.error.offset) +
                             " after the floating point value (formulas are not allowed here)";
    return result;
  }
  ParseResult<double> result;
  result.value = list.value->front();
  return result;
}

ParseResult<double> parseFormula(std::string_view text) {
  auto result = runFormulaParser<double>(text, additive, "a formula", "a number, 'pi', a sign or '('");
  if (result.ok() && !std::isfinite(*result.value)) {
    return failure<double>(skipWhitespace(text, 0),
                           "formula does not evaluate to a finite number (division by zero or overflow)");
  }
  return result;
}

ParseResult<Eigen::Matrix3d> parseRotation(std::string_view text) {
  const std::size_t start = skipWhitespace(text, 0);
  if (start < text.size() && text[start] == 'R') {
    const auto product = rotationTerm[assign] >> *(x3::lit('*') > rotationTerm[([](auto& ctx) {
                                                     x3::_val(ctx) = x3::_val(ctx) * x3::_attr(ctx);
                                                   })]);
    const x3::rule<struct RotationProductId, Eigen::Matrix3d> productRule = "rotation product";
    auto result = runFormulaParser<Eigen::Matrix3d>(text, productRule = product, "a rotation product",
                                                   "Rx(...), Ry(...) or Rz(...)");
    if (result.ok() && !result.value->allFinite())
      return failure<Eigen::Matrix3d>(start, "rotation angle is not a finite number");
    return result;
  }
  auto list = parseFloatList(text, 9, "rotation matrix");
  if (!list.ok()) {
    if (list.error.offset == start && start < text.size())
      list.error.message = "expected 9 numbers (a row-major rotation matrix) or a product of Rx(...), Ry(...), "
                           "Rz(...) terms, got " + describeAt(text, start);
    return failure<Eigen::Matrix3d>(list.error.offset, list.error.message);
  }
  const auto& v = *list.value;
  Eigen::Matrix3d m;
  m << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
  const double orthogonality = (m.transpose() * m - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  const double determinant = m.determinant();
  if (orthogonality > kOrthonormalTolerance || std::abs(determinant - 1.0) > kOrthonormalTolerance) {
    return failure<Eigen::Matrix3d>(
        start, "rotation matrix is not orthonormal with determinant +1 (|RᵀR − I| = " + std::to_string(orthogonality) +
                   ", det = " + std::to_string(determinant) + ")");
  }
  // Remove the rounding of the written digits: the nearest rotation in the Frobenius sense.
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  ParseResult<Eigen::Matrix3d> result;
  result.value = svd.matrixU() * svd.matrixV().transpose();
  return result;
}

ParseResult<Eigen::Vector3d> parseTranslation(std::string_view text) {
  auto list = parseFloatList(text, 3, "translation vector");
  if (!list.ok()) return failure<Eigen::Vector3d>(list.error.offset, list.error.message);
  ParseResult<Eigen::Vector3d> result;
  result.value = Eigen::Vector3d((*list.value)[0], (*list.value)[1], (*list.value)[2]);
  return result;
}

}  // namespace interlink::hrdf::grammar
