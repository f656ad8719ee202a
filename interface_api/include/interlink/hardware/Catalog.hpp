#pragma once
// Catalog entries of hardware plugins: the physical description of a component (actuator, link,
// bracket, end effector) that model formats such as HRDF name by type ("X5-4", "X5LightLeft").
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink::hardware {

enum class ComponentKind : std::uint32_t { Actuator = 1, Link = 2, Bracket = 3, EndEffector = 4 };

inline const char* componentKindName(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::Actuator: return "actuator";
    case ComponentKind::Link: return "link";
    case ComponentKind::Bracket: return "bracket";
    case ComponentKind::EndEffector: return "end-effector";
  }
  return "unknown";
}

/// A mechanical interface: a type ("X-AO") and a polarity ('A' or 'B'). Two interfaces mate when
/// the types are equal and the polarities differ. An empty type means "mates with anything".
struct InterfaceSpec {
  std::string type;
  char polarity = 'A';

  bool isAny() const { return type.empty(); }
  bool matesWith(const InterfaceSpec& other) const {
    return isAny() || other.isAny() || (type == other.type && polarity != other.polarity);
  }
  std::string toString() const { return isAny() ? std::string("any") : type + "-" + polarity; }
};

/// How a component's output moves with its joint position q: output(q) = output(0) · motion(q).
enum class Motion : std::uint32_t { None = 0, RevoluteZ = 1, PrismaticZ = 2 };

/// Published limits of an actuator (infinite when not published).
struct Limits {
  double positionLower = -std::numeric_limits<double>::infinity();
  double positionUpper = std::numeric_limits<double>::infinity();
  double velocity = std::numeric_limits<double>::infinity();  // rad/s or m/s
  double effort = std::numeric_limits<double>::infinity();    // N·m or N
};

/// Parameters of parameterised components (links): extension (m), twist (rad) and the styles of
/// the input and output interfaces ("RightAngle" or "Inline", canonical spelling).
struct ComponentParameters {
  double extension = 0;
  double twist = 0;
  std::string inputStyle;   // empty: the entry's default
  std::string outputStyle;  // empty: the entry's default
};

/// The static description of one catalog type.
struct CatalogEntry {
  std::string type;         // canonical spelling, e.g. "X5-4"
  ComponentKind kind = ComponentKind::Actuator;
  std::string series;       // product series for listings, e.g. "X5"
  std::string description;  // one line for humans
  InterfaceSpec input;
  std::vector<InterfaceSpec> outputs;  // one per output interface
  Motion motion = Motion::None;
  Limits limits;
  bool parameterised = false;             // links: extension, twist, styles
  std::vector<std::string> inputStyles;   // accepted styles (first = default)
  std::vector<std::string> outputStyles;
  /// True when some figure (mass, CoM, inertia, transform) is not a published one; loaders warn.
  bool approximate = false;
  std::string approximateNote;  // what is approximate and where the stand-in comes from
};

/// An entry evaluated with its parameters, in the component's input frame.
struct ComponentModel {
  double mass = 0;
  Pose centerOfMass = Pose::Identity();   // X_IC: CoM frame (position and axes of the inertia)
  Matrix3 inertia = Matrix3::Zero();      // about the CoM, in the CoM frame axes (kg·m²)
  std::vector<Pose> outputs;              // X_IO at joint position 0, one per output interface
};

/// Folds the sizes of the types above into one number for the hardware handshake.
constexpr std::uint32_t catalogAbiFingerprint() {
  std::uint64_t h = 1469598103934665603ull;
  const std::uint64_t sizes[] = {sizeof(InterfaceSpec), sizeof(Limits),       sizeof(ComponentParameters),
                                 sizeof(CatalogEntry),  sizeof(ComponentModel), sizeof(Pose),
                                 sizeof(std::string),   sizeof(std::vector<Pose>)};
  for (std::uint64_t s : sizes) {
    h ^= s;
    h *= 1099511628211ull;
  }
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace interlink::hardware
