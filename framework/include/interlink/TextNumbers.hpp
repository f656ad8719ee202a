#pragma once
// Reading numbers out of text with diagnostics that say what was expected and where.
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"

namespace interlink {

/// Parses a whole string as one finite double (surrounding white space allowed).
/// On failure adds VALUE_INVALID ("expected a number for <what>, got '…'") and returns nothing.
INTERLINK_API std::optional<double> parseDouble(std::string_view text, const SourceLocation& where,
                                                std::string_view what, Diagnostics& diagnostics);

/// Parses white-space separated finite doubles. When `expectedCounts` is not empty the count must
/// be one of them (error POSE_FORMAT_INVALID / VALUE_INVALID otherwise, naming the counts).
INTERLINK_API std::optional<std::vector<double>> parseDoubles(std::string_view text, const SourceLocation& where,
                                                              std::string_view what, Diagnostics& diagnostics,
                                                              std::vector<std::size_t> expectedCounts = {},
                                                              ErrorCode countError = ErrorCode::VALUE_INVALID);

/// Exactly `count` white-space separated finite doubles into `out` (room for `count`), without
/// allocating: for the fixed-size values of model files (a pose, a vector). The diagnostics are
/// those of parseDoubles with `expectedCounts` {count}. False when there is an error.
INTERLINK_API bool parseFixedDoubles(std::string_view text, const SourceLocation& where, std::string_view what,
                                     Diagnostics& diagnostics, double* out, std::size_t count,
                                     ErrorCode countError = ErrorCode::VALUE_INVALID);

/// The value of a short plain decimal ("-12.5", "0.001", "3.", ".5"), bit for bit what
/// std::from_chars reads from it, or nothing for any other token (an exponent, more than 15
/// significant digits, more than 22 after the point, "inf", a sign other than one leading '-'),
/// which the caller then gives to from_chars. Most numbers of model files have this form, and it is
/// read with one integer pass and one division by an exact power of ten, which IEEE arithmetic
/// rounds correctly (Clinger's fast path): a third of from_chars' work.
INTERLINK_API std::optional<double> parseShortDecimal(std::string_view token) noexcept;

/// std::from_chars for a double (general format), with the same pointer, error and value: the
/// short plain decimals are read by parseShortDecimal, anything else by std::from_chars. What the
/// readers of model values call instead of std::from_chars (the core's number reader, the
/// SDFormat schema validator, the URDF reader); the HRDF and xacro grammars still call
/// std::from_chars, which gives the same values.
INTERLINK_API std::from_chars_result fromChars(const char* first, const char* last, double& value) noexcept;

/// "true"/"false"/"1"/"0" (case-insensitive).
INTERLINK_API std::optional<bool> parseBool(std::string_view text, const SourceLocation& where, std::string_view what,
                                            Diagnostics& diagnostics);

/// Lower-case copy (ASCII).
INTERLINK_API std::string toLower(std::string_view text);
/// Copy without leading and trailing ASCII white space.
INTERLINK_API std::string trim(std::string_view text);

}  // namespace interlink
