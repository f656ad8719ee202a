// The expansion as XML text, with the origin of every element and attribute recorded at the line
// and column where it is written, so the URDF plugin's findings map back to the xacro sources.
#include "XacroExpander.hpp"

#include <string_view>

#include "interlink/xml/XmlEscape.hpp"

namespace interlink::xacro {

namespace {

class Writer {
 public:
  explicit Writer(std::vector<plugin::ExpansionOrigin>& origins) : origins_(origins) {}

  /// Appends `s`; the text goes straight into the output (no temporary strings: writing FR3's
  /// expansion cost 0.95 M instructions when every piece was a string of its own, 0.59 M now).
  void write(std::string_view s) {
    const std::size_t from = out_.size();
    out_.append(s.data(), s.size());
    advance(from);
  }
  void indent(int depth) {
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    column_ += static_cast<std::uint32_t>(depth) * 2;
  }
  void mark(const SourceLocation& where, std::uint32_t step) {
    origins_.push_back(plugin::ExpansionOrigin{line_, column_, where, step});
  }

  void writeEscaped(std::string_view s, bool attribute) {
    const std::size_t from = out_.size();
    xml::appendEscapedXml(out_, s, attribute);
    advance(from);
  }

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
    out_.reserve(out_.size() + 256);
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
  /// expat does: UTF-8 continuation bytes do not count).
  void advance(std::size_t from) {
    for (std::size_t i = from; i < out_.size(); ++i) {
      const char c = out_[i];
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++column_;
      }
    }
  }

  std::vector<plugin::ExpansionOrigin>& origins_;
  std::vector<const OutAttribute*> sorted_;
  std::string out_;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

}  // namespace

std::string writeExpansion(const Expansion& expansion, std::vector<plugin::ExpansionOrigin>& origins) {
  Writer writer(origins);
  writer.write("<?xml version=\"1.0\" ?>\n");
  for (const std::string& text : expansion.commentsBeforeRoot) writer.comment(text, 0);
  if (expansion.root) writer.element(*expansion.root, 0);
  for (const std::string& text : expansion.commentsAfterRoot) writer.comment(text, 0);
  return writer.take();
}

}  // namespace interlink::xacro
