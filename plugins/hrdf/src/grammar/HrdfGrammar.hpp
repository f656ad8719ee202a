#pragma once
// The value grammars of HRDF attributes (spec 1.6.0, "Types"), written with Boost.Spirit X3:
// floating point, floating point formula, rotation matrix and translation vector.
// Pure functions over a string: errors carry the 0-based offset of the offending character so
// the caller can turn it into a file column.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <Eigen/Core>

namespace interlink::hrdf::grammar {

struct ParseError {
  std::size_t offset = 0;  // 0-based offset into the parsed text
  std::string message;     // says what was expected
};

template <class T>
struct ParseResult {
  std::optional<T> value;
  ParseError error;
  bool ok() const { return value.has_value(); }
};

/// A basic floating point value: C's decimal floating constant with an optional leading sign and
/// no white space inside ("-3.24E-2", ".324", "1."). Surrounding white space is allowed.
ParseResult<double> parseFloat(std::string_view text);

/// A formula: floating point constants, the constant `pi`, unary + and -, binary + - * /,
/// parentheses; white space is ignored outside numbers. The result must be finite.
ParseResult<double> parseFormula(std::string_view text);

/// A rotation matrix: 9 white-space separated floating point values in row-major order (which
/// must form an orthonormal matrix with determinant +1 within `kOrthonormalTolerance`; the result
/// is re-orthonormalised), or a product of `Rx(f)`, `Ry(f)`, `Rz(f)` terms with formulas f,
/// multiplied left to right.
ParseResult<Eigen::Matrix3d> parseRotation(std::string_view text);

/// A translation vector: 3 white-space separated floating point values.
ParseResult<Eigen::Vector3d> parseTranslation(std::string_view text);

/// Largest entry of |RᵀR − I| and |det R − 1| accepted for a 9-number rotation matrix.
inline constexpr double kOrthonormalTolerance = 1e-4;
/// Deepest nesting of parentheses and unary signs a formula may have (guards the recursion).
inline constexpr std::size_t kMaxFormulaDepth = 200;

}  // namespace interlink::hrdf::grammar
