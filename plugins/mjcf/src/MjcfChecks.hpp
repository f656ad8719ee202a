#pragma once
// What MuJoCo's compiler checks in the sections Interlink keeps as data (<tendon>, <actuator>,
// <equality> between joints or tendons, <contact>): the names they refer to exist, and the
// limited/range rule of tendons and actuators.
#include <string>
#include <unordered_set>

#include "MjcfAttributes.hpp"

namespace interlink::mjcf::detail {

/// The names of the model's objects, one namespace per kind as in MuJoCo.
struct ModelNames {
  const std::unordered_set<std::string>& bodies;
  const std::unordered_set<std::string>& joints;
  const std::unordered_set<std::string>& geoms;
  const std::unordered_set<std::string>& sites;
};

/// Checks the children of every <tendon>, <actuator>, <equality> and <contact> of `root`. Each
/// problem is an error at the element's attribute, as MuJoCo refuses the model.
void checkKeptSections(const xml::XmlElement& root, AttributeReader& attributes, const ModelNames& names,
                       Diagnostics& diagnostics);

}  // namespace interlink::mjcf::detail
