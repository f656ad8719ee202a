// XML reading with Xerces-C SAX2, hardened for untrusted input, into an XmlElement tree that
// remembers the line and column of every start tag and attribute.
#include "interlink/xml/XmlParser.hpp"

#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/framework/XMLPScanToken.hpp>
#include <xercesc/sax/Locator.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/sax2/Attributes.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/OutOfMemoryException.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLException.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace interlink::xml {
namespace {

namespace xc = XERCES_CPP_NAMESPACE;

/// Xerces is initialised once per process, on first use; the function-local static makes that
/// thread-safe. It is never terminated: plugins may still hold Xerces-made data at exit, and
/// terminating from a static destructor would race with their unloading.
bool xercesReady() {
  static const bool ready = [] {
    try {
      xc::XMLPlatformUtils::Initialize();
      return true;
    } catch (...) {
      return false;
    }
  }();
  return ready;
}

/// UTF-16 to UTF-8 for anything past ASCII; `appendUtf8` calls it only when the fast path meets
/// a character above U+007F.
void appendUtf8Slow(std::string& out, const XMLCh* text, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) {
    std::uint32_t c = text[i];
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < length && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (static_cast<std::uint32_t>(text[i + 1]) - 0xDC00);
      ++i;
    }
    if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

/// Appends `text` as UTF-8. Model files are almost entirely ASCII, so the text is first narrowed
/// in one branch-free (vectorisable) pass, and re-done character by character only if it was not.
void appendUtf8(std::string& out, const XMLCh* text, std::size_t length) {
  const std::size_t start = out.size();
  out.resize(start + length);
  char* narrow = &out[start];
  unsigned highBits = 0;
  for (std::size_t i = 0; i < length; ++i) {
    highBits |= text[i];
    narrow[i] = static_cast<char>(text[i]);
  }
  if (highBits < 0x80) return;
  out.resize(start);
  out.reserve(start + length * 3);
  appendUtf8Slow(out, text, length);
}

void assignUtf8(std::string& out, const XMLCh* text) {
  out.clear();
  if (text) appendUtf8(out, text, std::char_traits<XMLCh>::length(text));
}

std::string toUtf8(const XMLCh* text) {
  std::string out;
  assignUtf8(out, text);
  return out;
}

bool isUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Columns as Xerces counts them: one per UTF-16 unit, so two for a 4-byte UTF-8 sequence.
int columnsOfUtf8Lead(unsigned char c) { return c >= 0xF0 ? 2 : 1; }

/// Columns (UTF-16 units) taken by the UTF-8 bytes [begin, end), which hold no line break.
std::size_t columnsOf(const char* begin, const char* end) {
  std::size_t columns = 0;
  const char* p = begin;
  // Eight ASCII bytes at a time; a word with any byte >= 0x80 is counted byte by byte.
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    if ((word & 0x8080808080808080ULL) == 0) {
      columns += 8;
      p += 8;
      continue;
    }
    for (const char* wordEnd = p + 8; p < wordEnd; ++p) {
      const auto c = static_cast<unsigned char>(*p);
      if (!isUtf8Continuation(c)) columns += static_cast<std::size_t>(columnsOfUtf8Lead(c));
    }
  }
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (!isUtf8Continuation(c)) columns += static_cast<std::size_t>(columnsOfUtf8Lead(c));
  }
  return columns;
}

/// Line and column of every byte in [from, to) as the scan moves forward.
struct Cursor {
  int line = 1;
  int column = 1;

  void advance(std::string_view content, std::size_t& offset) {
    const char c = content[offset];
    if (c == '\n' || c == '\r') {
      ++offset;
      if (c == '\r' && offset < content.size() && content[offset] == '\n') ++offset;
      ++line;
      column = 1;
      return;
    }
    column += columnsOfUtf8Lead(static_cast<unsigned char>(c));
    ++offset;
    while (offset < content.size() && isUtf8Continuation(static_cast<unsigned char>(content[offset]))) ++offset;
  }
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool isAllSpace(const std::string& text) {
  for (char c : text) {
    if (!isSpace(c)) return false;
  }
  return true;
}

bool isAllSpace(const XMLCh* text, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) {
    if (text[i] != u' ' && text[i] != u'\t' && text[i] != u'\n' && text[i] != u'\r') return false;
  }
  return true;
}

/// Finds the start tags of the (UTF-8 or ASCII) input in document order, as Xerces reports them,
/// and gives the line and column of each tag's '<' and of its attribute names the way Xerces
/// counts them (one column per UTF-16 unit; LF, CR LF and a lone CR each end a line).
///
/// Locating from the text itself costs one forward pass over it; asking Xerces' locator instead
/// only gives the position after each tag, in (line, column) that must be mapped back to bytes.
/// The n-th start tag in the text is the n-th element Xerces reports: no DTD entities are ever
/// expanded (documents declaring any are refused) and predefined or character references cannot
/// make elements. When the text does not match (another encoding, a tag name that differs), the
/// locator gives up for the rest of the document and the caller falls back to Xerces' positions.
class StartTagLocator {
 public:
  explicit StartTagLocator(std::string_view content) : content_(content) {
    // Xerces does not count a byte-order mark as a column.
    if (content_.size() >= 3 && content_.compare(0, 3, "\xEF\xBB\xBF") == 0) scan_ = cursor_ = 3;
    // CR LF ends a line where LF alone does, so only a CR without an LF needs the slow walk.
    for (std::size_t cr = content_.find('\r'); cr != std::string_view::npos; cr = content_.find('\r', cr + 1)) {
      if (cr + 1 >= content_.size() || content_[cr + 1] != '\n') {
        hasLoneCarriageReturn_ = true;
        break;
      }
    }
  }

  /// Sets the line and column of `element` (whose name and attributes are filled in) and of its
  /// attributes from the next start tag; false when that tag cannot be found in the text.
  bool locateNext(XmlElement& element) {
    if (lost_) return false;
    if (!findNextStartTag()) return lose();
    const std::string& name = element.name;
    std::size_t i = scan_ + 1;
    if (content_.compare(i, name.size(), name) != 0) return lose();
    i += name.size();
    if (i >= content_.size() || !(isSpace(content_[i]) || content_[i] == '/' || content_[i] == '>')) return lose();

    moveCursorTo(scan_);
    element.where.line = line_;
    element.where.column = column_;
    for (Attribute& attribute : element.attributes) {
      attribute.where.line = line_;
      attribute.where.column = column_;
    }
    std::size_t attributeIndex = 0;
    while (true) {
      while (i < content_.size() && isSpace(content_[i])) ++i;
      if (i >= content_.size()) return lose();
      if (content_[i] == '>') {
        scan_ = i + 1;
        return true;
      }
      if (content_[i] == '/') {
        if (i + 1 >= content_.size() || content_[i + 1] != '>') return lose();
        scan_ = i + 2;
        return true;
      }
      const std::size_t nameBegin = i;
      while (i < content_.size() && !isSpace(content_[i]) && content_[i] != '=' && content_[i] != '>' &&
             content_[i] != '/') {
        ++i;
      }
      if (Attribute* attribute = attributeNamed(element, attributeIndex++, content_.substr(nameBegin, i - nameBegin))) {
        moveCursorTo(nameBegin);
        attribute->where.line = line_;
        attribute->where.column = column_;
      }
      while (i < content_.size() && isSpace(content_[i])) ++i;
      if (i >= content_.size() || content_[i] != '=') return lose();
      ++i;
      while (i < content_.size() && isSpace(content_[i])) ++i;
      if (i >= content_.size() || (content_[i] != '"' && content_[i] != '\'')) return lose();
      const std::size_t close = content_.find(content_[i], i + 1);
      if (close == std::string_view::npos) return lose();
      i = close + 1;
    }
  }

 private:
  bool lose() {
    lost_ = true;
    return false;
  }

  /// Attributes come in the order written; the name is checked all the same.
  static Attribute* attributeNamed(XmlElement& element, std::size_t index, std::string_view name) {
    if (index < element.attributes.size() && element.attributes[index].name == name) return &element.attributes[index];
    for (Attribute& attribute : element.attributes) {
      if (attribute.name == name) return &attribute;
    }
    return nullptr;
  }

  /// Moves `scan_` to the '<' of the next start tag, past end tags, comments, processing
  /// instructions, CDATA sections and a DOCTYPE without a subset. Text holds no raw '<'.
  bool findNextStartTag() {
    while (true) {
      const std::size_t open = content_.find('<', scan_);
      if (open == std::string_view::npos || open + 1 >= content_.size()) return false;
      const char next = content_[open + 1];
      std::size_t end = std::string_view::npos;
      if (next == '/') {
        end = content_.find('>', open + 2);
        if (end != std::string_view::npos) end += 1;
      } else if (next == '?') {
        end = content_.find("?>", open + 2);
        if (end != std::string_view::npos) end += 2;
      } else if (next == '!') {
        if (content_.compare(open, 4, "<!--") == 0) {
          end = content_.find("-->", open + 4);
          if (end != std::string_view::npos) end += 3;
        } else if (content_.compare(open, 9, "<![CDATA[") == 0) {
          end = content_.find("]]>", open + 9);
          if (end != std::string_view::npos) end += 3;
        } else {
          end = endOfDoctype(open + 2);
        }
      } else {
        scan_ = open;
        return true;
      }
      if (end == std::string_view::npos) return false;
      scan_ = end;
    }
  }

  /// Just past the '>' closing a DOCTYPE without an internal subset (quoted literals may hold '>').
  std::size_t endOfDoctype(std::size_t i) const {
    char quote = 0;
    for (; i < content_.size(); ++i) {
      const char c = content_[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        return std::string_view::npos;
      } else if (c == '>') {
        return i + 1;
      }
    }
    return std::string_view::npos;
  }

  /// Brings line_ and column_ to the byte `offset` (never backwards, never inside a CR LF pair).
  void moveCursorTo(std::size_t offset) {
    if (hasLoneCarriageReturn_) {
      Cursor cursor{line_, column_};
      while (cursor_ < offset) cursor.advance(content_, cursor_);
      line_ = cursor.line;
      column_ = cursor.column;
      return;
    }
    const char* const data = content_.data();
    const char* from = data + cursor_;
    const char* const to = data + offset;
    const char* lineStart = nullptr;
    while (from < to) {
      const void* newline = std::memchr(from, '\n', static_cast<std::size_t>(to - from));
      if (!newline) break;
      ++line_;
      from = static_cast<const char*>(newline) + 1;
      lineStart = from;
    }
    if (lineStart) {
      column_ = 1 + static_cast<int>(columnsOf(lineStart, to));
    } else {
      column_ += static_cast<int>(columnsOf(data + cursor_, to));
    }
    cursor_ = offset;
  }

  std::string_view content_;
  std::size_t scan_ = 0;    // where the search for the next start tag goes on
  std::size_t cursor_ = 0;  // the byte whose line and column are line_ and column_
  int line_ = 1;
  int column_ = 1;
  bool hasLoneCarriageReturn_ = false;
  bool lost_ = false;
};

/// Thrown by the handler to end the scan (depth limit, refused DTD or entity); Xerces lets
/// exceptions from handlers through and cleans up after itself.
struct StopParsing {};

/// Builds the tree in place: every element is constructed once at the end of `nodes_`, which
/// holds the open elements with, after each, its finished children. When an element ends, its
/// children are moved into a vector of exactly their number, so no children vector ever grows.
class TreeBuilder : public xc::DefaultHandler {
 public:
  TreeBuilder(std::string_view content, const std::string& fileName, std::size_t maxDepth)
      : fileName_(fileName), maxDepth_(maxDepth), tags_(content) {
    nodes_.reserve(64);
    open_.reserve(64);
  }

  void setDocumentLocator(const xc::Locator* const locator) override { locator_ = locator; }

  void startElement(const XMLCh* const, const XMLCh* const, const XMLCh* const qname,
                    const xc::Attributes& attributes) override {
    XmlElement& element = nodes_.emplace_back();
    assignUtf8(element.name, qname);
    const XMLSize_t count = attributes.getLength();
    if (count > 0) {
      element.attributes.resize(count);
      for (XMLSize_t i = 0; i < count; ++i) {
        Attribute& attribute = element.attributes[i];
        assignUtf8(attribute.name, attributes.getQName(i));
        assignUtf8(attribute.value, attributes.getValue(i));
        attribute.where.file = fileName_;
      }
    }
    element.where.file = fileName_;
    if (!tags_.locateNext(element)) locateAtTagEnd(element);
    if (open_.size() >= maxDepth_) {
      abort("elements are nested deeper than " + std::to_string(maxDepth_) + " levels", element.where);
    }
    open_.push_back(nodes_.size() - 1);
  }

  void endElement(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    if (open_.empty()) return;
    const std::size_t index = open_.back();
    open_.pop_back();
    XmlElement& element = nodes_[index];
    const auto firstChild = nodes_.begin() + static_cast<std::ptrdiff_t>(index + 1);
    if (firstChild != nodes_.end()) {
      element.children.assign(std::make_move_iterator(firstChild), std::make_move_iterator(nodes_.end()));
      nodes_.erase(firstChild, nodes_.end());
      // White space between children is layout, not content; do not keep it.
      if (isAllSpace(element.text)) std::string().swap(element.text);
    }
    if (open_.empty()) {
      root_ = std::move(element);
      nodes_.clear();
    }
  }

  void characters(const XMLCh* const chars, const XMLSize_t length) override {
    if (open_.empty()) return;
    const std::size_t index = open_.back();
    const bool hasChildren = index + 1 < nodes_.size();
    if (hasChildren && isAllSpace(chars, length)) return;  // layout after a child
    appendUtf8(nodes_[index].text, chars, length);
  }

  void ignorableWhitespace(const XMLCh* const chars, const XMLSize_t length) override { characters(chars, length); }

  // A document type declaration with an internal or external subset is where entities (expansion
  // bombs, external files) come from; no supported format needs one, so it is refused. Xerces
  // reports only those here: a bare <!DOCTYPE name> declares nothing and is accepted.
  void startDTD(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    abort("document type declarations with an internal or external subset (<!DOCTYPE ... [ ... ]>) are not allowed",
          here());
  }

  xc::InputSource* resolveEntity(const XMLCh* const, const XMLCh* const systemId) override {
    abort("external entity '" + toUtf8(systemId) + "' is not loaded", here());
  }

  void fatalError(const xc::SAXParseException& e) override { recordXercesError(e); }
  void error(const xc::SAXParseException& e) override { recordXercesError(e); }
  void warning(const xc::SAXParseException&) override {}

  bool failed() const { return stopped_ || hasError_; }
  const std::string& message() const { return message_; }
  const SourceLocation& errorWhere() const { return errorWhere_; }
  std::optional<XmlElement> takeRoot() { return std::move(root_); }

  void stop(std::string message, SourceLocation where) {
    if (!failed()) {
      message_ = std::move(message);
      errorWhere_ = std::move(where);
    }
    stopped_ = true;
  }

 private:
  [[noreturn]] void abort(std::string message, SourceLocation where) {
    stop(std::move(message), std::move(where));
    throw StopParsing{};
  }

  SourceLocation here() const {
    SourceLocation where{fileName_, 0, 0};
    if (locator_) {
      where.line = static_cast<int>(locator_->getLineNumber());
      where.column = static_cast<int>(locator_->getColumnNumber());
    }
    return where;
  }

  /// When the text cannot be followed (see StartTagLocator), Xerces' position just past the
  /// start tag is the best there is, for the element and its attributes alike.
  void locateAtTagEnd(XmlElement& element) const {
    if (!locator_) return;
    const int line = static_cast<int>(locator_->getLineNumber());
    const int column = static_cast<int>(locator_->getColumnNumber());
    element.where.line = line;
    element.where.column = column;
    for (Attribute& attribute : element.attributes) {
      attribute.where.line = line;
      attribute.where.column = column;
    }
  }

  void recordXercesError(const xc::SAXParseException& e) {
    if (failed()) return;
    hasError_ = true;
    message_ = toUtf8(e.getMessage());
    errorWhere_ = SourceLocation{fileName_, static_cast<int>(e.getLineNumber()), static_cast<int>(e.getColumnNumber())};
  }

  const std::string& fileName_;
  std::size_t maxDepth_;
  StartTagLocator tags_;
  const xc::Locator* locator_ = nullptr;
  std::vector<XmlElement> nodes_;
  std::vector<std::size_t> open_;  // indices in nodes_ of the elements not yet ended
  std::optional<XmlElement> root_;
  bool stopped_ = false;
  bool hasError_ = false;
  std::string message_;
  SourceLocation errorWhere_;
};

/// A document type declaration with an internal subset or an external identifier in the prolog,
/// or nothing. The well-formedness scanner skips DTDs without reporting them, so they are found
/// here (for UTF-8 and ASCII input; the scanner never expands declared entities anyway).
std::optional<SourceLocation> findDoctypeWithDeclarations(std::string_view content, const std::string& fileName) {
  std::size_t i = 0;
  if (content.size() >= 3 && content.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
  const auto startsWith = [&](std::string_view prefix) { return content.compare(i, prefix.size(), prefix) == 0; };
  while (i < content.size()) {
    if (isSpace(content[i])) {
      ++i;
    } else if (startsWith("<?")) {
      const std::size_t end = content.find("?>", i + 2);
      if (end == std::string_view::npos) return std::nullopt;
      i = end + 2;
    } else if (startsWith("<!--")) {
      const std::size_t end = content.find("-->", i + 4);
      if (end == std::string_view::npos) return std::nullopt;
      i = end + 3;
    } else if (startsWith("<!DOCTYPE")) {
      bool declares = false;
      char quote = 0;
      std::size_t j = i + 9;
      for (; j < content.size(); ++j) {
        const char c = content[j];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '[') {
          declares = true;
          break;
        } else if (c == '>') {
          break;
        }
      }
      const std::string_view declaration = content.substr(i, j - i);
      declares = declares || declaration.find("SYSTEM") != std::string_view::npos ||
                 declaration.find("PUBLIC") != std::string_view::npos;
      if (!declares) return std::nullopt;
      Cursor cursor;
      for (std::size_t k = 0; k < i;) cursor.advance(content, k);
      return SourceLocation{fileName, cursor.line, cursor.column};
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void configure(xc::SAX2XMLReader& reader, xc::SecurityManager& security) {
  reader.setFeature(xc::XMLUni::fgSAX2CoreValidation, false);
  // Names stay as written ("ignition:foo"), prefixes need no declaration, xmlns:* are attributes.
  reader.setFeature(xc::XMLUni::fgSAX2CoreNameSpaces, false);
  reader.setFeature(xc::XMLUni::fgSAX2CoreNameSpacePrefixes, false);
  reader.setFeature(xc::XMLUni::fgXercesSchema, false);
  reader.setFeature(xc::XMLUni::fgXercesSchemaFullChecking, false);
  reader.setFeature(xc::XMLUni::fgXercesLoadSchema, false);
  reader.setFeature(xc::XMLUni::fgXercesLoadExternalDTD, false);
  reader.setFeature(xc::XMLUni::fgXercesSkipDTDValidation, true);
  reader.setFeature(xc::XMLUni::fgXercesCacheGrammarFromParse, false);
  reader.setFeature(xc::XMLUni::fgXercesUseCachedGrammarInParse, false);
  reader.setFeature(xc::XMLUni::fgXercesDisableDefaultEntityResolution, true);
  reader.setFeature(xc::XMLUni::fgXercesIdentityConstraintChecking, false);
  reader.setFeature(xc::XMLUni::fgXercesContinueAfterFatalError, false);
  reader.setProperty(xc::XMLUni::fgXercesSecurityManager, &security);
  // The well-formedness scanner: no validation or grammar machinery, about twice as fast.
  reader.setProperty(xc::XMLUni::fgXercesScannerName, const_cast<XMLCh*>(xc::XMLUni::fgWFXMLScanner));
}

}  // namespace

std::optional<XmlElement> parse(std::string_view content, const std::string& fileName, Diagnostics& diagnostics,
                                const ParseOptions& options) {
  const SourceLocation fileOnly{fileName, 0, 0};
  if (!xercesReady()) {
    diagnostics.error(ErrorCode::XML_SYNTAX, "the XML reader (Xerces-C) could not be initialised", fileOnly);
    return std::nullopt;
  }
  if (auto doctype = findDoctypeWithDeclarations(content, fileName)) {
    diagnostics.error(ErrorCode::XML_SYNTAX,
                      "not well-formed XML: document type declarations with an internal or external subset "
                      "(<!DOCTYPE ... [ ... ]> or SYSTEM/PUBLIC) are not allowed",
                      std::move(*doctype));
    return std::nullopt;
  }
  TreeBuilder builder(content, fileName, options.maxDepth == 0 ? 1 : options.maxDepth);
  try {
    xc::SecurityManager security;
    security.setEntityExpansionLimit(static_cast<XMLSize_t>(options.maxEntityExpansions));
    std::unique_ptr<xc::SAX2XMLReader> reader(xc::XMLReaderFactory::createXMLReader());
    configure(*reader, security);
    reader->setContentHandler(&builder);
    reader->setErrorHandler(&builder);
    reader->setLexicalHandler(&builder);
    reader->setEntityResolver(&builder);
    reader->setDTDHandler(&builder);

    xc::MemBufInputSource source(reinterpret_cast<const XMLByte*>(content.data()), content.size(), fileName.c_str(),
                                 false);
    reader->parse(source);
  } catch (const StopParsing&) {
    // The handler has recorded why.
  } catch (const xc::SAXParseException& e) {
    builder.stop(toUtf8(e.getMessage()),
                 SourceLocation{fileName, static_cast<int>(e.getLineNumber()), static_cast<int>(e.getColumnNumber())});
  } catch (const xc::XMLException& e) {
    builder.stop(toUtf8(e.getMessage()), fileOnly);
  } catch (const xc::SAXException& e) {
    builder.stop(toUtf8(e.getMessage()), fileOnly);
  } catch (const xc::OutOfMemoryException&) {
    builder.stop("out of memory while reading XML", fileOnly);
  } catch (const std::exception& e) {
    builder.stop(e.what(), fileOnly);
  } catch (...) {
    builder.stop("unknown failure of the XML reader", fileOnly);
  }

  std::optional<XmlElement> root = builder.takeRoot();
  if (builder.failed() || !root) {
    std::string message = builder.failed() ? builder.message() : std::string("no root element");
    SourceLocation where = builder.failed() ? builder.errorWhere() : fileOnly;
    if (where.file.empty()) where.file = fileName;
    diagnostics.error(ErrorCode::XML_SYNTAX, "not well-formed XML: " + message, std::move(where));
    return std::nullopt;
  }
  return root;
}

}  // namespace interlink::xml
