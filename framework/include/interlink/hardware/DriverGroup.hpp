#pragma once
// Drivers for the DOFs of a model, commanded and read as one group in DOF order. Knows DOF names
// and actuator types only; interlink/hardware/DofBindings.hpp makes the bindings from a model.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/hardware/Driver.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace interlink::hardware {

/// One DOF to bind to a driver.
struct DofBinding {
  std::string dof;           // DOF name (the joint's scoped name)
  std::string actuatorType;  // catalog type (Joint::actuator)
  std::string address;       // driver address
};

class INTERLINK_API DriverGroup {
 public:
  /// Opens one driver per binding. Nothing (and every error) when any of them fails.
  static std::optional<DriverGroup> open(const HardwareRegistry& registry, const std::vector<DofBinding>& bindings,
                                         Diagnostics& diagnostics);

  std::size_t size() const;
  const std::vector<DofBinding>& bindings() const;
  /// Position targets, one per DOF; false (with errors) on a size mismatch or a refused command.
  bool commandPositions(const std::vector<double>& positions, Diagnostics& diagnostics);
  bool command(const std::vector<ActuatorCommand>& commands, Diagnostics& diagnostics);
  std::vector<ActuatorFeedback> feedback() const;
  std::vector<double> positions() const;
  /// Advances every simulated driver.
  void advance(double seconds);

 private:
  std::vector<DofBinding> bindings_;
  std::vector<std::shared_ptr<ActuatorDriver>> drivers_;
};

}  // namespace interlink::hardware
