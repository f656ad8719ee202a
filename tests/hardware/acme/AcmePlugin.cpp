// A fictional third-party hardware plugin, built against the header-only interface API alone:
// family ACME, actuator ACME-7 with its own interface type (ACME-AH / ACME-AO), and a gripper.
// The drop-in test copies it into a temporary plugin directory at run time.
#include <vector>

#include "interlink/hardware/SimulatedActuator.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using namespace interlink;
using namespace interlink::hardware;

/// An ACME catalogue entry with its identity and input interface.
CatalogEntry acmeEntry(const char* type, ComponentKind kind, const char* description, const InterfaceSpec& input) {
  CatalogEntry entry;
  entry.type = type;
  entry.kind = kind;
  entry.series = "ACME";
  entry.description = description;
  entry.input = input;
  return entry;
}

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = [] {
    CatalogEntry actuator =
        acmeEntry("ACME-7", ComponentKind::Actuator, "ACME seven newton-metre actuator", InterfaceSpec{"ACME-AH", 'A'});
    actuator.outputs = {InterfaceSpec{"ACME-AO", 'A'}};
    actuator.motion = Motion::RevoluteZ;
    actuator.limits.positionLower = -1.5;
    actuator.limits.positionUpper = 1.5;
    actuator.limits.velocity = 2.0;
    actuator.limits.effort = 7.0;
    const CatalogEntry gripper =
        acmeEntry("ACMEGripper", ComponentKind::EndEffector, "ACME gripper", InterfaceSpec{"ACME-AO", 'B'});
    return std::vector<CatalogEntry>{actuator, gripper};
  }();
  return entries;
}

bool evaluate(const CatalogEntry& entry, const ComponentParameters&, ComponentModel& model, Diagnostics&) {
  Pose output = Pose::Identity();
  if (entry.type == "ACME-7") {
    model.mass = 0.7;
    model.centerOfMass.translation() = Vector3(0, 0, 0.02);
    model.inertia = Vector3(1e-3, 1e-3, 5e-4).asDiagonal();
    output.translation() = Vector3(0, 0, 0.07);
  } else {
    model.mass = 0.3;
    output.translation() = Vector3(0, 0, 0.12);
  }
  model.outputs = {output};
  return true;
}

ActuatorDriver* openDriver(const DriverRequest& request, Diagnostics& diagnostics) {
  if (request.address.rfind("sim://", 0) != 0) {
    diagnostics.error(ErrorCode::URI_INVALID, "ACME drivers are simulated only");
    return nullptr;
  }
  return new SimulatedActuator(request.type, request.address, catalog()[0].limits, 0.1);
}

}  // namespace

INTERLINK_REGISTER_HARDWARE_PLUGIN("acme", "0.1.0", "ACME robotics", catalog, evaluate, openDriver)
