// Process-wide tables of parsed xacro files and YAML documents (XacroSources.hpp). Parsing the
// sources was the largest part of an expansion: Franka's FR3 parses ~45 kB of xacro in 7 files
// to expand a 13 kB URDF.
#include "XacroSources.hpp"

#include <algorithm>
#include <mutex>

#include "XacroExpander.hpp"
#include "XacroProcessor.hpp"

namespace interlink::xacro::detail {

namespace {

/// Beyond this much source text (the files' sizes) the tables start again (a long-running process
/// reading many descriptions keeps a bounded amount).
constexpr std::size_t kMaxCachedBytes = 32u << 20;

template <typename Entry>
class SourceTable {
 public:
  /// The entry made of the file `path` when it held `content`.
  std::shared_ptr<const Entry> find(const std::string& path, std::string_view content) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = entries_.find(path);
    if (found == entries_.end() || found->second->content != content) return nullptr;
    return found->second;
  }
  void keep(const std::string& path, std::shared_ptr<const Entry> entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, added] = entries_.try_emplace(path, entry);
    if (!added) {
      bytes_ -= it->second->content.size();
      it->second = entry;
    }
    bytes_ += entry->content.size();
    if (bytes_ > kMaxCachedBytes) {
      entries_.clear();
      bytes_ = 0;
    }
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Entry>> entries_;
  std::size_t bytes_ = 0;
};

struct YamlDocument {
  std::string content;
  Value value;  // immutable (lists and dicts are shared, const)
};

SourceTable<ParsedSource>& parsedSources() {
  static SourceTable<ParsedSource> table;
  return table;
}

SourceTable<YamlDocument>& yamlDocuments() {
  static SourceTable<YamlDocument> table;
  return table;
}

/// Texts and expressions: bounded by their number (a text is short; a generated one is bounded by
/// the expansion's own limits).
constexpr std::size_t kMaxCachedTexts = 200000;

template <typename Entry>
class TextTable {
 public:
  std::shared_ptr<const Entry> find(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = entries_.find(text);
    return found == entries_.end() ? nullptr : found->second;
  }
  void keep(const std::string& text, std::shared_ptr<const Entry> entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kMaxCachedTexts) entries_.clear();
    entries_.emplace(text, std::move(entry));
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Entry>> entries_;
};

TextTable<TextTemplate>& textTemplates() {
  static TextTable<TextTemplate> table;
  return table;
}

TextTable<Expression>& expressions() {
  static TextTable<Expression> table;
  return table;
}

TextTemplate splitText(const std::string& text) {
  TextTemplate pieces;
  // At most a literal before each '$' and one piece from it on, and the text's end.
  pieces.reserve(2 * static_cast<std::size_t>(std::count(text.begin(), text.end(), '$')) + 1);
  std::size_t i = 0;
  const std::size_t n = text.size();
  const auto literal = [&](std::size_t from, std::size_t to) {
    TextPiece piece;
    piece.text = text.substr(from, to == std::string::npos ? std::string::npos : to - from);
    pieces.push_back(std::move(piece));
  };
  while (i < n) {
    if (text[i] != '$') {
      const std::size_t next = text.find('$', i);
      literal(i, next);
      i = next == std::string::npos ? n : next;
      continue;
    }
    std::size_t run = i;
    while (run < n && text[run] == '$') ++run;
    if (run - i >= 2 && run < n && (text[run] == '{' || text[run] == '(')) {
      literal(i + 1, run + 1);  // $${ is written as ${
      i = run + 1;
      continue;
    }
    if (i + 1 < n && (text[i + 1] == '{' || text[i + 1] == '(')) {
      const char close = text[i + 1] == '{' ? '}' : ')';
      const std::size_t end = text.find(close, i + 2);
      TextPiece piece;
      if (end == std::string::npos) {
        piece.kind = TextPiece::Invalid;
        piece.text = "invalid expression: " + text.substr(i);
        pieces.push_back(std::move(piece));
        return pieces;
      }
      piece.kind = close == '}' ? TextPiece::Expression : TextPiece::Substitution;
      piece.text = text.substr(i + 2, end - i - 2);
      piece.nested = piece.text.find('$') != std::string::npos;
      pieces.push_back(std::move(piece));
      i = end + 1;
      continue;
    }
    // A '$' not starting a substitution: text up to the next '$' ('$' alone at the end too).
    if (i + 1 < n && text[i + 1] == '$') {
      TextPiece piece;
      piece.kind = TextPiece::Invalid;
      piece.text = "invalid expression: " + text.substr(i);
      pieces.push_back(std::move(piece));
      return pieces;
    }
    const std::size_t next = text.find('$', i + 1);
    literal(i, next);
    i = next == std::string::npos ? n : next;
  }
  return pieces;
}

}  // namespace

std::shared_ptr<const TextTemplate> textTemplateOf(const std::string& text) {
  if (std::shared_ptr<const TextTemplate> kept = textTemplates().find(text)) return kept;
  auto pieces = std::make_shared<TextTemplate>(splitText(text));
  for (TextPiece& piece : *pieces) {
    if (piece.kind != TextPiece::Expression || piece.nested) continue;
    try {
      piece.parsed = parsedExpression(piece.text);
    } catch (const ExpressionError& e) {
      piece.parseError = e.what();
    }
  }
  textTemplates().keep(text, pieces);
  return pieces;
}

std::shared_ptr<const Expression> parsedExpression(const std::string& text) {
  if (std::shared_ptr<const Expression> kept = expressions().find(text)) return kept;
  auto parsed = std::make_shared<const Expression>(text);
  expressions().keep(text, parsed);
  return parsed;
}

std::shared_ptr<const ParsedSource> parseSource(const std::string& path, std::string_view content,
                                                Diagnostics& diagnostics) {
  if (std::shared_ptr<const ParsedSource> kept = parsedSources().find(path, content)) {
    for (const Diagnostic& d : kept->findings) diagnostics.add(d);
    return kept;
  }
  auto source = std::make_shared<ParsedSource>();
  Diagnostics found;
  xml::ParseOptions options;
  options.comments = &source->comments;
  std::vector<std::size_t> parentTextLengths;
  options.parentTextLengths = &parentTextLengths;
  source->root = xml::parse(content, path, found, options);
  diagnostics.append(found);
  if (!source->root) return nullptr;
  source->content = std::string(content);
  source->findings = found.items();
  // The parser numbers elements in document order (a comment's parent, the text lengths): number
  // the tree the same way.
  std::vector<const xml::XmlElement*> inOrder;
  const auto number = [&](const xml::XmlElement& e, const auto& self) -> void {
    inOrder.push_back(&e);
    if (e.name == "xacro:macro") {
      if (std::shared_ptr<const Macro> macro = makeMacro(e)) source->macros.emplace(&e, std::move(macro));
    }
    const bool mixed = !e.children.empty() && e.text.find_first_not_of(" \t\r\n") != std::string::npos;
    std::vector<std::size_t> splits;
    for (const xml::XmlElement& child : e.children) {
      const std::size_t ordinal = inOrder.size();
      if (mixed) {
        splits.push_back(ordinal < parentTextLengths.size() ? std::min(parentTextLengths[ordinal], e.text.size())
                                                            : e.text.size());
      }
      self(child, self);
    }
    if (mixed) source->textSplits.emplace(&e, std::move(splits));
  };
  number(*source->root, number);
  if (!source->comments.empty()) {
    for (const xml::XmlComment& c : source->comments) {
      if (c.parent != xml::XmlComment::kOutsideRoot && c.parent < inOrder.size()) {
        source->commentsByParent[inOrder[c.parent]].push_back(&c);
      }
    }
  }
  parsedSources().keep(path, source);
  return source;
}

Value yamlSource(const std::string& path, std::string_view content) {
  if (std::shared_ptr<const YamlDocument> kept = yamlDocuments().find(path, content)) return kept->value;
  auto document = std::make_shared<YamlDocument>();
  document->value = yamlToValue(content);
  document->content = std::string(content);
  Value value = document->value;
  yamlDocuments().keep(path, std::move(document));
  return value;
}

}  // namespace interlink::xacro::detail
