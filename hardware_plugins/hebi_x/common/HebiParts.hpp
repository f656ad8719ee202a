#pragma once
// Shared by the three HEBI hardware plugins (hebi_x, hebi_r, hebi_t): how HEBI parts are built
// from their figures (actuator housings, parameterised links, brackets, parallel grippers) and a
// catalog that evaluates them and opens simulated drivers. The figures themselves live in each
// plugin. Built as the static library interlink_hebi_common.
#include <array>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/hardware/Catalog.hpp"
#include "interlink/hardware/Driver.hpp"

namespace interlink::hebi {

/// Ixx, Iyy, Izz, Ixy, Ixz, Iyz (kg·m²).
using InertiaTerms = std::array<double, 6>;

/// The X5 and X8 actuator bodies' inertia about their centre of mass (ixx, iyy, izz, ixy, ixz,
/// iyz; kg m^2), from HEBI's xacro; the T5 and T8 share them.
inline constexpr InertiaTerms kX5Inertia{1.5e-4, 2.55e-4, 3.5e-4, 3.41e-5, 1.18e-5, 2.29e-6};
inline constexpr InertiaTerms kX8Inertia{2.46e-4, 3.8e-4, 4.63e-4, 4.44e-5, 2.66e-5, 4.22e-6};

/// Figures of one part; which ones matter depends on the part's kind.
struct PartFigures {
  double mass = 0;
  Vector3 centerOfMass = Vector3::Zero();
  InertiaTerms inertia{};
  Pose output = Pose::Identity();  // fixed parts and actuators at q = 0
  // Links: mass = massPerMetre·e + baseMass (+ inline extras), output offset h of the interface.
  double linkHeight = 0;
  double linkMassPerMetre = 0;
  double linkBaseMass = 0;
  double linkInlineInputMass = 0;
  double linkInlineOutputMass = 0;
};

struct Part {
  hardware::CatalogEntry entry;
  PartFigures figures;
};

/// Interface type names of the HEBI families (HRDF's FORMAT.md, "Interface types").
hardware::InterfaceSpec interfaceOf(const std::string& type, char polarity);

/// An actuator: output = Trans(0, 0, h)·Rz(q); the CoM stays with the housing.
Part actuator(const std::string& type, const std::string& series, const std::string& interfaceFamily, double mass,
              const Vector3& centerOfMass, double height, const InertiaTerms& inertia);
/// A link of style input/output, extension and twist (HEBI's formulas, hebi_components.md).
Part link(const std::string& type, const std::string& series, const std::string& inputFamily,
          const std::string& outputFamily, double height, bool inlineOutputAllowed);
/// A single-output bracket with its output rotation about x (±π/2) and translation.
Part bracket(const std::string& type, const std::string& series, const std::string& interfaceFamily, double mass,
             const Vector3& centerOfMass, double outputRotationX, const Vector3& outputTranslation);
/// A parallel jaw gripper end effector (no output interface, an end-effector frame).
Part parallelGripper(const std::string& type, const std::string& series, const std::string& interfaceFamily,
                     double mass, const Vector3& centerOfMass, const Vector3& outputTranslation);

/// Marks a part approximate with the reason loaders will show.
Part approximate(Part part, const std::string& note);

class PartCatalog {
 public:
  explicit PartCatalog(std::vector<Part> parts);
  const std::vector<hardware::CatalogEntry>& entries() const { return entries_; }
  bool evaluate(const hardware::CatalogEntry& entry, const hardware::ComponentParameters& parameters,
                hardware::ComponentModel& model, Diagnostics& diagnostics) const;
  /// Simulated backend only (`sim://...`): real HEBI network drivers cannot run here.
  hardware::ActuatorDriver* openDriver(const hardware::DriverRequest& request, Diagnostics& diagnostics) const;

 private:
  const PartFigures* figuresOf(const hardware::CatalogEntry& entry) const;
  std::vector<hardware::CatalogEntry> entries_;
  std::vector<PartFigures> figures_;
};

/// The three functions a hardware plugin registers, answered by the catalog of `Parts` (built once).
template <std::vector<Part> (*Parts)()>
struct CatalogPlugin {
  static const PartCatalog& catalog() {
    static const PartCatalog instance(Parts());
    return instance;
  }
  static const std::vector<hardware::CatalogEntry>& entries() { return catalog().entries(); }
  static bool evaluate(const hardware::CatalogEntry& entry, const hardware::ComponentParameters& parameters,
                       hardware::ComponentModel& model, Diagnostics& diagnostics) {
    return catalog().evaluate(entry, parameters, model, diagnostics);
  }
  static hardware::ActuatorDriver* openDriver(const hardware::DriverRequest& request, Diagnostics& diagnostics) {
    return catalog().openDriver(request, diagnostics);
  }
};

}  // namespace interlink::hebi

/// Registers a HEBI family plugin whose parts `PARTS_FN` lists.
#define INTERLINK_REGISTER_HEBI_PLUGIN(NAME, FAMILY, PARTS_FN)                                                \
  INTERLINK_REGISTER_HARDWARE_PLUGIN(NAME, "1.0.0", FAMILY, ::interlink::hebi::CatalogPlugin<PARTS_FN>::entries, \
                                     ::interlink::hebi::CatalogPlugin<PARTS_FN>::evaluate,                     \
                                     ::interlink::hebi::CatalogPlugin<PARTS_FN>::openDriver)
