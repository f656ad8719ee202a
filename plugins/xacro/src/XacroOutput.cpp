// The expansion as XML text, with the origin of every element and attribute recorded at the line
// and column where it is written, so the URDF plugin's findings map back to the xacro sources.
#include "XacroExpander.hpp"

#include <algorithm>
#include <string_view>

#include "interlink/xml/XmlEscape.hpp"

namespace interlink::xacro {

namespace {

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
    // Sorted by name, as ROS's xacro writes them (its xmlutils sorts attribute names); a stable
    // insertion sort of the few attributes an element has, in a list kept between elements.
    sorted_.clear();
    for (const OutAttribute& a : e.attributes) {
      std::size_t at = sorted_.size();
      sorted_.push_back(&a);
      while (at > 0 && a.name < sorted_[at - 1]->name) {
        sorted_[at] = sorted_[at - 1];
        --at;
      }
      sorted_[at] = &a;
    }
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
  /// An element's or a text node's text as written: without the XML white space around it.
  static std::string_view withoutSurroundingSpace(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  }

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

}  // namespace

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
