// Attribute access of the MJCF reader (MjcfAttributes.hpp): defaults, numbers, keywords, orientations.
#include "MjcfAttributes.hpp"

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::mjcf::detail {

using xml::Attribute;
using xml::XmlElement;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEpsilon = 1e-14;  // MuJoCo's mjEPS

}  // namespace

/// MuJoCo's minimal rotation taking +z onto `vector` (mjuu_z2quat).
Quaternion quaternionFromZAxis(const Vector3& vector) {
  const Vector3 v = vector.normalized();
  Vector3 axis = Vector3::UnitZ().cross(v);
  const double s = axis.norm();
  if (s < 1e-10) {
    axis = Vector3::UnitX();
  } else {
    axis /= s;
  }
  const double angle = std::atan2(s, v.z());
  return Quaternion(std::cos(angle / 2), axis.x() * std::sin(angle / 2), axis.y() * std::sin(angle / 2),
                    axis.z() * std::sin(angle / 2));
}

/// The attribute on the element, else on its default class and the classes above it.
const Attribute* AttributeReader::lookup(const Element& e, const char* name) const {
  if (const Attribute* a = e.xml.attribute(name)) return a;
  std::string cls = e.cls;
  for (std::size_t guard = 0; guard <= classes_.size() && !cls.empty(); ++guard) {
    auto found = classes_.find(cls);
    if (found == classes_.end()) break;
    auto kind = found->second.elements.find(e.kind);
    if (kind != found->second.elements.end()) {
      // Several <default> blocks of one class: the last one giving the attribute wins.
      for (auto block = kind->second.rbegin(); block != kind->second.rend(); ++block) {
        if (const Attribute* a = (*block)->attribute(name)) return a;
      }
    }
    cls = found->second.parent;
  }
  return nullptr;
}

std::string AttributeReader::what(const Element& e) const {
  const Attribute* name = e.xml.attribute("name");
  return "<" + e.xml.name + ">" + (name ? " '" + name->value + "'" : std::string());
}

std::optional<std::vector<double>> AttributeReader::numbers(const Element& e, const char* name, std::vector<std::size_t> counts) {
  const Attribute* a = lookup(e, name);
  if (!a) return std::nullopt;
  return parseDoubles(a->value, xml::attributeLocation(e.xml, a), std::string(name) + " of " + what(e), diagnostics_,
                      std::move(counts), ErrorCode::ATTRIBUTE_INVALID);
}

std::optional<double> AttributeReader::number(const Element& e, const char* name) {
  const Attribute* a = lookup(e, name);
  if (!a) return std::nullopt;
  return parseDouble(a->value, xml::attributeLocation(e.xml, a), std::string(name) + " of " + what(e), diagnostics_);
}

std::optional<Vector3> AttributeReader::vector3(const Element& e, const char* name) {
  const Attribute* a = lookup(e, name);
  if (!a) return std::nullopt;
  return xml::parseVector3(a->value, xml::attributeLocation(e.xml, a), std::string(name) + " of " + what(e), diagnostics_,
                           ErrorCode::ATTRIBUTE_INVALID);
}

std::optional<int> AttributeReader::integer(const Element& e, const char* name) {
  const Attribute* a = lookup(e, name);
  if (!a) return std::nullopt;
  const auto value = xml::parseInteger(a->value, xml::attributeLocation(e.xml, a), std::string(name) + " of " + what(e),
                                       diagnostics_, ErrorCode::ATTRIBUTE_INVALID);
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

/// One of `choices` (the value's index), or nothing after an error naming them.
std::optional<std::size_t> AttributeReader::keyword(const Element& e, const char* name, const std::vector<std::string>& choices) {
  const Attribute* a = lookup(e, name);
  if (!a) return std::nullopt;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (a->value == choices[i]) return i;
  }
  std::string expected;
  for (const std::string& c : choices) expected += (expected.empty() ? "'" : ", '") + c + "'";
  diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                     std::string(name) + " of " + what(e) + " is '" + a->value + "'; expected one of " + expected,
                     xml::attributeLocation(e.xml, a));
  return std::nullopt;
}

std::optional<bool> AttributeReader::boolean(const Element& e, const char* name) {
  auto v = keyword(e, name, {"false", "true"});
  if (!v) return std::nullopt;
  return *v == 1;
}

/// The element's frame orientation from quat, axisangle, xyaxes, zaxis or euler (one at most).
Quaternion AttributeReader::orientation(const Element& e) {
  static const char* forms[] = {"quat", "axisangle", "xyaxes", "zaxis", "euler"};
  const Attribute* given = nullptr;
  const char* form = nullptr;
  for (const char* f : forms) {
    const Attribute* a = lookup(e, f);
    if (!a) continue;
    if (given) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         what(e) + " gives its orientation twice ('" + form + "' and '" + f + "'); use one",
                         xml::attributeLocation(e.xml, a));
      continue;
    }
    given = a;
    form = f;
  }
  Quaternion q = Quaternion::Identity();
  if (!given) return q;
  const std::string formName = form;
  const SourceLocation at = xml::attributeLocation(e.xml, given);
  auto fail = [&](const std::string& message) {
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, formName + " of " + what(e) + ": " + message, at);
    return Quaternion::Identity();
  };
  if (formName == "quat") {
    auto v = numbers(e, "quat", {4});
    if (!v) return q;
    q = Quaternion((*v)[0], (*v)[1], (*v)[2], (*v)[3]);
    if (q.norm() < kEpsilon) return fail("the quaternion is zero");
    return q.normalized();
  }
  if (formName == "axisangle") {
    auto v = numbers(e, "axisangle", {4});
    if (!v) return q;
    Vector3 axis((*v)[0], (*v)[1], (*v)[2]);
    if (axis.norm() < kEpsilon) return fail("the axis is too small");
    return Quaternion(Eigen::AngleAxisd(angle((*v)[3]), axis.normalized()));
  }
  if (formName == "xyaxes") {
    auto v = numbers(e, "xyaxes", {6});
    if (!v) return q;
    Vector3 x((*v)[0], (*v)[1], (*v)[2]), y((*v)[3], (*v)[4], (*v)[5]);
    if (x.norm() < kEpsilon) return fail("the x axis is too small");
    x.normalize();
    y -= x * x.dot(y);
    if (y.norm() < kEpsilon) return fail("the y axis is too small or parallel to x");
    y.normalize();
    Matrix3 r;
    r.col(0) = x;
    r.col(1) = y;
    r.col(2) = x.cross(y).normalized();
    return Quaternion(r).normalized();
  }
  if (formName == "zaxis") {
    auto v = vector3(e, "zaxis");
    if (!v) return q;
    if (v->norm() < kEpsilon) return fail("the z axis is too small");
    return quaternionFromZAxis(*v);
  }
  auto v = numbers(e, "euler", {3});
  if (!v) return q;
  const std::string& sequence = compiler_.eulerSequence;
  for (int i = 0; i < 3; ++i) {
    const char axisName = static_cast<char>(std::tolower(static_cast<unsigned char>(sequence[i])));
    const Vector3 axis = axisName == 'x' ? Vector3::UnitX() : axisName == 'y' ? Vector3::UnitY() : Vector3::UnitZ();
    const Quaternion r(Eigen::AngleAxisd(angle((*v)[i]), axis));
    // Lower case: axes that move with the frame (post-multiply); upper case: fixed axes.
    q = std::islower(static_cast<unsigned char>(sequence[i])) ? q * r : r * q;
  }
  return q.normalized();
}

/// pos + orientation of a body, site, geom, camera or inertial frame.
Pose AttributeReader::frame(const Element& e) {
  Pose pose = Pose::Identity();
  pose.linear() = orientation(e).toRotationMatrix();
  pose.translation() = vector3(e, "pos").value_or(Vector3::Zero());
  return pose;
}

std::string AttributeReader::className(const XmlElement& e, const std::string& inherited) {
  const Attribute* cls = e.attribute("class");
  if (!cls) return inherited;
  if (!classes_.count(cls->value)) {
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<" + e.name + "> names the unknown default class '" + cls->value + "'",
                       xml::attributeLocation(e, cls));
    return inherited;
  }
  return cls->value;
}

double AttributeReader::angle(double value) const { return compiler_.degrees ? value * kPi / 180.0 : value; }

void AttributeReader::readDefault(const XmlElement& d, const std::string& parent, bool topLevel) {
  std::string name = "main";
  if (const Attribute* cls = d.attribute("class")) {
    name = cls->value;
  } else if (!topLevel) {
    diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "a nested <default> needs the attribute 'class'", d.where);
    return;
  }
  // Top-level <default> blocks (one per included file, say) all add to the class they name, a
  // later attribute over an earlier one, as MuJoCo merges them; a nested class is defined once.
  if (!topLevel) {
    if (classes_.count(name)) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, "default class '" + name + "' is defined twice",
                         xml::attributeLocation(d, d.attribute("class")));
      return;
    }
    classes_[name].parent = parent;
  } else {
    classes_.try_emplace(name);
  }
  for (const XmlElement& c : d.children) {
    if (c.name == "default") {
      readDefault(c, name, false);
    } else {
      classes_[name].elements[c.name].push_back(&c);  // what a <default> may hold is the schema's (MjcfSchema)
      // MuJoCo keeps one actuator default per class, which every actuator shortcut sets.
      static const std::set<std::string> actuators = {"general", "motor", "position", "velocity", "intvelocity",
                                                      "damper", "cylinder", "muscle", "adhesion", "orientation",
                                                      "pid", "dcmotor"};
      if (actuators.count(c.name)) classes_[name].elements["actuator"].push_back(&c);
    }
  }
}

bool AttributeReader::hasRange(const Element& e, const char* rangeName) {
  auto range = numbers(e, rangeName, {2});
  return range && !((*range)[0] == 0 && (*range)[1] == 0);
}

bool AttributeReader::limited(const Element& e, const char* limitedName, const char* rangeName, bool hasRange) {
  const std::optional<std::size_t> given = keyword(e, limitedName, {"false", "true", "auto"});
  if (given && *given != 2) return *given == 1;
  if (!hasRange) return false;
  const SourceLocation at = xml::attributeLocation(e.xml, lookup(e, rangeName));
  if (!compiler_.autoLimits) {
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       what(e) + " has a " + rangeName + " but '" + limitedName +
                           "' is auto and <compiler autolimits=\"false\">; set " + limitedName +
                           "=\"true\" or autolimits=\"true\" (as MuJoCo requires)",
                       at);
    return true;
  }
  if (!compiler_.autoLimitsGiven && !autoLimitsNoted_) {
    autoLimitsNoted_ = true;
    diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                what(e) + " is limited by its " + rangeName + " because <compiler autolimits> is true by "
                                "default since MuJoCo 3.0.0; MuJoCo releases before 3.0.0 (Debian's 2.2.2 among them) "
                                "refuse a range whose '" + limitedName + "' is auto unless autolimits=\"true\" "
                                "(reported once per model)",
                                at});
  }
  return true;
}

std::string numbersText(const Vector3& v) {
  return formatNumber(v.x()) + " " + formatNumber(v.y()) + " " + formatNumber(v.z());
}

void placeInFrame(KeptElement& light, const Pose& pose) {
  Diagnostics ignored;  // the reader parsed this text already
  std::optional<XmlElement> tree = xml::parse(light.text, light.where.file.str(), ignored);
  if (!tree) return;
  const auto vector = [&](const char* name, const Vector3& fallback) {
    const Attribute* a = tree->attribute(name);
    const auto v = a ? parseDoubles(a->value, a->where, name, ignored, {3}) : std::nullopt;
    return v ? Vector3((*v)[0], (*v)[1], (*v)[2]) : fallback;
  };
  const Vector3 pos = pose * vector("pos", Vector3::Zero());
  const Vector3 dir = pose.linear() * vector("dir", Vector3(0, 0, -1));
  const auto set = [&](const char* name, const Vector3& v) {
    const std::string value = numbersText(v);
    for (Attribute& a : tree->attributes) {
      if (a.name == name) {
        a.value = value;
        return;
      }
    }
    tree->attributes.push_back(Attribute{name, value, {}});
  };
  set("pos", pos);
  set("dir", dir);
  light.text = tree->toXml();
}

std::vector<std::pair<std::string, std::string>> AttributeReader::carried(const Element& e,
                                                                         const std::vector<const char*>& names) const {
  std::vector<std::pair<std::string, std::string>> values;
  for (const char* name : names) {
    if (const Attribute* a = lookup(e, name)) values.emplace_back(name, a->value);
  }
  return values;
}

void AttributeReader::keep(std::vector<KeptElement>& kept, const std::string& path, const XmlElement& e) {
  kept.push_back(KeptElement{path, e.toXml(), e.where});
  // Reported once per kind of element, never dropped silently.
  if (reportedKinds_.insert(e.name).second) {
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         "<" + e.name + "> is kept as data but not interpreted by Interlink (reported once)", e.where);
  }
}


}  // namespace interlink::mjcf::detail
