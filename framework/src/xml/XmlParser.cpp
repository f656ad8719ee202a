// XML reading with Xerces-C, hardened for untrusted input, into an XmlElement tree that remembers
// the line and column of every start tag and attribute.
//
// Speed matters here (a 4000-link SDFormat chain is about 72,000 elements): the tree is built from
// the scanner's own events (XMLDocumentHandler), without the SAX layer that would rebuild names
// and attribute lists for every element; each element is constructed in place in its parent's
// children vector; positions come from one forward pass over the text instead of mapping Xerces'
// (line, column) back to bytes; ASCII text is narrowed without per-character branching.
// docs/xml.md has the measurements.
#include "interlink/xml/XmlParser.hpp"

#include "xml/TextCursor.hpp"
#include "xml/XmlTolerance.hpp"

#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/framework/XMLAttr.hpp>
#include <xercesc/framework/XMLDocumentHandler.hpp>
#include <xercesc/framework/XMLElementDecl.hpp>
#include <xercesc/internal/XMLScanner.hpp>
#include <xercesc/parsers/SAXParser.hpp>
#include <xercesc/sax/EntityResolver.hpp>
#include <xercesc/sax/ErrorHandler.hpp>
#include <xercesc/sax/Locator.hpp>
#include <xercesc/sax/SAXException.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/util/OutOfMemoryException.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLException.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

namespace interlink::xml {
namespace {

namespace xc = XERCES_CPP_NAMESPACE;
using detail::Cursor;

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

/// Appends `text` as UTF-8. Model files are almost entirely ASCII, so the text is narrowed through
/// a small buffer in a branch-free loop, and only re-done character by character if it was not.
void appendUtf8(std::string& out, const XMLCh* text, std::size_t length) {
  char buffer[256];
  if (length > sizeof buffer) out.reserve(out.size() + length);
  for (std::size_t done = 0; done < length;) {
    const std::size_t count = std::min(length - done, sizeof buffer);
    unsigned highBits = 0;
    for (std::size_t i = 0; i < count; ++i) {
      highBits |= text[done + i];
      buffer[i] = static_cast<char>(text[done + i]);
    }
    if (highBits >= 0x80) {
      appendUtf8Slow(out, text + done, length - done);
      return;
    }
    out.append(buffer, count);
    done += count;
  }
}

/// `out` = `text` (null-terminated) as UTF-8; names and attribute values are short, so the common
/// case is one pass into a buffer and one assignment.
void assignUtf8(std::string& out, const XMLCh* text) {
  if (!text) {
    out.clear();
    return;
  }
  char buffer[64];
  for (std::size_t i = 0; i < sizeof buffer; ++i) {
    const XMLCh c = text[i];
    if (c == 0) {
      out.assign(buffer, i);
      return;
    }
    if (c >= 0x80) break;
    buffer[i] = static_cast<char>(c);
  }
  out.clear();
  appendUtf8(out, text, std::char_traits<XMLCh>::length(text));
}

std::string toUtf8(const XMLCh* text) {
  std::string out;
  assignUtf8(out, text);
  return out;
}

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

/// What the StartTagLocator needs to know about each byte.
enum ByteClass : std::uint16_t {
  kLess = 1 << 0,          // <
  kGreater = 1 << 1,       // >
  kQuote = 1 << 2,         // " '
  kBlank = 1 << 3,         // space, tab
  kLineBreak = 1 << 4,     // LF, CR
  kNonAscii = 1 << 5,      // >= 0x80: part of a multi-byte UTF-8 sequence
  kEquals = 1 << 6,        // =
  kSlash = 1 << 7,         // /
  kDash = 1 << 8,          // - (comment end)
  kQuestion = 1 << 9,      // ? (processing instruction end)
  kCloseBracket = 1 << 10,  // ] (CDATA end)
  kOpenBracket = 1 << 11,   // [ (DOCTYPE subset)
};

struct ByteClasses {
  std::uint16_t of[256] = {};
  constexpr ByteClasses() {
    of[static_cast<unsigned char>('<')] = kLess;
    of[static_cast<unsigned char>('>')] = kGreater;
    of[static_cast<unsigned char>('"')] = kQuote;
    of[static_cast<unsigned char>('\'')] = kQuote;
    of[static_cast<unsigned char>(' ')] = kBlank;
    of[static_cast<unsigned char>('\t')] = kBlank;
    of[static_cast<unsigned char>('\n')] = kLineBreak;
    of[static_cast<unsigned char>('\r')] = kLineBreak;
    of[static_cast<unsigned char>('=')] = kEquals;
    of[static_cast<unsigned char>('/')] = kSlash;
    of[static_cast<unsigned char>('-')] = kDash;
    of[static_cast<unsigned char>('?')] = kQuestion;
    of[static_cast<unsigned char>(']')] = kCloseBracket;
    of[static_cast<unsigned char>('[')] = kOpenBracket;
    for (int c = 0x80; c < 0x100; ++c) of[c] = kNonAscii;
  }
};
constexpr ByteClasses kByteClasses;

/// How many more bytes than columns (UTF-16 units, as Xerces counts columns) a UTF-8 byte adds:
/// +1 for a continuation byte, -1 for the lead of a 4-byte sequence (two UTF-16 units).
int extraBytesOf(unsigned char c) { return c < 0xC0 ? 1 : (c >= 0xF0 ? -1 : 0); }

int extraBytesOf(std::string_view utf8) {
  int extra = 0;
  for (char c : utf8) {
    if (static_cast<unsigned char>(c) >= 0x80) extra += extraBytesOf(static_cast<unsigned char>(c));
  }
  return extra;
}

/// Finds the start tags of the (UTF-8 or ASCII) input in document order, as Xerces reports them,
/// and gives the line and column of each tag's '<' and of its attribute names the way Xerces
/// counts them (one column per UTF-16 unit; LF, CR LF and a lone CR each end a line).
///
/// Every byte is looked at once, in document order, with a table lookup; the line, the start of
/// the line and how many more bytes than columns the line has so far are kept up to date, so any
/// column is a subtraction. (Xerces' locator only gives the position after each tag, as a line
/// and column that would have to be mapped back to bytes.) The n-th start tag in the text is the
/// n-th element Xerces reports: no DTD entities are ever expanded (the well-formedness scanner
/// skips DTDs, and UTF-8 documents declaring any are refused) and predefined or character
/// references cannot make elements. When the text does not match (another encoding, a tag name
/// that differs), the locator gives up for the rest of the document and the caller falls back to
/// Xerces' positions.
class StartTagLocator {
 public:
  explicit StartTagLocator(std::string_view content)
      : at_(reinterpret_cast<const unsigned char*>(content.data())), end_(at_ + content.size()), lineStart_(at_) {
    // Xerces does not count a byte-order mark as a column.
    if (content.size() >= 3 && content.compare(0, 3, "\xEF\xBB\xBF") == 0) at_ = lineStart_ = at_ + 3;
  }

  /// Sets the line and column of `element` (its name and attributes filled in already) and of its
  /// attributes from the next start tag; false when that tag cannot be found in the text.
  /// `nameExtraBytes` is extraBytesOf(element.name).
  bool locateNext(XmlElement& element, int nameExtraBytes) {
    if (lost_) return false;
    if (!toNextStartTag()) return lose();
    const int line = line_;
    const int column = columnAt(at_);
    element.where.line = line;
    element.where.column = column;
    for (Attribute& attribute : element.attributes) {
      attribute.where.line = line;
      attribute.where.column = column;
    }

    const std::string& name = element.name;
    const unsigned char* p = at_ + 1;
    if (static_cast<std::size_t>(end_ - p) <= name.size() || std::memcmp(p, name.data(), name.size()) != 0) {
      return lose();
    }
    p += name.size();
    extraBytes_ += nameExtraBytes;
    if (!(classOf(*p) & (kBlank | kLineBreak | kGreater | kSlash))) return lose();

    std::size_t attributeIndex = 0;
    while (true) {
      p = skipBlanks(p);
      if (p == end_) return lose();
      if (*p == '>') {
        at_ = p + 1;
        return true;
      }
      if (*p == '/') {
        if (p + 1 == end_ || p[1] != '>') return lose();
        at_ = p + 2;
        return true;
      }
      const unsigned char* attributeName = p;
      const int attributeColumn = columnAt(p);
      p = scanTo(p, kBlank | kLineBreak | kEquals | kGreater | kSlash);
      if (p == end_) return lose();
      const std::string_view written(reinterpret_cast<const char*>(attributeName),
                                     static_cast<std::size_t>(p - attributeName));
      if (Attribute* attribute = attributeNamed(element, attributeIndex++, written)) {
        attribute->where.line = line_;
        attribute->where.column = attributeColumn;
      }
      p = skipBlanks(p);
      if (p == end_ || *p != '=') return lose();
      p = skipBlanks(p + 1);
      if (p == end_ || !(classOf(*p) & kQuote)) return lose();
      const unsigned char quote = *p;
      do {
        p = scanTo(p + 1, kQuote);
      } while (p != end_ && *p != quote);
      if (p == end_) return lose();
      ++p;
    }
  }

 private:
  static std::uint16_t classOf(unsigned char c) { return kByteClasses.of[c]; }

  bool lose() {
    lost_ = true;
    return false;
  }

  int columnAt(const unsigned char* p) const { return static_cast<int>(p - lineStart_) - extraBytes_ + 1; }

  /// Line bookkeeping for the line break or non-ASCII byte at `p`.
  void account(const unsigned char* p) {
    const unsigned char c = *p;
    if (c == '\n' || (c == '\r' && (p + 1 == end_ || p[1] != '\n'))) {
      ++line_;
      lineStart_ = p + 1;
      extraBytes_ = 0;
    } else if (c >= 0x80) {
      extraBytes_ += extraBytesOf(c);
    }
  }

  /// The first byte at or after `p` whose class is in `stops`, or end_; line breaks and non-ASCII
  /// bytes passed on the way are accounted for.
  const unsigned char* scanTo(const unsigned char* p, std::uint16_t stops) {
    while (true) {
      while (p != end_ && !(classOf(*p) & (stops | kLineBreak | kNonAscii))) ++p;
      if (p == end_ || (classOf(*p) & stops)) return p;
      account(p);
      ++p;
    }
  }

  const unsigned char* skipBlanks(const unsigned char* p) {
    while (p != end_) {
      const std::uint16_t type = classOf(*p);
      if (type & kLineBreak) {
        account(p);
      } else if (!(type & kBlank)) {
        break;
      }
      ++p;
    }
    return p;
  }

  /// Past the sequence `terminator` (whose first byte has class `first`), or end_.
  const unsigned char* skipPast(const unsigned char* p, std::uint16_t first, std::string_view terminator) {
    while (true) {
      p = scanTo(p, first);
      if (p == end_) return p;
      if (static_cast<std::size_t>(end_ - p) >= terminator.size() &&
          std::memcmp(p, terminator.data(), terminator.size()) == 0) {
        // The terminators hold no line break or non-ASCII byte: nothing to account for.
        return p + terminator.size();
      }
      ++p;
    }
  }

  static bool startsWith(const unsigned char* p, const unsigned char* end, std::string_view prefix) {
    return static_cast<std::size_t>(end - p) >= prefix.size() && std::memcmp(p, prefix.data(), prefix.size()) == 0;
  }

  /// Moves at_ to the '<' of the next start tag, past text, end tags, comments, processing
  /// instructions, CDATA sections and a DOCTYPE without a subset. Text holds no raw '<'.
  bool toNextStartTag() {
    const unsigned char* p = at_;
    while (true) {
      p = scanTo(p, kLess);
      if (p == end_ || p + 1 == end_) return false;
      switch (p[1]) {
        case '/':
          p = scanTo(p + 2, kGreater);
          if (p == end_) return false;
          ++p;
          break;
        case '?':
          p = skipPast(p + 2, kQuestion, "?>");
          break;
        case '!':
          if (startsWith(p, end_, "<!--")) {
            p = skipPast(p + 4, kDash, "-->");
          } else if (startsWith(p, end_, "<![CDATA[")) {
            p = skipPast(p + 9, kCloseBracket, "]]>");
          } else {
            p = skipDoctype(p + 2);
          }
          break;
        default:
          at_ = p;
          return true;
      }
      if (p == end_) return false;
    }
  }

  /// Past the '>' closing a DOCTYPE without an internal subset (quoted literals may hold '>').
  const unsigned char* skipDoctype(const unsigned char* p) {
    while (true) {
      p = scanTo(p, kGreater | kQuote | kOpenBracket);
      if (p == end_ || *p == '[') return end_;
      if (*p == '>') return p + 1;
      const unsigned char quote = *p;
      do {
        p = scanTo(p + 1, kQuote);
      } while (p != end_ && *p != quote);
      if (p == end_) return end_;
      ++p;
    }
  }

  /// Attributes come in the order written; the name is checked all the same.
  static Attribute* attributeNamed(XmlElement& element, std::size_t index, std::string_view name) {
    if (index < element.attributes.size() && element.attributes[index].name == name) return &element.attributes[index];
    for (Attribute& attribute : element.attributes) {
      if (attribute.name == name) return &attribute;
    }
    return nullptr;
  }

  const unsigned char* at_;  // where the search for the next start tag goes on
  const unsigned char* const end_;
  const unsigned char* lineStart_;
  int line_ = 1;
  int extraBytes_ = 0;  // bytes minus columns in [lineStart_, at_)
  bool lost_ = false;
};

/// Thrown by the handler to end the scan (depth limit, refused entity); Xerces lets exceptions from
/// handlers through and cleans up after itself.
struct StopParsing {};

/// Xerces' SAX parser as the owner and configuration of a scanner whose events go straight to
/// `handler`: with no SAX handler installed, the parser would only pass every event on (about 11M
/// instructions for 72,000 elements). Errors and entities still go through the parser.
class Reader : public xc::SAXParser {
 public:
  void sendEventsTo(xc::XMLDocumentHandler& handler) {
    // getScanner() is the only accessor SAXParser gives subclasses, and it is const; the scanner
    // itself is this parser's own, non-const object.
    const_cast<xc::XMLScanner&>(getScanner()).setDocHandler(&handler);
  }
  /// The scanner's position (for errors, and for input the StartTagLocator cannot follow).
  const xc::Locator* locator() const { return getScanner().getLocator(); }
};

/// Builds the tree in place from the scanner's events. Each element is constructed where it
/// stays: in its parent's children vector, which only grows while the parent is the innermost
/// open element, so the open elements never move.
///
/// Children vectors grow the ordinary way. Reserving them from the previous element of the same
/// name saves about 12M instructions on a 4000-link chain, but then nothing is freed while the
/// tree is built and glibc gives the whole heap back to the system when the tree is destroyed:
/// the next parse in the same process page-faults all of it again and runs 2-3 times slower.
class TreeBuilder : public xc::XMLDocumentHandler, public xc::ErrorHandler, public xc::EntityResolver {
 public:
  TreeBuilder(std::string_view content, const std::string& fileName, std::size_t maxDepth)
      : fileName_(fileName), maxDepth_(maxDepth), tags_(content), kindSlots_(64, kNoKind) {
    open_.reserve(64);
    kinds_.reserve(32);
  }

  void setLocator(const xc::Locator* locator) { locator_ = locator; }

  void startElement(const xc::XMLElementDecl& declaration, const unsigned int, const XMLCh* const,
                    const xc::RefVectorOf<xc::XMLAttr>& attributes, const XMLSize_t attributeCount,
                    const bool isEmpty, const bool) override {
    const std::uint32_t kind = kindOf(declaration);
    XmlElement& element = newElement();
    element.name = kinds_[kind].name;
    if (attributeCount > 0) {
      element.attributes.reserve(attributeCount);
      for (XMLSize_t i = 0; i < attributeCount; ++i) {
        const xc::XMLAttr* source = attributes.elementAt(i);
        Attribute& attribute = element.attributes.emplace_back();
        assignUtf8(attribute.name, source->getQName());
        assignUtf8(attribute.value, source->getValue());
        attribute.where.file = fileName_;
      }
    }
    element.where.file = fileName_;
    if (!tags_.locateNext(element, kinds_[kind].nameExtraBytes)) locateAtTagEnd(element);
    if (open_.size() >= maxDepth_) {
      abort("elements are nested deeper than " + std::to_string(maxDepth_) + " levels", element.where);
    }
    open_.push_back(&element);
    // An empty-element tag (<e/>) gets no endElement from the scanner.
    if (isEmpty) closeElement();
  }

  void endElement(const xc::XMLElementDecl&, const unsigned int, const bool, const XMLCh* const) override {
    closeElement();
  }

  void docCharacters(const XMLCh* const chars, const XMLSize_t length, const bool) override {
    if (open_.empty()) return;
    XmlElement& element = *open_.back();
    if (!element.children.empty() && isAllSpace(chars, length)) return;  // layout after a child
    appendUtf8(element.text, chars, length);
  }

  void ignorableWhitespace(const XMLCh* const chars, const XMLSize_t length, const bool cdata) override {
    docCharacters(chars, length, cdata);
  }

  void docComment(const XMLCh* const) override {}
  void docPI(const XMLCh* const, const XMLCh* const) override {}
  void startDocument() override {}
  void endDocument() override {}
  void resetDocument() override {}
  void startEntityReference(const xc::XMLEntityDecl&) override {}
  void endEntityReference(const xc::XMLEntityDecl&) override {}
  void XMLDecl(const XMLCh* const, const XMLCh* const, const XMLCh* const, const XMLCh* const) override {}

  // The well-formedness scanner skips document type declarations whole and so never asks for an
  // external entity; should it ever, nothing is read from disk or network.
  xc::InputSource* resolveEntity(const XMLCh* const, const XMLCh* const systemId) override {
    abort("external entity '" + toUtf8(systemId) + "' is not loaded", here());
  }

  void fatalError(const xc::SAXParseException& e) override { recordXercesError(e); }
  void error(const xc::SAXParseException& e) override { recordXercesError(e); }
  void warning(const xc::SAXParseException&) override {}
  void resetErrors() override {}

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
  /// What is shared by the elements of one name: Xerces keeps one declaration per name met.
  struct Kind {
    const xc::XMLElementDecl* declaration;
    std::string name;
    int nameExtraBytes;
  };

  static constexpr std::uint32_t kNoKind = ~std::uint32_t{0};

  [[noreturn]] void abort(std::string message, SourceLocation where) {
    stop(std::move(message), std::move(where));
    throw StopParsing{};
  }

  /// The kind of `declaration`, from an open-addressing table keyed by its address.
  std::uint32_t kindOf(const xc::XMLElementDecl& declaration) {
    const std::size_t mask = kindSlots_.size() - 1;
    std::size_t slot = hashOf(&declaration) & mask;
    while (kindSlots_[slot] != kNoKind) {
      if (kinds_[kindSlots_[slot]].declaration == &declaration) return kindSlots_[slot];
      slot = (slot + 1) & mask;
    }
    Kind kind{&declaration, toUtf8(declaration.getFullName()), 0};
    kind.nameExtraBytes = extraBytesOf(kind.name);
    kinds_.push_back(std::move(kind));
    const auto index = static_cast<std::uint32_t>(kinds_.size() - 1);
    kindSlots_[slot] = index;
    if (kinds_.size() * 2 > kindSlots_.size()) rehashKinds();
    return index;
  }

  static std::size_t hashOf(const void* address) {
    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(address) >> 4) * 0x9E3779B97F4A7C15ULL >> 20);
  }

  void rehashKinds() {
    std::vector<std::uint32_t> slots(kindSlots_.size() * 4, kNoKind);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t index = 0; index < kinds_.size(); ++index) {
      std::size_t slot = hashOf(kinds_[index].declaration) & mask;
      while (slots[slot] != kNoKind) slot = (slot + 1) & mask;
      slots[slot] = index;
    }
    kindSlots_.swap(slots);
  }

  XmlElement& newElement() {
    if (open_.empty()) return root_.emplace();
    return open_.back()->children.emplace_back();
  }

  void closeElement() {
    if (open_.empty()) return;
    XmlElement& element = *open_.back();
    open_.pop_back();
    if (!element.children.empty()) {
      // White space between children is layout, not content; do not keep it.
      if (isAllSpace(element.text)) {
        if (element.text.capacity() > std::string().capacity()) {
          std::string().swap(element.text);
        } else {
          element.text.clear();
        }
      }
    }
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
    const SourceLocation end = here();
    element.where.line = end.line;
    element.where.column = end.column;
    for (Attribute& attribute : element.attributes) {
      attribute.where.line = end.line;
      attribute.where.column = end.column;
    }
  }

  void recordXercesError(const xc::SAXParseException& e) {
    if (failed()) return;
    hasError_ = true;
    message_ = toUtf8(e.getMessage());
    errorWhere_ = SourceLocation{fileName_, static_cast<int>(e.getLineNumber()), static_cast<int>(e.getColumnNumber())};
  }

  const FileName fileName_;  // one shared name: every location of the tree points at it
  std::size_t maxDepth_;
  StartTagLocator tags_;
  const xc::Locator* locator_ = nullptr;
  std::optional<XmlElement> root_;
  std::vector<XmlElement*> open_;  // the elements not yet ended, outermost first
  std::vector<Kind> kinds_;
  std::vector<std::uint32_t> kindSlots_;  // indices in kinds_, kNoKind where free; a power of two long
  bool stopped_ = false;
  bool hasError_ = false;
  std::string message_;
  SourceLocation errorWhere_;
};

/// The first of `stops` at or after `from` outside quoted ('...' or "...") text, or npos.
std::size_t findOutsideQuotes(std::string_view content, std::size_t from, std::string_view stops) {
  char quote = 0;
  for (std::size_t j = from; j < content.size(); ++j) {
    const char c = content[j];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (stops.find(c) != std::string_view::npos) {
      return j;
    }
  }
  return std::string_view::npos;
}

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
      std::size_t j = findOutsideQuotes(content, i + 9, "[>");
      if (j == std::string_view::npos) j = content.size();
      bool declares = j < content.size() && content[j] == '[';
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

/// The offset of the '<' of the first start tag with more than `maxAttributes` attributes, or npos.
/// Xerces checks each attribute against every earlier one of its element, so 200 000 attributes
/// on one element take minutes; this one forward pass over the text (memchr between tags) bounds
/// that before Xerces starts. Counts '=' outside quoted values; comments, CDATA sections and
/// processing instructions are skipped.
std::size_t findCrowdedStartTag(std::string_view content, std::size_t maxAttributes) {
  std::size_t i = 0;
  const std::size_t size = content.size();
  const auto skipPast = [&](std::size_t from, std::string_view terminator) {
    const std::size_t end = content.find(terminator, from);
    return end == std::string_view::npos ? size : end + terminator.size();
  };
  while (i < size) {
    const void* less = std::memchr(content.data() + i, '<', size - i);
    if (!less) return std::string_view::npos;
    const std::size_t tag = static_cast<std::size_t>(static_cast<const char*>(less) - content.data());
    const std::string_view rest = content.substr(tag);
    if (rest.substr(0, 4) == "<!--") {
      i = skipPast(tag + 4, "-->");
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      i = skipPast(tag + 9, "]]>");
    } else if (rest.substr(0, 2) == "<?") {
      i = skipPast(tag + 2, "?>");
    } else {
      std::size_t attributes = 0;
      std::size_t j = findOutsideQuotes(content, tag + 1, "=>");
      for (; j != std::string_view::npos && content[j] == '='; j = findOutsideQuotes(content, j + 1, "=>")) {
        if (++attributes > maxAttributes) return tag;
      }
      i = j == std::string_view::npos ? size : j + 1;
    }
  }
  return std::string_view::npos;
}

void configure(Reader& reader, xc::SecurityManager& security) {
  // The well-formedness scanner: no validation or grammar machinery, about twice as fast. It skips
  // document type declarations whole: no DTD is read and no entity declared in one is expanded.
  reader.useScanner(xc::XMLUni::fgWFXMLScanner);
  reader.setValidationScheme(xc::SAXParser::Val_Never);
  // Names stay as written ("ignition:foo"), prefixes need no declaration, xmlns:* are attributes.
  reader.setDoNamespaces(false);
  reader.setDoSchema(false);
  reader.setValidationSchemaFullChecking(false);
  reader.setLoadSchema(false);
  reader.setLoadExternalDTD(false);
  reader.setSkipDTDValidation(true);
  reader.cacheGrammarFromParse(false);
  reader.useCachedGrammarInParse(false);
  reader.setDisableDefaultEntityResolution(true);
  reader.setIdentityConstraintChecking(false);
  reader.setExitOnFirstFatalError(true);
  reader.setSecurityManager(&security);
}

}  // namespace

std::optional<XmlElement> parse(std::string_view content, const std::string& fileName, Diagnostics& diagnostics,
                                const ParseOptions& options) {
  const SourceLocation fileOnly{fileName, 0, 0};
  if (!xercesReady()) {
    diagnostics.error(ErrorCode::XML_SYNTAX, "the XML reader (Xerces-C) could not be initialised", fileOnly);
    return std::nullopt;
  }
  // Blanked flaws keep every line and column, so the rest reads the copy as if it were the file.
  const std::optional<std::string> tolerated =
      options.tolerance == Tolerance::None ? std::nullopt
                                           : detail::blankToleratedFlaws(content, fileName, options.tolerance, diagnostics);
  if (tolerated) content = *tolerated;
  if (auto doctype = findDoctypeWithDeclarations(content, fileName)) {
    diagnostics.error(ErrorCode::XML_SYNTAX,
                      "not well-formed XML: document type declarations with an internal or external subset "
                      "(<!DOCTYPE ... [ ... ]> or SYSTEM/PUBLIC) are not allowed",
                      std::move(*doctype));
    return std::nullopt;
  }
  if (const std::size_t crowded = findCrowdedStartTag(content, options.maxAttributesPerElement);
      crowded != std::string_view::npos) {
    Cursor cursor;
    for (std::size_t k = 0; k < crowded;) cursor.advance(content, k);
    diagnostics.error(ErrorCode::XML_SYNTAX,
                      "an element has more than " + std::to_string(options.maxAttributesPerElement) +
                          " attributes (ParseOptions::maxAttributesPerElement); refused before parsing",
                      SourceLocation{fileName, cursor.line, cursor.column});
    return std::nullopt;
  }
  TreeBuilder builder(content, fileName, options.maxDepth == 0 ? 1 : options.maxDepth);
  try {
    xc::SecurityManager security;
    security.setEntityExpansionLimit(static_cast<XMLSize_t>(options.maxEntityExpansions));
    Reader reader;
    configure(reader, security);
    reader.setErrorHandler(&builder);
    reader.setEntityResolver(&builder);
    reader.sendEventsTo(builder);
    builder.setLocator(reader.locator());

    xc::MemBufInputSource source(reinterpret_cast<const XMLByte*>(content.data()), content.size(), fileName.c_str(),
                                 false);
    reader.parse(source);
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
