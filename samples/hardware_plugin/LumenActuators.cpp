// A sample vendor plugin: the fictional "Lumen" L-series rotary actuators and their end cap,
// with a simulated driver. A vendor's catalog is data: one row per product, from the data sheet;
// the plugin turns rows into catalog entries and component models. A real vendor's openDriver
// returns a driver that talks to the device named by the request's address.
#include <vector>

#include "interlink/hardware/SimulatedActuator.hpp"
#include "interlink/plugin/RegisterHardware.hpp"

namespace {

using namespace interlink;
using namespace interlink::hardware;

/// One product of the data sheet (SI units; the output frame is along +z of the input).
struct Product {
  const char* type;
  ComponentKind kind;
  const char* description;
  double mass;           // kg
  double centreHeight;   // m, centre of mass above the input face
  double outputHeight;   // m, output face above the input face (0: no output)
  double peakTorque;     // N m (actuators)
  double maxSpeed;       // rad/s (actuators)
};

constexpr Product kProducts[] = {
    {"L-20", ComponentKind::Actuator, "Lumen L-20 rotary actuator, 20 N m peak", 1.2, 0.03, 0.09, 20.0, 3.5},
    {"L-45", ComponentKind::Actuator, "Lumen L-45 rotary actuator, 45 N m peak", 2.1, 0.04, 0.11, 45.0, 2.0},
    {"L-Cap", ComponentKind::EndEffector, "Lumen output end cap", 0.1, 0.01, 0.02, 0.0, 0.0},
};

const Product* productOf(const std::string& type) {
  for (const Product& p : kProducts) {
    if (type == p.type) return &p;
  }
  return nullptr;
}

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = [] {
    std::vector<CatalogEntry> out;
    for (const Product& p : kProducts) {
      CatalogEntry e;
      e.type = p.type;
      e.kind = p.kind;
      e.series = "Lumen L";
      e.description = p.description;
      const bool actuator = p.kind == ComponentKind::Actuator;
      // Actuators mate input-to-output in a chain; the cap only takes an output.
      e.input = InterfaceSpec{actuator ? "LUMEN-IN" : "LUMEN-OUT", actuator ? 'A' : 'B'};
      if (actuator) {
        e.outputs = {InterfaceSpec{"LUMEN-OUT", 'A'}};
        e.motion = Motion::RevoluteZ;
        e.limits.positionLower = -3.0;
        e.limits.positionUpper = 3.0;
        e.limits.velocity = p.maxSpeed;
        e.limits.effort = p.peakTorque;
      }
      out.push_back(e);
    }
    return out;
  }();
  return entries;
}

/// Mass properties and the output frame of one instance (a solid cylinder approximation).
bool evaluate(const CatalogEntry& entry, const ComponentParameters&, ComponentModel& model, Diagnostics& diagnostics) {
  const Product* p = productOf(entry.type);
  if (!p) {
    diagnostics.error(ErrorCode::PLUGIN_ERROR, "the Lumen plugin has no data for '" + entry.type + "'");
    return false;
  }
  constexpr double kRadius = 0.04;
  model.mass = p->mass;
  model.centerOfMass.translation() = Vector3(0, 0, p->centreHeight);
  const double h = 2 * p->centreHeight;
  const double side = p->mass * (3 * kRadius * kRadius + h * h) / 12;
  model.inertia = Vector3(side, side, p->mass * kRadius * kRadius / 2).asDiagonal();
  Pose output = Pose::Identity();
  output.translation() = Vector3(0, 0, p->outputHeight);
  model.outputs = {output};
  return true;
}

/// A driver for `sim://NAME` addresses; anything else is refused with a diagnostic.
ActuatorDriver* openDriver(const DriverRequest& request, Diagnostics& diagnostics) {
  if (request.address.rfind("sim://", 0) != 0) {
    diagnostics.error(ErrorCode::URI_INVALID, "the Lumen sample drives simulated actuators only (sim://NAME)");
    return nullptr;
  }
  for (const CatalogEntry& e : catalog()) {
    if (e.type == request.type) return new SimulatedActuator(request.type, request.address, e.limits, 0.05);
  }
  diagnostics.error(ErrorCode::PLUGIN_ERROR, "no Lumen actuator of type '" + request.type + "'");
  return nullptr;
}

}  // namespace

INTERLINK_REGISTER_HARDWARE_PLUGIN("lumen", "1.0.0", "Lumen Robotics (sample)", catalog, evaluate, openDriver)
