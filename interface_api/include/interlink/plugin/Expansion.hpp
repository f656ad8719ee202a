#pragma once
// What a macro-language plugin produces: a document of another format (xacro makes URDF), with a
// map from every place in that text back to the place in the macro-language files it came from
// and the macro calls and includes that brought it there. The loader hands the text to the
// plugin of that format and reports that plugin's findings (and the model's locations) through the
// map, as a compiler reports an error inside a macro expansion (docs/plugin-guide.md).
// When the host does not need the text, a plugin may hand over the XML tree that reading the text
// would give instead: no text written, nothing parsed again (`tree`).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"

namespace interlink::xml {
class XmlElement;  // interlink/xml/XmlElement.hpp
}  // namespace interlink::xml

namespace interlink::plugin {

/// One step of an expansion chain: a macro call or an include, at `where`. `parent` is the
/// 1-based index of the enclosing step in ExpandedDocument::steps, 0 at the top level.
struct ExpansionStep {
  std::string what;  // "in expansion of macro 'arm'", "included"
  SourceLocation where;
  std::uint32_t parent = 0;
};

/// From `line`:`column` of the expanded text on (up to the next origin), the text came from
/// `where`, reached through step `step` (1-based in ExpandedDocument::steps; 0: no macro or include).
struct ExpansionOrigin {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  SourceLocation where;
  std::uint32_t step = 0;
};

struct ExpandedDocument {
  std::uint32_t size = sizeof(ExpandedDocument);
  /// The extension of the format the text is in, lower case with the dot (".urdf"); the plugin
  /// claiming it reads the text.
  std::string extension;
  std::string content;
  /// Sorted by line, then column.
  std::vector<ExpansionOrigin> origins;
  std::vector<ExpansionStep> steps;
  /// Set by the host before the call: whether it needs `content` (LoadOptions::keepExpandedText,
  /// or a reader of the target format that takes only text). When it does not, a plugin whose
  /// target format is XML may leave `content` empty and give `tree`: the root element that reading
  /// the text would give, every element and attribute equal. Its locations are in the file being
  /// expanded at positions that `origins` maps (any positions, in document order: one line per
  /// element or attribute does), as the text's would be.
  bool textWanted = true;
  std::shared_ptr<xml::XmlElement> tree;
};

}  // namespace interlink::plugin
