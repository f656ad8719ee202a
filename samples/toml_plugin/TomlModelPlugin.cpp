// Format plugin for the TOML-like model files of libsdformat's interface tests.
// Depends on the Interlink contract headers only (interlink/plugin/Register.hpp and the model).
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "interlink/plugin/Register.hpp"

namespace {

using interlink::Diagnostics;
using interlink::ErrorCode;
using interlink::SourceLocation;

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

/// A value with the line it came from, so that errors point at it.
struct Value {
  std::string text;
  int line = 0;
};

/// One table: its key/value pairs, keyed by the dotted table path ("models.child.links.base").
using Tables = std::map<std::string, std::map<std::string, Value>>;

interlink::Pose parsePose(const Value& value, const std::string& path, Diagnostics& diagnostics) {
  std::istringstream in(value.text);
  double v[6];
  for (double& x : v) {
    if (!(in >> x) || !std::isfinite(x)) {
      diagnostics.error(ErrorCode::POSE_FORMAT_INVALID,
                        "pose '" + value.text + "' is not six finite numbers 'x y z roll pitch yaw'",
                        SourceLocation{path, value.line, 1});
      return interlink::Pose::Identity();
    }
  }
  interlink::Pose pose = interlink::Pose::Identity();
  pose.translation() = interlink::Vector3(v[0], v[1], v[2]);
  pose.linear() = (Eigen::AngleAxisd(v[5], interlink::Vector3::UnitZ()) *
                   Eigen::AngleAxisd(v[4], interlink::Vector3::UnitY()) *
                   Eigen::AngleAxisd(v[3], interlink::Vector3::UnitX()))
                      .toRotationMatrix();
  return pose;
}

/// Fills `model` from the tables under `prefix` ("" for the top model).
void buildModel(const Tables& tables, const std::string& prefix, interlink::Model& model, const std::string& path,
                Diagnostics& diagnostics) {
  const std::string base = prefix.empty() ? "" : prefix + ".";
  if (auto own = tables.find(prefix); own != tables.end()) {
    for (const auto& [key, value] : own->second) {
      if (key == "name" && prefix.empty()) model.name = value.text;
      else if (key == "pose") model.pose.pose = parsePose(value, path, diagnostics);
      else if (key == "canonical_link") model.canonicalLink = value.text;
      else if (key == "static") model.isStatic = value.text == "true" || value.text == "1";
      else diagnostics.warning(ErrorCode::ELEMENT_UNSUPPORTED, "unknown model key '" + key + "' ignored", {path, value.line, 1});
    }
  }
  std::map<std::string, bool> nestedSeen;
  for (const auto& entry : tables) {
    // Named, not a structured binding: C++17 lambdas (below) cannot capture a structured binding.
    const std::string& table = entry.first;
    const auto& values = entry.second;
    if (table.compare(0, base.size(), base) != 0) continue;
    const auto parts = split(table.substr(base.size()), '.');
    if (parts.size() < 2) continue;
    const std::string& kind = parts[0];
    const std::string& name = parts[1];
    const int line = values.empty() ? 0 : values.begin()->second.line;
    auto get = [&](const char* key) -> const Value* {
      auto it = values.find(key);
      return it == values.end() ? nullptr : &it->second;
    };
    if (kind == "models") {
      if (!nestedSeen.emplace(name, true).second) continue;
      interlink::Model nested;
      nested.name = name;
      nested.where = {path, line, 1};
      buildModel(tables, base + "models." + name, nested, path, diagnostics);
      model.models.push_back(std::move(nested));
      continue;
    }
    if (parts.size() != 2) continue;  // deeper tables belong to nested models
    // What every link, frame and joint has: its name, where its table starts and its pose.
    const auto place = [&](auto& element) {
      element.name = name;
      element.where = {path, line, 1};
      if (const Value* pose = get("pose")) element.pose.pose = parsePose(*pose, path, diagnostics);
    };
    if (kind == "links") {
      interlink::Link link;
      place(link);
      model.links.push_back(std::move(link));
    } else if (kind == "frames") {
      interlink::Frame frame;
      place(frame);
      if (const Value* attached = get("attached_to")) frame.attachedTo = attached->text;
      model.frames.push_back(std::move(frame));
    } else if (kind == "joints") {
      interlink::Joint joint;
      place(joint);
      if (const Value* parent = get("parent")) joint.parent = parent->text;
      if (const Value* child = get("child")) joint.child = child->text;
      const std::string type = get("type") ? get("type")->text : "fixed";
      if (type == "revolute") joint.type = interlink::JointType::Revolute;
      else if (type == "prismatic") joint.type = interlink::JointType::Prismatic;
      else if (type == "fixed") joint.type = interlink::JointType::Fixed;
      else diagnostics.error(ErrorCode::ATTRIBUTE_INVALID, "unknown joint type '" + type + "'; expected revolute, prismatic or fixed", {path, get("type")->line, 1});
      if (joint.type != interlink::JointType::Fixed) joint.axes.emplace_back();
      model.joints.push_back(std::move(joint));
    } else {
      diagnostics.warning(ErrorCode::ELEMENT_UNSUPPORTED, "unknown table kind '" + kind + "' ignored", {path, line, 1});
    }
  }
}

void loadToml(const interlink::plugin::LoadRequest& request, interlink::Document& document, Diagnostics& diagnostics) {
  Tables tables;
  std::string current;
  std::istringstream in{std::string(request.content)};
  std::string raw;
  int lineNumber = 0;
  while (std::getline(in, raw)) {
    ++lineNumber;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) {
        diagnostics.error(ErrorCode::ELEMENT_INVALID, "expected a table header '[name]'", {request.path, lineNumber, 1});
        continue;
      }
      current = trim(line.substr(1, line.size() - 2));
      tables[current];
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string::npos) {
      diagnostics.error(ErrorCode::ELEMENT_INVALID, "expected 'key = \"value\"'", {request.path, lineNumber, 1});
      continue;
    }
    const std::string key = trim(line.substr(0, equals));
    std::string value = trim(line.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    } else {
      diagnostics.error(ErrorCode::ELEMENT_INVALID, "expected a quoted value for '" + key + "'",
                        {request.path, lineNumber, static_cast<int>(raw.find('=')) + 2});
      continue;
    }
    tables[current][key] = Value{value, lineNumber};
  }
  interlink::Model model;
  model.where = {request.path, 1, 1};
  buildModel(tables, "", model, request.path, diagnostics);
  if (model.name.empty()) {
    diagnostics.error(ErrorCode::ATTRIBUTE_MISSING, "the file has no top-level 'name'", {request.path, 1, 1});
  }
  document.formatVersion = "1.0";
  // A plugin declares its rules as the built-in ones do (interlink/model/FormatRules.hpp): here
  // joints have their own namespace, as in URDF, and a wrong inertial is a warning.
  document.rules.setVersion(document.formatVersion);
  document.rules.jointsShareLinkNamespace = false;
  document.rules.inertia.checked = true;
  document.rules.setInertiaVerdict("the TOML sample loads it");
  document.model = std::move(model);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("toml_sample", "1.0.0", loadToml, nullptr, ".toml")
