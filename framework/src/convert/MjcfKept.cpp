#include "MjcfKept.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "WriterSupport.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::convert::detail {
namespace {

constexpr std::string_view kPrefix = "mujoco/";

std::string sectionOf(const KeptElement& kept) {
  const std::string rest = kept.path.substr(kPrefix.size());
  return rest.substr(0, rest.find('/'));
}

/// Textures, materials and inline-data meshes: written inside the writer's own <asset>.
bool isKeptMjcfAsset(const KeptElement& kept) {
  return kept.path == "mujoco/asset/texture" || kept.path == "mujoco/asset/material" || kept.path == "mujoco/asset/mesh";
}

std::optional<xml::XmlElement> parsed(const KeptElement& kept) {
  Diagnostics ignored;  // the reader parsed this text already
  return xml::parse(kept.text, kept.where.file.str(), ignored);
}

/// Elements the main default class sets for what the writer writes explicitly (cameras and lights
/// are written as read, so their defaults stay).
bool isBodyElementDefault(const std::string& name) {
  static const std::set<std::string> bodyElements = {"joint", "geom", "site", "mesh", "material"};
  return bodyElements.count(name) != 0;
}

/// Attributes of the default classes, by class name and element name, each class holding what it
/// inherits (MuJoCo's rule: a nested class starts from its parent's values).
using ClassDefaults = std::map<std::string, std::map<std::string, std::map<std::string, std::string>>>;

void collectDefaults(const xml::XmlElement& defaultElement, const std::string& className,
                     const std::map<std::string, std::map<std::string, std::string>>& inherited, ClassDefaults& out) {
  auto own = inherited;
  for (const xml::XmlElement& child : defaultElement.children) {
    if (child.name == "default") continue;
    for (const xml::Attribute& a : child.attributes) own[child.name][a.name] = a.value;
  }
  out[className] = own;
  for (const xml::XmlElement& child : defaultElement.children) {
    if (child.name != "default") continue;
    collectDefaults(child, child.attributeOr("class", ""), own, out);
  }
}

std::vector<double> numbersIn(const std::string& text) {
  std::vector<double> values;
  std::istringstream in(text);
  double v = 0;
  while (in >> v) values.push_back(v);
  return values;
}

/// The largest magnitude a range "lo hi" allows, or nothing.
std::optional<double> bound(const std::string& range) {
  const std::vector<double> v = numbersIn(range);
  if (v.size() != 2 || !std::isfinite(v[0]) || !std::isfinite(v[1]) || v[0] >= v[1]) return std::nullopt;
  return std::max(std::abs(v[0]), std::abs(v[1]));
}

}  // namespace

bool isKeptMjcfSection(const KeptElement& kept) {
  return kept.path.rfind(kPrefix, 0) == 0 && kept.element.name.empty();
}

bool isKeptMjcfBodyElement(const KeptElement& kept) {
  return kept.path.rfind("body/", 0) == 0 && kept.element.name.empty() && kept.within == "link" &&
         kept.owners.size() == 1;
}

bool isKeptMjcfCamera(const KeptElement& kept) {
  return kept.path == "body/camera" && kept.element.name.empty() && kept.within == "camera" && kept.owners.size() == 2;
}

std::string mjcfCamera(const KeptElement& kept, const std::string& name, const std::string& poseAttributes) {
  static const std::set<std::string> placement = {"name", "pos", "quat", "axisangle", "xyaxes", "zaxis", "euler"};
  std::string out = "<camera" + attr("name", name) + poseAttributes;
  if (std::optional<xml::XmlElement> tree = parsed(kept)) {
    for (const xml::Attribute& a : tree->attributes) {
      if (!placement.count(a.name)) out += attr(a.name, a.value);
    }
  }
  return out + "/>";
}

bool isKeptMjcfParameters(const KeptElement& kept) {
  if (!kept.element.name.empty()) return false;
  if (kept.path == "body/joint" || kept.path == "body/body") {
    return kept.within == kept.path.substr(5) && kept.owners.size() == 1;
  }
  return (kept.path == "body/geom" || kept.path == "body/site") && kept.within == kept.path.substr(5) &&
         kept.owners.size() == 2;
}

MjcfParameters keptMjcfParameters(const Model& model) {
  MjcfParameters parameters;
  for (const KeptElement& kept : model.kept) {
    if (!isKeptMjcfParameters(kept)) continue;
    std::optional<xml::XmlElement> tree = parsed(kept);
    if (!tree) continue;
    MjcfAttributeList values;
    for (const xml::Attribute& a : tree->attributes) values.emplace_back(a.name, a.value);
    if (kept.within == "geom") {
      parameters.geoms[{kept.owners[0], kept.owners[1]}] = std::move(values);
    } else if (kept.within == "site") {
      parameters.sites[kept.owners[1]] = std::move(values);
    } else if (kept.within == "body") {
      parameters.bodies[kept.owners[0]] = std::move(values);
    } else {
      parameters.joints[kept.owners[0]] = std::move(values);
    }
  }
  return parameters;
}

std::vector<std::string> keptMjcfAppearance(const Model& model, const WriteOptions& options) {
  std::vector<std::string> lines;
  for (const KeptElement& kept : model.kept) {
    if (!isKeptMjcfAsset(kept)) continue;
    std::optional<xml::XmlElement> tree = parsed(kept);
    if (!tree) continue;
    for (xml::Attribute& a : tree->attributes) {
      // The reader kept each texture file as found.
      if (tree->name == "texture" && a.name.rfind("file", 0) == 0) a.value = meshUriFor(a.value, a.value, {}, options);
    }
    lines.push_back(tree->toXml());
  }
  return lines;
}

bool isKeptMjcfDefaults(const KeptElement& kept) { return kept.path == "mujoco/default"; }

MjcfSections keptMjcfSections(const Model& model) {
  static const std::set<std::string> before = {"default", "option", "size", "visual", "statistic"};
  MjcfSections sections;
  std::string equality;
  bool mocap = false;  // the writer writes the source's mocap bodies
  for (const auto& body : keptMjcfParameters(model).bodies) {
    for (const auto& [key, value] : body.second) mocap = mocap || (key == "mocap" && value == "true");
  }
  for (const KeptElement& kept : model.kept) {
    if (!isKeptMjcfSection(kept)) continue;
    const std::string section = sectionOf(kept);
    if (isKeptMjcfAsset(kept)) continue;  // keptMjcfAppearance
    if (section == "equality") {
      equality += kept.text + "\n";  // one constraint; the reader mapped welds and connects
      continue;
    }
    if (section == "keyframe") {
      // Without the source's mocap bodies, a key's mocap positions would not fit.
      std::optional<xml::XmlElement> tree = parsed(kept);
      if (!tree) continue;
      if (mocap) {
        sections.afterWorld.push_back(kept.text);
        continue;
      }
      for (xml::XmlElement& key : tree->children) {
        auto& attributes = key.attributes;
        attributes.erase(std::remove_if(attributes.begin(), attributes.end(),
                                        [](const xml::Attribute& a) { return a.name == "mpos" || a.name == "mquat"; }),
                         attributes.end());
      }
      sections.afterWorld.push_back(tree->toXml());
      continue;
    }
    if (section != "default") {
      (before.count(section) ? sections.beforeWorld : sections.afterWorld).push_back(kept.text);
      continue;
    }
    std::optional<xml::XmlElement> tree = parsed(kept);
    if (!tree) continue;
    auto& children = tree->children;
    children.erase(std::remove_if(children.begin(), children.end(),
                                  [](const xml::XmlElement& c) { return isBodyElementDefault(c.name); }),
                   children.end());
    sections.beforeWorld.push_back(tree->toXml());
  }
  if (!equality.empty()) sections.afterWorld.push_back("<equality>\n" + equality + "</equality>");
  return sections;
}

std::map<std::string, double> mjcfActuatorEffortLimits(const Model& model) {
  ClassDefaults defaults;
  for (const KeptElement& kept : model.kept) {
    if (!isKeptMjcfDefaults(kept)) continue;
    if (std::optional<xml::XmlElement> tree = parsed(kept)) collectDefaults(*tree, "main", {}, defaults);
  }
  std::map<std::string, double> limits;
  for (const KeptElement& kept : model.kept) {
    if (!isKeptMjcfSection(kept) || sectionOf(kept) != "actuator") continue;
    std::optional<xml::XmlElement> tree = parsed(kept);
    if (!tree) continue;
    for (const xml::XmlElement& actuator : tree->children) {
      // The element's own attributes over its class's (the class of a shortcut also sets <general>).
      std::map<std::string, std::string> values;
      const auto cls = defaults.find(actuator.attributeOr("class", "main"));
      if (cls != defaults.end()) {
        for (const char* kind : {"general", actuator.name.c_str()}) {
          const auto set = cls->second.find(kind);
          if (set != cls->second.end()) {
            for (const auto& [k, v] : set->second) values[k] = v;
          }
        }
      }
      for (const xml::Attribute& a : actuator.attributes) values[a.name] = a.value;
      const auto value = [&](const char* key) {
        const auto found = values.find(key);
        return found == values.end() ? std::string() : found->second;
      };
      const std::string joint = value("joint");
      if (joint.empty()) continue;  // tendons, sites, bodies: no joint effort to bound
      std::optional<double> limit;
      if (value("forcelimited") != "false") limit = bound(value("forcerange"));
      const bool pureGain = actuator.name == "motor" || (actuator.name == "general" && value("biastype").empty() &&
                                                          value("biasprm").empty());
      if (!limit && pureGain && value("ctrllimited") != "false") {
        const std::vector<double> gear = numbersIn(value("gear"));
        const std::vector<double> gain = numbersIn(value("gainprm"));
        const double scale = std::abs(gear.empty() ? 1.0 : gear[0]) * std::abs(gain.empty() ? 1.0 : gain[0]);
        if (const auto control = bound(value("ctrlrange"))) limit = *control * scale;
      }
      if (!limit) continue;
      auto [entry, inserted] = limits.emplace(joint, *limit);
      if (!inserted) entry->second = std::min(entry->second, *limit);
    }
  }
  return limits;
}

}  // namespace interlink::convert::detail
