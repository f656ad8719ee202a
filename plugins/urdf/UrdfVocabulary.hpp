#pragma once
// The elements and attributes of URDF (the ROS URDF document, as urdfdom reads it): a misspelt one
// (`<orign>`, `uper`) is one warning with a "did you mean", never silently ignored; another tool's
// extension is a note.
#include "interlink/Diagnostics.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::urdf {

/// Reports once each element or attribute of `robot`'s tree that URDF does not define. Content
/// of <gazebo>, <transmission> and <sensor>, and namespaced names, belong to other vocabularies.
void checkVocabulary(const xml::XmlElement& robot, Diagnostics& diagnostics);

}  // namespace interlink::urdf
