// A minimal well-behaved format plugin: ".good" files hold "name x y z" lines, one link each.
#include <sstream>

#include "GoodSummary.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadGood(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::Model model;
  model.name = "good";
  std::istringstream in{std::string(request.content)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    interlink::Link link;
    double x, y, z;
    if (!(fields >> link.name >> x >> y >> z)) {
      diagnostics.error(interlink::ErrorCode::ELEMENT_INVALID, "expected 'name x y z'", {request.path, number, 1});
      continue;
    }
    link.pose.pose.translation() = interlink::Vector3(x, y, z);
    link.where = {request.path, number, 1};
    model.links.push_back(link);
  }
  good::GoodSummary summary;
  for (const interlink::Link& link : model.links) summary.linkNames.push_back(link.name);
  summary.note = "made by the good plugin";
  model.extensions.set(std::move(summary));
  document.model = model;
}

int sniffGood(const char*, const char* head, std::size_t size) {
  return std::string(head, size).rfind("base", 0) == 0 ? 80 : 0;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("good", "1.2.3", loadGood, sniffGood, ".good", ".GOOD2")
