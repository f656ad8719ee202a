#pragma once
// Juice's "symmetric editing" keeps twins mirrored about the Y-Z plane; this checks that they are.
#include <vector>

#include "JuiceRecords.hpp"
#include "interlink/Diagnostics.hpp"

namespace interlink::juice::detail {

/// Relative tolerance of the symmetry check (Juice writes about six significant digits).
inline constexpr double kSymmetryTolerance = 1e-4;

/// One SYMMETRY warning per pair that is not the mirror image (x -> -x) of its twin, naming both
/// and every difference: position, shape, size or orientation, mass, joint axis.
void checkSymmetry(const std::vector<BodyTwins>& bodies, const std::vector<JointTwins>& joints,
                   Diagnostics& diagnostics);

}  // namespace interlink::juice::detail
