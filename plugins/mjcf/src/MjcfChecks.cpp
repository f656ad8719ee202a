// MuJoCo's compile-time checks of the sections kept as data (MjcfChecks.hpp).
#include "MjcfChecks.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace interlink::mjcf::detail {
namespace {

using xml::Attribute;
using xml::XmlElement;

class SectionChecker {
 public:
  SectionChecker(AttributeReader& attributes, const ModelNames& names, Diagnostics& diagnostics)
      : attributes_(attributes), names_(names), diagnostics_(diagnostics) {}

  void check(const XmlElement& root) {
    // Tendons first: actuators and equalities name them.
    for (const XmlElement* section : root.childrenNamed("tendon")) {
      for (const XmlElement& t : section->children) {
        const std::string name = t.attributeOr("name", "");
        if (!name.empty()) tendons_.insert(name);
      }
    }
    for (const XmlElement* section : root.childrenNamed("tendon")) {
      for (const XmlElement& t : section->children) checkTendon(t);
    }
    for (const XmlElement* section : root.childrenNamed("actuator")) {
      for (const XmlElement& a : section->children) checkActuator(a);
    }
    for (const XmlElement* section : root.childrenNamed("equality")) {
      for (const XmlElement& e : section->children) {
        const bool joints = e.name == "joint";
        if (joints || e.name == "tendon") {
          refer(e, joints ? "joint1" : "tendon1", joints ? names_.joints : tendons_, joints ? "joint" : "tendon");
          refer(e, joints ? "joint2" : "tendon2", joints ? names_.joints : tendons_, joints ? "joint" : "tendon");
        }
      }
    }
    checkJointCouplings(root);
    for (const XmlElement* section : root.childrenNamed("contact")) {
      for (const XmlElement& c : section->children) {
        const bool pair = c.name == "pair";
        if (pair || c.name == "exclude") {
          refer(c, pair ? "geom1" : "body1", pair ? names_.geoms : names_.bodies, pair ? "geom" : "body");
          refer(c, pair ? "geom2" : "body2", pair ? names_.geoms : names_.bodies, pair ? "geom" : "body");
        }
      }
    }
  }

 private:
  /// The attribute `attribute` of `e`, when given, must name an object of `known` ("world" is a body).
  void refer(const XmlElement& e, const char* attribute, const std::unordered_set<std::string>& known, const char* kind) {
    const Attribute* a = e.attribute(attribute);
    if (!a || known.count(a->value) || (std::string(kind) == "body" && a->value == "world")) return;
    const std::string name = e.attributeOr("name", "");
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       "<" + e.name + ">" + (name.empty() ? "" : " '" + name + "'") + " names the unknown " + kind + " '" +
                           a->value + "' (" + attribute + ")",
                       xml::attributeLocation(e, a));
  }

  /// <equality><joint joint1 joint2>: joint1 follows joint2, as a mimic joint its leader. A joint
  /// coupled to itself is an error (MuJoCo: "element is repeated in equality constraint"). A cycle
  /// of couplings leaves no joint of it free to lead: MuJoCo loads it (the couplings are soft
  /// constraints), so it is DEVIATION_TOLERATED, an error under --strict, as URDF and SDFormat
  /// refuse mimic cycles. Found by one depth-first walk without recursion: linear in the couplings.
  void checkJointCouplings(const XmlElement& root) {
    struct Coupling {
      std::size_t leader;
      const XmlElement* element;
    };
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::string> jointNames;
    std::vector<std::vector<Coupling>> follows;  // per joint, the joints it follows
    auto indexOf = [&](const std::string& name) {
      const auto [at, added] = index.emplace(name, jointNames.size());
      if (added) {
        jointNames.push_back(name);
        follows.emplace_back();
      }
      return at->second;
    };
    for (const XmlElement* section : root.childrenNamed("equality")) {
      for (const XmlElement& e : section->children) {
        const Attribute* first = e.attribute("joint1");
        const Attribute* second = e.attribute("joint2");
        if (e.name != "joint" || !first || !second || !names_.joints.count(first->value) ||
            !names_.joints.count(second->value)) {
          continue;
        }
        if (first->value == second->value) {
          diagnostics_.error(ErrorCode::JOINT_AXIS_MIMIC_INVALID,
                             "<equality><joint> couples joint '" + first->value + "' to itself (joint1 = joint2)",
                             xml::attributeLocation(e, second));
          continue;
        }
        const std::size_t follower = indexOf(first->value);
        const std::size_t leader = indexOf(second->value);
        follows[follower].push_back({leader, &e});
      }
    }
    constexpr std::size_t kUnseen = static_cast<std::size_t>(-1), kDone = static_cast<std::size_t>(-2);
    std::vector<std::size_t> stackPosition(jointNames.size(), kUnseen);  // or kDone
    struct Frame {
      std::size_t joint;
      std::size_t nextCoupling;
    };
    std::vector<Frame> stack;
    for (std::size_t start = 0; start < jointNames.size(); ++start) {
      if (stackPosition[start] != kUnseen) continue;
      stackPosition[start] = 0;
      stack.push_back({start, 0});
      while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.nextCoupling == follows[top.joint].size()) {
          stackPosition[top.joint] = kDone;
          stack.pop_back();
          continue;
        }
        const Coupling& coupling = follows[top.joint][top.nextCoupling++];
        const std::size_t position = stackPosition[coupling.leader];
        if (position == kUnseen) {
          stackPosition[coupling.leader] = stack.size();
          stack.push_back({coupling.leader, 0});
        } else if (position != kDone) {
          reportCycle(stack, position, jointNames, *coupling.element);
        }
      }
    }
  }

  template <typename Stack>
  void reportCycle(const Stack& stack, std::size_t from, const std::vector<std::string>& jointNames,
                   const XmlElement& closing) {
    const std::size_t length = stack.size() - from;
    std::string cycle;
    for (std::size_t i = stack.size() - std::min<std::size_t>(length, 5); i < stack.size(); ++i) {
      cycle += jointNames[stack[i].joint] + " -> ";
    }
    cycle = (length > 5 ? "... -> " : "") + cycle + jointNames[stack[from].joint];
    diagnostics_.warning(ErrorCode::DEVIATION_TOLERATED,
                         "<equality><joint> couplings form a cycle of " + std::to_string(length) + " joints (" + cycle +
                             "): no joint of it is free to lead; MuJoCo loads it (soft constraints), Interlink's "
                             "mimic rule (no mimic cycles, as URDF and SDFormat) refuses it under --strict",
                         xml::attributeLocation(closing, closing.attribute("joint2")));
  }

  void checkTendon(const XmlElement& t) {
    const Element e{t, "tendon", attributes_.className(t, "main")};
    attributes_.limited(e, "limited", "range", attributes_.hasRange(e, "range"));
    attributes_.limited(e, "actuatorfrclimited", "actuatorfrcrange", attributes_.hasRange(e, "actuatorfrcrange"));
    for (const XmlElement& c : t.children) {
      if (c.name == "joint") refer(c, "joint", names_.joints, "joint");
      if (c.name == "site") refer(c, "site", names_.sites, "site");
      if (c.name == "geom") {
        refer(c, "geom", names_.geoms, "geom");
        refer(c, "sidesite", names_.sites, "site");
      }
    }
  }

  void checkActuator(const XmlElement& a) {
    if (a.name == "plugin") return;  // its targets are the plugin's
    const Element e{a, "actuator", attributes_.className(a, "main")};  // one default for every actuator kind
    refer(a, "joint", names_.joints, "joint");
    refer(a, "jointinparent", names_.joints, "joint");
    refer(a, "tendon", tendons_, "tendon");
    refer(a, "site", names_.sites, "site");
    refer(a, "refsite", names_.sites, "site");
    refer(a, "body", names_.bodies, "body");
    for (const auto& [limited, range] : {std::pair{"ctrllimited", "ctrlrange"}, std::pair{"forcelimited", "forcerange"},
                                         std::pair{"actlimited", "actrange"}}) {
      // Shortcuts that set the limit themselves: intvelocity its activation, damper and adhesion their control.
      const std::string which = limited;
      const bool implied = (a.name == "intvelocity" && which == "actlimited") ||
                           ((a.name == "damper" || a.name == "adhesion") && which == "ctrllimited");
      if (!implied && (attributes_.lookup(e, range) || attributes_.lookup(e, limited))) {
        attributes_.limited(e, limited, range, attributes_.hasRange(e, range));
      }
    }
    // MuJoCo before 2.3.1 required the actuators without state first; current MuJoCo does not.
    const bool stateful = a.name == "intvelocity" || a.name == "cylinder" || a.name == "muscle" ||
                          (a.name == "general" && attributes_.lookup(e, "dyntype") &&
                           attributes_.lookup(e, "dyntype")->value != "none") ||
                          (a.name == "position" && attributes_.number(e, "timeconst").value_or(0) > 0);
    if (stateful) {
      sawStateful_ = true;
    } else if (sawStateful_ && !orderNoted_) {
      orderNoted_ = true;
      diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                  attributes_.what(e) + " has no activation state but follows one that has: MuJoCo before "
                                  "2.3.1 (Debian's 2.2.2 among them) refuses this order (\"stateless actuators must come "
                                  "before stateful actuators\"); current MuJoCo reads it (reported once)",
                                  a.where});
    }
  }

  AttributeReader& attributes_;
  const ModelNames& names_;
  Diagnostics& diagnostics_;
  std::unordered_set<std::string> tendons_;
  bool sawStateful_ = false, orderNoted_ = false;
};

}  // namespace

void checkKeptSections(const XmlElement& root, AttributeReader& attributes, const ModelNames& names,
                       Diagnostics& diagnostics) {
  SectionChecker(attributes, names, diagnostics).check(root);
}

}  // namespace interlink::mjcf::detail
