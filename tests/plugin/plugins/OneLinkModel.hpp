#pragma once
// The model the test format plugins return: one model holding one link.
#include <string>

#include "interlink/model/Model.hpp"

namespace interlink::test {

inline Model oneLinkModel(const std::string& modelName, const std::string& linkName) {
  Model model;
  model.name = modelName;
  Link link;
  link.name = linkName;
  model.links.push_back(link);
  return model;
}

}  // namespace interlink::test
