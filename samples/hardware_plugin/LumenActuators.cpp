// A sample vendor plugin: the fictional "Lumen" L-20 rotary actuator and its end cap, with a
// simulated driver. A real vendor fills the catalog from its data sheets and returns a driver
// that talks to the device named by the request's address.
#include <vector>

#include "interlink/hardware/SimulatedActuator.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using namespace interlink;
using namespace interlink::hardware;

/// Every component type this plugin provides; built once, returned by reference.
const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = [] {
    CatalogEntry actuator;
    actuator.type = "L-20";
    actuator.kind = ComponentKind::Actuator;
    actuator.series = "Lumen L";
    actuator.description = "Lumen L-20 rotary actuator, 20 N m peak";
    actuator.input = InterfaceSpec{"LUMEN-IN", 'A'};
    actuator.outputs = {InterfaceSpec{"LUMEN-OUT", 'A'}};
    actuator.motion = Motion::RevoluteZ;
    actuator.limits.positionLower = -3.0;
    actuator.limits.positionUpper = 3.0;
    actuator.limits.velocity = 3.5;
    actuator.limits.effort = 20.0;
    CatalogEntry cap;
    cap.type = "L-Cap";
    cap.kind = ComponentKind::EndEffector;
    cap.series = "Lumen L";
    cap.description = "Lumen output end cap";
    cap.input = InterfaceSpec{"LUMEN-OUT", 'B'};
    return std::vector<CatalogEntry>{actuator, cap};
  }();
  return entries;
}

/// Mass properties and output frames of one component (parameters would tune them).
bool evaluate(const CatalogEntry& entry, const ComponentParameters&, ComponentModel& model, Diagnostics&) {
  Pose output = Pose::Identity();
  if (entry.type == "L-20") {
    model.mass = 1.2;
    model.centerOfMass.translation() = Vector3(0, 0, 0.03);
    model.inertia = Vector3(2e-3, 2e-3, 1e-3).asDiagonal();
    output.translation() = Vector3(0, 0, 0.09);
  } else {
    model.mass = 0.1;
    output.translation() = Vector3(0, 0, 0.02);
  }
  model.outputs = {output};
  return true;
}

/// A driver for `sim://` addresses; anything else is refused with a diagnostic.
ActuatorDriver* openDriver(const DriverRequest& request, Diagnostics& diagnostics) {
  if (request.address.rfind("sim://", 0) != 0) {
    diagnostics.error(ErrorCode::URI_INVALID, "the Lumen sample drives simulated actuators only (sim://NAME)");
    return nullptr;
  }
  return new SimulatedActuator(request.type, request.address, catalog()[0].limits, 0.1);
}

}  // namespace

INTERLINK_REGISTER_HARDWARE_PLUGIN("lumen", "1.0.0", "Lumen Robotics (sample)", catalog, evaluate, openDriver)
