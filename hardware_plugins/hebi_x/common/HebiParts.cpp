#include "HebiParts.hpp"

#include <cmath>

#include <Eigen/Geometry>

#include "interlink/hardware/SimulatedActuator.hpp"

namespace interlink::hebi {
namespace {

constexpr const char* kRightAngle = "RightAngle";
constexpr const char* kInline = "Inline";

Matrix3 inertiaMatrix(const InertiaTerms& t) {
  Matrix3 m;
  m << t[0], t[3], t[4],  //
      t[3], t[1], t[5],   //
      t[4], t[5], t[2];
  return m;
}

Matrix3 rotX(double a) { return Eigen::AngleAxisd(a, Vector3::UnitX()).toRotationMatrix(); }
Matrix3 rotY(double a) { return Eigen::AngleAxisd(a, Vector3::UnitY()).toRotationMatrix(); }
Matrix3 rotZ(double a) { return Eigen::AngleAxisd(a, Vector3::UnitZ()).toRotationMatrix(); }

Pose makePose(const Matrix3& rotation, const Vector3& translation) {
  Pose pose = Pose::Identity();
  pose.linear() = rotation;
  pose.translation() = translation;
  return pose;
}

/// HEBI's old stand-in for bracket and gripper inertia: a solid sphere of radius 6 cm.
InertiaTerms sphereInertia(double mass) {
  const double i = 0.4 * mass * 0.06 * 0.06;
  return {i, i, i, 0, 0, 0};
}

/// A part whose catalogue entry has its identity and input filled in (outputs, when it has them,
/// are added by the caller).
Part newPart(const std::string& type, hardware::ComponentKind kind, const std::string& series, std::string description,
             hardware::InterfaceSpec input) {
  Part part;
  hardware::CatalogEntry& e = part.entry;
  e.type = type;
  e.kind = kind;
  e.series = series;
  e.description = std::move(description);
  e.input = std::move(input);
  return part;
}

/// A rigid part's mass properties and where its output sits on its input.
void setBody(PartFigures& figures, double mass, const Vector3& centerOfMass, const InertiaTerms& inertia,
             const Pose& output) {
  figures.mass = mass;
  figures.centerOfMass = centerOfMass;
  figures.inertia = inertia;
  figures.output = output;
}

}  // namespace

hardware::InterfaceSpec interfaceOf(const std::string& type, char polarity) {
  return hardware::InterfaceSpec{type, polarity};
}

Part actuator(const std::string& type, const std::string& series, const std::string& interfaceFamily, double mass,
              const Vector3& centerOfMass, double height, const InertiaTerms& inertia) {
  Part part = newPart(type, hardware::ComponentKind::Actuator, series, series + "-series actuator " + type,
                      interfaceOf(interfaceFamily + "-AH", 'A'));
  auto& e = part.entry;
  e.outputs = {interfaceOf(interfaceFamily + "-AO", 'A')};
  e.motion = hardware::Motion::RevoluteZ;  // continuous rotation: no position limits
  setBody(part.figures, mass, centerOfMass, inertia, makePose(Matrix3::Identity(), Vector3(0, 0, height)));
  return part;
}

Part link(const std::string& type, const std::string& series, const std::string& inputFamily,
          const std::string& outputFamily, double height, bool inlineOutputAllowed) {
  Part part = newPart(type, hardware::ComponentKind::Link, series, type + " link (extension, twist, input and output style)",
                      interfaceOf(inputFamily + "-AO", 'B'));
  auto& e = part.entry;
  e.outputs = {interfaceOf(outputFamily + "-AH", 'B')};
  e.parameterised = true;
  e.inputStyles = {kRightAngle, kInline};
  e.outputStyles = inlineOutputAllowed ? std::vector<std::string>{kRightAngle, kInline}
                                       : std::vector<std::string>{kRightAngle};
  part.figures.linkHeight = height;
  part.figures.linkMassPerMetre = 0.4;
  part.figures.linkBaseMass = 0.199;
  part.figures.linkInlineInputMass = 0.015;
  part.figures.linkInlineOutputMass = 0.013;
  return part;
}

Part bracket(const std::string& type, const std::string& series, const std::string& interfaceFamily, double mass,
             const Vector3& centerOfMass, double outputRotationX, const Vector3& outputTranslation) {
  Part part = newPart(type, hardware::ComponentKind::Bracket, series, series + " bracket " + type,
                      interfaceOf(interfaceFamily + "-AO", 'B'));
  part.entry.outputs = {interfaceOf(interfaceFamily + "-AH", 'B')};
  setBody(part.figures, mass, centerOfMass, sphereInertia(mass), makePose(rotX(outputRotationX), outputTranslation));
  return part;
}

Part parallelGripper(const std::string& type, const std::string& series, const std::string& interfaceFamily,
                     double mass, const Vector3& centerOfMass, const Vector3& outputTranslation) {
  Part part = newPart(type, hardware::ComponentKind::EndEffector, series, series + " parallel jaw gripper end effector",
                      interfaceOf(interfaceFamily + "-AO", 'B'));
  setBody(part.figures, mass, centerOfMass, sphereInertia(mass), makePose(Matrix3::Identity(), outputTranslation));
  return part;
}

Part approximate(Part part, const std::string& note) {
  part.entry.approximate = true;
  part.entry.approximateNote = note;
  return part;
}

PartCatalog::PartCatalog(std::vector<Part> parts) {
  for (auto& part : parts) {
    entries_.push_back(std::move(part.entry));
    figures_.push_back(part.figures);
  }
}

const PartFigures* PartCatalog::figuresOf(const hardware::CatalogEntry& entry) const {
  if (!entries_.empty() && &entry >= entries_.data() && &entry < entries_.data() + entries_.size())
    return &figures_[static_cast<std::size_t>(&entry - entries_.data())];
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].type == entry.type && entries_[i].kind == entry.kind) return &figures_[i];
  return nullptr;
}

bool PartCatalog::evaluate(const hardware::CatalogEntry& entry, const hardware::ComponentParameters& parameters,
                           hardware::ComponentModel& model, Diagnostics& diagnostics) const {
  const PartFigures* figures = figuresOf(entry);
  if (!figures) {
    diagnostics.error(ErrorCode::HARDWARE_UNKNOWN, "no HEBI part '" + entry.type + "' in this catalog");
    return false;
  }
  if (entry.kind != hardware::ComponentKind::Link) {
    model.mass = figures->mass;
    model.centerOfMass = makePose(Matrix3::Identity(), figures->centerOfMass);
    model.inertia = inertiaMatrix(figures->inertia);
    model.outputs = {figures->output};
    return true;
  }

  const std::string input = parameters.inputStyle.empty() ? entry.inputStyles.front() : parameters.inputStyle;
  const std::string output = parameters.outputStyle.empty() ? entry.outputStyles.front() : parameters.outputStyle;
  auto accepted = [](const std::vector<std::string>& styles, const std::string& style) {
    for (const auto& s : styles)
      if (s == style) return true;
    return false;
  };
  bool ok = true;
  if (!accepted(entry.inputStyles, input)) {
    diagnostics.error(ErrorCode::ATTRIBUTE_INVALID, "link type '" + entry.type + "' has no input style '" + input + "'");
    ok = false;
  }
  if (!accepted(entry.outputStyles, output)) {
    diagnostics.error(ErrorCode::ATTRIBUTE_INVALID,
                      "link type '" + entry.type + "' has no output style '" + output + "'");
    ok = false;
  }
  if (!std::isfinite(parameters.extension) || !std::isfinite(parameters.twist)) {
    diagnostics.error(ErrorCode::VALUE_INVALID, "link extension and twist must be finite");
    ok = false;
  }
  if (!ok) return false;

  const double e = parameters.extension;
  const double tw = parameters.twist;
  const double h = figures->linkHeight;
  const bool inlineInput = input == kInline;
  const bool inlineOutput = output == kInline;
  model.mass = figures->linkMassPerMetre * e + figures->linkBaseMass +
               (inlineInput ? figures->linkInlineInputMass : 0.0) + (inlineOutput ? figures->linkInlineOutputMass : 0.0);
  model.centerOfMass = makePose(Matrix3::Identity(), inlineInput ? Vector3(0, 0, e / 2) : Vector3(e / 2, 0, h));
  // HEBI's own stand-in: a thin rod along the link's axis.
  const double rod = model.mass * e * e / 12.0;
  model.inertia = inlineInput ? Vector3(rod, rod, 0).asDiagonal() : Vector3(0, rod, rod).asDiagonal();
  Pose out;
  if (!inlineInput && !inlineOutput)
    out = makePose(rotX(tw), Vector3(e, -h * std::sin(tw), h * (1 + std::cos(tw))));
  else if (!inlineInput && inlineOutput)
    out = makePose(rotY(M_PI / 2) * rotZ(tw), Vector3(e, 0, h));
  else if (inlineInput && !inlineOutput)
    out = makePose(rotZ(tw) * rotY(-M_PI / 2), Vector3(-h * std::cos(tw), -h * std::sin(tw), e));
  else
    out = makePose(rotZ(tw), Vector3(0, 0, e));
  model.outputs = {out};
  return true;
}

hardware::ActuatorDriver* PartCatalog::openDriver(const hardware::DriverRequest& request,
                                                  Diagnostics& diagnostics) const {
  const hardware::CatalogEntry* entry = nullptr;
  for (const auto& e : entries_)
    if (e.type == request.type && e.kind == hardware::ComponentKind::Actuator) entry = &e;
  if (!entry) {
    diagnostics.error(ErrorCode::HARDWARE_UNKNOWN, "'" + request.type + "' is not an actuator of this plugin");
    return nullptr;
  }
  if (request.address.rfind("sim://", 0) != 0) {
    diagnostics.error(ErrorCode::URI_INVALID, "address '" + request.address +
                                                  "' needs a network backend, which this build does not have; "
                                                  "use sim://<name> for the simulated backend");
    return nullptr;
  }
  return new hardware::SimulatedActuator(entry->type, request.address, entry->limits);
}

}  // namespace interlink::hebi
