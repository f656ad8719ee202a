#pragma once
// Repeated warnings of one kind become one: a robot with 100 missing meshes gets one warning with
// the count and the first few names, not 100 lines (LoadOptions::listEveryWarning keeps them all).
#include <cstddef>

#include "interlink/Diagnostics.hpp"

namespace interlink::detail {

/// Warnings of one kind: the same code and the same message once their subject (Diagnostic::subject,
/// set by whoever reports it) is taken out; no text is parsed for names. A kind seen more than `keepUpTo` times is replaced, where its first occurrence
/// stood, by one warning that names the subjects of the first `namedUpTo`, counts the rest and says how
/// many it stands for (Diagnostic::alike): a host says how to list them all in its own words. Errors are never
/// grouped, but for refusals of a confined load (PATH_OUTSIDE_ROOTS): one policy, one cause, so
/// they are said once per load with a count, errors and warnings alike.
void groupRepeatedWarnings(Diagnostics& diagnostics, std::size_t keepUpTo = 3, std::size_t namedUpTo = 3);

}  // namespace interlink::detail
