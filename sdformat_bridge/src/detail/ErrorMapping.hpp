#pragma once
// Interlink diagnostics as libsdformat errors.
#include <sdf/Error.hh>

#include "interlink/Diagnostic.hpp"

namespace interlink::sdformat::detail {

/// The libsdformat code of the same name; Interlink's own codes map to the nearest one
/// (syntax and unreadable files to FILE_READ, bad values to ELEMENT_INVALID, ...).
sdf::ErrorCode toSdfCode(ErrorCode code);

/// The error with Interlink's file and line; the message is Interlink's whole diagnostic line
/// ("file:line:col: error[CODE]: message") so a host that prints only Message() loses nothing.
sdf::Error toSdfError(const Diagnostic& diagnostic);

}  // namespace interlink::sdformat::detail
