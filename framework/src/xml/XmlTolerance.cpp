#include "xml/XmlTolerance.hpp"

#include <cstring>

#include "xml/TextCursor.hpp"

namespace interlink::xml::detail {
namespace {

/// Why a flaw is read anyway, appended to every warning.
const char* whyTolerated(Tolerance tolerance) {
  return tolerance == Tolerance::LikeTinyXml2
             ? "; read as libsdformat's XML reader (TinyXML2) reads it (refused by a strict load)"
             : "; read as urdfdom's XML reader (TinyXML) reads it (refused by a strict load)";
}

/// One forward pass: positions are asked for in increasing order, and the copy is made on the
/// first flaw only.
class Blanker {
 public:
  Blanker(std::string_view content, const std::string& fileName, Tolerance tolerance, Diagnostics& diagnostics)
      : content_(content), fileName_(fileName), tolerance_(tolerance), diagnostics_(diagnostics) {
    cursorOffset_ = byteOrderMarkLength(content_);
  }

  Tolerance tolerance() const { return tolerance_; }
  std::size_t size() const { return content_.size(); }
  char at(std::size_t i) const { return content_[i]; }
  bool startsWith(std::size_t i, std::string_view prefix) const { return content_.substr(i, prefix.size()) == prefix; }
  std::size_t find(std::string_view what, std::size_t from) const {
    const std::size_t found = content_.find(what, from);
    return found == std::string_view::npos ? content_.size() : found;
  }
  std::size_t bodyStart() const { return byteOrderMarkLength(content_); }

  void warn(std::size_t offset, const std::string& message) {
    while (cursorOffset_ < offset && cursorOffset_ < content_.size()) cursor_.advance(content_, cursorOffset_);
    diagnostics_.warning(ErrorCode::XML_SYNTAX, message + whyTolerated(tolerance_),
                         SourceLocation{fileName_, cursor_.line, cursor_.column});
  }

  /// Replaces [from, to) by spaces, line breaks kept, so that nothing after it moves.
  void blank(std::size_t from, std::size_t to, bool dashesOnly = false) {
    if (!copy_) copy_.emplace(content_);
    for (std::size_t i = from; i < to; ++i) {
      char& c = (*copy_)[i];
      if (c != '\n' && c != '\r' && (!dashesOnly || c == '-')) c = ' ';
    }
  }

  /// The text between <!-- and the first -->, which is where TinyXML2 ends a comment; XML forbids
  /// "--" inside it and a '-' right before the end. Returns the offset past the comment.
  std::size_t comment(std::size_t start) {
    const std::size_t bodyBegin = start + 4;
    const std::size_t end = find("-->", bodyBegin);
    if (end == content_.size()) return end;  // unterminated: the parser says so
    const std::size_t doubleDash = content_.substr(bodyBegin, end - bodyBegin).find("--");
    const bool dashBeforeEnd = end > bodyBegin && content_[end - 1] == '-';
    if (doubleDash != std::string_view::npos || dashBeforeEnd) {
      const std::size_t flaw = doubleDash != std::string_view::npos ? bodyBegin + doubleDash : end - 1;
      warn(flaw, "'--' inside a comment is not allowed in XML (the comment ends at the first '-->')");
      blank(bodyBegin, end, true);
    }
    return end + 3;
  }

  std::optional<std::string> take() { return std::move(copy_); }

 private:
  std::string_view content_;
  const std::string& fileName_;
  const Tolerance tolerance_;
  Diagnostics& diagnostics_;
  Cursor cursor_;
  std::size_t cursorOffset_ = 0;
  std::optional<std::string> copy_;
};

/// The prolog, up to the root element's '<': a declaration after white space (or after comments,
/// which only TinyXML takes) and text that is no markup (a declaration missing its '<', which only
/// TinyXML2 takes). Returns where the root element starts.
std::size_t prolog(Blanker& text) {
  std::size_t i = text.bodyStart();
  const bool likeTinyXml2 = text.tolerance() == Tolerance::LikeTinyXml2;
  bool onlyDeclarationsSoFar = true;  // TinyXML2 takes a declaration only before anything else
  while (i < text.size()) {
    const char c = text.at(i);
    if (isSpace(c)) {
      ++i;
    } else if (text.startsWith(i, "<?")) {
      const std::size_t end = text.find("?>", i + 2);
      if (end == text.size()) return end;
      const bool declaration = text.startsWith(i, "<?xml") && i + 5 < text.size() && isSpace(text.at(i + 5));
      if (declaration && i != text.bodyStart() && (onlyDeclarationsSoFar || !likeTinyXml2)) {
        text.warn(i, onlyDeclarationsSoFar
                         ? "white space before the XML declaration is not allowed in XML (it must start the file)"
                         : "the XML declaration must start the file, before any comment");
        text.blank(i, end + 2);
      }
      i = end + 2;
    } else if (text.startsWith(i, "<!--")) {
      onlyDeclarationsSoFar = false;
      i = text.comment(i);
    } else if (c == '<' || !likeTinyXml2) {
      return i;  // the root element, or text the parser refuses as the reference does
    } else {
      onlyDeclarationsSoFar = false;
      const std::size_t end = text.find("<", i);
      std::string shown;  // the start of the line, ASCII only (never echo raw bytes)
      for (std::size_t k = i; k < end && shown.size() < 40 && text.at(k) != '\n' && text.at(k) != '\r'; ++k) {
        const unsigned char b = static_cast<unsigned char>(text.at(k));
        shown += b >= 0x20 && b < 0x7F ? static_cast<char>(b) : '?';
      }
      text.warn(i, "text before the root element is not allowed in XML ('" + shown + "'; a damaged XML declaration?)");
      text.blank(i, end);
      i = end;
    }
  }
  return i;
}

}  // namespace

std::optional<std::string> blankToleratedFlaws(std::string_view content, const std::string& fileName,
                                               Tolerance tolerance, Diagnostics& diagnostics) {
  Blanker text(content, fileName, tolerance, diagnostics);
  std::size_t i = prolog(text);
  // The rest: comments anywhere, skipping what may hold "<!--" literally.
  while (i < text.size()) {
    const void* less = std::memchr(content.data() + i, '<', content.size() - i);
    if (!less) break;
    i = static_cast<std::size_t>(static_cast<const char*>(less) - content.data());
    if (text.startsWith(i, "<!--")) {
      i = text.comment(i);
    } else if (text.startsWith(i, "<![CDATA[")) {
      i = text.find("]]>", i + 9);
    } else if (text.startsWith(i, "<?")) {
      i = text.find("?>", i + 2);
    } else {
      ++i;
    }
  }
  return text.take();
}

}  // namespace interlink::xml::detail
