#include "detail/ErrorMapping.hpp"

namespace interlink::sdformat::detail {

sdf::ErrorCode toSdfCode(ErrorCode code) {
  switch (code) {
#define INTERLINK_SAME_CODE(name) \
  case ErrorCode::name:           \
    return sdf::ErrorCode::name;
    // The codes both libraries have (libsdformat 12.3's list).
    INTERLINK_SAME_CODE(FILE_READ)
    INTERLINK_SAME_CODE(DUPLICATE_NAME)
    INTERLINK_SAME_CODE(RESERVED_NAME)
    INTERLINK_SAME_CODE(ATTRIBUTE_MISSING)
    INTERLINK_SAME_CODE(ATTRIBUTE_INVALID)
    INTERLINK_SAME_CODE(ATTRIBUTE_DEPRECATED)
    INTERLINK_SAME_CODE(ATTRIBUTE_INCORRECT_TYPE)
    INTERLINK_SAME_CODE(ELEMENT_MISSING)
    INTERLINK_SAME_CODE(ELEMENT_INVALID)
    INTERLINK_SAME_CODE(ELEMENT_DEPRECATED)
    INTERLINK_SAME_CODE(ELEMENT_INCORRECT_TYPE)
    INTERLINK_SAME_CODE(URI_INVALID)
    INTERLINK_SAME_CODE(URI_LOOKUP)
    INTERLINK_SAME_CODE(DIRECTORY_NONEXISTANT)
    INTERLINK_SAME_CODE(MODEL_CANONICAL_LINK_INVALID)
    INTERLINK_SAME_CODE(MODEL_WITHOUT_LINK)
    INTERLINK_SAME_CODE(MODEL_PLACEMENT_FRAME_INVALID)
    INTERLINK_SAME_CODE(NESTED_MODELS_UNSUPPORTED)
    INTERLINK_SAME_CODE(LINK_INERTIA_INVALID)
    INTERLINK_SAME_CODE(JOINT_CHILD_LINK_INVALID)
    INTERLINK_SAME_CODE(JOINT_PARENT_LINK_INVALID)
    INTERLINK_SAME_CODE(JOINT_PARENT_SAME_AS_CHILD)
    INTERLINK_SAME_CODE(FRAME_ATTACHED_TO_INVALID)
    INTERLINK_SAME_CODE(FRAME_ATTACHED_TO_CYCLE)
    INTERLINK_SAME_CODE(FRAME_ATTACHED_TO_GRAPH_ERROR)
    INTERLINK_SAME_CODE(POSE_RELATIVE_TO_INVALID)
    INTERLINK_SAME_CODE(POSE_RELATIVE_TO_CYCLE)
    INTERLINK_SAME_CODE(POSE_RELATIVE_TO_GRAPH_ERROR)
    INTERLINK_SAME_CODE(STRING_READ)
    INTERLINK_SAME_CODE(MERGE_INCLUDE_UNSUPPORTED)
    INTERLINK_SAME_CODE(VERSION_DEPRECATED)
#undef INTERLINK_SAME_CODE
    case ErrorCode::XML_SYNTAX:
    case ErrorCode::JSON_SYNTAX:
    case ErrorCode::FILE_EMPTY:
    case ErrorCode::FILE_BINARY:
      return sdf::ErrorCode::FILE_READ;
    case ErrorCode::NO_PARSER:
      return sdf::ErrorCode::URI_INVALID;
    case ErrorCode::NAME_INVALID:
      return sdf::ErrorCode::ATTRIBUTE_INVALID;
    default:  // bad values, kinematics, plugin failures: the element is invalid
      return sdf::ErrorCode::ELEMENT_INVALID;
  }
}

sdf::Error toSdfError(const Diagnostic& diagnostic) {
  sdf::Error error(toSdfCode(diagnostic.code), diagnostic.format());
  if (!diagnostic.where.file.empty()) error.SetFilePath(diagnostic.where.file.str());
  if (diagnostic.where.line > 0) error.SetLineNumber(diagnostic.where.line);
  return error;
}

}  // namespace interlink::sdformat::detail
