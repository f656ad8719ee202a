#pragma once
// Actuator drivers offered by hardware plugins: open by type and address, command, read feedback.
// Implementations never throw; failures are reported through return values and `lastError`.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace interlink::hardware {

/// Which quantities of a command are set (NaN means "not commanded").
struct ActuatorCommand {
  double position = std::numeric_limits<double>::quiet_NaN();
  double velocity = std::numeric_limits<double>::quiet_NaN();
  double effort = std::numeric_limits<double>::quiet_NaN();
};

struct ActuatorFeedback {
  double position = 0;
  double velocity = 0;
  double effort = 0;
  double time = 0;  // seconds since the driver was opened (simulated or wall clock)
};

/// Where to find an actuator: `sim://<name>` opens the simulated backend; other schemes are
/// backend-specific (a real network backend would take e.g. `hebi://family/name`).
struct DriverRequest {
  std::string type;     // catalog type, canonical spelling
  std::string address;
};

class ActuatorDriver {
 public:
  virtual ~ActuatorDriver() = default;
  virtual const std::string& type() const = 0;
  virtual const std::string& address() const = 0;
  /// Sets the target; false (with lastError) when the command is not finite or not supported.
  virtual bool command(const ActuatorCommand& command) = 0;
  virtual ActuatorFeedback feedback() const = 0;
  /// Advances a simulated backend by `seconds`; real backends ignore it.
  virtual void advance(double seconds) = 0;
  virtual std::string lastError() const = 0;
};

}  // namespace interlink::hardware
