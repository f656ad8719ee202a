#pragma once
// The parsed xacro files and YAML documents of the process, by path and text: a description's
// files are parsed once, whatever number of times they are included or loaded again (Python
// loading one robot with several argument settings, a directory check). The text a file has now
// is compared with the text it was parsed from by their fingerprints (size and two hashes, not a
// copy of every file), so a changed file is parsed again.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "XacroExpression.hpp"
#include "XacroValue.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/io/ContentFingerprint.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro::detail {

/// One xacro file parsed, immutable once made (shared by the expansions that use it).
struct ParsedSource {
  io::ContentFingerprint content;  // of the text it was parsed from (a changed file is parsed again)
  std::optional<xml::XmlElement> root;
  std::vector<xml::XmlComment> comments;
  /// The comments directly inside each element that holds some, in document order.
  std::unordered_map<const xml::XmlElement*, std::vector<const xml::XmlComment*>> commentsByParent;
  /// Elements with child elements and text that is not white space (mixed content): where each
  /// child begins in the element's text, so that the text is evaluated in document order.
  std::unordered_map<const xml::XmlElement*, std::vector<std::size_t>> textSplits;
  /// What parsing the file reported although it succeeded (warnings), said again at each use.
  std::vector<Diagnostic> findings;
};

/// `content` of the file `path` parsed, with its findings added to `diagnostics`; null (after
/// adding the XML errors) when it is not well-formed XML.
std::shared_ptr<const ParsedSource> parseSource(const std::string& path, std::string_view content,
                                                Diagnostics& diagnostics);

/// One piece of a text: literal text, `${...}`, `$(...)` or the invalid rest.
struct TextPiece {
  enum Kind { Literal, Expression, Substitution, Invalid } kind = Literal;
  std::string text;     // Literal: the text; Expression/Substitution: what is inside; Invalid: the message
  bool nested = false;  // the inside holds `$` itself: evaluated as text first
  /// An Expression without `$` inside, parsed; or why it could not be (said when evaluated).
  std::shared_ptr<const xacro::Expression> parsed;
  std::string parseError;
};
using TextTemplate = std::vector<TextPiece>;

/// `text` split into its pieces, once per process (macro bodies and repeated loads evaluate the
/// same texts again).
std::shared_ptr<const TextTemplate> textTemplateOf(const std::string& text);

/// The expression `text` parsed, once per process. Throws ExpressionError (not kept).
std::shared_ptr<const xacro::Expression> parsedExpression(const std::string& text);

/// The YAML document `content` of the file `path` as xacro's values (yamlToValue). Throws
/// ExpressionError on bad YAML (not kept).
Value yamlSource(const std::string& path, std::string_view content);

}  // namespace interlink::xacro::detail
