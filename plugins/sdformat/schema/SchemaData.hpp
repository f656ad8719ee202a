#pragma once
// The SDFormat schema of versions 1.0-1.12 as data, generated from the published description files
// (see README.md in this folder). One node per element description; a child edge names the tag and
// points at the node describing it, so recursive descriptions (a model in a model) stay finite.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace interlink::sdformat::schema {

enum class ValueType : std::uint8_t {
  None, String, Bool, Int, UnsignedInt, Double, Vector3, Vector2d, Vector2i, Color, Pose, Time, Quaternion, Char
};

/// The `required` of a description: "0", "1", "+", "*" and "-1" (deprecated).
enum class Occurrence : std::uint8_t { Optional, One, OneOrMore, Any, Deprecated };

// Names are string views (lengths known at compile time): the validator compares every element and
// attribute of a document with them, and a length check rejects most candidates without reading.
struct SchemaAttribute {
  std::string_view name;
  ValueType type;
  bool required;
  const char* const* values;  // null-terminated list of the values the description allows, or null
};

struct SchemaChild {
  std::string_view name;
  std::uint16_t node;
  Occurrence occurrence;
};

struct SchemaNode {
  const char* name;
  ValueType type;        // None: the element holds no value
  const char* defaultValue;
  const char* min;       // inclusive bounds, when the description gives them
  const char* max;
  bool copyData;         // any child is accepted as written (//plugin)
  std::uint16_t firstAttribute, attributeCount, firstChild, childCount;
};

struct VersionSchema {
  int major, minor;
  const SchemaNode* nodes;
  const SchemaAttribute* attributes;
  const SchemaChild* children;
  std::uint16_t root;  // <sdf> (<gazebo> in 1.0 and 1.2)
};

/// One <rename> of a libsdformat .convert file: under the element at `path` (names below the root,
/// "/"-separated), the value of attribute `fromAttribute` (of child `fromElement` when set) becomes
/// the text of a new child element `toElement`.
struct RenameRule {
  const char* path;
  const char* fromElement;
  const char* fromAttribute;
  const char* toElement;
};

struct RenameRules {
  const RenameRule* rules;
  std::size_t count;
};

/// SDFormat 1.0 -> 1.2 (sdf/1.2/1_0.convert): 1.0 wrote most values as attributes.
RenameRules upgradeRules1_0();

/// Null when the version has no description (1.1 never existed).
const VersionSchema* versionSchema(int major, int minor);

}  // namespace interlink::sdformat::schema
