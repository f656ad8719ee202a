// The expansion as XML text, with the origin of every element and attribute recorded at the line
// and column where it is written, so the URDF plugin's findings map back to the xacro sources;
// or, when nobody needs the text, as the tree that reading that text would give.
#include "XacroExpander.hpp"

#include <algorithm>
#include <string_view>

#include "interlink/Utf8.hpp"
#include "interlink/xml/SameName.hpp"
#include "interlink/xml/XmlEscape.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xacro {

namespace {

/// An element's or a text node's text as written: without the XML white space around it.
std::string_view withoutSurroundingSpace(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// `attributes` in the order they are written, into `sorted`: by name, as ROS's xacro writes them
/// (its xmlutils sorts attribute names); a stable insertion sort of the few an element has, into
/// a list kept between elements. (`Attribute` is OutAttribute, or const OutAttribute.)
template <class Attribute, class Attributes>
void sortByName(Attributes& attributes, std::vector<Attribute*>& sorted) {
  sorted.clear();
  for (Attribute& a : attributes) {
    std::size_t at = sorted.size();
    sorted.push_back(&a);
    while (at > 0 && a.name < sorted[at - 1]->name) {
      sorted[at] = sorted[at - 1];
      --at;
    }
    sorted[at] = &a;
  }
}

class Writer {
 public:
  explicit Writer(std::vector<plugin::ExpansionOrigin>& origins) : origins_(origins) {}

  /// Sizes the text and the origins for `root` before writing, so that neither grows by copies
  /// (each copy touched fresh pages: the growth of both was ~20 page faults for FR3).
  void reserveFor(const OutElement& root) {
    Size size;
    measure(root, 0, size);
    out_.reserve(out_.size() + size.bytes + size.bytes / 16);  // references in values
    origins_.reserve(origins_.size() + size.marks);
  }

  /// Appends `s`; the text goes straight into the output (no temporary strings: writing FR3's
  /// expansion cost 0.95 M instructions when every piece was a string of its own, 0.59 M now).
  void write(std::string_view s) { out_.append(s.data(), s.size()); }
  void indent(int depth) { out_.append(static_cast<std::size_t>(depth) * 2, ' '); }
  /// The line and column are counted here, over what was written since the last mark: once per
  /// mark rather than once per piece written (a dozen pieces an element).
  void mark(const SourceLocation& where, std::uint32_t step) {
    advance(counted_);
    counted_ = out_.size();
    origins_.push_back(plugin::ExpansionOrigin{line_, column_, where, step});
  }

  void writeEscaped(std::string_view s, bool attribute) { xml::appendEscapedXml(out_, s, attribute); }

  void comment(const std::string& text, int depth) {
    indent(depth);
    write("<!--");
    write(text);
    write("-->\n");
  }

  void element(const OutElement& e, int depth) {
    if (e.comment) {
      comment(e.text, depth);
      return;
    }
    const std::string_view text = withoutSurroundingSpace(e.text);
    if (e.textNode) {
      if (text.empty()) return;
      indent(depth);
      mark(e.where, e.step);
      writeEscaped(text, false);
      write("\n");
      return;
    }
    indent(depth);
    mark(e.where, e.step);
    write("<");
    write(e.name);
    sortByName(e.attributes, sorted_);
    for (const OutAttribute* attribute : sorted_) {
      const OutAttribute& a = *attribute;
      write(" ");
      mark(a.where, a.step);
      write(a.name);
      write("=\"");
      writeEscaped(a.value, true);
      write("\"");
    }
    if (e.children.empty() && text.empty()) {
      write("/>\n");
      return;
    }
    write(">");
    if (!text.empty()) {
      mark(e.where, e.step);
      writeEscaped(text, false);
    }
    if (!e.children.empty()) {
      write("\n");
      for (const OutElement& child : e.children) element(child, depth + 1);
      indent(depth);
    }
    mark(e.where, e.step);
    write("</");
    write(e.name);
    write(">\n");
  }

  std::string take() { return std::move(out_); }

 private:
  /// Lines and columns over what was appended from `from` on (columns count characters, as
  /// expat does: UTF-8 continuation bytes do not count). Two counting passes the compiler
  /// vectorises, rather than a branch per byte.
  void advance(std::size_t from) {
    const char* const begin = out_.data() + from;
    const char* const end = out_.data() + out_.size();
    const auto continuation = [](const char* b, const char* e) {
      const auto isContinuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
      return static_cast<std::uint32_t>(std::count_if(b, e, isContinuation));
    };
    const auto lineBreaks = static_cast<std::uint32_t>(std::count(begin, end, '\n'));
    if (lineBreaks == 0) {
      column_ += static_cast<std::uint32_t>(end - begin) - continuation(begin, end);
      return;
    }
    line_ += lineBreaks;
    const char* lineStart = end;
    while (lineStart[-1] != '\n') --lineStart;
    column_ = 1 + static_cast<std::uint32_t>(end - lineStart) - continuation(lineStart, end);
  }

  struct Size {
    std::size_t bytes = 0;
    std::size_t marks = 0;
  };
  /// What element() writes for `e`, counted as it writes it (escaping aside).
  static void measure(const OutElement& e, int depth, Size& size) {
    const std::size_t indent = static_cast<std::size_t>(depth) * 2;
    if (e.comment) {
      size.bytes += indent + e.text.size() + 8;
      return;
    }
    const std::string_view text = withoutSurroundingSpace(e.text);
    if (e.textNode) {
      size.bytes += indent + text.size() + 1;
      ++size.marks;
      return;
    }
    size.bytes += indent + 2 * e.name.size() + text.size() + 6;
    size.marks += 2 + e.attributes.size() + (text.empty() ? 0 : 1);
    for (const OutAttribute& a : e.attributes) size.bytes += a.name.size() + a.value.size() + 4;
    if (!e.children.empty()) size.bytes += indent + 1;
    for (const OutElement& child : e.children) measure(child, depth + 1, size);
  }

  std::vector<plugin::ExpansionOrigin>& origins_;
  std::vector<const OutAttribute*> sorted_;
  std::string out_;
  std::size_t counted_ = 0;  // line_ and column_ are those of this offset in out_
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

/// Characters XML allows, in valid UTF-8: what the XML reader gives back unchanged once the Writer
/// has escaped it. (Control characters other than tabs and line breaks, a broken sequence, U+FFFE
/// and U+FFFF are errors of the reader's; the text is written then, for it to report them.)
bool plainText(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* const end = p + text.size();
  while (p < end) {
    while (p < end && *p >= 0x20 && *p < 0x80) ++p;  // printable ASCII: nearly all of it
    if (p == end) break;
    const unsigned char c = *p;
    if (c < 0x80) {
      if (c != '\t' && c != '\n' && c != '\r') return false;
      ++p;
      continue;
    }
    const std::size_t length = xmlCharacterLength(p, end);
    if (length == 0) return false;
    p += length;
  }
  return true;
}
/// White space only, as the XML reader counts it.
bool isLayout(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

/// XML forbids "--" inside a comment and a comment ending in '-'.
bool allowedInComment(std::string_view text) {
  return plainText(text) && text.find("--") == std::string_view::npos && (text.empty() || text.back() != '-');
}

/// Builds the tree that xml::parse gives for the Writer's text, from the expansion itself: one
/// pass checks that it may (readsBack) and counts, a second moves the strings into the tree, whose
/// lists share one block as the parser's do.
class TreeBuilder {
 public:
  TreeBuilder(const std::string& path, std::vector<plugin::ExpansionOrigin>& origins) : file_(path), origins_(origins) {}

  /// Whether the Writer's text for `e` reads back as build() makes it (see expansionTree).
  bool readsBack(const OutElement& e, std::size_t depth) {
    if (e.comment) return allowedInComment(e.text);
    // A carriage return after a child element is kept or dropped by how it was written: not ours to copy.
    if (e.textNode) return plainText(e.text) && e.text.find('\r') == std::string::npos;
    // The XML reader refuses an element this deep (ParseOptions::maxDepth), or this many attributes.
    static const xml::ParseOptions kReader;
    if (depth >= kReader.maxDepth || e.attributes.size() > kReader.maxAttributesPerElement) return false;
    if (!xml::isAsciiXmlName(e.name) || !plainText(e.text)) return false;
    names_.clear();
    for (const OutAttribute& a : e.attributes) {
      if (!xml::isAsciiXmlName(a.name) || !plainText(a.value)) return false;
      names_.emplace_back(a.name);
    }
    if (xml::hasRepeatedName(names_)) return false;
    ++elements_;
    attributes_ += e.attributes.size();
    for (const OutElement& child : e.children) {
      if (!readsBack(child, depth + 1)) return false;
    }
    return true;
  }

  /// Moves `root` into `into` (after readsBack said yes).
  void buildRoot(OutElement& root, xml::XmlElement& into) {
    origins_.reserve(origins_.size() + elements_ + attributes_);
    const auto arena = xml::detail::TreeArena::create(elements_ * sizeof(xml::XmlElement) + attributes_ * sizeof(xml::Attribute));
    elementAllocator_ = xml::detail::TreeAllocator<xml::XmlElement>(arena);
    attributeAllocator_ = xml::detail::TreeAllocator<xml::Attribute>(arena);
    build(root, 0, into);
  }

 private:
  /// Moves `e` into `into` as the reader would build it from the Writer's text at `depth`.
  void build(OutElement& e, std::size_t depth, xml::XmlElement& into) {
    into.name = std::move(e.name);
    into.where = locate(e.where, e.step);
    if (!e.attributes.empty()) {
      sortByName(e.attributes, sorted_);  // in the Writer's order
      into.attributes = xml::XmlElement::Attributes(attributeAllocator_);
      into.attributes.reserve(sorted_.size());
      for (OutAttribute* a : sorted_) {
        into.attributes.push_back(xml::Attribute{std::move(a->name), std::move(a->value), locate(a->where, a->step)});
      }
    }
    const std::string_view text = withoutSurroundingSpace(e.text);
    if (e.children.empty()) {
      if (text.size() == e.text.size()) {
        into.text = std::move(e.text);
      } else {
        into.text.assign(text.data(), text.size());
      }
      return;
    }
    // The character data the Writer puts directly inside: the text, then a line break after it
    // and after each child, each child indented (a text node's text with it), then the indent of
    // the closing tag. The reader keeps it as it comes until the first child element starts;
    // after that, only the parts of each line that are not all white space (the rest is layout),
    // and none of it when all of it is white space.
    const std::string_view spaces = indentOf(depth + 1);
    std::string& data = into.text;
    bool afterElement = false;
    const auto add = [&](std::string_view piece) {
      if (!afterElement) {
        data.append(piece.data(), piece.size());
        return;
      }
      while (!piece.empty()) {
        const std::size_t lineEnd = std::min(piece.find('\n'), piece.size());
        const std::string_view line = piece.substr(0, lineEnd);
        if (!isLayout(line)) data.append(line.data(), line.size());
        piece.remove_prefix(std::min(lineEnd + 1, piece.size()));
      }
    };
    add(text);
    add("\n");
    const auto childElements = static_cast<std::size_t>(std::count_if(
        e.children.begin(), e.children.end(), [](const OutElement& c) { return !c.comment && !c.textNode; }));
    if (childElements > 0) {
      into.children = xml::XmlElement::Children(elementAllocator_);
      into.children.reserve(childElements);
    }
    for (OutElement& child : e.children) {
      if (child.textNode) {
        const std::string_view childText = withoutSurroundingSpace(child.text);
        if (childText.empty()) continue;
        add(std::string(spaces) + std::string(childText) + "\n");  // one piece: the indent stays with the text
        continue;
      }
      add(spaces);
      if (!child.comment) {
        build(child, depth + 1, into.children.emplace_back());
        afterElement = true;
      }
      add("\n");
    }
    add(indentOf(depth));
    if (afterElement && isLayout(data)) data.clear();
  }

  /// The Writer's indent at `depth` (readsBack keeps it under the reader's depth limit).
  static std::string_view indentOf(std::size_t depth) {
    static const std::string kSpaces(2 * xml::ParseOptions{}.maxDepth + 2, ' ');
    return std::string_view(kSpaces).substr(0, std::min(2 * depth, kSpaces.size()));
  }

  /// A place of its own in the tree's "text", mapped back to `where` through `step`.
  SourceLocation locate(const SourceLocation& where, std::uint32_t step) {
    origins_.push_back(plugin::ExpansionOrigin{++line_, 1, where, step});
    return SourceLocation{file_, static_cast<int>(line_), 1};
  }

  FileName file_;
  std::vector<plugin::ExpansionOrigin>& origins_;
  std::vector<OutAttribute*> sorted_;
  std::vector<std::string_view> names_;  // of the element readsBack looks at
  std::uint32_t line_ = 0;
  std::size_t elements_ = 0;
  std::size_t attributes_ = 0;
  xml::detail::TreeAllocator<xml::XmlElement> elementAllocator_;
  xml::detail::TreeAllocator<xml::Attribute> attributeAllocator_;
};

}  // namespace

bool expansionTree(Expansion& expansion, const std::string& path, xml::XmlElement& root,
                   std::vector<plugin::ExpansionOrigin>& origins) {
  if (!expansion.root) return false;
  const auto commentAllowed = [](const std::string& text) { return allowedInComment(text); };
  TreeBuilder builder(path, origins);
  if (!std::all_of(expansion.commentsBeforeRoot.begin(), expansion.commentsBeforeRoot.end(), commentAllowed) ||
      !std::all_of(expansion.commentsAfterRoot.begin(), expansion.commentsAfterRoot.end(), commentAllowed) ||
      !builder.readsBack(*expansion.root, 0)) {
    return false;
  }
  builder.buildRoot(*expansion.root, root);
  return true;
}

std::string writeExpansion(const Expansion& expansion, std::vector<plugin::ExpansionOrigin>& origins) {
  Writer writer(origins);
  if (expansion.root) writer.reserveFor(*expansion.root);
  writer.write("<?xml version=\"1.0\" ?>\n");
  for (const std::string& text : expansion.commentsBeforeRoot) writer.comment(text, 0);
  if (expansion.root) writer.element(*expansion.root, 0);
  for (const std::string& text : expansion.commentsAfterRoot) writer.comment(text, 0);
  return writer.take();
}

}  // namespace interlink::xacro
