#pragma once
// The SKEL reader's state and steps, shared by its source files: SkelReader.cpp (the document,
// skeletons, bodies and inertia), SkelShapes.cpp (shapes, geometry, meshes) and SkelJoints.cpp
// (joints, axes, planes and dofs).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "MeshReader.hpp"
#include "SkelReader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::skel::detail {

using xml::Attribute;
using xml::XmlElement;

class Reader {
 public:
  Reader(const std::string& path, const plugin::HostServices* host, Diagnostics& diagnostics)
      : path_(path), host_(host), diagnostics_(diagnostics) {
    baseDirectory_ = std::filesystem::path(path).parent_path().string();
  }

  /// False when there is nothing to map (not XML, no <skel>, no <world>).
  bool read(std::string_view content, SkelFile& file);

 private:
  // --- diagnostics -------------------------------------------------------------------------
  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), where);
  }
  void warning(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.warning(code, std::move(message), where);
  }
  void note(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.add(Diagnostic{Severity::Note, code, std::move(message), where});
  }

  // --- values --------------------------------------------------------------------------------
  std::optional<double> number(const XmlElement& element, std::string_view what) {
    return parseDouble(element.text, element.where, what, diagnostics_);
  }
  /// A limit may be written as inf / -inf, as DART's reader (std::stod) accepts.
  std::optional<double> limit(const XmlElement& element, std::string_view what) {
    return xml::parseLimit(element.text, element.where, what, diagnostics_);
  }
  std::optional<std::vector<double>> numbers(const XmlElement& element, std::size_t count, std::string_view what) {
    return parseDoubles(element.text, element.where, what, diagnostics_, {count});
  }
  std::optional<Vector3> vector3(const XmlElement& element, std::string_view what) {
    return xml::parseVector3(element.text, element.where, what, diagnostics_);
  }
  std::optional<bool> boolean(const XmlElement& element, std::string_view what) {
    return parseBool(trim(element.text), element.where, what, diagnostics_);
  }
  /// "x y z a b c": translation, then intrinsic X-Y'-Z'' angles in radians.
  std::optional<Pose> transformation(const XmlElement& element) {
    const auto values =
        parseDoubles(element.text, element.where, "<transformation> (x y z and intrinsic XYZ angles)", diagnostics_,
                     {6}, ErrorCode::POSE_FORMAT_INVALID);
    if (!values) return std::nullopt;
    const auto& v = *values;
    Pose pose = Pose::Identity();
    pose.linear() = rotationFromIntrinsicXyz(v[3], v[4], v[5]);
    pose.translation() = Vector3(v[0], v[1], v[2]);
    return pose;
  }
  /// A required child read with `read`; a missing one is an error naming what was expected.
  template <typename Read>
  auto required(const XmlElement& parent, std::string_view name, std::string_view what, Read read)
      -> decltype(read(parent)) {
    const XmlElement* child = parent.child(name);
    if (child == nullptr) {
      error(ErrorCode::ELEMENT_MISSING,
            "<" + parent.name + "> needs a <" + std::string(name) + "> element (" + std::string(what) + ")",
            parent.where);
      return std::nullopt;
    }
    return read(*child);
  }
  std::optional<double> requiredNumber(const XmlElement& parent, std::string_view name, std::string_view what) {
    return required(parent, name, what, [&](const XmlElement& e) { return number(e, what); });
  }
  std::optional<Vector3> requiredVector3(const XmlElement& parent, std::string_view name, std::string_view what) {
    return required(parent, name, what, [&](const XmlElement& e) { return vector3(e, what); });
  }
  void requirePositive(double value, const XmlElement& element, std::string_view what) {
    if (!(value > 0)) {
      error(ErrorCode::VALUE_INVALID,
            std::string(what) + " must be positive, got " + formatNumber(value) +
                " (DART 6.12 aborts on this value)",
            element.where);
    }
  }

  void keep(std::vector<KeptElement>& kept, const std::string& scope, const XmlElement& element) {
    kept.push_back(KeptElement{scope + "/" + element.name, element.toXml(), element.where});
  }
  void unsupported(std::vector<KeptElement>& kept, const std::string& scope, const XmlElement& element) {
    warning(ErrorCode::ELEMENT_UNSUPPORTED,
            "<" + element.name + "> in <" + scope.substr(scope.find_last_of('/') + 1) +
                "> is not part of SKEL as DART 6.12 reads it; kept uninterpreted",
            element.where);
    keep(kept, scope, element);
  }

  // --- structure -----------------------------------------------------------------------------
  void readPhysics(const XmlElement& physics, World& world);
  void readSkeleton(const XmlElement& element, WorldRecord& world);
  void readBody(const XmlElement& element, SkeletonRecord& model, std::unordered_map<std::string, std::size_t>& bodies);
  void readInertia(const XmlElement& element, Link& link, bool& momentGiven);
  std::optional<Shape> readShape(const XmlElement& element, const std::string& bodyName, bool visual,
                                 SkeletonRecord& model);
  bool readGeometry(const XmlElement& geometryElement, Geometry& geometry, Pose& planeOffset);
  void readMesh(const XmlElement& mesh, Geometry& geometry);
  std::optional<JointRecord> readJoint(const XmlElement& element, const std::unordered_map<std::string, std::size_t>& bodies,
                                       SkeletonRecord& model);
  void readAxes(const XmlElement& element, JointRecord& record);
  void readPlane(const XmlElement& element, JointRecord& record);
  void readInitial(const XmlElement& element, std::string_view tag, Joint& joint,
                   std::vector<double>& values);
  void readDofs(const XmlElement& element, JointRecord& record, std::vector<double>& positions,
                std::vector<double>& velocities, SkeletonRecord& model);

  const std::string& path_;
  const plugin::HostServices* host_;
  Diagnostics& diagnostics_;
  std::string baseDirectory_;
  mesh::MeshReader meshReader_{host_};
};

}  // namespace interlink::skel::detail
