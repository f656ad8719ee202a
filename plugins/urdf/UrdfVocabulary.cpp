#include "UrdfVocabulary.hpp"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interlink/SimilarNames.hpp"
#include "interlink/xml/SameName.hpp"

namespace interlink::urdf {
namespace {

using xml::XmlElement;
// Names compared as views: a length check first, no strlen per comparison (every element of a
// 20 000-link file is compared with several names).
using namespace std::string_view_literals;

/// What an element may hold.
struct Vocabulary {
  std::vector<std::string_view> attributes;
  std::vector<std::string_view> children;
};

/// Elements by name; the element's meaning does not depend on its parent in URDF, except <origin>
/// and <material>, which mean the same everywhere they may appear.
/// Hashed by view: every element of the file is looked up (a tree of strings compared was 10% of a
/// URDF load).
const std::unordered_map<std::string_view, Vocabulary>& vocabulary() {
  static const std::unordered_map<std::string_view, Vocabulary> elements = {
      {"robot", {{"name", "version"}, {"link", "joint", "material", "transmission", "gazebo", "sensor"}}},
      {"link", {{"name"}, {"inertial", "visual", "collision"}}},
      {"inertial", {{}, {"origin", "mass", "inertia"}}},
      {"mass", {{"value"}, {}}},
      {"inertia", {{"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}, {}}},
      {"visual", {{"name"}, {"origin", "geometry", "material"}}},
      {"collision", {{"name"}, {"origin", "geometry"}}},
      {"origin", {{"xyz", "rpy"}, {}}},
      {"material", {{"name"}, {"color", "texture"}}},
      {"color", {{"rgba"}, {}}},
      {"texture", {{"filename"}, {}}},
      {"box", {{"size"}, {}}},
      {"cylinder", {{"radius", "length"}, {}}},
      {"capsule", {{"radius", "length"}, {}}},
      {"sphere", {{"radius"}, {}}},
      {"mesh", {{"filename", "scale"}, {}}},
      {"joint",
       {{"name", "type"},
        {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic", "safety_controller"}}},
      {"parent", {{"link"}, {}}},
      {"child", {{"link"}, {}}},
      {"axis", {{"xyz"}, {}}},
      {"calibration", {{"rising", "falling", "reference_position"}, {}}},
      {"dynamics", {{"damping", "friction"}, {}}},
      {"limit", {{"lower", "upper", "effort", "velocity"}, {}}},
      {"mimic", {{"joint", "multiplier", "offset"}, {}}},
      {"safety_controller", {{"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}, {}}},
  };
  return elements;
}

std::string suggestion(const std::string& written, const std::vector<std::string_view>& words) {
  return didYouMean(written, std::vector<std::string>(words.begin(), words.end()));
}

/// Whether `words` holds `name` (every attribute and child of the file is looked up here).
bool holds(const std::vector<std::string_view>& words, std::string_view name) {
  for (std::string_view word : words) {
    if (xml::sameName(name, word)) return true;
  }
  return false;
}

class VocabularyCheck {
 public:
  explicit VocabularyCheck(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  void element(const XmlElement& e) {
    const auto known = vocabulary().find(e.name);
    if (known == vocabulary().end()) return;
    const Vocabulary& words = known->second;
    // A defined word is looked for first: it is never a foreign name, and nearly every name is one.
    for (const xml::Attribute& attribute : e.attributes) {
      if (holds(words.attributes, attribute.name) || xml::isForeignName(attribute.name)) continue;
      if (!said_.insert(e.name + "@" + attribute.name).second) continue;
      report(ErrorCode::ATTRIBUTE_INVALID, "attribute '" + attribute.name + "' is not defined for <" + e.name + "> in URDF",
             suggestion(attribute.name, words.attributes), attribute.where.line > 0 ? attribute.where : e.where);
    }
    if (e.name == "gazebo"sv || e.name == "transmission"sv || e.name == "sensor"sv) return;
    for (const XmlElement& child : e.children) {
      const bool defined = holds(words.children, child.name);
      if (!defined && xml::isForeignName(child.name)) continue;
      // <geometry> holds one shape: what it holds is the reader's to judge (urdfdom's rules).
      if (defined) {
        element(child);
      } else if (e.name != "geometry"sv && said_.insert(e.name + "/" + child.name).second) {
        report(ErrorCode::ELEMENT_INVALID, "element <" + child.name + "> is not defined in <" + e.name + "> in URDF",
               suggestion(child.name, words.children), child.where);
      }
    }
    if (e.name == "visual"sv || e.name == "collision"sv) {
      if (const XmlElement* geometry = e.child("geometry")) {
        for (const XmlElement& shape : geometry->children) element(shape);
      }
    }
  }

 private:
  /// A misspelling (a defined word is close) is a warning that names the word; anything else is a
  /// tool's extension (`<self_filter>`, `<contact>`, `<material>` in a collision), which urdfdom
  /// ignores too: a note, listed under --verbose and `check --explain`.
  void report(ErrorCode code, const std::string& what, const std::string& suggestion, const SourceLocation& where) {
    if (!suggestion.empty()) {
      diagnostics_.warning(code, what + "; ignored" + suggestion, where);
    } else {
      diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::ELEMENT_UNSUPPORTED, what + "; ignored, as urdfdom ignores it", where});
    }
  }

  Diagnostics& diagnostics_;
  std::set<std::string> said_;  // "parent/child" and "element@attribute" already warned about
};

}  // namespace

void checkVocabulary(const XmlElement& robot, Diagnostics& diagnostics) { VocabularyCheck(diagnostics).element(robot); }

}  // namespace interlink::urdf
