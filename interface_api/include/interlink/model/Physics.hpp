#pragma once
#include <map>
#include <string>

namespace interlink {

struct Physics {
  std::string name;
  std::string type;  // engine name as written (ode, bullet, dart, ...)
  double maxStepSize = 0.001;
  double realTimeFactor = 1.0;
  std::string collisionDetector;
  /// Every other numeric parameter by name (erp, cfm, friction, ...).
  std::map<std::string, double> values;
};

}  // namespace interlink
