#pragma once
// Mass of MJCF bodies from their geoms, as MuJoCo 2.2.2 computes it (mjCGeom::GetVolume and
// SetInertia, mjCBody::GeomFrame). Used by the mapping and, for <compiler coordinate="global">, by
// the reader (a global body without pos takes the frame of its geoms' inertia).
#include <optional>
#include <vector>

#include "MjcfRecords.hpp"

namespace interlink::mjcf {

/// Mass properties in the body frame: mass, centre of mass and inertia about it.
struct MassProperties {
  double mass = 0;
  Pose frame = Pose::Identity();
  Matrix3 inertia = Matrix3::Zero();
};

double geomVolume(const GeomRecord& g);
Vector3 geomMoments(const GeomRecord& g, double mass);

/// The geoms' mass, centre and principal axes (inertia diagonal in `frame` when several geoms
/// combine). Nothing when several geoms weigh too little to place a centre (MuJoCo refuses).
std::optional<MassProperties> geomFrame(const std::vector<GeomRecord>& geoms, const Compiler& compiler);

}  // namespace interlink::mjcf
