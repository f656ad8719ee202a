// The expansion as XML text, with the origin of every element and attribute recorded at the line
// and column where it is written, so the URDF plugin's findings map back to the xacro sources.
#include "XacroExpander.hpp"

#include <algorithm>

#include "interlink/xml/XmlEscape.hpp"

namespace interlink::xacro {

namespace {

class Writer {
 public:
  explicit Writer(std::vector<plugin::ExpansionOrigin>& origins) : origins_(origins) {}

  void write(const std::string& s) {
    for (char c : s) {
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++column_;  // columns count characters, as expat does
      }
    }
    out_ += s;
  }
  void mark(const SourceLocation& where, std::uint32_t step) {
    origins_.push_back(plugin::ExpansionOrigin{line_, column_, where, step});
  }

  static std::string escaped(const std::string& s, bool attribute) { return xml::escapedXml(s, attribute); }

  void comment(const std::string& text, int depth) {
    write(std::string(static_cast<std::size_t>(depth) * 2, ' '));
    write("<!--" + text + "-->\n");
  }

  void element(const OutElement& e, int depth) {
    if (e.comment) {
      comment(e.text, depth);
      return;
    }
    write(std::string(static_cast<std::size_t>(depth) * 2, ' '));
    mark(e.where, e.step);
    write("<" + e.name);
    // Sorted by name, as ROS's xacro writes them (its xmlutils sorts attribute names).
    std::vector<const OutAttribute*> sorted;
    for (const OutAttribute& a : e.attributes) sorted.push_back(&a);
    std::stable_sort(sorted.begin(), sorted.end(), [](const OutAttribute* x, const OutAttribute* y) { return x->name < y->name; });
    for (const OutAttribute* attribute : sorted) {
      const OutAttribute& a = *attribute;
      write(" ");
      mark(a.where, a.step);
      write(a.name + "=\"" + escaped(a.value, true) + "\"");
    }
    const std::size_t first = e.text.find_first_not_of(" \t\r\n");
    const bool hasText = first != std::string::npos;
    if (e.children.empty() && !hasText) {
      write("/>\n");
      return;
    }
    write(">");
    if (hasText) {
      const std::size_t last = e.text.find_last_not_of(" \t\r\n");
      mark(e.where, e.step);
      write(escaped(e.text.substr(first, last - first + 1), false));
    }
    if (!e.children.empty()) {
      write("\n");
      for (const OutElement& child : e.children) element(child, depth + 1);
      write(std::string(static_cast<std::size_t>(depth) * 2, ' '));
    }
    mark(e.where, e.step);
    write("</" + e.name + ">\n");
  }

  std::string take() { return std::move(out_); }

 private:
  std::vector<plugin::ExpansionOrigin>& origins_;
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
