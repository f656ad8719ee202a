#pragma once
// Shift restraints (springs, dampers, friction) are piecewise polynomials of one joint variable or
// of a distance between two frames. The Shift plugin gives each restraint to the host as a typed
// record (ShiftAssembly.hpp) holding one of these; this header-only evaluator needs no plugin code.
//
//   knots         k_0 < k_1 < ... < k_{n-1}
//   coefficients  n + 1 arrays, highest power first
//   f(x) = polynomial i, where i = number of knots <= x  (x < k_0 uses the first array)
//
// The seed's example (knots [0], coefficients [[2, 0.5, 0], [0]]) is 2x^2 + 0.5x for x < 0 and 0
// otherwise.
#include <cstddef>
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

}  // namespace interlink::shift
