#pragma once
// xacro's processing (ROS 2 xacro, in-order mode): properties in scopes, `${...}` and `$(...)`,
// macros with parameters and blocks, includes, conditionals, xacro:element/attribute/arg, YAML.
// Input is the located XML tree of each file; output is an element tree in which every element
// and attribute remembers where its text came from and through which macro calls and includes.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "XacroExpression.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/plugin/PluginAbi.hpp"
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro {

struct OutAttribute {
  std::string name;
  std::string value;
  SourceLocation where;
  std::uint32_t step = 0;
};

/// An element of the expansion. `step` is 1-based in Expansion::steps (0: written at top level).
/// A comment is a child with `comment` set and its text in `text` (xacro keeps comments).
struct OutElement {
  bool comment = false;
  /// A text node among elements (mixed content, kept in place as xacro keeps it): `text` only.
  bool textNode = false;
  std::string name;
  std::vector<OutAttribute> attributes;
  std::vector<OutElement> children;
  std::string text;
  SourceLocation where;
  std::uint32_t step = 0;
};

/// Bounds that keep a hostile file's expansion finite (docs/xacro.md).
struct ExpansionLimits {
  std::size_t maxMacroDepth = 200;         // nested macro calls (recursion)
  std::size_t maxMacroCalls = 100000;      // macro calls in the whole expansion (a macro bomb)
  std::size_t maxElements = 2000000;       // elements in the expansion
  std::size_t maxOutputBytes = 256 << 20;  // text of attributes and elements together
  // Strings and lists the expressions build or copy, in all (ValueBudget): Franka's and UR's
  // descriptions use 2 to 32 KB; 16 MB strings used a few hundred times took minutes.
  std::size_t maxValueBytes = std::size_t{128} << 20;
  std::size_t maxIncludes = 10000;         // xacro:include and load_yaml, all together
  // Attributes of one element, xacro:attribute's included: the XML reader refuses more in the
  // expansion anyway (its limit, taken from it), and each is looked for by name.
  std::size_t maxAttributesPerElement = xml::ParseOptions{}.maxAttributesPerElement;
  std::size_t maxErrors = 100;             // then the expansion stops
};

struct Expansion {
  std::optional<OutElement> root;
  std::vector<plugin::ExpansionStep> steps;
  std::vector<std::string> commentsBeforeRoot;  // of the top-level file, kept as xacro keeps them
  std::vector<std::string> commentsAfterRoot;
};

/// Expands the xacro file `path` with `content`. Includes, YAML files and $(find) go through
/// `host` (null: relative paths only, read from disk by nobody: includes fail). Errors go to
/// `diagnostics` located in the xacro file they concern, followed by the chain as notes.
Expansion expandXacro(const std::string& path, std::string_view content, const plugin::HostServices* host,
                      const std::vector<std::pair<std::string, std::string>>& arguments, Diagnostics& diagnostics,
                      const ExpansionLimits& limits = {});

/// The expansion as XML text (the URDF that ROS's xacro would print, without its banner), and
/// for every element and attribute the place it came from.
std::string writeExpansion(const Expansion& expansion, std::vector<plugin::ExpansionOrigin>& origins);

/// The tree that reading writeExpansion's text gives (interlink::xml::parse: every name,
/// attribute, text and child equal), made without writing it: the expansion's strings are moved
/// into it. Its locations are in `path`, one line per element and attribute in document order,
/// and `origins` maps each line back as the text's origins would. False, with nothing moved or
/// added, when the text would not read back as the same tree by that rule (a name beyond ASCII's
/// XML names, a character XML refuses, a comment XML refuses, an attribute twice, nesting beyond
/// the XML reader's limit): the text is then written and parsed as before.
bool expansionTree(Expansion& expansion, const std::string& path, xml::XmlElement& root,
                   std::vector<plugin::ExpansionOrigin>& origins);

/// A YAML document as xacro's values (PyYAML's safe loader: null, bool, int, float, str, lists,
/// dicts; `!radians` and `!degrees` evaluate their expression). ExpressionError on bad YAML.
Value yamlToValue(std::string_view text);

}  // namespace interlink::xacro
