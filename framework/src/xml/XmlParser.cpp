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

void appendUtf8(std::string& out, const XMLCh* text, std::size_t length) {
  out.reserve(out.size() + length);
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

std::string toUtf8(const XMLCh* text) {
  std::string out;
  if (text) appendUtf8(out, text, xc::XMLString::stringLen(text));
  return out;
}

bool isUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Columns as Xerces counts them: one per UTF-16 unit, so two for a 4-byte UTF-8 sequence.
int columnsOfUtf8Lead(unsigned char c) { return c >= 0xF0 ? 2 : 1; }

/// Maps Xerces' (line, column) positions back to byte offsets in the UTF-8 input, walking forward
/// only (positions arrive in document order), so the whole mapping is linear in the input size.
class PositionMap {
 public:
  explicit PositionMap(std::string_view content) : content_(content) {
    // Xerces does not count a byte-order mark as a column.
    if (content_.size() >= 3 && static_cast<unsigned char>(content_[0]) == 0xEF &&
        static_cast<unsigned char>(content_[1]) == 0xBB && static_cast<unsigned char>(content_[2]) == 0xBF) {
      offset_ = 3;
    }
    hasCarriageReturn_ = content_.find('\r') != std::string_view::npos;
  }

  /// Byte offset of (line, column), or npos when the input cannot be mapped (not UTF-8, ...).
  std::size_t offsetOf(std::uint64_t line, std::uint64_t column) {
    if (broken_ || line < line_ || (line == line_ && column < column_)) return std::string_view::npos;
    if (!hasCarriageReturn_) {
      // Whole lines are skipped with memchr; only the last line is walked character by character.
      while (line_ < line) {
        const void* newline = std::memchr(content_.data() + offset_, '\n', content_.size() - offset_);
        if (!newline) return fail();
        offset_ = static_cast<std::size_t>(static_cast<const char*>(newline) - content_.data()) + 1;
        ++line_;
        column_ = 1;
      }
    }
    while (line_ < line) {
      if (offset_ >= content_.size()) return fail();
      advanceOne();
    }
    while (column_ < column) {
      if (offset_ >= content_.size()) return fail();
      const char c = content_[offset_];
      if (c == '\n' || c == '\r') return fail();
      advanceOne();
    }
    return offset_;
  }

 private:
  std::size_t fail() {
    broken_ = true;
    return std::string_view::npos;
  }

  void advanceOne() {
    const char c = content_[offset_];
    if (c == '\n' || c == '\r') {
      ++offset_;
      if (c == '\r' && offset_ < content_.size() && content_[offset_] == '\n') ++offset_;
      ++line_;
      column_ = 1;
      return;
    }
    column_ += static_cast<std::uint64_t>(columnsOfUtf8Lead(static_cast<unsigned char>(c)));
    ++offset_;
    while (offset_ < content_.size() && isUtf8Continuation(static_cast<unsigned char>(content_[offset_]))) ++offset_;
  }

  std::string_view content_;
  std::size_t offset_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t column_ = 1;
  bool broken_ = false;
  bool hasCarriageReturn_ = false;
};

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

class TreeBuilder : public xc::DefaultHandler {
 public:
  TreeBuilder(std::string_view content, const std::string& fileName, std::size_t maxDepth)
      : content_(content), fileName_(fileName), maxDepth_(maxDepth), positions_(content) {}

  void setDocumentLocator(const xc::Locator* const locator) override { locator_ = locator; }

  void startElement(const XMLCh* const, const XMLCh* const, const XMLCh* const qname,
                    const xc::Attributes& attributes) override {
    if (stopped_) return;
    XmlElement element;
    element.name = toUtf8(qname);
    const XMLSize_t count = attributes.getLength();
    element.attributes.resize(count);
    for (XMLSize_t i = 0; i < count; ++i) {
      element.attributes[i].name = toUtf8(attributes.getQName(i));
      element.attributes[i].value = toUtf8(attributes.getValue(i));
    }
    locateStartTag(element);
    if (stack_.size() >= maxDepth_) {
      stop("elements are nested deeper than " + std::to_string(maxDepth_) + " levels", element.where);
      return;
    }
    stack_.push_back(std::move(element));
  }

  void endElement(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    if (stopped_ || stack_.empty()) return;
    XmlElement done = std::move(stack_.back());
    stack_.pop_back();
    // White space between children is layout, not content; do not keep it.
    if (!done.children.empty() && isAllSpace(done.text)) std::string().swap(done.text);
    if (stack_.empty()) {
      root_ = std::move(done);
    } else {
      stack_.back().children.push_back(std::move(done));
    }
  }

  void characters(const XMLCh* const chars, const XMLSize_t length) override {
    if (stopped_ || stack_.empty()) return;
    if (!stack_.back().children.empty() && isAllSpace(chars, length)) return;  // layout after a child
    appendUtf8(stack_.back().text, chars, length);
  }

  void ignorableWhitespace(const XMLCh* const chars, const XMLSize_t length) override { characters(chars, length); }

  // A document type declaration with an internal or external subset is where entities (expansion
  // bombs, external files) come from; no supported format needs one, so it is refused. Xerces
  // reports only those here: a bare <!DOCTYPE name> declares nothing and is accepted.
  void startDTD(const XMLCh* const, const XMLCh* const, const XMLCh* const) override {
    stop("document type declarations with an internal or external subset (<!DOCTYPE ... [ ... ]>) are not allowed", here());
  }

  xc::InputSource* resolveEntity(const XMLCh* const, const XMLCh* const systemId) override {
    stop("external entity '" + toUtf8(systemId) + "' is not loaded", here());
    // An empty source: nothing is read from disk or network even if the scanner goes on.
    static const XMLByte nothing[1] = {0};
    return new xc::MemBufInputSource(nothing, 0, systemId ? systemId : u"", false);
  }

  void fatalError(const xc::SAXParseException& e) override { recordXercesError(e); }
  void error(const xc::SAXParseException& e) override { recordXercesError(e); }
  void warning(const xc::SAXParseException&) override {}

  bool stopped() const { return stopped_; }
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
  SourceLocation here() const {
    SourceLocation where{fileName_, 0, 0};
    if (locator_) {
      where.line = static_cast<int>(locator_->getLineNumber());
      where.column = static_cast<int>(locator_->getColumnNumber());
    }
    return where;
  }

  void recordXercesError(const xc::SAXParseException& e) {
    if (failed()) return;
    hasError_ = true;
    message_ = toUtf8(e.getMessage());
    errorWhere_ = SourceLocation{fileName_, static_cast<int>(e.getLineNumber()), static_cast<int>(e.getColumnNumber())};
  }

  /// The locator points just past the start tag's '>'; the tag's '<' is found by scanning back
  /// (attribute values cannot hold a raw '<'), and attributes are located by lexing the tag.
  void locateStartTag(XmlElement& element) {
    const SourceLocation end = here();
    element.where = end;
    for (Attribute& a : element.attributes) a.where = end;
    if (!locator_) return;
    const std::size_t endOffset = positions_.offsetOf(locator_->getLineNumber(), locator_->getColumnNumber());
    if (endOffset == std::string_view::npos || endOffset == 0 || content_[endOffset - 1] != '>') return;

    std::size_t open = endOffset - 1;
    int newlines = 0;
    int columnsBack = 1;  // the '>'
    while (open > 0 && content_[open] != '<') {
      --open;
      const char c = content_[open];
      if (c == '\n' || (c == '\r' && content_[open + 1] != '\n')) ++newlines;
      if (!isUtf8Continuation(static_cast<unsigned char>(c))) columnsBack += columnsOfUtf8Lead(static_cast<unsigned char>(c));
    }
    if (content_[open] != '<') return;

    Cursor start;
    if (newlines == 0) {
      start.line = end.line;
      start.column = end.column - columnsBack;
    } else {
      std::size_t lineStart = open;
      while (lineStart > 0 && content_[lineStart - 1] != '\n' && content_[lineStart - 1] != '\r') --lineStart;
      start.line = end.line - newlines;
      for (std::size_t i = lineStart; i < open; ++i) {
        const auto c = static_cast<unsigned char>(content_[i]);
        if (!isUtf8Continuation(c)) start.column += columnsOfUtf8Lead(c);
      }
    }
    element.where.line = start.line;
    element.where.column = start.column;
    if (!element.attributes.empty()) locateAttributes(element, open, endOffset, start);
  }

  void locateAttributes(XmlElement& element, std::size_t open, std::size_t endOffset, Cursor cursor) {
    std::size_t i = open;
    cursor.advance(content_, i);  // '<'
    while (i < endOffset && !isSpace(content_[i]) && content_[i] != '/' && content_[i] != '>') cursor.advance(content_, i);
    while (i < endOffset) {
      while (i < endOffset && isSpace(content_[i])) cursor.advance(content_, i);
      if (i >= endOffset || content_[i] == '/' || content_[i] == '>') return;
      const Cursor nameAt = cursor;
      const std::size_t nameBegin = i;
      while (i < endOffset && !isSpace(content_[i]) && content_[i] != '=') cursor.advance(content_, i);
      const std::string_view name = content_.substr(nameBegin, i - nameBegin);
      for (Attribute& a : element.attributes) {
        if (a.name == name) {
          a.where.line = nameAt.line;
          a.where.column = nameAt.column;
          break;
        }
      }
      while (i < endOffset && content_[i] != '"' && content_[i] != '\'') cursor.advance(content_, i);
      if (i >= endOffset) return;
      const char quote = content_[i];
      cursor.advance(content_, i);
      while (i < endOffset && content_[i] != quote) cursor.advance(content_, i);
      if (i < endOffset) cursor.advance(content_, i);
    }
  }

  std::string_view content_;
  const std::string& fileName_;
  std::size_t maxDepth_;
  PositionMap positions_;
  const xc::Locator* locator_ = nullptr;
  std::vector<XmlElement> stack_;
  std::optional<XmlElement> root_;
  bool stopped_ = false;
  bool hasError_ = false;
  std::string message_;
  SourceLocation errorWhere_;
};

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
}

}  // namespace

std::optional<XmlElement> parse(std::string_view content, const std::string& fileName, Diagnostics& diagnostics,
                                const ParseOptions& options) {
  const SourceLocation fileOnly{fileName, 0, 0};
  if (!xercesReady()) {
    diagnostics.error(ErrorCode::XML_SYNTAX, "the XML reader (Xerces-C) could not be initialised", fileOnly);
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
    // Progressive parsing lets the handler stop the scan (depth limit, DOCTYPE) without throwing
    // through Xerces.
    xc::XMLPScanToken token;
    bool more = reader->parseFirst(source, token);
    while (more && !builder.stopped()) more = reader->parseNext(token);
    if (builder.stopped()) reader->parseReset(token);
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
