#pragma once
// Parses XML text into an XmlElement tree (a fast reader for plain documents, expat for the rest),
// configured for untrusted input: no DTD loading, no external entities, no network, a bounded
// entity expansion and nesting depth.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::xml {

/// The readers whose leniency a format may copy, so that Interlink reads what its reference reads.
enum class Tolerance {
  None,
  /// TinyXML 2.6 (urdfdom): "--" inside comments, white space before the XML declaration, a
  /// declaration after comments.
  LikeTinyXml,
  /// TinyXML2 9 (libsdformat): "--" inside comments, white space before the XML declaration,
  /// text before the root element (a declaration missing its '<').
  LikeTinyXml2,
};

/// A comment and where it stands among its parent's child elements (ParseOptions::comments), for
/// readers that keep or evaluate comments (xacro): the tree itself holds elements and text only.
struct XmlComment {
  static constexpr std::size_t kOutsideRoot = static_cast<std::size_t>(-1);
  std::string text;      // between "<!--" and "-->"
  SourceLocation where;  // of "<!--"
  /// The element holding it, by its number in document order (the root is 0); kOutsideRoot for
  /// a comment before or after the root element.
  std::size_t parent = kOutsideRoot;
  /// The parent's child elements before it (outside the root: 0 before the root, 1 after).
  std::size_t index = 0;
  std::string textBefore;  // character data between the previous element tag or comment and it
  std::string textAfter;   // character data between it and the next element tag or comment
};

struct ParseOptions {
  /// Kept for compatibility: documents that declare entities are refused, so nothing expands.
  std::size_t maxEntityExpansions = 10000;
  std::size_t maxDepth = 512;
  /// More attributes on one element are refused before parsing (a linear pre-scan bounds the work).
  std::size_t maxAttributesPerElement = 4096;
  /// Whose leniency to copy for XML that is not well-formed (none: refuse it). Each flaw read is an
  /// XML_SYNTAX warning at its line and column; LoadOptions::strict turns them into errors.
  Tolerance tolerance = Tolerance::None;
  /// When set, every comment is added here in document order (not collected otherwise).
  std::vector<XmlComment>* comments = nullptr;
  /// When set, for every element in document order (the root is 0), the length its parent's text
  /// had when it began (0 for the root): where a reader that evaluates mixed content in document
  /// order (xacro) splits the parent's text among its children.
  std::vector<std::size_t>* parentTextLengths = nullptr;
  /// Plain well-formed UTF-8 documents are read by a reader of their own, in half the instructions expat's
  /// reading takes; every other document, and every one with an error, with expat (docs/xml.md).
  /// Both give the same tree, comments, text lengths and diagnostics; false reads every document
  /// with expat (tests compare the two).
  bool fastReader = true;
  /// When set, whether the fast reader read the document (tests and benchmarks look).
  bool* readByFastReader = nullptr;
};

/// Options that read XML as `reader` does (the other options at their defaults).
inline ParseOptions toleratingLike(Tolerance reader) {
  ParseOptions options;
  options.tolerance = reader;
  return options;
}

/// Returns the root element, or nothing after adding an XML_SYNTAX error (with line and column)
/// to `diagnostics`. `fileName` is used for locations only; the content is not re-read.
INTERLINK_API std::optional<XmlElement> parse(std::string_view content, const std::string& fileName,
                                              Diagnostics& diagnostics, const ParseOptions& options = {});

}  // namespace interlink::xml
