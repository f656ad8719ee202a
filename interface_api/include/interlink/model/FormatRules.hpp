#pragma once
// The rules a file was read under, declared by the format plugin that read it, as data: the core
// reads these fields and never a format's name. A plugin sets Document::rules in its load call
// (the file's version decides some of them); the framework copies them onto the ModelSource of
// every model of that document, so an included file keeps its own rules (an SDFormat 1.6 model
// inside a 1.9 world keeps 1.6's separate joint namespace).
//
// Append-only and size-versioned: new fields go at the end, with a default that keeps the old
// behaviour; `size` says how much of the record the writer knew (check with `has`).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "interlink/Diagnostic.hpp"

namespace interlink {

/// How far principal moments may stray past zero or past the triangle inequality, as each
/// reference tool compares them.
enum class InertiaTolerance : std::uint8_t {
  GzMath,     // gz-math MassMatrix3::IsValid (tolerance 10), as libsdformat
  Rounded,    // 1e-9 of the largest moment: files round their moments to a few digits
  RoundOff,   // exact comparisons (MuJoCo 2.2.2), up to the round-off of computing the moments
};

/// The tolerances' names in a recorded core model, in the enum's order.
inline constexpr const char* kInertiaToleranceNames[] = {"gz_math", "rounded", "round_off"};
inline const char* inertiaToleranceName(InertiaTolerance tolerance) {
  return kInertiaToleranceNames[static_cast<std::size_t>(tolerance) % 3];
}

/// How a format's reference tool treats an inertial (framework check/InertiaCheck).
struct InertiaPolicy {
  bool checked = false;                 // false: the format has no rule of its own, nothing is checked
  Severity severity = Severity::Warning;  // Error where the tool refuses the file, Warning where it loads it
  bool massRequired = false;            // a zero mass is wrong too (else only a negative one)
  bool zeroMomentsAllowed = false;      // positive semi-definite is enough (else definite, when there is mass)
  InertiaTolerance tolerance = InertiaTolerance::Rounded;
  /// A link moved by a joint needs mass and every principal moment at least this large, or a child
  /// welded to it that has them (MuJoCo's mjMINVAL); 0: no such rule.
  double movingBodyMinimum = 0;
  /// What the message adds ("libsdformat refuses it"); a copy, so that it outlives the plugin.
  char verdict[48] = {};
};

struct FormatRules {
  std::uint32_t size = sizeof(FormatRules);

  // --- the file's version, as numbers ("1.10" is 1, 10); all 0 when the file has none ----------
  std::uint32_t versionMajor = 0;
  std::uint32_t versionMinor = 0;
  std::uint32_t versionPatch = 0;

  // --- names (interlink/model/Names.hpp holds the delimiter and the reserved names) -------------
  /// Joints and links share one namespace (SDFormat >= 1.7). When false (URDF, SDFormat < 1.7) a
  /// joint may be named like a link; its frame is then named "<name>_joint", as libsdformat does.
  bool jointsShareLinkNamespace = true;
  /// World frames share the models' namespace (SDFormat >= 1.8). When false (SDFormat 1.7) a world
  /// frame named like a model is called "<name>_frame", as libsdformat does.
  bool worldFramesShareModelNamespace = true;
  /// A name holding the scope delimiter is refused as RESERVED_NAME (SDFormat >= 1.8); when false
  /// as NAME_INVALID (the older specifications' wording).
  bool delimiterInNameIsReserved = true;
  /// The ends of a joint are links of a robot (URDF): its findings are said in those words.
  bool jointEndsAreLinks = false;
  /// Visual and collision names are unique in the whole model (MJCF geoms), not only per link:
  /// writers may keep them as they are.
  bool shapeNamesUniqueInModel = false;

  // --- policies of the format's reference tool --------------------------------------------------
  InertiaPolicy inertia;
  /// The reader itself reports a mesh it could not find (MJCF: MuJoCo refuses a missing mesh asset,
  /// whose directory only the reader knows); the core then does not look again.
  bool readerReportsMissingMeshes = false;

  /// Whether the writer of this record knew the field at `offset` (use offsetof).
  bool has(std::size_t offset) const { return size > offset; }

  /// The version as written ("1.10", "2.2.2", "0.2"): leading numbers separated by dots; what
  /// follows a non-digit is ignored. Returns false (and sets nothing) when it does not start with a digit.
  bool setVersion(std::string_view written) {
    std::uint32_t parts[3] = {0, 0, 0};
    std::size_t part = 0;
    bool digit = false;
    for (char c : written) {
      if (c >= '0' && c <= '9') {
        if (parts[part] < 100000) parts[part] = parts[part] * 10 + static_cast<std::uint32_t>(c - '0');
        digit = true;
      } else if (c == '.' && digit && part < 2) {
        ++part;
      } else {
        break;
      }
    }
    if (!digit) return false;
    versionMajor = parts[0];
    versionMinor = parts[1];
    versionPatch = parts[2];
    return true;
  }

  /// The yes/no rules by their names in a recorded core model (docs/convert.md), so that the JSON
  /// writer and reader share one list.
  struct Flag {
    const char* name;
    bool FormatRules::*rule;
  };
  static const Flag* flags(std::size_t& count);
  struct InertiaFlag {
    const char* name;
    bool InertiaPolicy::*rule;
  };
  static const InertiaFlag* inertiaFlags(std::size_t& count);

  /// Sets the verdict text of the inertia policy (cut to fit).
  void setInertiaVerdict(std::string_view text) {
    const std::size_t n = text.size() < sizeof(inertia.verdict) - 1 ? text.size() : sizeof(inertia.verdict) - 1;
    std::memcpy(inertia.verdict, text.data(), n);
    inertia.verdict[n] = '\0';
  }
};

inline const FormatRules::Flag* FormatRules::flags(std::size_t& count) {
  static const Flag table[] = {
      {"joints_share_link_namespace", &FormatRules::jointsShareLinkNamespace},
      {"world_frames_share_model_namespace", &FormatRules::worldFramesShareModelNamespace},
      {"delimiter_in_name_is_reserved", &FormatRules::delimiterInNameIsReserved},
      {"joint_ends_are_links", &FormatRules::jointEndsAreLinks},
      {"shape_names_unique_in_model", &FormatRules::shapeNamesUniqueInModel},
      {"reader_reports_missing_meshes", &FormatRules::readerReportsMissingMeshes},
  };
  count = sizeof(table) / sizeof(table[0]);
  return table;
}

inline const FormatRules::InertiaFlag* FormatRules::inertiaFlags(std::size_t& count) {
  static const InertiaFlag table[] = {
      {"inertia_checked", &InertiaPolicy::checked},
      {"inertia_mass_required", &InertiaPolicy::massRequired},
      {"inertia_zero_moments_allowed", &InertiaPolicy::zeroMomentsAllowed},
  };
  count = sizeof(table) / sizeof(table[0]);
  return table;
}

}  // namespace interlink
