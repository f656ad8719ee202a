// Text, properties and substitution arguments: xacro's eval_text, Table and substitution_args.
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "XacroProcessor.hpp"

namespace interlink::xacro::detail {

namespace fs = std::filesystem;

bool isIdentifier(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (c & 0x80);
    if (!ok) return false;
  }
  if (name.size() < 2 || name.size() > 8) return true;  // no keyword is shorter or longer
  static constexpr std::string_view kKeywords[] = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
      "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
      "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  // Compared as string views (sizes first): with C strings every property definition paid a
  // strlen and a compare per keyword.
  for (const std::string_view k : kKeywords) {
    if (std::string_view(name) == k) return false;
  }
  return true;
}

namespace {

/// Names seen by an expression: the properties in scope, the `xacro` functions, the builtins.
class ScopeEnvironment : public Environment {
 public:
  ScopeEnvironment(Processor& processor, const ScopePtr& scope) : processor_(processor), scope_(scope) {}
  bool lookup(const std::string& name, Value& out) override {
    return processor_.lookupProperty(scope_, name, out) || processor_.xacroFunction(name, out) ||
           builtinGlobal(name, out);
  }

 private:
  Processor& processor_;
  const ScopePtr& scope_;  // outlives the evaluation
};

/// Names seen by $(eval ...): the arguments (typed as literals), arg() and the builtins.
class ArgumentEnvironment : public Environment {
 public:
  explicit ArgumentEnvironment(Processor& processor) : processor_(processor) {}
  bool lookup(const std::string& name, Value& out) override {
    if (name == "arg") {
      Processor* p = &processor_;
      out = Function{"arg", [p](const Arguments& a, const KeywordArguments&) {
                       if (a.size() != 1 || !a[0].isString()) throw ExpressionError("arg() takes one name");
                       auto found = p->arguments_.find(a[0].string());
                       if (found == p->arguments_.end()) throw ExpressionError("Undefined substitution argument " + a[0].string());
                       return literalValue(found->second);
                     }};
      return true;
    }
    auto found = processor_.arguments_.find(name);
    if (found != processor_.arguments_.end()) {
      out = literalValue(found->second);
      return true;
    }
    if (name == "true" || name == "false") {
      out = name == "true";
      return true;
    }
    return builtinGlobal(name, out);
  }

 private:
  Processor& processor_;
};

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

}  // namespace

const TextTemplate& Processor::textTemplate(const std::string& text) {
  auto [entry, added] = templates_.try_emplace(text);
  if (added) entry->second = textTemplateOf(text);
  return *entry->second;
}

Value Processor::evalPiece(const TextPiece& piece, const ScopePtr& scope) {
  switch (piece.kind) {
    case TextPiece::Literal: return piece.text;
    case TextPiece::Invalid: throw XacroError{piece.text, {}};
    case TextPiece::Substitution: return substitution(piece.nested ? evalString(piece.text, scope) : piece.text, scope);
    case TextPiece::Expression: break;
  }
  ScopeEnvironment environment(*this, scope);
  try {
    if (!piece.nested) {
      if (!piece.parsed) throw ExpressionError(piece.parseError);
      return piece.parsed->evaluate(environment);
    }
    const std::string expression = evalString(piece.text, scope);
    auto& parsed = parsed_[expression];
    if (!parsed) parsed = parsedExpression(expression);
    return parsed->evaluate(environment);
  } catch (const ExpressionError& e) {
    throw XacroError{std::string(e.what()) + "\nwhen evaluating expression '" + piece.text + "'", {}};
  }
}

Value Processor::evalText(const std::string& text, const ScopePtr& scope) {
  if (text.find('$') == std::string::npos) return text;
  // Each text is split into its pieces once per expansion (macro bodies evaluate the same texts
  // again); the pieces are evaluated every time, in order.
  const TextTemplate& pieces = textTemplate(text);
  if (pieces.size() == 1) return evalPiece(pieces.front(), scope);
  std::string joined;
  for (const TextPiece& piece : pieces) {
    if (piece.kind == TextPiece::Literal) {
      joined += piece.text;
    } else {
      const Value value = evalPiece(piece, scope);
      if (value.isString()) {
        joined += value.string();  // str() of a string is the string: no copy of it first
      } else {
        joined += str(value);
      }
    }
    if (joined.size() > kMaxValueSize) throw XacroError{"value too large while evaluating '" + text + "'", {}};
  }
  try {
    ValueBudget::count(joined.size());
  } catch (const ExpressionError& e) {
    throw XacroError{e.what(), {}};  // reported where the text is, as an expression's error is
  }
  return joined;
}

bool Processor::booleanValue(const Value& value, const std::string& condition) {
  if (value.isString()) {
    const std::string& s = value.string();
    if (s == "true" || s == "True") return true;
    if (s == "false" || s == "False") return false;
    std::int64_t i = 0;
    if (parsePythonInt(s, i)) return i != 0;
  } else if (!value.isFunction() && !value.isNamespace()) {
    return truthy(value);
  }
  throw XacroError{"Xacro conditional \"" + condition + "\" evaluated to \"" + str(value) +
                       "\", which is not a boolean expression.",
                   {}};
}

bool Processor::lookupProperty(const ScopePtr& scope, const std::string& name, Value& out) {
  for (Scope* s = scope.get(); s; s = s->parent.get()) {
    auto found = s->table.find(name);
    if (found != s->table.end()) {
      Scope::Property& property = found->second;
      if (property.block) return false;
      if (property.failed) {
        XacroError followOn{"property '" + name + "' could not be evaluated", {}};
        followOn.said = XacroError::Said::Before;
        throw followOn;
      }
      if (property.pending) {
        if (property.resolving) throw XacroError{"circular variable definition: " + name, {}};
        if (resolvingDepth_ >= limits_.maxMacroDepth) {
          throw XacroError{"properties defined through more than " + std::to_string(limits_.maxMacroDepth) +
                               " other properties (at '" + name + "')",
                           {}};
        }
        property.resolving = true;
        ++resolvingDepth_;
        Value v;
        try {
          v = evalText(property.text, s->shared_from_this());
        } catch (...) {
          property.resolving = false;
          property.failed = true;
          --resolvingDepth_;
          throw;
        }
        --resolvingDepth_;
        property.value = v.isString() ? literalValue(std::get<std::string>(std::move(v.v))) : std::move(v);
        property.pending = false;
        property.resolving = false;
      }
      out = property.value;
      return true;
    }
    if (s->namespaces.empty()) continue;
    auto ns = s->namespaces.find(name);
    if (ns != s->namespaces.end()) {
      ScopePtr inner = ns->second;
      Processor* self = this;
      out = Namespace{name, [self, inner](const std::string& member, Value& value) {
                        return self->lookupProperty(inner, member, value);
                      }};
      return true;
    }
  }
  return false;
}

std::shared_ptr<const Block> Processor::lookupBlock(const ScopePtr& scope, const std::string& key) {
  for (const Scope* s = scope.get(); s; s = s->parent.get()) {
    auto found = s->table.find(key);
    if (found != s->table.end() && found->second.block) return found->second.block;
  }
  return nullptr;
}

void Processor::setProperty(const ScopePtr& scope, const std::string& name, Value value, bool lazy) {
  Scope::Property property;
  // The text is moved along, not copied: a property is set at every definition and every macro
  // parameter of every call.
  if (value.isString()) value = literalValue(std::get<std::string>(std::move(value.v)));
  if (lazy && value.isString()) {
    property.text = std::get<std::string>(std::move(value.v));
    property.pending = true;
  } else {
    property.value = std::move(value);
  }
  scope->table.insert_or_assign(name, std::move(property));
}

void Processor::defineProperty(const xml::XmlElement& element, const ScopePtr& scope) {
  const xml::Attribute* nameAttribute = element.attribute("name");
  if (!nameAttribute) throw XacroError{"xacro:property: missing attribute 'name'", element.where};
  const std::string name = evalString(nameAttribute->value, scope);
  if (!isIdentifier(name)) throw XacroError{"Property names must be valid python identifiers: " + name, nameAttribute->where};
  if (name.rfind("__", 0) == 0) throw XacroError{"Property names must not start with double underscore:" + name, nameAttribute->where};
  const xml::Attribute* value = element.attribute("value");
  const xml::Attribute* fallback = element.attribute("default");
  const xml::Attribute* remove = element.attribute("remove");
  const xml::Attribute* scopeAttribute = element.attribute("scope");
  const xml::Attribute* lazyAttribute = element.attribute("lazy_eval");
  for (const xml::Attribute& a : element.attributes) {
    const std::string_view n = a.name;
    if (n != "name" && n != "value" && n != "default" && n != "remove" && n != "scope" && n != "lazy_eval" &&
        n.substr(0, 6) != "xmlns:") {
      warn("xacro:property: unknown attribute(s): " + a.name, a.where);
    }
  }
  const bool removing = remove && booleanValue(evalText(remove->value, scope), remove->value);
  if ((value != nullptr) + (fallback != nullptr) + removing > 1) {
    throw XacroError{"Property attributes default, value, and remove are mutually exclusive: " + name, element.where};
  }
  if (removing) {
    for (ScopePtr s = scope; s; s = s->parent) s->table.erase(name);
    return;
  }
  const std::string* text = value ? &value->value : nullptr;  // the attribute's, alive for the call
  if (fallback) {
    Value ignored;
    if (lookupProperty(scope, name, ignored)) return;
    text = &fallback->value;
  }
  bool lazy = !lazyAttribute || booleanValue(evalText(lazyAttribute->value, scope), lazyAttribute->value);
  ScopePtr target = scope;
  const std::string scopeName = scopeAttribute ? scopeAttribute->value : std::string();
  if (scopeName == "global") {
    while (target->parent) target = target->parent;
    lazy = false;
  } else if (scopeName == "parent") {
    if (!scope->parent) {
      warn(name + ": no parent scope at global scope", element.where);
      return;
    }
    target = scope->parent;
    lazy = false;
    if (!scope->isNamespace) {
      while (target->isNamespace && target->parent) target = target->parent;
    }
  }
  if (!text) {
    // A content block: inserted with xacro:insert_block, expanded where it is inserted.
    auto block = std::make_shared<Block>();
    block->raw = &element;
    Scope::Property property;
    property.block = block;
    target->table["**" + name] = std::move(property);
    return;
  }
  Value v;
  try {
    v = lazy ? Value(*text) : evalText(*text, scope);
  } catch (const XacroError&) {
    // Reported where it failed; the uses of the name are follow-ons of that one error.
    Scope::Property failed;
    failed.failed = true;
    target->table[name] = std::move(failed);
    throw;
  }
  setProperty(target, name, std::move(v), lazy);
}

std::string Processor::absoluteFilename(const std::string& name) const {
  if (fs::path(name).is_absolute()) return name;
  const std::string& from = fileStack_.empty() ? path_ : fileStack_.back();
  return (fs::path(from).parent_path() / name).lexically_normal().string();
}

std::string Processor::findPackage(const std::string& package, const SourceLocation& where) {
  // Every link of a description names its package again: the search (file system look-ups) once.
  // The search may start beside the including file: the key holds its directory.
  const std::string& from = fileStack_.empty() ? path_ : fileStack_.back();
  std::string key = package;
  key += '\n';
  key.append(from, 0, from.rfind('/') == std::string::npos ? 0 : from.rfind('/'));
  auto known = packages_.find(key);
  if (known != packages_.end()) return known->second;
  std::string found;
  if (plugin::hostHas(host_, offsetof(plugin::HostServices, resolveUri)) && host_->resolveUri) {
    found = host_->resolveUri(host_->context, "package://" + package, from);
  }
  if (found.empty()) {
    throw XacroError{"package '" + package +
                         "' not found (searched -I directories, ROS_PACKAGE_PATH and AMENT_PREFIX_PATH/share)",
                     where};
  }
  // As ROS's get_package_share_directory answers: no trailing '/' ("$(find p)/urdf" has one '/').
  std::string directory = fs::path(found).lexically_normal().string();
  while (directory.size() > 1 && directory.back() == '/') directory.pop_back();
  return packages_[key] = std::move(directory);
}

Value Processor::substitution(const std::string& command, const ScopePtr& scope) {
  (void)scope;
  const SourceLocation where = current_ ? *current_ : SourceLocation{};
  if (command == "cwd") {
    std::error_code ec;
    return fs::current_path(ec).string();
  }
  if (command.rfind("eval ", 0) == 0) {
    const std::string expression = command.substr(5);
    if (expression.find("__") != std::string::npos) {
      throw XacroError{"$(eval ...) may not contain double underscore expressions", where};
    }
    ArgumentEnvironment environment(*this);
    try {
      return str(evaluate(expression, environment));
    } catch (const ExpressionError& e) {
      throw XacroError{std::string(e.what()) + "\nwhen evaluating $(eval " + expression + ")", where};
    }
  }
  const std::vector<std::string> parts = words(command);
  if (parts.empty()) throw XacroError{"Unknown substitution command [" + command + "]", where};
  const std::string& verb = parts[0];
  if (verb == "arg") {
    if (parts.size() != 2) throw XacroError{"$(arg var) must specify exactly one argument [" + command + "]", where};
    auto found = arguments_.find(parts[1]);
    if (found == arguments_.end()) throw XacroError{"Undefined substitution argument " + parts[1], where};
    return found->second;
  }
  if (verb == "env" || verb == "optenv") {
    if (parts.size() < 2 || (verb == "env" && parts.size() != 2)) {
      throw XacroError{"$(" + verb + " var) command needs a variable name [" + command + "]", where};
    }
    const char* value = std::getenv(parts[1].c_str());
    if (value) return std::string(value);
    if (verb == "env") throw XacroError{"environment variable " + parts[1] + " is not set", where};
    std::string fallback;
    for (std::size_t k = 2; k < parts.size(); ++k) fallback += (k > 2 ? " " : "") + parts[k];
    return fallback;
  }
  if (verb == "find") {
    if (parts.size() != 2) throw XacroError{"$(find pkg) command only accepts one argument [" + command + "]", where};
    return findPackage(parts[1], where);
  }
  if (verb == "dirname") {
    const std::string& file = fileStack_.empty() ? path_ : fileStack_.back();
    return fs::path(file).parent_path().string();
  }
  throw XacroError{"Unknown substitution command [" + command + "]. Valid commands are ['find', 'env', 'optenv', "
                   "'dirname', 'arg', 'eval', 'cwd']",
                   where};
}

}  // namespace interlink::xacro::detail
