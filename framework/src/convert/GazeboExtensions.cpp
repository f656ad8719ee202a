#include "GazeboExtensions.hpp"

#include "WriterSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <iterator>

#include "interlink/xml/KeptNodes.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::convert::detail {
namespace {

std::string trimmed(const xml::XmlElement& e) { return e.trimmedText(); }

/// The number an element holds (0 when it holds none, as libsdformat's lexical cast leaves it).
double numberIn(const xml::XmlElement& e) {
  const std::string text = trimmed(e);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end && end != text.c_str() && *end == '\0' && std::isfinite(value) ? value : 0.0;
}

/// URDF's <gazebo> booleans: "true" or "1", as libsdformat reads them.
bool truth(const xml::XmlElement& e) {
  const std::string v = trimmed(e);
  return v == "true" || v == "1";
}

/// `name` holding `text`.
KeptNode leaf(const std::string& name, const std::string& text) { return KeptNode{name, {}, text, {}}; }

/// `name` holding one leaf per entry of `values`.
KeptNode leaves(const std::string& name, const std::map<std::string, std::string>& values) {
  KeptNode node{name, {}, {}, {}};
  for (const auto& [k, v] : values) node.children.push_back(leaf(k, v));
  return node;
}

/// `name` > `nested` > ... > `child`.
KeptNode wrapped(std::initializer_list<const char*> names, KeptNode child) {
  for (auto name = std::rbegin(names); name != std::rend(names); ++name) child = KeptNode{*name, {}, {}, {std::move(child)}};
  return child;
}

/// Collision surface properties gathered from the blocks of one link, written as one <surface>.
struct Surface {
  std::map<std::string, std::string> friction;  // mu, mu2, fdir1 (under friction/ode)
  std::map<std::string, std::string> contact;   // kp, kd, min_depth, max_vel (under contact/ode)
  std::optional<KeptNode> node() const {
    if (friction.empty() && contact.empty()) return std::nullopt;
    KeptNode surface{"surface", {}, {}, {}};
    if (!friction.empty()) surface.children.push_back(wrapped({"friction"}, leaves("ode", friction)));
    if (!contact.empty()) surface.children.push_back(wrapped({"contact"}, leaves("ode", contact)));
    return surface;
  }
};

struct JointPhysics {
  std::map<std::string, std::string> ode;    // fudge_factor, implicit_spring_damper
  std::map<std::string, std::string> limit;  // cfm, erp (under ode/limit)
  std::optional<std::string> feedback;
  std::optional<KeptNode> node() const {
    if (ode.empty() && limit.empty() && !feedback) return std::nullopt;
    KeptNode physics{"physics", {}, {}, {}};
    if (feedback) physics.children.push_back(leaf("provide_feedback", *feedback));
    KeptNode odeNode = leaves("ode", ode);
    if (feedback) odeNode.children.insert(odeNode.children.begin(), leaf("provide_feedback", *feedback));
    if (!limit.empty()) odeNode.children.push_back(leaves("limit", limit));
    physics.children.push_back(std::move(odeNode));
    return physics;
  }
};

}  // namespace

bool isGazeboBlock(const KeptElement& kept) { return kept.path == "robot/gazebo"; }

GazeboExtensions gazeboExtensions(const Model& model, Diagnostics& diagnostics) {
  GazeboExtensions out;
  std::map<std::string, Surface> surfaces;
  std::map<std::string, JointPhysics> physics;
  std::map<std::string, double> damping;  // dampingFactor: the link's velocity decay
  const auto isLink = [&](const std::string& name) {
    return std::any_of(model.links.begin(), model.links.end(), [&](const Link& l) { return l.name == name; });
  };
  const auto isJoint = [&](const std::string& name) {
    return std::any_of(model.joints.begin(), model.joints.end(), [&](const Joint& j) { return j.name == name; });
  };
  for (const KeptElement& kept : model.kept) {
    if (!isGazeboBlock(kept)) continue;
    Diagnostics ignored;  // the URDF reader parsed this text already
    const std::optional<xml::XmlElement> block = xml::parse(kept.text, kept.where.file.str(), ignored);
    if (!block) continue;
    const std::string reference = block->attributeOr("reference", "");
    if (reference.empty() || reference == model.name) {
      for (const xml::XmlElement& c : block->children) {
        if (c.name == "static") {
          out.isStatic = truth(c);
        } else if (c.name == "selfCollide" || c.name == "self_collide") {
          out.model.push_back(leaf("self_collide", truth(c) ? "true" : "false"));
        } else {
          out.model.push_back(xml::keptNodeOf(c));
        }
      }
    } else if (isLink(reference)) {
      GazeboLink& link = out.links[reference];
      Surface& surface = surfaces[reference];
      for (const xml::XmlElement& c : block->children) {
        const std::string& n = c.name;
        if (n == "gravity") {
          link.gravity = truth(c);
        } else if (n == "turnGravityOff") {
          link.gravity = !truth(c);
        } else if (n == "selfCollide" || n == "self_collide") {
          link.selfCollide = truth(c);
        } else if (n == "material") {
          link.materialScript = trimmed(c);
        } else if (n == "mu1" || n == "mu2") {
          surface.friction[n == "mu1" ? "mu" : "mu2"] = trimmed(c);
        } else if (n == "fdir1") {
          surface.friction["fdir1"] = trimmed(c);
        } else if (n == "kp" || n == "kd") {
          surface.contact[n] = trimmed(c);
        } else if (n == "minDepth") {
          surface.contact["min_depth"] = trimmed(c);
        } else if (n == "maxVel") {
          surface.contact["max_vel"] = trimmed(c);
        } else if (n == "maxContacts") {
          link.collision.push_back(leaf("max_contacts", trimmed(c)));
        } else if (n == "laserRetro") {
          link.collision.push_back(leaf("laser_retro", trimmed(c)));
        } else if (n == "dampingFactor") {
          damping[reference] = numberIn(c);
        } else {
          link.elements.push_back(xml::keptNodeOf(c));  // <sensor>, <plugin>, <velocity_decay>, ...
        }
      }
    } else if (isJoint(reference)) {
      GazeboJoint& joint = out.joints[reference];
      JointPhysics& p = physics[reference];
      for (const xml::XmlElement& c : block->children) {
        const std::string& n = c.name;
        if (n == "stopCfm") {
          p.limit["cfm"] = trimmed(c);
        } else if (n == "stopErp") {
          p.limit["erp"] = trimmed(c);
        } else if (n == "fudgeFactor") {
          p.ode["fudge_factor"] = trimmed(c);
        } else if (n == "implicitSpringDamper" || n == "cfmDamping") {
          p.ode["implicit_spring_damper"] = truth(c) ? "true" : "false";
        } else if (n == "provideFeedback") {
          p.feedback = truth(c) ? "true" : "false";
        } else if (n == "springReference") {
          joint.springReference = numberIn(c);
        } else if (n == "springStiffness") {
          joint.springStiffness = numberIn(c);
        } else if (n == "disableFixedJointLumping" || n == "preserveFixedJoint") {
          // Interlink never lumps fixed joints: every one is kept already.
        } else {
          joint.elements.push_back(xml::keptNodeOf(c));
        }
      }
    } else {
      diagnostics.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                          "<gazebo reference=\"" + reference +
                              "\"> names no link or joint of the robot; its content is not written (libsdformat "
                              "drops it too)",
                          kept.where);
    }
  }
  for (const auto& [name, surface] : surfaces) {
    if (std::optional<KeptNode> node = surface.node()) out.links[name].collision.push_back(std::move(*node));
  }
  for (const auto& [name, factor] : damping) {
    out.links[name].elements.push_back(
        KeptNode{"velocity_decay", {}, {}, {leaf("linear", number(factor)), leaf("angular", number(factor))}});
  }
  for (const auto& [name, p] : physics) {
    if (std::optional<KeptNode> node = p.node()) out.joints[name].elements.push_back(std::move(*node));
  }
  return out;
}

}  // namespace interlink::convert::detail
