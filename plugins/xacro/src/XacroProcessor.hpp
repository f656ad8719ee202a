#pragma once
// The state of one xacro expansion: scopes of properties, tables of macros, the include stack,
// the chain of macro calls and includes, the limits. XacroScope.cpp evaluates text and
// properties; XacroExpander.cpp walks the elements.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "XacroExpander.hpp"
#include "XacroSources.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro::detail {

/// An error as xacro reports it; the processor adds the location and chain where it is caught.
struct XacroError {
  std::string message;
  SourceLocation where;  // unknown: the element being processed
  /// What is left to report where it is caught.
  enum class Said {
    Nothing,  // the error and the macro and include chain
    ByHost,   // the include service reported the cause (URI_LOOKUP, every place searched): the chain only
    Before,   // a follow-on of an error reported earlier in this expansion: nothing
  } said = Said::Nothing;
  ErrorCode code = ErrorCode::EXPANSION_ERROR;  // of the error and of the chain's notes
};

/// The expansion stops (too many errors, a limit reached); already reported.
struct Abort {};

/// A block: a macro's block parameter (expanded where the macro was called) or a property's
/// content (expanded where it is inserted).
struct Block {
  OutElement element;                    // the block parameter's element, expanded
  const xml::XmlElement* raw = nullptr;  // a property's content, not expanded yet
};

struct Macro {
  std::string name;
  const xml::XmlElement* body = nullptr;
  std::vector<std::string> params;
  /// Where each parameter name is in `params`, for a macro of many (a call looks each of its
  /// attributes up: linearly that was quadratic in a hostile macro's parameters).
  std::unordered_multimap<std::string, std::size_t> paramPositions;
  static constexpr std::size_t kLinearParams = 16;  // fewer: looked up linearly, no index
  /// Per parameter with a default: the name to forward from the caller (`^`), the default text.
  std::map<std::string, std::pair<std::optional<std::string>, std::optional<std::string>>> defaults;
};

/// The macro that the xacro:macro element `in` defines, as its attributes write it (the name
/// without an "xacro:" prefix, the parameters parsed); null without a name. Made once, when the
/// file is parsed (ParsedSource::macros): a definition takes no evaluation.
std::shared_ptr<const Macro> makeMacro(const xml::XmlElement& in);

struct Scope;
using ScopePtr = std::shared_ptr<Scope>;

/// A table of properties (xacro's Table): looked up through the parents.
struct Scope : std::enable_shared_from_this<Scope> {
  struct Property {
    Value value;
    std::string text;       // unevaluated text (pending)
    bool pending = false;
    bool resolving = false;
    /// Its value could not be evaluated, which was reported: a use is a follow-on error, not
    /// reported again (one missing YAML file would otherwise be an error at every property).
    bool failed = false;
    std::shared_ptr<const Block> block;
  };
  std::unordered_map<std::string, Property> table;
  std::map<std::string, ScopePtr> namespaces;  // xacro:include ns="..."
  ScopePtr parent;
  bool isNamespace = false;
};

struct MacroTable;
using MacroTablePtr = std::shared_ptr<MacroTable>;
struct MacroTable {
  std::map<std::string, std::shared_ptr<const Macro>> macros;
  std::map<std::string, MacroTablePtr> namespaces;
  MacroTablePtr parent;
};

class Processor {
 public:
  Processor(const std::string& path, const plugin::HostServices* host,
            const std::vector<std::pair<std::string, std::string>>& arguments, Diagnostics& diagnostics,
            const ExpansionLimits& limits);
  /// A namespace scope and the scope it belongs to hold each other (lookups fall back to the
  /// parent; `${ns.name}` finds the namespace): the links are cut when the expansion ends.
  ~Processor() {
    for (const ScopePtr& scope : namespaceScopes_) scope->parent.reset();
  }
  Processor(const Processor&) = delete;
  Processor& operator=(const Processor&) = delete;

  Expansion run(std::string_view content);

  // --- XacroScope.cpp: text, properties, substitution arguments -------------------------------
  /// xacro's eval_text: `${expr}`, `$(command)`, `$${` escapes; one piece keeps its type.
  Value evalText(const std::string& text, const ScopePtr& scope);
  const TextTemplate& textTemplate(const std::string& text);
  Value evalPiece(const TextPiece& piece, const ScopePtr& scope);
  std::string evalString(const std::string& text, const ScopePtr& scope) {
    if (text.find('$') == std::string::npos) return text;  // most names and values: one copy, not two
    Value value = evalText(text, scope);
    if (value.isString()) return std::get<std::string>(std::move(value.v));
    return str(value);
  }
  /// xacro's get_boolean_value for xacro:if/unless and boolean attributes.
  bool booleanValue(const Value& value, const std::string& condition);
  /// The property `name` seen from `scope` (evaluated if pending); false when undefined.
  bool lookupProperty(const ScopePtr& scope, const std::string& name, Value& out);
  /// The block named `key` ("*name" or "**name") seen from `scope`.
  std::shared_ptr<const Block> lookupBlock(const ScopePtr& scope, const std::string& key);
  void setProperty(const ScopePtr& scope, const std::string& name, Value value, bool lazy);
  /// xacro:property.
  void defineProperty(const xml::XmlElement& element, const ScopePtr& scope);

  // --- XacroExpander.cpp: elements ------------------------------------------------------------
  /// The macro that `in` defines, from the parsed file that holds it.
  std::shared_ptr<const Macro> macroOf(const xml::XmlElement& in) const;
  void expandChildren(const xml::XmlElement& element, const ScopePtr& symbols, const MacroTablePtr& macros,
                      OutElement& into);

  // shared state
  std::string path_;
  const plugin::HostServices* host_;
  std::map<std::string, std::string> arguments_;
  Diagnostics& diagnostics_;
  ExpansionLimits limits_;
  std::vector<plugin::ExpansionStep> steps_;
  std::uint32_t step_ = 0;             // the current chain (1-based in steps_)
  std::vector<std::string> fileStack_;  // the files being processed, top-level first
  /// Every file's tree, alive for the macros that point into it (shared with other expansions).
  std::vector<std::shared_ptr<const ParsedSource>> sources_;
  std::size_t macroDepth_ = 0;
  std::size_t macroCalls_ = 0;
  std::size_t resolvingDepth_ = 0;  // lazy properties being evaluated inside each other
  std::size_t includes_ = 0;
  // An include failed: the macros it would have defined are unknown, and calling them is not a
  // second error (one cause, one error).
  bool includeFailed_ = false;
  std::size_t elements_ = 0;
  std::size_t bytes_ = 0;
  std::size_t errors_ = 0;
  const SourceLocation* current_ = nullptr;  // the element being processed
  /// Each text evaluated, split into its pieces and each `${...}` inside it parsed (from the
  /// process-wide tables of XacroSources.hpp, looked up once per expansion).
  std::unordered_map<std::string, std::shared_ptr<const Expression>> parsed_;
  std::unordered_map<std::string, std::shared_ptr<const TextTemplate>> templates_;
  /// Every file's comments (xacro keeps them, evaluates them after `xacro:eval-comments`), by the
  /// element that holds them, in document order.
  std::unordered_map<const xml::XmlElement*, const std::vector<const xml::XmlComment*>*> commentsByParent_;
  std::vector<std::string> commentsBeforeRoot_, commentsAfterRoot_;  // of the top-level file
  /// Every file's elements with mixed content: where each child begins in the element's text.
  std::unordered_map<const xml::XmlElement*, const std::vector<std::size_t>*> textSplits_;
  std::unordered_map<std::string, std::string> packages_;  // $(find PKG), found once per expansion
  std::unordered_set<std::string> missingFiles_;  // reported once per expansion
  std::vector<ScopePtr> namespaceScopes_;  // xacro:include ns="...": cut from their parents at the end

  /// Parses a file with its comments and keeps both for the rest of the expansion; null after
  /// adding the XML errors to `diagnostics`.
  const xml::XmlElement* parseTree(std::string_view content, const std::string& path, Diagnostics& diagnostics,
                                   bool topLevel);
  /// The comments directly inside `element`; null when it holds none.
  const std::vector<const xml::XmlComment*>* commentsOf(const xml::XmlElement& element) const {
    if (commentsByParent_.empty()) return nullptr;
    auto found = commentsByParent_.find(&element);
    return found == commentsByParent_.end() ? nullptr : found->second;
  }
  /// Where each child of `element` begins in its text; null unless its content is mixed.
  const std::vector<std::size_t>* textSplitsOf(const xml::XmlElement& element) const {
    if (textSplits_.empty()) return nullptr;
    auto found = textSplits_.find(&element);
    return found == textSplits_.end() ? nullptr : found->second;
  }
  void report(const XacroError& error, const SourceLocation& fallback);
  /// A file the include service did not give: its diagnostics added, and the error to throw (xacro's
  /// "No such file or directory" only when the service said nothing itself).
  XacroError includeFailed(const std::string& file, const SourceLocation& where, const Diagnostics& found);
  void warn(const std::string& message, const SourceLocation& where);
  void countOutput(std::size_t elements, std::size_t bytes, const SourceLocation& where);
  /// A file through the host's include service (its limits, path policy and checks).
  std::optional<std::string> readFile(const std::string& path, const SourceLocation& where, bool quiet,
                                      std::string* resolved);
  std::string absoluteFilename(const std::string& name) const;
  std::string findPackage(const std::string& package, const SourceLocation& where);
  Value loadYaml(const std::string& filename);
  /// The names of the `xacro` namespace (load_yaml, arg, tokenize, ...); false when none.
  bool xacroFunction(const std::string& name, Value& out);
  Value substitution(const std::string& command, const ScopePtr& scope);
};

/// Python's rule for a property or macro name: an identifier that is not a keyword.
bool isIdentifier(const std::string& name);

}  // namespace interlink::xacro::detail
