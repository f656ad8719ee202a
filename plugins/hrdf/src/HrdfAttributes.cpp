// The HRDF reader, attribute values: which attributes a version allows, formulas, rotations,
// translations and keywords, each error at the offending column.
#include "HrdfDocumentReader.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include <Eigen/Geometry>

#include "HrdfGrammar.hpp"
#include "HrdfRobot.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/HardwareServices.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::hrdf::detail {

bool Reader::checkAttributes(const XmlElement& xml, const AttributeRules& rules) {
  bool ok = true;
  for (const Attribute& a : xml.attributes) {
    auto rule = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return a.name == r.first; });
    if (rule == rules.end()) {
      std::vector<std::string> allowed;
      for (const auto& r : rules)
        if (r.second <= robot_.minor) allowed.push_back(r.first);
      error(ErrorCode::ATTRIBUTE_INVALID,
            "attribute '" + a.name + "' is not allowed on <" + xml.name + ">" +
                (allowed.empty() ? std::string("; it takes no attributes") : "; allowed: " + joinList(allowed)),
            a.where);
      ok = false;
    } else if (rule->second > robot_.minor) {
      error(ErrorCode::ATTRIBUTE_INVALID,
            "attribute '" + a.name + "' on <" + xml.name + "> needs HRDF " + versionName(rule->second) +
                " or later (this file is " + robot_.version + ")",
            a.where);
      ok = false;
    }
  }
  return ok;
}

const Attribute* Reader::required(const XmlElement& xml, const char* name) {
  const Attribute* a = xml.attribute(name);
  if (!a) error(ErrorCode::ATTRIBUTE_MISSING, "<" + xml.name + "> needs the attribute '" + name + "'", xml.where);
  return a;
}

std::optional<double> Reader::formula(const Attribute& a, const XmlElement& xml) {
  // Formulas arrived in HRDF 1.1.0; 1.0.0 fields are plain floating point values.
  const bool plain = robot_.minor == 0;
  auto result = plain ? grammar::parseFloat(a.value) : grammar::parseFormula(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (" +
            (plain ? "a floating point value; formulas need HRDF 1.1.0" : "a floating point formula") +
            "): " + result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<Matrix3> Reader::rotation(const Attribute& a, const XmlElement& xml) {
  if (robot_.minor == 0) {
    // Rx/Ry/Rz products arrived in HRDF 1.1.0.
    const std::string value = trim(a.value);
    if (!value.empty() && value.front() == 'R') {
      error(ErrorCode::VALUE_INVALID,
            "invalid value for <" + xml.name + "> attribute '" + a.name +
                "': HRDF 1.0.0 takes 9 numbers; Rx/Ry/Rz products need HRDF 1.1.0",
            file().valueLocation(a, a.value.find('R')));
      return std::nullopt;
    }
  }
  auto result = grammar::parseRotation(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (a rotation matrix): " + result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<Vector3> Reader::translation(const Attribute& a, const XmlElement& xml) {
  auto result = grammar::parseTranslation(a.value);
  if (result.ok()) return result.value;
  error(ErrorCode::VALUE_INVALID,
        "invalid value for <" + xml.name + "> attribute '" + a.name + "' (a translation vector): " +
            result.error.message,
        file().valueLocation(a, result.error.offset));
  return std::nullopt;
}

std::optional<std::string> Reader::enumValue(const Attribute& a, const XmlElement& xml,
                                             const std::vector<std::string>& allowed) {
  const std::string written = trim(a.value);
  for (const auto& value : allowed) {
    if (value == written) return value;
  }
  for (const auto& value : allowed) {
    if (lower(value) == lower(written)) {
      warning(ErrorCode::ATTRIBUTE_INVALID,
              "<" + xml.name + "> attribute '" + a.name + "' value '" + written + "' has non-matching case; write '" +
                  value + "'",
              file().valueLocation(a, 0));
      return value;
    }
  }
  error(ErrorCode::ATTRIBUTE_INVALID,
        "invalid value '" + written + "' for <" + xml.name + "> attribute '" + a.name + "'; expected one of " +
            joinList(allowed),
        file().valueLocation(a, 0));
  return std::nullopt;
}

}  // namespace interlink::hrdf::detail
