#pragma once
// A simulated actuator backend any hardware plugin can offer: a first-order response toward the
// commanded position (or velocity, or effort), kept within the catalog entry's limits.
#include <algorithm>
#include <cmath>
#include <string>

#include "interlink/hardware/Catalog.hpp"
#include "interlink/hardware/Driver.hpp"

namespace interlink::hardware {

class SimulatedActuator final : public ActuatorDriver {
 public:
  /// `timeConstant` (s): how fast the position follows a position command.
  SimulatedActuator(std::string type, std::string address, const Limits& limits, double timeConstant = 0.05)
      : type_(std::move(type)), address_(std::move(address)), limits_(limits), timeConstant_(timeConstant) {
    position_ = std::clamp(0.0, limits_.positionLower, limits_.positionUpper);
  }

  const std::string& type() const override { return type_; }
  const std::string& address() const override { return address_; }

  bool command(const ActuatorCommand& command) override {
    const bool any = !std::isnan(command.position) || !std::isnan(command.velocity) || !std::isnan(command.effort);
    const bool finite = (std::isnan(command.position) || std::isfinite(command.position)) &&
                        (std::isnan(command.velocity) || std::isfinite(command.velocity)) &&
                        (std::isnan(command.effort) || std::isfinite(command.effort));
    if (!any || !finite) {
      error_ = any ? "command has an infinite value" : "command sets neither position, velocity nor effort";
      return false;
    }
    command_ = command;
    return true;
  }

  ActuatorFeedback feedback() const override { return ActuatorFeedback{position_, velocity_, effort_, time_}; }

  void advance(double seconds) override {
    if (!(seconds > 0) || !std::isfinite(seconds)) return;
    double targetVelocity = 0;
    if (!std::isnan(command_.position)) {
      const double target = std::clamp(command_.position, limits_.positionLower, limits_.positionUpper);
      // Exact first-order step: the remaining error decays by exp(-dt/tau).
      const double next = target + (position_ - target) * std::exp(-seconds / timeConstant_);
      targetVelocity = (next - position_) / seconds;
    } else if (!std::isnan(command_.velocity)) {
      targetVelocity = command_.velocity;
    } else if (!std::isnan(command_.effort)) {
      targetVelocity = command_.effort;  // a unit-damping load: velocity follows effort
    }
    velocity_ = std::clamp(targetVelocity, -limits_.velocity, limits_.velocity);
    const double unclamped = position_ + velocity_ * seconds;
    position_ = std::clamp(unclamped, limits_.positionLower, limits_.positionUpper);
    if (position_ != unclamped) velocity_ = 0;
    effort_ = std::isnan(command_.effort) ? 0.0 : std::clamp(command_.effort, -limits_.effort, limits_.effort);
    time_ += seconds;
  }

  std::string lastError() const override { return error_; }

 private:
  std::string type_;
  std::string address_;
  Limits limits_;
  double timeConstant_;
  ActuatorCommand command_;
  double position_ = 0;
  double velocity_ = 0;
  double effort_ = 0;
  double time_ = 0;
  std::string error_;
};

}  // namespace interlink::hardware
