// The HRDF format plugin: reads the file with the host's hardware catalogs and include service
// (HostServices) and maps it onto the model. It needs nothing of the host but interface_api.
#include "HrdfMapping.hpp"
#include "HrdfRobot.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadHrdf(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::hrdf::Robot robot;
  if (!interlink::hrdf::readRobot(request.content, request.path, request.host, robot, diagnostics)) return;
  interlink::hrdf::mapRobot(robot, request.path, document, diagnostics);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("hrdf", "1.6.0", loadHrdf, nullptr, ".hrdf")
