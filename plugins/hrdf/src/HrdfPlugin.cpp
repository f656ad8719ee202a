// The HRDF format plugin: reads the file into HrdfRobot records with the host's hardware catalogs
// and include service (HostServices), then maps them onto the model. It needs nothing of the host
// but interface_api.
#include "HrdfMapping.hpp"
#include "HrdfRobot.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

bool readHrdf(const interlink::plugin::LoadRequest& request, interlink::hrdf::Robot& robot,
              interlink::Diagnostics& diagnostics) {
  return interlink::hrdf::readRobot(request.content, request.path, request.host, robot, diagnostics);
}

void mapHrdf(const interlink::hrdf::Robot& robot, const interlink::plugin::LoadRequest& request,
             interlink::Document& document, interlink::Diagnostics& diagnostics) {
  interlink::hrdf::mapRobot(robot, request.path, document, diagnostics);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("hrdf", "1.6.0",
                                 (interlink::plugin::readThenMap<interlink::hrdf::Robot, readHrdf, mapHrdf>),
                                 nullptr, ".hrdf")
