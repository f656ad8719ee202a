#pragma once
// Shift restraints (springs, dampers, friction) are piecewise polynomials of one joint variable or
// of a distance between two frames. The Shift plugin keeps each restraint in Model::parameters as
// text ("restraint.<name>.knot_points", "restraint.<name>.coefficients"); this header-only
// utility reads that text back and evaluates the function, so a host needs no plugin code.
//
//   knot_points  k_0 < k_1 < ... < k_{n-1}          text: "0"
//   coefficients n + 1 arrays, highest power first  text: "2 0.5 0; 0"
//   f(x) = polynomial i, where i = number of knots <= x  (x < k_0 uses the first array)
//
// The seed's example (knots [0], coefficients [[2, 0.5, 0], [0]]) is 2x^2 + 0.5x for x < 0 and 0
// otherwise.
#include <cstddef>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace interlink::shift {

struct PiecewisePolynomial {
  std::vector<double> knots;
  std::vector<std::vector<double>> coefficients;  // one array per interval, highest power first

  /// The count rule of the Shift format: one coefficient array more than knot points, knots
  /// strictly increasing, no empty array.
  bool valid() const {
    if (coefficients.size() != knots.size() + 1) return false;
    for (std::size_t i = 1; i < knots.size(); ++i)
      if (!(knots[i - 1] < knots[i])) return false;
    for (const auto& polynomial : coefficients)
      if (polynomial.empty()) return false;
    return true;
  }

  /// Index of the interval x falls in: 0 before the first knot, i after the i-th knot.
  std::size_t interval(double x) const {
    std::size_t index = 0;
    while (index < knots.size() && x >= knots[index]) ++index;
    return index;
  }

  /// f(x) by Horner's rule; 0 for an invalid function.
  double operator()(double x) const {
    if (!valid()) return 0.0;
    double value = 0.0;
    for (double c : coefficients[interval(x)]) value = value * x + c;
    return value;
  }

  /// df/dx, for stiffness from a force law.
  double derivative(double x) const {
    if (!valid()) return 0.0;
    const auto& polynomial = coefficients[interval(x)];
    double value = 0.0;
    const std::size_t degree = polynomial.size() - 1;
    for (std::size_t i = 0; i < degree; ++i) value = value * x + polynomial[i] * static_cast<double>(degree - i);
    return value;
  }
};

namespace detail {
inline std::optional<std::vector<double>> readNumbers(const std::string& text) {
  std::vector<double> numbers;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  while (in >> value) numbers.push_back(value);
  if (!in.eof()) return std::nullopt;
  return numbers;
}
}  // namespace detail

/// Reads the parameter text the plugin writes: knots "k0 k1 ...", coefficients "a b c; d; ..."
/// (arrays separated by ';'). Nothing when the text is malformed or breaks the count rule.
inline std::optional<PiecewisePolynomial> parsePiecewise(const std::string& knots, const std::string& coefficients) {
  PiecewisePolynomial function;
  auto knotValues = detail::readNumbers(knots);
  if (!knotValues) return std::nullopt;
  function.knots = *knotValues;
  std::size_t start = 0;
  while (start <= coefficients.size()) {
    std::size_t end = coefficients.find(';', start);
    if (end == std::string::npos) end = coefficients.size();
    auto polynomial = detail::readNumbers(coefficients.substr(start, end - start));
    if (!polynomial) return std::nullopt;
    function.coefficients.push_back(*polynomial);
    start = end + 1;
  }
  if (!function.valid()) return std::nullopt;
  return function;
}

}  // namespace interlink::shift
