// The element walk of xacro's eval_all: every xacro: element is processed where it stands, in
// document order (ROS 2 xacro's only mode, "in-order").
#include "XacroExpander.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "XacroProcessor.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro {

namespace fs = std::filesystem;
using detail::Abort;
using detail::Block;
using detail::Macro;
using detail::MacroTable;
using detail::MacroTablePtr;
using detail::Processor;
using detail::Scope;
using detail::ScopePtr;
using detail::XacroError;

namespace detail {

namespace {

constexpr std::string_view kPrefix = "xacro:";

/// `name` starts with "xacro:" (asked of every element and attribute).
bool hasXacroPrefix(std::string_view name) { return name.substr(0, kPrefix.size()) == kPrefix; }

const xml::Attribute* required(const xml::XmlElement& element, const char* name) {
  const xml::Attribute* a = element.attribute(name);
  if (!a) throw XacroError{element.name + ": missing attribute '" + name + "'", element.where};
  return a;
}

/// One parameter of a macro's `params`: `name`, `name:=default`, `name:=^`, `name:=^|default`,
/// `*block`, `**block`. Returns false at the end of the text.
bool nextParameter(std::string_view& rest, std::string& name, std::optional<std::pair<std::optional<std::string>, std::optional<std::string>>>& spec) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!rest.empty() && space(rest.front())) rest.remove_prefix(1);
  if (rest.empty()) return false;
  std::size_t i = 0;
  while (i < rest.size() && !space(rest[i]) && rest[i] != ':' && rest[i] != '=') ++i;
  name = std::string(rest.substr(0, i));
  std::size_t j = i;
  while (j < rest.size() && space(rest[j])) ++j;
  spec.reset();
  std::size_t k = j;
  if (k < rest.size() && rest[k] == ':') ++k;
  if (k < rest.size() && rest[k] == '=' && !name.empty()) {
    ++k;
    while (k < rest.size() && space(rest[k])) ++k;
    bool forward = false;
    if (k < rest.size() && rest[k] == '^') {
      forward = true;
      ++k;
      if (k < rest.size() && rest[k] == '|') ++k;
    }
    // The default: quoted pieces and unquoted characters up to white space; ${...} and $(...)
    // are taken whole.
    std::string value;
    while (k < rest.size() && !space(rest[k])) {
      const char c = rest[k];
      if (c == '\'' || c == '"') {
        const std::size_t close = rest.find(c, k + 1);
        const std::size_t end = close == std::string_view::npos ? rest.size() : close + 1;
        value += std::string(rest.substr(k, end - k));
        k = end;
      } else if (c == '$' && k + 1 < rest.size() && (rest[k + 1] == '{' || rest[k + 1] == '(')) {
        const std::size_t close = rest.find(rest[k + 1] == '{' ? '}' : ')', k + 2);
        const std::size_t end = close == std::string_view::npos ? rest.size() : close + 1;
        value += std::string(rest.substr(k, end - k));
        k = end;
      } else {
        value += c;
        ++k;
      }
    }
    std::optional<std::string> fallback;
    if (!value.empty()) fallback = value;
    spec.emplace(forward ? std::optional<std::string>(name) : std::nullopt, fallback);
    rest.remove_prefix(k);
    return true;
  }
  // Not `name:=default`: as xacro, the whole word is the name ("a://b" is one parameter; taking
  // only "a" left "://b", where no name could start, and the loop never ended).
  std::size_t end = i;
  while (end < rest.size() && !space(rest[end])) ++end;
  name = std::string(rest.substr(0, end));
  rest.remove_prefix(end);
  return true;
}

/// The first parameter of `macro` named `name` and not bound yet, or params.size().
std::size_t unboundParameter(const Macro& macro, const std::string& name, const std::vector<bool>& bound) {
  const std::vector<std::string>& params = macro.params;
  if (macro.paramPositions.empty()) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (!bound[i] && params[i] == name) return i;
    }
    return params.size();
  }
  std::size_t first = params.size();
  const auto [from, to] = macro.paramPositions.equal_range(name);
  for (auto at = from; at != to; ++at) {
    if (!bound[at->second]) first = std::min(first, at->second);
  }
  return first;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

std::shared_ptr<const Macro> makeMacro(const xml::XmlElement& in) {
  const xml::Attribute* macroName = in.attribute("name");
  if (!macroName) return nullptr;
  auto macro = std::make_shared<Macro>();
  macro->name = hasXacroPrefix(macroName->value) ? macroName->value.substr(kPrefix.size()) : macroName->value;
  macro->body = &in;
  if (const xml::Attribute* params = in.attribute("params")) {
    std::string_view rest = params->value;
    std::string param;
    std::optional<std::pair<std::optional<std::string>, std::optional<std::string>>> spec;
    while (nextParameter(rest, param, spec)) {
      macro->params.push_back(param);
      if (spec) macro->defaults[param] = *spec;
    }
    if (macro->params.size() > Macro::kLinearParams) {
      for (std::size_t i = 0; i < macro->params.size(); ++i) macro->paramPositions.emplace(macro->params[i], i);
    }
  }
  return macro;
}

std::shared_ptr<const Macro> Processor::macroOf(const xml::XmlElement& in) const {
  for (auto source = sources_.rbegin(); source != sources_.rend(); ++source) {
    auto found = (*source)->macros.find(&in);
    if (found != (*source)->macros.end()) return found->second;
  }
  return makeMacro(in);  // not from a parsed file (not expected): made for this definition
}

Processor::Processor(const std::string& path, const plugin::HostServices* host,
                     const std::vector<std::pair<std::string, std::string>>& arguments, Diagnostics& diagnostics,
                     const ExpansionLimits& limits)
    : path_(path), host_(host), diagnostics_(diagnostics), limits_(limits) {
  for (const auto& [name, value] : arguments) arguments_[name] = value;
  fileStack_.push_back(path);
}

const xml::XmlElement* Processor::parseTree(std::string_view content, const std::string& path,
                                            Diagnostics& diagnostics, bool topLevel) {
  std::shared_ptr<const ParsedSource> source = parseSource(path, content, diagnostics);
  if (!source) return nullptr;
  sources_.push_back(source);
  for (const auto& [element, comments] : source->commentsByParent) commentsByParent_.emplace(element, &comments);
  for (const auto& [element, splits] : source->textSplits) textSplits_.emplace(element, &splits);
  if (topLevel) {
    for (const xml::XmlComment& c : source->comments) {
      if (c.parent == xml::XmlComment::kOutsideRoot) (c.index == 0 ? commentsBeforeRoot_ : commentsAfterRoot_).push_back(c.text);
    }
  }
  return &*source->root;
}

void Processor::report(const XacroError& error, const SourceLocation& fallback) {
  const SourceLocation where = error.where.known() ? error.where : fallback;
  // A spent value budget: every later evaluation would fail the same way, so one error for the
  // cause, whatever error carried it here, then the expansion stops.
  const bool budgetSpent = ValueBudget::spent();
  if (error.said == XacroError::Said::Before && !budgetSpent) return;
  const ErrorCode code = budgetSpent ? ErrorCode::EXPANSION_LIMIT : error.code;
  if (budgetSpent) {
    diagnostics_.error(code, ValueBudget::spentMessage(), where);
  } else if (error.said == XacroError::Said::Nothing) {
    diagnostics_.error(code, error.message, where);
  }
  for (std::uint32_t s = step_; s >= 1 && s <= steps_.size(); s = steps_[s - 1].parent) {
    diagnostics_.add(Diagnostic{Severity::Note, code, steps_[s - 1].what, steps_[s - 1].where});
  }
  if (budgetSpent) throw Abort{};
  if (++errors_ >= limits_.maxErrors) {
    diagnostics_.error(ErrorCode::EXPANSION_LIMIT, "too many errors; expansion stopped", where);
    throw Abort{};
  }
}

void Processor::warn(const std::string& message, const SourceLocation& where) {
  diagnostics_.warning(ErrorCode::EXPANSION_ERROR, message, where);
}

void Processor::countOutput(std::size_t elements, std::size_t bytes, const SourceLocation& where) {
  elements_ += elements;
  bytes_ += bytes;
  if (elements_ > limits_.maxElements || bytes_ > limits_.maxOutputBytes) {
    diagnostics_.error(ErrorCode::EXPANSION_LIMIT,
                       "the expansion grew past " + std::to_string(limits_.maxElements) + " elements or " +
                           std::to_string(limits_.maxOutputBytes >> 20) + " MiB (a macro bomb?)",
                       where);
    throw Abort{};
  }
}

std::optional<std::string> Processor::readFile(const std::string& file, const SourceLocation& where, bool quiet,
                                               std::string* resolved) {
  if (++includes_ > limits_.maxIncludes) {
    diagnostics_.error(ErrorCode::INCLUDE_LIMIT,
                       "more than " + std::to_string(limits_.maxIncludes) + " includes and YAML files in one expansion", where);
    throw Abort{};
  }
  if (!plugin::hostHas(host_, offsetof(plugin::HostServices, endInclude)) || !host_->beginInclude) {
    throw XacroError{"cannot read '" + file + "': the host offers no include service", where};
  }
  plugin::IncludedFile included;
  Diagnostics found;
  if (!host_->beginInclude(host_->context, file, fileStack_.back(), where, included, found)) {
    if (!quiet) throw includeFailed(file, where, found);
    return std::nullopt;
  }
  std::string content(included.content);
  if (resolved) *resolved = included.path;
  host_->endInclude(host_->context);
  return content;
}

XacroError Processor::includeFailed(const std::string& file, const SourceLocation& where, const Diagnostics& found) {
  XacroError error{"No such file or directory: " + file, where};
  if (!missingFiles_.insert(file).second) {
    error.said = XacroError::Said::Before;
    return error;
  }
  for (const Diagnostic& d : found) {
    diagnostics_.add(d);
    if (d.severity == Severity::Error && error.said == XacroError::Said::Nothing) {
      error.said = XacroError::Said::ByHost;
      error.code = d.code;
    }
  }
  return error;
}

Value Processor::loadYaml(const std::string& filename) {
  const SourceLocation where = current_ ? *current_ : SourceLocation{};
  const std::string file = absoluteFilename(filename);
  std::string resolved;
  std::optional<std::string> content = readFile(file, where, false, &resolved);
  try {
    return yamlSource(resolved, *content);
  } catch (const ExpressionError& e) {
    throw XacroError{std::string(e.what()) + " in '" + resolved + "'", where};
  }
}

bool Processor::xacroFunction(const std::string& name, Value& out) {
  Processor* self = this;
  const auto make = [&](const std::string& n, Value& into) -> bool {
    if (n == "load_yaml") {
      into = Function{"load_yaml", [self](const Arguments& a, const KeywordArguments&) {
                        if (a.size() != 1 || !a[0].isString()) throw ExpressionError("load_yaml() takes one file name");
                        return self->loadYaml(a[0].string());
                      }};
    } else if (n == "abs_filename") {
      into = Function{"abs_filename", [self](const Arguments& a, const KeywordArguments&) {
                        if (a.size() != 1 || !a[0].isString()) throw ExpressionError("abs_filename() takes one file name");
                        return Value(self->absoluteFilename(a[0].string()));
                      }};
    } else if (n == "dotify") {
      into = Function{"dotify", [](const Arguments& a, const KeywordArguments&) {
                        if (a.size() != 1) throw ExpressionError("dotify() takes one dict");
                        return a[0];
                      }};
    } else if (n == "arg") {
      into = Function{"arg", [self](const Arguments& a, const KeywordArguments&) {
                        if (a.size() != 1 || !a[0].isString()) throw ExpressionError("arg() takes one name");
                        auto found = self->arguments_.find(a[0].string());
                        if (found == self->arguments_.end()) throw ExpressionError("KeyError: '" + a[0].string() + "'");
                        return Value(found->second);
                      }};
    } else if (n == "tokenize") {
      into = Function{"tokenize", [](const Arguments& a, const KeywordArguments& k) {
                        if (a.empty() || !a[0].isString()) throw ExpressionError("tokenize() takes a string");
                        std::string separators = a.size() > 1 ? str(a[1]) : ",; ";
                        bool skipEmpty = a.size() > 2 ? truthy(a[2]) : true;
                        for (const auto& [key, v] : k) {
                          if (key == "sep") separators = str(v);
                          if (key == "skip_empty") skipEmpty = truthy(v);
                        }
                        List tokens;
                        std::string piece;
                        for (char c : a[0].string()) {
                          if (separators.find(c) != std::string::npos) {
                            if (!piece.empty() || !skipEmpty) tokens.emplace_back(piece);
                            piece.clear();
                          } else {
                            piece += c;
                          }
                        }
                        if (!piece.empty() || !skipEmpty) tokens.emplace_back(piece);
                        return Value(std::move(tokens));
                      }};
    } else if (n == "fatal") {
      into = Function{"fatal", [](const Arguments& a, const KeywordArguments&) -> Value {
                        std::string message;
                        for (const Value& v : a) message += (message.empty() ? "" : " ") + str(v);
                        throw ExpressionError(message);
                      }};
    } else if (n == "message" || n == "warning" || n == "error" || n == "print_location") {
      const bool warns = n == "warning" || n == "error";
      into = Function{n, [self, warns](const Arguments& a, const KeywordArguments&) {
                        std::string message;
                        for (const Value& v : a) message += (message.empty() ? "" : " ") + str(v);
                        if (warns) self->warn(message, self->current_ ? *self->current_ : SourceLocation{});
                        return Value(std::string());
                      }};
    } else {
      return false;
    }
    return true;
  };
  if (name == "xacro") {
    out = Namespace{"xacro", [make](const std::string& member, Value& value) { return make(member, value); }};
    return true;
  }
  // Reached directly too (deprecated in xacro, still used).
  if (name == "load_yaml" || name == "abs_filename" || name == "dotify") return make(name, out);
  return false;
}

// Elements ------------------------------------------------------------------------------------

namespace {

struct Walker {
  Processor& p;

  void attributes(const xml::XmlElement& in, const ScopePtr& symbols, OutElement& out) {
    for (const xml::Attribute& a : in.attributes) {
      if (hasXacroPrefix(a.name) || std::string_view(a.name) == "xmlns:xacro") continue;
      p.current_ = &a.where;
      std::string value;
      try {
        value = p.evalString(a.value, symbols);
      } catch (const XacroError& e) {
        p.report(e, a.where);
      }
      p.countOutput(0, value.size() + a.name.size(), a.where);
      out.attributes.push_back(OutAttribute{a.name, std::move(value), a.where, p.step_});
    }
  }

  void text(const std::string& text, const xml::XmlElement& in, const ScopePtr& symbols, OutElement& into) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return;
    p.current_ = &in.where;
    try {
      const std::string value = p.evalString(text, symbols);
      p.countOutput(0, value.size(), in.where);
      into.text += value;
    } catch (const XacroError& e) {
      p.report(e, in.where);
    }
  }

  /// Mixed content: the part of `in`'s text before child `i` (after the last child when `i` is
  /// the number of children), evaluated when the walk reaches it and kept in its place, as xacro
  /// keeps text nodes.
  void textBefore(std::size_t i, const std::vector<std::size_t>& splits, const xml::XmlElement& in,
                  const ScopePtr& symbols, OutElement& into) {
    const std::size_t from = i == 0 ? 0 : splits[i - 1];
    const std::size_t to = i < splits.size() ? splits[i] : in.text.size();
    if (to <= from) return;
    OutElement node;
    node.textNode = true;
    node.where = in.where;
    node.step = p.step_;
    text(in.text.substr(from, to - from), in, symbols, node);
    if (!node.text.empty()) into.children.push_back(std::move(node));
  }

  void plainElement(const xml::XmlElement& in, const std::string& name, const ScopePtr& symbols,
                    const MacroTablePtr& macros, OutElement& into) {
    p.countOutput(1, name.size(), in.where);
    OutElement out;
    out.name = name;
    out.where = in.where;
    out.step = p.step_;
    out.attributes.reserve(in.attributes.size());  // at most these (xacro:attribute may add more)
    // Usually as many children as written (a macro call may make more, a property none): growing
    // the list one by one moved each child's whole element again at every doubling. Capped, so that
    // thousands of xacro:property children reserve no room for elements never made.
    out.children.reserve(std::min<std::size_t>(in.children.size(), 64));
    attributes(in, symbols, out);
    children(in, symbols, macros, out);
    into.children.push_back(std::move(out));
  }

  void children(const xml::XmlElement& in, const ScopePtr& symbols, const MacroTablePtr& macros, OutElement& into) {
    const std::vector<std::size_t>* splits = p.textSplitsOf(in);
    if (!splits) text(in.text, in, symbols, into);
    const std::vector<const xml::XmlComment*>* comments = p.commentsOf(in);
    if (!comments) {
      for (std::size_t i = 0; i < in.children.size(); ++i) {
        if (splits) textBefore(i, *splits, in, symbols, into);
        child_(in.children[i], symbols, macros, into);
      }
      if (splits) textBefore(in.children.size(), *splits, in, symbols, into);
      return;
    }
    // xacro's eval_all over the child nodes: comments stay where they are, evaluated after a
    // comment naming xacro:eval-comments until the next element or text; xacro elements take
    // away the comments directly before them (remove_previous_comments).
    Trail trail;
    bool evaluating = false;
    auto comment = comments->begin();
    for (std::size_t i = 0; i <= in.children.size(); ++i) {
      trail.clear();
      const xml::XmlComment* last = nullptr;
      for (; comment != comments->end() && (*comment)->index == i; ++comment) {
        last = *comment;
        const xml::XmlComment& c = **comment;
        if (!c.textBefore.empty()) {
          trail.push_back(TrailNode{&c.textBefore, 0});
          if (c.textBefore.find_first_not_of(" \t\r\n") != std::string::npos) evaluating = false;
        }
        if (c.text.find("xacro:eval-comments") != std::string::npos) {
          evaluating = c.text.find("xacro:eval-comments:off") == std::string::npos;
          continue;  // this comment itself is dropped
        }
        OutElement kept;
        kept.comment = true;
        kept.where = c.where;
        kept.step = p.step_;
        p.current_ = &c.where;
        try {
          kept.text = evaluating ? p.evalString(c.text, symbols) : c.text;
          // XML has no way to write these in a comment (xacro's printer refuses "--" too).
          if (kept.text.find("--") != std::string::npos || (!kept.text.empty() && kept.text.back() == '-')) {
            throw XacroError{"'--' is not allowed in a comment node (nor a '-' at its end)", c.where};
          }
        } catch (const XacroError& e) {
          p.report(e, c.where);
          continue;
        }
        p.countOutput(0, kept.text.size(), c.where);
        into.children.push_back(std::move(kept));
        trail.push_back(TrailNode{nullptr, into.children.size() - 1});
      }
      if (splits) textBefore(i, *splits, in, symbols, into);
      if (i == in.children.size()) break;
      if (last && !last->textAfter.empty()) trail.push_back(TrailNode{&last->textAfter, 0});
      const xml::XmlElement& child = in.children[i];
      evaluating = false;  // any element ends the evaluation of comments
      if (takesPreviousComments(child.name)) removePreviousComments(trail, into);
      child_(child, symbols, macros, into);
    }
  }

  void child_(const xml::XmlElement& child, const ScopePtr& symbols, const MacroTablePtr& macros, OutElement& into) {
    p.current_ = &child.where;
    try {
      element(child, child.name, symbols, macros, into);
    } catch (const XacroError& e) {
      p.report(e, child.where);
      if (child.name == "xacro:include") p.includeFailed_ = true;
    }
  }

  /// The text (text set) or kept comment (its index in the output) between two elements.
  struct TrailNode {
    const std::string* text;
    std::size_t comment;
  };
  using Trail = std::vector<TrailNode>;

  /// The xacro elements whose comments go with them: all but insert_block, element, attribute.
  static bool takesPreviousComments(const std::string& name) {
    if (!hasXacroPrefix(name)) return false;
    const std::string_view tag = std::string_view(name).substr(kPrefix.size());
    return tag != "insert_block" && tag != "element" && tag != "attribute";
  }

  /// xacro's remove_previous_comments: the comments before an element, each separated from the
  /// next by at most one line break of white space, leave the output.
  static void removePreviousComments(const Trail& trail, OutElement& into) {
    std::size_t k = trail.size();
    while (k > 0) {
      if (const std::string* text = trail[k - 1].text) {
        if (text->find_first_not_of(" \t\r\n\f\v") == std::string::npos && std::count(text->begin(), text->end(), '\n') <= 1) --k;
      }
      if (k == 0 || trail[k - 1].text) return;
      into.children.erase(into.children.begin() + static_cast<std::ptrdiff_t>(trail[k - 1].comment));
      --k;
    }
  }

  void element(const xml::XmlElement& in, const std::string& name, const ScopePtr& symbols, const MacroTablePtr& macros,
               OutElement& into) {
    if (!hasXacroPrefix(name)) {
      plainElement(in, name, symbols, macros, into);
      return;
    }
    const std::string_view tag = std::string_view(name).substr(kPrefix.size());
    if (tag == "property") {
      p.defineProperty(in, symbols);
    } else if (tag == "macro") {
      defineMacro(in, macros);
    } else if (tag == "include") {
      include(in, symbols, macros, into);
    } else if (tag == "if" || tag == "unless") {
      const xml::Attribute* value = required(in, "value");
      p.current_ = &value->where;
      bool keep = p.booleanValue(p.evalText(value->value, symbols), value->value);
      if (tag == "unless") keep = !keep;
      if (keep) children(in, symbols, macros, into);
    } else if (tag == "arg") {
      const xml::Attribute* argName = required(in, "name");
      const xml::Attribute* fallback = required(in, "default");
      if (!p.arguments_.count(argName->value)) {
        p.current_ = &fallback->where;
        p.arguments_[argName->value] = p.evalString(fallback->value, symbols);
      }
    } else if (tag == "element") {
      const xml::Attribute* elementName = required(in, "xacro:name");
      p.current_ = &elementName->where;
      const std::string evaluated = p.evalString(elementName->value, symbols);
      if (evaluated.empty()) throw XacroError{"xacro:element: empty name", elementName->where};
      element(in, evaluated, symbols, macros, into);
    } else if (tag == "attribute") {
      const xml::Attribute* attributeName = required(in, "name");
      const xml::Attribute* value = required(in, "value");
      p.current_ = &value->where;
      const std::string n = p.evalString(attributeName->value, symbols);
      if (n.empty()) throw XacroError{"xacro:attribute: empty name", attributeName->where};
      std::string v = p.evalString(value->value, symbols);
      auto existing = std::find_if(into.attributes.begin(), into.attributes.end(), [&](const OutAttribute& a) { return a.name == n; });
      if (existing != into.attributes.end()) {
        existing->value = std::move(v);
        existing->where = value->where;
        existing->step = p.step_;
      } else {
        if (into.attributes.size() >= p.limits_.maxAttributesPerElement) {
          diagnosticsLimit(in, "xacro:attribute: an element with more than " +
                                   std::to_string(p.limits_.maxAttributesPerElement) +
                                   " attributes (the XML reader's limit, ParseOptions::maxAttributesPerElement)");
        }
        into.attributes.push_back(OutAttribute{n, std::move(v), value->where, p.step_});
      }
    } else if (tag == "insert_block") {
      insertBlock(in, symbols, macros, into);
    } else if (tag == "call") {
      const xml::Attribute* macro = required(in, "macro");
      p.current_ = &macro->where;
      const std::string target = p.evalString(macro->value, symbols);
      if (target.empty()) throw XacroError{"xacro:call is missing the 'macro' attribute", macro->where};
      callMacro(in, target, symbols, macros, into, true);
    } else {
      callMacro(in, std::string(tag), symbols, macros, into, false);
    }
  }

  void defineMacro(const xml::XmlElement& in, const MacroTablePtr& macros) {
    const xml::Attribute* macroName = required(in, "name");
    const std::string& name = macroName->value;
    if (name == "call") throw XacroError{"Invalid use of macro name 'call'", macroName->where};
    if (name.find('.') != std::string::npos) {
      throw XacroError{"macro names must not contain '.' (reserved for namespaces): " + name, macroName->where};
    }
    if (hasXacroPrefix(name)) p.warn("macro names must not contain prefix 'xacro:': " + name, macroName->where);
    std::shared_ptr<const Macro> macro = p.macroOf(in);
    macros->macros[macro->name] = std::move(macro);
  }

  /// The macro `fullName` ("name" or "ns.name") with the tables its body runs in.
  bool resolveMacro(const std::string& fullName, MacroTablePtr macros, ScopePtr symbols, std::shared_ptr<const Macro>& macro,
                    MacroTablePtr& macroScope, ScopePtr& symbolScope) {
    for (MacroTablePtr t = macros; t; t = t->parent) {
      auto found = t->macros.find(fullName);
      if (found != t->macros.end()) {
        macro = found->second;
        macroScope = macros;
        symbolScope = symbols;
        return true;
      }
    }
    std::string rest = fullName;
    for (std::size_t dot; (dot = rest.find('.')) != std::string::npos;) {
      const std::string ns = rest.substr(0, dot);
      rest = rest.substr(dot + 1);
      MacroTablePtr inner;
      for (MacroTablePtr t = macros; t && !inner; t = t->parent) {
        auto found = t->namespaces.find(ns);
        if (found != t->namespaces.end()) inner = found->second;
      }
      ScopePtr innerSymbols;
      for (ScopePtr s = symbols; s && !innerSymbols; s = s->parent) {
        auto found = s->namespaces.find(ns);
        if (found != s->namespaces.end()) innerSymbols = found->second;
      }
      if (!inner || !innerSymbols) return false;
      macros = inner;
      symbols = innerSymbols;
    }
    if (rest == fullName) return false;
    auto found = macros->macros.find(rest);
    if (found == macros->macros.end()) return false;
    macro = found->second;
    macroScope = macros;
    symbolScope = symbols;
    return true;
  }

  void callMacro(const xml::XmlElement& call, const std::string& name, const ScopePtr& callerSymbols,
                 const MacroTablePtr& callerMacros, OutElement& into, bool dynamic) {
    std::shared_ptr<const Macro> macro;
    MacroTablePtr macroScope;
    ScopePtr symbols;
    if (!resolveMacro(name, callerMacros, callerSymbols, macro, macroScope, symbols)) {
      if (p.includeFailed_) return;  // most likely defined by the file that could not be included
      throw XacroError{"unknown macro name: xacro:" + name, call.where};
    }
    if (++p.macroCalls_ > p.limits_.maxMacroCalls) {
      diagnosticsLimit(call, "more than " + std::to_string(p.limits_.maxMacroCalls) +
                                 " macro calls in one expansion (a macro bomb?) at macro '" + name + "'");
    }
    if (p.macroDepth_ >= p.limits_.maxMacroDepth) {
      diagnosticsLimit(call, "macro calls nested more than " + std::to_string(p.limits_.maxMacroDepth) +
                                 " deep (infinite recursion?) at macro '" + name + "'");
    }
    auto scope = std::make_shared<Scope>();
    scope->parent = symbols;
    auto localMacros = std::make_shared<MacroTable>();
    localMacros->parent = macroScope;
    // Each parameter is bound once, in this order: the call's attributes, blocks, defaults.
    const std::vector<std::string>& params = macro->params;
    std::vector<bool> bound(params.size(), false);
    for (const xml::Attribute& a : call.attributes) {
      if (dynamic && a.name == "macro") continue;
      const std::size_t at = unboundParameter(*macro, a.name, bound);
      if (at == params.size()) throw XacroError{"Invalid parameter \"" + a.name + "\" of macro '" + name + "'", a.where};
      bound[at] = true;
      p.current_ = &a.where;
      p.setProperty(scope, a.name, p.evalText(a.value, symbols), false);
    }
    // Blocks are expanded where the macro is called, in the caller's scope.
    OutElement blocks;
    children(call, callerSymbols, callerMacros, blocks);
    // Blocks are the call's elements; comments and text between them are not blocks.
    blocks.children.erase(std::remove_if(blocks.children.begin(), blocks.children.end(),
                                         [](const OutElement& e) { return e.comment || e.textNode; }),
                          blocks.children.end());
    std::size_t nextBlock = 0;
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (bound[i] || params[i].empty() || params[i][0] != '*') continue;
      if (nextBlock >= blocks.children.size()) throw XacroError{"Not enough blocks for macro '" + name + "'", call.where};
      auto block = std::make_shared<Block>();
      block->element = std::move(blocks.children[nextBlock++]);
      Scope::Property property;
      property.block = block;
      scope->table[params[i]] = std::move(property);
      bound[i] = true;
    }
    if (nextBlock < blocks.children.size()) {
      throw XacroError{"Unused block \"" + blocks.children[nextBlock].name + "\" in call of macro '" + name + "'",
                       blocks.children[nextBlock].where};
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (bound[i]) continue;
      auto spec = macro->defaults.find(params[i]);
      if (spec == macro->defaults.end() || (!spec->second.first && !spec->second.second)) continue;
      Value value;
      if (spec->second.first && p.lookupProperty(symbols, *spec->second.first, value)) {
        // forwarded from the caller's scope
      } else if (spec->second.second) {
        value = p.evalText(*spec->second.second, symbols);
      } else {
        throw XacroError{"Undefined property to forward: " + *spec->second.first, call.where};
      }
      p.setProperty(scope, params[i], std::move(value), false);
      bound[i] = true;
    }
    std::vector<std::string> unbound;
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (!bound[i]) unbound.push_back(params[i]);
    }
    if (!unbound.empty()) {
      throw XacroError{"Undefined parameters [" + joinNames(unbound) + "] in call of macro '" + name + "'", call.where};
    }
    p.steps_.push_back(plugin::ExpansionStep{"in expansion of macro '" + name + "'", call.where, p.step_});
    const std::uint32_t saved = p.step_;
    p.step_ = static_cast<std::uint32_t>(p.steps_.size());
    ++p.macroDepth_;
    struct Restore {
      Processor& p;
      std::uint32_t step;
      ~Restore() {
        p.step_ = step;
        --p.macroDepth_;
      }
    } restore{p, saved};
    children(*macro->body, scope, localMacros, into);
  }

  [[noreturn]] void diagnosticsLimit(const xml::XmlElement& at, const std::string& message) {
    p.diagnostics_.error(ErrorCode::EXPANSION_LIMIT, message, at.where);
    for (std::uint32_t s = p.step_, n = 0; s >= 1 && s <= p.steps_.size() && n < 5; s = p.steps_[s - 1].parent, ++n) {
      p.diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::EXPANSION_LIMIT, p.steps_[s - 1].what, p.steps_[s - 1].where});
    }
    throw Abort{};
  }

  void insertBlock(const xml::XmlElement& in, const ScopePtr& symbols, const MacroTablePtr& macros, OutElement& into) {
    const xml::Attribute* blockName = required(in, "name");
    const std::string name = p.evalString(blockName->value, symbols);
    bool contentOnly = true;
    std::shared_ptr<const Block> block = p.lookupBlock(symbols, "**" + name);
    if (!block) {
      block = p.lookupBlock(symbols, "*" + name);
      contentOnly = false;
    }
    if (!block) throw XacroError{"Undefined block \"" + name + "\"", blockName->where};
    if (block->raw) {
      // A property block may insert blocks itself: bounded like macro calls.
      if (p.macroDepth_ >= p.limits_.maxMacroDepth) {
        diagnosticsLimit(in, "blocks inserted inside each other more than " + std::to_string(p.limits_.maxMacroDepth) +
                                 " deep at block '" + name + "'");
      }
      ++p.macroDepth_;
      struct Restore {
        Processor& p;
        ~Restore() { --p.macroDepth_; }
      } restore{p};
      children(*block->raw, symbols, macros, into);
      return;
    }
    std::size_t count = 1;
    const auto countAll = [&](const OutElement& e, const auto& self) -> void {
      for (const OutElement& c : e.children) {
        ++count;
        self(c, self);
      }
    };
    countAll(block->element, countAll);
    p.countOutput(count, 0, in.where);
    if (contentOnly) {
      into.text += block->element.text;
      into.children.insert(into.children.end(), block->element.children.begin(), block->element.children.end());
    } else {
      into.children.push_back(block->element);
    }
  }

  void include(const xml::XmlElement& in, const ScopePtr& symbols, const MacroTablePtr& macros, OutElement& into) {
    const xml::Attribute* filename = required(in, "filename");
    p.current_ = &filename->where;
    const std::string spec = p.absoluteFilename(p.evalString(filename->value, symbols));
    const xml::Attribute* optionalAttribute = in.attribute("optional");
    const bool optional = optionalAttribute && p.booleanValue(Value(optionalAttribute->value), optionalAttribute->value);
    ScopePtr innerSymbols = symbols;
    MacroTablePtr innerMacros = macros;
    if (const xml::Attribute* ns = in.attribute("ns")) {
      const std::string nsName = p.evalString(ns->value, symbols);
      innerSymbols = std::make_shared<Scope>();
      innerSymbols->parent = symbols;
      innerSymbols->isNamespace = true;
      symbols->namespaces[nsName] = innerSymbols;
      p.namespaceScopes_.push_back(innerSymbols);
      innerMacros = std::make_shared<MacroTable>();
      macros->namespaces[nsName] = innerMacros;
    }
    std::vector<std::string> files;
    if (spec.find_first_of("*[?") != std::string::npos) {
      const fs::path pattern(spec);
      std::error_code ec;
      for (fs::directory_iterator it(pattern.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        if (::fnmatch(pattern.filename().c_str(), it->path().filename().c_str(), 0) == 0) files.push_back(it->path().string());
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) p.warn("Include tag's filename spec \"" + spec + "\" matched no files.", filename->where);
    } else {
      files.push_back(spec);
    }
    for (const std::string& file : files) {
      std::string resolved;
      std::optional<std::string> content;
      if (++p.includes_ > p.limits_.maxIncludes) {
        diagnosticsLimit(in, "more than " + std::to_string(p.limits_.maxIncludes) + " includes in one expansion");
      }
      plugin::IncludedFile included;
      Diagnostics found;
      const bool hasService = plugin::hostHas(p.host_, offsetof(plugin::HostServices, endInclude)) && p.host_->beginInclude;
      if (!hasService || !p.host_->beginInclude(p.host_->context, file, p.fileStack_.back(), filename->where, included, found)) {
        if (optional) continue;
        throw p.includeFailed(file, filename->where, found);
      }
      struct EndInclude {
        Processor& p;
        ~EndInclude() { p.host_->endInclude(p.host_->context); }
      } end{p};
      Diagnostics parseErrors;
      const xml::XmlElement* root = p.parseTree(included.content, included.path, parseErrors, false);
      for (const Diagnostic& d : parseErrors) p.diagnostics_.add(d);
      if (!root) throw XacroError{"XML parsing error in included file " + included.path, filename->where};
      const xml::XmlElement& tree = *root;
      p.steps_.push_back(plugin::ExpansionStep{"in file included from here", in.where, p.step_});
      const std::uint32_t saved = p.step_;
      p.step_ = static_cast<std::uint32_t>(p.steps_.size());
      p.fileStack_.push_back(included.path);
      struct Restore {
        Processor& p;
        std::uint32_t step;
        ~Restore() {
          p.step_ = step;
          p.fileStack_.pop_back();
        }
      } restore{p, saved};
      children(tree, innerSymbols, innerMacros, into);
    }
  }
};

}  // namespace

void Processor::expandChildren(const xml::XmlElement& element, const ScopePtr& symbols, const MacroTablePtr& macros,
                               OutElement& into) {
  Walker{*this}.children(element, symbols, macros, into);
}

Expansion Processor::run(std::string_view content) {
  Expansion expansion;
  const xml::XmlElement* root = parseTree(content, path_, diagnostics_, true);
  if (!root) return expansion;
  const xml::XmlElement& tree = *root;
  auto symbols = std::make_shared<Scope>();
  auto macros = std::make_shared<MacroTable>();
  OutElement out;
  out.name = tree.name;
  out.where = tree.where;
  ValueBudget budget(limits_.maxValueBytes);
  try {
    Walker walker{*this};
    walker.attributes(tree, symbols, out);
    if (const xml::Attribute* target = tree.attribute("xacro:targetNamespace")) {
      out.attributes.push_back(OutAttribute{"xmlns", target->value, target->where, 0});
    }
    walker.children(tree, symbols, macros, out);
  } catch (const Abort&) {
    return expansion;
  }
  expansion.root = std::move(out);
  expansion.steps = std::move(steps_);
  expansion.commentsBeforeRoot = std::move(commentsBeforeRoot_);
  expansion.commentsAfterRoot = std::move(commentsAfterRoot_);
  return expansion;
}

}  // namespace detail

Expansion expandXacro(const std::string& path, std::string_view content, const plugin::HostServices* host,
                      const std::vector<std::pair<std::string, std::string>>& arguments, Diagnostics& diagnostics,
                      const ExpansionLimits& limits) {
  detail::Processor processor(path, host, arguments, diagnostics, limits);
  return processor.run(content);
}

}  // namespace interlink::xacro
