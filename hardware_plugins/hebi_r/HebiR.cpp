// HEBI R-series: R8 and R25 actuators, R8 / R25 / R25-R8 links, R8 and R25 brackets and the R8
// parallel gripper. Figures: HEBI's C library 2.0 and HEBI's published part data (docs.hebi.us).
// R25 parts have no published figures: they carry HEBI's MATLAB stand-ins and are marked approximate.
#include <vector>

#include "HebiParts.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using interlink::Vector3;
using namespace interlink::hebi;

std::vector<Part> hebiRParts() {
  const InertiaTerms r8{4.88e-4, 1.009e-3, 1.186e-3, 1.297e-5, 5.78e-5, 4.94e-6};
  const Vector3 r8Com(-0.024, -0.00161, 0.0256);
  const Vector3 r25Com(-0.0252, -0.0019, 0.0351);
  const std::string r25Note =
      "no published R25 figures: mass, centre of mass and output height are the stand-in of HEBI's MATLAB "
      "example A-2610-25.hrdf; inertia scaled from R8";
  const std::string r25LinkNote =
      "no published R25 link figures: interface height 0.0275 m (MATLAB stand-in) and the X5/R8 mass formula";
  const std::string r25BracketNote =
      "no published R25 bracket figures: mass 0.154 kg and output height 0.07 m (MATLAB stand-in), "
      "lateral offsets as the X5 brackets";
  const double halfPi = M_PI / 2;
  const InertiaTerms r25{r8[0] * 1.5 / 0.7, r8[1] * 1.5 / 0.7, r8[2] * 1.5 / 0.7, 0, 0, 0};
  std::vector<Part> parts = {
      actuator("R8-3", "R8", "R8", 0.670, r8Com, 0.051, r8),
      actuator("R8-9", "R8", "R8", 0.685, r8Com, 0.051, r8),
      actuator("R8-16", "R8", "R8", 0.715, r8Com, 0.051, r8),
      approximate(actuator("R25-8", "R25", "R25", 1.5, r25Com, 0.067, r25), r25Note),
      approximate(actuator("R25-20", "R25", "R25", 1.5, r25Com, 0.067, r25), r25Note),
      approximate(actuator("R25-40", "R25", "R25", 1.5, r25Com, 0.067, r25), r25Note),
      link("R8", "R8", "R8", "R8", 0.0175, true),
      approximate(link("R25", "R25", "R25", "R25", 0.0275, true), r25LinkNote),
      approximate(link("R25-R8", "R25", "R25", "R8", 0.0275, false), r25LinkNote),
      bracket("R8LightLeft", "R8", "R8", 0.14, Vector3(0, 0.023, 0.02), -halfPi, Vector3(0, 0.043, 0.04)),
      bracket("R8LightRight", "R8", "R8", 0.14, Vector3(0, -0.023, 0.02), halfPi, Vector3(0, -0.043, 0.04)),
      bracket("R8HeavyLeftInside", "R8", "R8", 0.212, Vector3(0, -0.02, 0.025), -halfPi, Vector3(0, -0.0225, 0.055)),
      bracket("R8HeavyLeftOutside", "R8", "R8", 0.212, Vector3(0, 0.02, 0.025), -halfPi, Vector3(0, 0.0375, 0.055)),
      bracket("R8HeavyRightInside", "R8", "R8", 0.212, Vector3(0, 0.02, 0.025), halfPi, Vector3(0, 0.0225, 0.055)),
      bracket("R8HeavyRightOutside", "R8", "R8", 0.212, Vector3(0, -0.02, 0.025), halfPi,
              Vector3(0, -0.0375, 0.055)),
      approximate(bracket("R25LightLeft", "R25", "R25", 0.154, Vector3(0, 0.0215, 0.035), -halfPi,
                          Vector3(0, 0.043, 0.07)),
                  r25BracketNote),
      approximate(bracket("R25LightRight", "R25", "R25", 0.154, Vector3(0, -0.0215, 0.035), halfPi,
                          Vector3(0, -0.043, 0.07)),
                  r25BracketNote),
      approximate(bracket("R25HeavyLeftInside", "R25", "R25", 0.154, Vector3(0, -0.02, 0.035), -halfPi,
                          Vector3(0, -0.0225, 0.07)),
                  r25BracketNote),
      approximate(bracket("R25HeavyLeftOutside", "R25", "R25", 0.154, Vector3(0, 0.02, 0.035), -halfPi,
                          Vector3(0, 0.0375, 0.07)),
                  r25BracketNote),
      approximate(bracket("R25HeavyRightInside", "R25", "R25", 0.154, Vector3(0, 0.02, 0.035), halfPi,
                          Vector3(0, 0.0225, 0.07)),
                  r25BracketNote),
      approximate(bracket("R25HeavyRightOutside", "R25", "R25", 0.154, Vector3(0, -0.02, 0.035), halfPi,
                          Vector3(0, -0.0375, 0.07)),
                  r25BracketNote),
      parallelGripper("R8Parallel", "R8", "R8", 0.2464, Vector3(0, 0, 0.045), Vector3(0, 0, 0.095)),
  };
  return parts;
}

}  // namespace

INTERLINK_REGISTER_HEBI_PLUGIN("hebi_r", "HEBI R-series", hebiRParts)
