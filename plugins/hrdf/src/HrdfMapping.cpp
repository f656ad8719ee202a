#include "HrdfMapping.hpp"

#include <filesystem>
#include <set>
#include <utility>

#include "interlink/hrdf/FrameLists.hpp"

namespace interlink::hrdf {
namespace {

Inertial inertialOf(const hardware::ComponentModel& body, const SourceLocation& where) {
  Inertial inertial;
  inertial.mass = body.mass;
  inertial.centerOfMass = body.centerOfMass;
  inertial.inertia = body.inertia;
  inertial.where = where;
  return inertial;
}

Link massless(const std::string& name, const SourceLocation& where) {
  Link link;
  link.name = name;
  link.hasInertial = true;
  link.inertial.mass = 0;
  link.inertial.inertia = Matrix3::Zero();
  link.where = where;
  return link;
}

}  // namespace

std::string outputFrameName(const Element& element, std::size_t j) {
  if (element.body.outputs.size() <= 1) return element.name + "/output";
  return element.name + "/output_" + std::to_string(j + 1);
}

void mapRobot(const Robot& robot, const std::string& path, Document& document, Diagnostics& diagnostics) {
  document.format = "hrdf";
  document.formatVersion = robot.version;
  // HEBI's loader uses massless links for frames and takes a wrong inertial.
  document.rules.setVersion(document.formatVersion);
  document.rules.inertia.checked = true;
  document.rules.setInertiaVerdict("HEBI's loader takes it");
  Model model;
  model.name = std::filesystem::path(path).stem().string();
  model.where = SourceLocation{path, 1, 1};
  model.readingNotes["hrdf.version"] = robot.version;
  if (!robot.description.empty()) model.parameters["hrdf.description"] = robot.description;

  std::size_t outputs = 0;
  for (const Element& e : robot.elements) outputs += e.body.outputs.size();
  model.links.reserve(2 * robot.elements.size() + 1);
  model.joints.reserve(2 * robot.elements.size());
  model.frames.reserve(outputs);

  std::set<std::string> names;
  auto claim = [&](const std::string& name, const SourceLocation& where) {
    if (!names.insert(name).second)
      diagnostics.error(ErrorCode::DUPLICATE_NAME,
                        "name '" + name + "' is used twice (a tag equal to another element's name or frame)", where);
  };

  // A robot that starts with a <joint> needs a body for the joint to move from; an empty robot
  // still has its base frame.
  std::string baseLink;
  if (robot.elements.empty() || !robot.elements.front().hasBody()) {
    std::set<std::string> elementNames;
    for (const auto& e : robot.elements) elementNames.insert(e.name);
    baseLink = "base";
    while (elementNames.count(baseLink)) baseLink += "_";
    Link base = massless(baseLink, model.where);
    base.pose.pose = robot.base;
    claim(baseLink, model.where);
    model.links.push_back(std::move(base));
  }

  std::vector<std::string> outputFrames, comLinks, endEffectors;
  for (const Element& e : robot.elements) {
    const std::string parentFrame =
        e.parent < 0 ? baseLink
                     : outputFrameName(robot.elements[static_cast<std::size_t>(e.parent)],
                                       static_cast<std::size_t>(e.parentOutput));
    if (e.hasBody()) {
      Link link;
      link.name = e.name;
      link.hasInertial = true;
      link.inertial = inertialOf(e.body, e.where);
      link.where = e.where;
      if (parentFrame.empty()) {
        link.pose.pose = robot.base;  // the first element sits on the robot's base frame
      } else {
        link.pose.relativeTo = parentFrame;
      }
      if (e.mesh) {
        Shape visual;
        visual.name = "mesh";
        visual.pose.pose = e.mesh->pose;
        visual.geometry.type = GeometryType::Mesh;
        visual.geometry.meshUri = e.mesh->path;
        visual.geometry.meshResolvedPath = e.mesh->resolvedPath;
        visual.where = e.mesh->where;
        link.visuals.push_back(std::move(visual));
      }
      claim(link.name, e.where);
      model.links.push_back(std::move(link));
      comLinks.push_back(e.name);
      if (!parentFrame.empty()) {
        Joint fixed;
        fixed.name = e.name + "/input";
        fixed.type = JointType::Fixed;
        fixed.parent = parentFrame;
        fixed.child = e.name;
        fixed.where = e.where;
        claim(fixed.name, e.where);
        model.joints.push_back(std::move(fixed));
      }
    }

    if (e.hasDof()) {
      // The moving side is a massless link at the output interface; the joint turns it about the
      // output z axis (actuators) or the given axis (<joint>).
      const std::string output = e.name + "/output";
      Link out = massless(output, e.where);
      const std::string from = e.hasBody() ? e.name : parentFrame;
      out.pose.pose = e.hasBody() ? e.body.outputs.front() : Pose::Identity();
      out.pose.relativeTo = from;
      claim(output, e.where);
      model.links.push_back(std::move(out));
      Joint joint;
      joint.name = e.name + "/joint";
      joint.type = e.prismatic || e.motion == hardware::Motion::PrismaticZ ? JointType::Prismatic : JointType::Revolute;
      joint.parent = from;
      joint.child = output;
      JointAxis axis;
      axis.xyz = e.hasBody() ? Vector3::UnitZ() : e.jointAxis;
      axis.lower = e.limits.positionLower;
      axis.upper = e.limits.positionUpper;
      axis.velocity = e.limits.velocity;
      axis.effort = e.limits.effort;
      axis.where = e.where;
      joint.axes.push_back(axis);
      joint.transmissionRatio = e.gearRatio;
      if (e.kind == ElementKind::Actuator) joint.actuator = e.type;
      joint.where = e.where;
      claim(joint.name, e.where);
      model.joints.push_back(std::move(joint));
      outputFrames.push_back(output);
    } else {
      for (std::size_t j = 0; j < e.body.outputs.size(); ++j) {
        Frame frame;
        frame.name = outputFrameName(e, j);
        frame.attachedTo = e.name;
        frame.pose.pose = e.body.outputs[j];
        frame.pose.relativeTo = e.name;
        frame.where = e.where;
        claim(frame.name, e.where);
        model.frames.push_back(frame);
        outputFrames.push_back(frame.name);
      }
    }
    if (e.kind == ElementKind::EndEffector) endEffectors.push_back(outputFrameName(e, 0));
  }
  // HEBI's frame lists, in its order, for hosts and for comparison with HEBI's own API.
  model.extensions.set(FrameLists{std::move(outputFrames), std::move(comLinks), std::move(endEffectors)});
  document.model = std::move(model);
}

}  // namespace interlink::hrdf
