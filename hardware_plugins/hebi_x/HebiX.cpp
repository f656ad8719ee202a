// HEBI X-series: X5 and X8 actuators, X5 links, X5 brackets and the X5 parallel gripper.
// Figures: HEBI's C library 2.0 (tests/data/hebi_reference holds its measured output); inertia
// from HEBI's xacro (HebiRobotics/hebi_description).
#include <vector>

#include "HebiParts.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using interlink::Vector3;
using namespace interlink::hebi;

std::vector<Part> hebiXParts() {
  const Vector3 x5Com(-0.0142, -0.0031, 0.0165);
  const Vector3 x8Com(-0.0145, -0.0031, 0.0242);
  const double halfPi = M_PI / 2;
  std::vector<Part> parts = {
      actuator("X5-1", "X5", "X", 0.315, x5Com, 0.03105, kX5Inertia),
      actuator("X5-4", "X5", "X", 0.335, x5Com, 0.03105, kX5Inertia),
      actuator("X5-9", "X5", "X", 0.360, x5Com, 0.03105, kX5Inertia),
      actuator("X8-3", "X8", "X", 0.460, x8Com, 0.0451, kX8Inertia),
      actuator("X8-9", "X8", "X", 0.480, x8Com, 0.0451, kX8Inertia),
      actuator("X8-16", "X8", "X", 0.500, x8Com, 0.0451, kX8Inertia),
      link("X5", "X5", "X", "X", 0.0175, true),
      bracket("X5LightLeft", "X5", "X", 0.1, Vector3(0, 0.0215, 0.02), -halfPi, Vector3(0, 0.043, 0.04)),
      bracket("X5LightRight", "X5", "X", 0.1, Vector3(0, -0.0215, 0.02), halfPi, Vector3(0, -0.043, 0.04)),
      bracket("X5HeavyLeftInside", "X5", "X", 0.215, Vector3(0, -0.02, 0.0275), -halfPi,
              Vector3(0, -0.0225, 0.055)),
      bracket("X5HeavyLeftOutside", "X5", "X", 0.215, Vector3(0, 0.02, 0.0275), -halfPi,
              Vector3(0, 0.0375, 0.055)),
      bracket("X5HeavyRightInside", "X5", "X", 0.215, Vector3(0, 0.02, 0.0275), halfPi,
              Vector3(0, 0.0225, 0.055)),
      bracket("X5HeavyRightOutside", "X5", "X", 0.215, Vector3(0, -0.02, 0.0275), halfPi,
              Vector3(0, -0.0375, 0.055)),
      parallelGripper("X5Parallel", "X5", "X", 0.2464, Vector3(0, 0, 0.045), Vector3(0, 0, 0.095)),
  };
  return parts;
}

}  // namespace

INTERLINK_REGISTER_HEBI_PLUGIN("hebi_x", "HEBI X-series", hebiXParts)
