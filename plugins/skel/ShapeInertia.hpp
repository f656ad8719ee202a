#pragma once
// Moments of inertia DART 6.12 derives from a body's first shape when a SKEL <inertia> has a mass
// but no <moment_of_inertia> (Shape::computeInertia). Pure functions, unit-tested on their own.
#include <optional>

#include "interlink/Pose.hpp"
#include "interlink/model/Geometry.hpp"

namespace interlink::skel::detail {

/// Moment of inertia about the shape's centre for a solid of `mass`, as DART computes it; nothing
/// for shapes DART would not use (empty). Meshes and multi-spheres use their bounding box, as
/// DART does; a mesh whose file could not be measured yields nothing.
std::optional<Matrix3> dartShapeInertia(const Geometry& geometry, double mass);

}  // namespace interlink::skel::detail
