#pragma once
// The parsed xacro files and YAML documents of the process, by path and text: a description's
// files are parsed once, whatever number of times they are included or loaded again (Python
// loading one robot with several argument settings, a directory check). The text a file has now
// is compared with a copy of the text it was parsed from, so a changed file is parsed again: the
// byte compare costs ~1/50 of hashing the text (two hashes took ~170 K instructions of FR3's
// repeated expansion), and a copy of a description's ~60 kB of sources is small.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "XacroExpression.hpp"
#include "XacroValue.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro::detail {

struct Macro;

/// One xacro file parsed, immutable once made (shared by the expansions that use it).
struct ParsedSource {
  std::string content;  // the text it was parsed from (a changed file is parsed again)
  std::optional<xml::XmlElement> root;
  std::vector<xml::XmlComment> comments;
  /// The comments directly inside each element that holds some, in document order.
  std::unordered_map<const xml::XmlElement*, std::vector<const xml::XmlComment*>> commentsByParent;
  /// Elements with child elements and text that is not white space (mixed content): where each
  /// child begins in the element's text, so that the text is evaluated in document order.
  std::unordered_map<const xml::XmlElement*, std::vector<std::size_t>> textSplits;
  /// The macro of every xacro:macro element (makeMacro): a repeated expansion defines them again
  /// from here rather than parsing their parameters again.
  std::unordered_map<const xml::XmlElement*, std::shared_ptr<const Macro>> macros;
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
