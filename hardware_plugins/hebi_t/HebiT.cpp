// HEBI T-series actuators: T5, T8 and T25. They share the R-series bolt patterns (R8 / R25
// interfaces). No figures are confirmed: T5 and T8 come from HEBI's xacro files, T25 from the
// MATLAB R25 stand-in; every entry is marked approximate.
#include <vector>

#include "HebiParts.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using interlink::Vector3;
using namespace interlink::hebi;

std::vector<Part> hebiTParts() {
  const InertiaTerms r8{4.88e-4, 1.009e-3, 1.186e-3, 1.297e-5, 5.78e-5, 4.94e-6};
  const InertiaTerms t25{r8[0] * 1.5 / 0.7, r8[1] * 1.5 / 0.7, r8[2] * 1.5 / 0.7, 0, 0, 0};
  const Vector3 t5Com(-0.024, -0.00161, 0.0165);
  const Vector3 t8Com(-0.024, -0.00161, 0.0256);
  const Vector3 t25Com(-0.0252, -0.0019, 0.0351);
  const std::string t5Note = "T5 figures from HEBI's xacro description (unconfirmed); inertia as X5";
  const std::string t8Note = "T8 figures from HEBI's xacro description (unconfirmed); inertia as X8";
  const std::string t25Note =
      "no published T25 figures: the R25 stand-in of HEBI's MATLAB example A-2610-25.hrdf; inertia scaled from R8";
  std::vector<Part> parts;
  for (const char* type : {"T5-1", "T5-4", "T5-9"})
    parts.push_back(approximate(actuator(type, "T5", "R8", 0.45, t5Com, 0.034, kX5Inertia), t5Note));
  for (const char* type : {"T8-3", "T8-9", "T8-16"})
    parts.push_back(approximate(actuator(type, "T8", "R8", 0.575, t8Com, 0.0475, kX8Inertia), t8Note));
  for (const char* type : {"T25-8", "T25-20", "T25-40"})
    parts.push_back(approximate(actuator(type, "T25", "R25", 1.5, t25Com, 0.067, t25), t25Note));
  return parts;
}

}  // namespace

INTERLINK_REGISTER_HEBI_PLUGIN("hebi_t", "HEBI T-series", hebiTParts)
