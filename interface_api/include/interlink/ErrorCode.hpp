#pragma once
// Diagnostic codes. Names match libsdformat's `sdf::ErrorCode` where the meaning overlaps, so that
// tests and users compare codes by name across both implementations. Append only: the numeric value
// is part of the plugin ABI.
#include <cstdint>
#include <string_view>

namespace interlink {

#define INTERLINK_ERROR_CODES(X)                                                                  \
  X(NONE)                                                                                         \
  /* --- shared with libsdformat --- */                                                          \
  X(FILE_READ)                                                                                    \
  X(DUPLICATE_NAME)                                                                               \
  X(RESERVED_NAME)                                                                                \
  X(ATTRIBUTE_MISSING)                                                                            \
  X(ATTRIBUTE_INVALID)                                                                            \
  X(ATTRIBUTE_DEPRECATED)                                                                         \
  X(ATTRIBUTE_INCORRECT_TYPE)                                                                     \
  X(ELEMENT_MISSING)                                                                              \
  X(ELEMENT_INVALID)                                                                              \
  X(ELEMENT_DEPRECATED)                                                                           \
  X(ELEMENT_INCORRECT_TYPE)                                                                       \
  X(ELEMENT_ERROR)                                                                                \
  X(URI_INVALID)                                                                                  \
  X(URI_LOOKUP)                                                                                   \
  X(DIRECTORY_NONEXISTANT)                                                                        \
  X(MODEL_CANONICAL_LINK_INVALID)                                                                 \
  X(MODEL_WITHOUT_LINK)                                                                           \
  X(MODEL_PLACEMENT_FRAME_INVALID)                                                                \
  X(NESTED_MODELS_UNSUPPORTED)                                                                    \
  X(LINK_INERTIA_INVALID)                                                                         \
  X(JOINT_CHILD_LINK_INVALID)                                                                     \
  X(JOINT_PARENT_LINK_INVALID)                                                                    \
  X(JOINT_PARENT_SAME_AS_CHILD)                                                                   \
  X(JOINT_AXIS_EXPRESSED_IN_INVALID)                                                              \
  X(JOINT_AXIS_MIMIC_INVALID)                                                                     \
  X(FRAME_ATTACHED_TO_INVALID)                                                                    \
  X(FRAME_ATTACHED_TO_CYCLE)                                                                      \
  X(FRAME_ATTACHED_TO_GRAPH_ERROR)                                                                \
  X(POSE_RELATIVE_TO_INVALID)                                                                     \
  X(POSE_RELATIVE_TO_CYCLE)                                                                       \
  X(POSE_RELATIVE_TO_GRAPH_ERROR)                                                                 \
  X(STRING_READ)                                                                                  \
  X(MERGE_INCLUDE_UNSUPPORTED)                                                                    \
  X(VERSION_DEPRECATED)                                                                           \
  /* --- Interlink's own --- */                                                                  \
  X(XML_SYNTAX)           /* not well-formed XML; libsdformat reports these as FILE_READ */       \
  X(JSON_SYNTAX)                                                                                  \
  X(VERSION_UNSUPPORTED)                                                                          \
  X(VALUE_INVALID)        /* NaN, infinity, out of range, not a number */                         \
  X(POSE_FORMAT_INVALID)  /* wrong count of numbers for the rotation format */                   \
  X(FILE_EMPTY)                                                                                   \
  X(FILE_BINARY)                                                                                  \
  X(INCLUDE_CYCLE)                                                                                \
  X(INCLUDE_DEPTH)                                                                                \
  X(NO_PARSER)            /* no plugin or custom parser claims a file */                          \
  X(ELEMENT_UNSUPPORTED)  /* kept but outside what Interlink interprets (warning) */              \
  X(NAME_INVALID)         /* e.g. "::" inside a name */                                           \
  X(KINEMATIC_LOOP)                                                                               \
  X(KINEMATICS_INVALID)   /* configuration of wrong size, unknown joint, ... */                   \
  X(PLUGIN_LOAD)          /* a shared library could not be opened */                             \
  X(PLUGIN_REFUSED)       /* opened, but its descriptor failed the handshake */                   \
  X(PLUGIN_EXCEPTION)     /* a plugin threw; contained at the boundary */                         \
  X(PLUGIN_ERROR)         /* a plugin misbehaved in another way */                                \
  X(EXTENSION_CONFLICT)                                                                           \
  X(HARDWARE_UNKNOWN)                                                                             \
  X(HARDWARE_APPROXIMATE)                                                                         \
  X(INTERFACE_MISMATCH)                                                                           \
  X(SYMMETRY)                                                                                     \
  X(USAGE)                                                                                        \
  X(FILE_ENCODING)        /* UTF-16/32, invalid UTF-8 */                                          \
  X(INCLUDE_LIMIT)        /* too many included models or elements in one load */                  \
  X(PATH_OUTSIDE_ROOTS)   /* an include or mesh outside a confined load's directory trees */      \
  X(DEVIATION_TOLERATED)  /* loaded as the format's reference tool does (warning); --strict refuses */ \
  X(MESH_LIMIT)           /* a mesh file beyond a MeshLimits bound (LoadOptions::meshLimits) */    \
  X(EXPANSION_ERROR)      /* a macro language (xacro) failed: undefined property, bad expression */ \
  X(EXPANSION_LIMIT)      /* a macro expansion grew past its bounds (recursion, size) */

enum class ErrorCode : std::int32_t {
#define INTERLINK_ENUM_ENTRY(name) name,
  INTERLINK_ERROR_CODES(INTERLINK_ENUM_ENTRY)
#undef INTERLINK_ENUM_ENTRY
};

/// The code's name, e.g. "DUPLICATE_NAME".
inline std::string_view codeName(ErrorCode code) {
  switch (code) {
#define INTERLINK_NAME_ENTRY(name) \
  case ErrorCode::name:            \
    return #name;
    INTERLINK_ERROR_CODES(INTERLINK_NAME_ENTRY)
#undef INTERLINK_NAME_ENTRY
  }
  return "UNKNOWN";
}

/// Inverse of codeName; NONE when the name is unknown.
inline ErrorCode codeFromName(std::string_view name) {
#define INTERLINK_PARSE_ENTRY(entry) \
  if (name == #entry) return ErrorCode::entry;
  INTERLINK_ERROR_CODES(INTERLINK_PARSE_ENTRY)
#undef INTERLINK_PARSE_ENTRY
  return ErrorCode::NONE;
}

}  // namespace interlink
