// Process-wide tables of parsed xacro files and YAML documents (XacroSources.hpp). Parsing the
// sources was the largest part of an expansion: Franka's FR3 parses ~45 kB of xacro in 7 files
// to expand a 13 kB URDF.
#include "XacroSources.hpp"

#include <mutex>

#include "XacroExpander.hpp"

namespace interlink::xacro::detail {

namespace {

/// Beyond this much source text the tables start again (a long-running process reading many
/// descriptions keeps a bounded amount).
constexpr std::size_t kMaxCachedBytes = 32u << 20;

template <typename Entry>
class SourceTable {
 public:
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

}  // namespace

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
  source->root = xml::parse(content, path, found, options);
  diagnostics.append(found);
  if (!source->root) return nullptr;
  source->content = std::string(content);
  source->findings = found.items();
  if (!source->comments.empty()) {
    // The parser numbers a comment's parent by document order: number the tree the same way.
    std::vector<const xml::XmlElement*> inOrder;
    const auto number = [&](const xml::XmlElement& e, const auto& self) -> void {
      inOrder.push_back(&e);
      for (const xml::XmlElement& child : e.children) self(child, self);
    };
    number(*source->root, number);
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
