#pragma once
// Attribute access of the MJCF reader: an element's attribute, else its <default> class's and the
// classes above it; numbers, keywords, angles, orientations and frames as MuJoCo reads them.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "MjcfRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::mjcf::detail {

struct DefaultClass {
  std::string parent;
  /// kind ("geom", ...) -> its elements in the class's <default> blocks, in document order.
  std::map<std::string, std::vector<const xml::XmlElement*>> elements;
};

/// One element with the class its attributes fall back to.
struct Element {
  const xml::XmlElement& xml;
  std::string kind;  // "joint", "geom", ... (the defaults kind)
  std::string cls;   // default class
};

/// MuJoCo's minimal rotation taking +z onto `vector` (mjuu_z2quat).
Quaternion quaternionFromZAxis(const Vector3& vector);

/// A kept <light> of a <frame>, placed in the enclosing body: its pos and dir moved by the frame's
/// `pose` (MuJoCo applies a frame to everything it holds).
void placeInFrame(KeptElement& light, const Pose& pose);

/// "x y z", each number as the writers format it.
std::string numbersText(const Vector3& v);

class AttributeReader {
 public:
  AttributeReader(const Compiler& compiler, Diagnostics& diagnostics) : compiler_(compiler), diagnostics_(diagnostics) {}

  /// The attribute on the element, else on its default class and the classes above it.
  const xml::Attribute* lookup(const Element& e, const char* name) const;
  /// "<geom> 'name'", for messages.
  std::string what(const Element& e) const;
  std::optional<std::vector<double>> numbers(const Element& e, const char* name, std::vector<std::size_t> counts);
  std::optional<double> number(const Element& e, const char* name);
  std::optional<Vector3> vector3(const Element& e, const char* name);
  std::optional<int> integer(const Element& e, const char* name);
  /// One of `choices` (the value's index), or nothing after an error naming them.
  std::optional<std::size_t> keyword(const Element& e, const char* name, const std::vector<std::string>& choices);
  std::optional<bool> boolean(const Element& e, const char* name);
  /// An angle of the file in radians (<compiler angle>).
  double angle(double value) const;
  /// The element's frame orientation from quat, axisangle, xyaxes, zaxis or euler (one at most).
  Quaternion orientation(const Element& e);
  /// pos + orientation of a body, site, geom, camera or inertial frame.
  Pose frame(const Element& e);
  /// The element's class attribute (checked), else `inherited`.
  std::string className(const xml::XmlElement& e, const std::string& inherited);
  /// Reads a <default> block and the classes nested in it.
  void readDefault(const xml::XmlElement& d, const std::string& parent, bool topLevel);
  bool hasClass(const std::string& name) const { return classes_.count(name) != 0; }
  /// MuJoCo's rule for `limitedName` ("limited", "ctrllimited", ...) of an element with a range
  /// `hasRange` (`rangeName` given, not "0 0"): true when limited. "auto" follows the range under
  /// <compiler autolimits> (true by default since MuJoCo 3.0.0, with a note when the file relies on
  /// it); a range under "auto" with autolimits="false" is an error, as in MuJoCo.
  bool limited(const Element& e, const char* limitedName, const char* rangeName, bool hasRange);
  /// Whether `rangeName` is given (by the element or its class) and not "0 0", as MuJoCo decides.
  bool hasRange(const Element& e, const char* rangeName);
  /// The attributes among `names` that the element or its classes set, as MuJoCo reads them
  /// (values as written), in the order of `names`: what only an MJCF writer carries back.
  std::vector<std::pair<std::string, std::string>> carried(const Element& e, const std::vector<const char*>& names) const;
  /// Keeps `e` as data, with one ELEMENT_UNSUPPORTED warning per element name.
  void keep(std::vector<KeptElement>& kept, const std::string& path, const xml::XmlElement& e);

 protected:
  const Compiler& compiler_;
  Diagnostics& diagnostics_;
  std::map<std::string, DefaultClass> classes_;
  std::set<std::string> reportedKinds_;
  bool autoLimitsNoted_ = false;
};

}  // namespace interlink::mjcf::detail
