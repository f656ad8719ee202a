// Drivers for the DOFs of a model, commanded and read as one group.
#include "interlink/hardware/DriverGroup.hpp"

namespace interlink::hardware {

std::optional<DriverGroup> DriverGroup::open(const HardwareRegistry& registry, const std::vector<DofBinding>& bindings,
                                             Diagnostics& diagnostics) {
  DriverGroup group;
  bool ok = true;
  for (const auto& binding : bindings) {
    auto driver = registry.openDriver(binding.actuatorType, binding.address, diagnostics);
    if (!driver) {
      ok = false;
      continue;
    }
    group.bindings_.push_back(binding);
    group.drivers_.push_back(std::move(driver));
  }
  if (!ok) return std::nullopt;
  return group;
}

std::size_t DriverGroup::size() const { return drivers_.size(); }
const std::vector<DofBinding>& DriverGroup::bindings() const { return bindings_; }

bool DriverGroup::command(const std::vector<ActuatorCommand>& commands, Diagnostics& diagnostics) {
  if (commands.size() != drivers_.size()) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "group of " + std::to_string(drivers_.size()) + " drivers got " +
                                                         std::to_string(commands.size()) + " commands");
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < drivers_.size(); ++i) {
    if (!drivers_[i]->command(commands[i])) {
      diagnostics.error(ErrorCode::VALUE_INVALID,
                        "driver of '" + bindings_[i].dof + "' refused the command: " + drivers_[i]->lastError());
      ok = false;
    }
  }
  return ok;
}

bool DriverGroup::commandPositions(const std::vector<double>& positions, Diagnostics& diagnostics) {
  std::vector<ActuatorCommand> commands(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) commands[i].position = positions[i];
  return command(commands, diagnostics);
}

std::vector<ActuatorFeedback> DriverGroup::feedback() const {
  std::vector<ActuatorFeedback> out;
  out.reserve(drivers_.size());
  for (const auto& driver : drivers_) out.push_back(driver->feedback());
  return out;
}

std::vector<double> DriverGroup::positions() const {
  std::vector<double> out;
  for (const auto& f : feedback()) out.push_back(f.position);
  return out;
}

void DriverGroup::advance(double seconds) {
  for (auto& driver : drivers_) driver->advance(seconds);
}

}  // namespace interlink::hardware
