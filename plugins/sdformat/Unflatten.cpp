// Unflattening follows libsdformat's Converter::Unflatten: every child of a flattenable kind whose
// name starts with "P::" moves into a new nested model "P" (appended at the end), the prefix is
// stripped from its name and from the references inside it, and the frame "P::__model__" gives
// the new model its pose and canonical link.
#include "Unflatten.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "interlink/model/Names.hpp"

namespace interlink::sdformat {
namespace {

using xml::Attribute;
using xml::XmlElement;

bool isFlattenable(const std::string& elementName) {
  return elementName == "frame" || elementName == "joint" || elementName == "link" || elementName == "model" ||
         elementName == "gripper";
}

Attribute* findAttribute(XmlElement& element, const char* name) {
  for (Attribute& a : element.attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

XmlElement* findChild(XmlElement& element, const char* name) {
  for (XmlElement& c : element.children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

/// Strips "P::" from an attribute value that starts with it.
void stripAttribute(XmlElement& element, const char* attributeName, const std::string& prefix) {
  Attribute* a = findAttribute(element, attributeName);
  if (a && a->value.compare(0, prefix.size(), prefix) == 0) a->value.erase(0, prefix.size());
}

void stripText(XmlElement* element, const std::string& prefix) {
  if (!element) return;
  const std::string value = element->trimmedText();
  if (value.compare(0, prefix.size(), prefix) == 0) element->text = value.substr(prefix.size());
}

void stripPoseOf(XmlElement& element, const std::string& prefix) {
  if (XmlElement* pose = findChild(element, "pose")) stripAttribute(*pose, "relative_to", prefix);
}

/// Strips the prefix from the references inside one moved element.
void stripReferences(XmlElement& element, const std::string& prefix) {
  stripPoseOf(element, prefix);
  if (element.name == "frame") {
    stripAttribute(element, "attached_to", prefix);
  } else if (element.name == "link") {
    for (XmlElement& child : element.children) stripPoseOf(child, prefix);
  } else if (element.name == "joint") {
    stripText(findChild(element, "parent"), prefix);
    stripText(findChild(element, "child"), prefix);
    for (const char* axisName : {"axis", "axis2"}) {
      if (XmlElement* axis = findChild(element, axisName)) {
        if (XmlElement* xyz = findChild(*axis, "xyz")) stripAttribute(*xyz, "expressed_in", prefix);
      }
    }
    for (XmlElement& child : element.children) {
      if (child.name == "sensor") stripPoseOf(child, prefix);
    }
  } else if (element.name == "gripper") {
    for (XmlElement& child : element.children) {
      if (child.name == "gripper_link" || child.name == "palm_link") stripText(&child, prefix);
    }
  }
}

}  // namespace

bool hasFlattenedContent(const XmlElement& model) {
  for (const XmlElement& child : model.children) {
    if (!isFlattenable(child.name)) continue;
    const Attribute* name = child.attribute("name");
    if (name && names::containsDelimiter(name->value)) return true;
    if (child.name == "model" && hasFlattenedContent(child)) return true;
  }
  return false;
}

void unflattenModel(XmlElement& model) {
  for (XmlElement& child : model.children) {
    if (child.name == "model") {
      const Attribute* name = findAttribute(child, "name");
      if (name && !names::containsDelimiter(name->value)) unflattenModel(child);
    }
  }

  std::vector<XmlElement> newModels;
  while (true) {
    // The first flattened child names the next new model.
    std::string modelName;
    for (XmlElement& child : model.children) {
      const Attribute* name = findAttribute(child, "name");
      if (!isFlattenable(child.name) || !name) continue;
      if (names::containsDelimiter(name->value)) {
        modelName = std::string(names::splitFirst(name->value).scope);
        break;
      }
    }
    if (modelName.empty()) break;

    const std::string prefix = names::scopePrefix(modelName);
    XmlElement nested;
    nested.name = "model";
    nested.attributes.push_back(Attribute{"name", modelName, model.where});
    XmlElement::Children remaining(model.children.get_allocator());
    std::optional<XmlElement> modelPose;
    for (XmlElement& child : model.children) {
      Attribute* name = findAttribute(child, "name");
      if (!isFlattenable(child.name) || !name || name->value.compare(0, prefix.size(), prefix) != 0) {
        remaining.push_back(std::move(child));
        continue;
      }
      if (nested.where.line == 0) nested.where = child.where;
      name->value.erase(0, prefix.size());
      stripReferences(child, prefix);
      if (child.name == "frame" && name->value == "__model__") {
        // The model frame of the flattened model: its pose and canonical link.
        if (const Attribute* attachedTo = findAttribute(child, "attached_to")) {
          nested.attributes.push_back(Attribute{"canonical_link", attachedTo->value, attachedTo->where});
        }
        if (XmlElement* pose = findChild(child, "pose")) modelPose = std::move(*pose);
        continue;
      }
      nested.children.push_back(std::move(child));
    }
    if (modelPose) nested.children.insert(nested.children.begin(), std::move(*modelPose));
    model.children = std::move(remaining);
    unflattenModel(nested);
    newModels.push_back(std::move(nested));
  }
  for (XmlElement& nested : newModels) model.children.push_back(std::move(nested));
}

}  // namespace interlink::sdformat
