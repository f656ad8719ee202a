// XML reading with expat, hardened for untrusted input, into an XmlElement tree that remembers
// the line and column of every start tag and attribute. Plain documents go to the fast reader
// first (FastXmlReader.hpp, the same tree); what it does not take is read here.
//
// Expat rather than Xerces-C: Debian's libxerces-c pulls about 35 libraries (curl, GnuTLS, ICU,
// Kerberos, LDAP) whose loading alone cost ~100 ms of every `interlink` run; libexpat needs only
// libc (docs/dev/benchmarks.md, start-up). Speed matters here too (a 4000-link SDFormat chain is
// about 72,000 elements): each element is constructed in place in its parent's children vector,
// and positions come from one forward pass over the text. docs/xml.md has the measurements.
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/SameName.hpp"

#include "xml/FastXmlReader.hpp"
#include "xml/TextCursor.hpp"
#include "xml/XmlTolerance.hpp"

#include <expat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace interlink::xml {
namespace {

using detail::Cursor;
using detail::extraBytesOf;
using detail::isAllSpace;
using detail::isSpace;

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

int extraBytesOf(std::string_view utf8) {
  int extra = 0;
  for (char c : utf8) {
    if (static_cast<unsigned char>(c) >= 0x80) extra += extraBytesOf(static_cast<unsigned char>(c));
  }
  return extra;
}

/// Finds the start tags of the (UTF-8 or ASCII) input in document order, as the parser reports
/// them, and gives the line and column of each tag's '<' and of its attribute names (one column
/// per UTF-16 unit; LF, CR LF and a lone CR each end a line).
///
/// Every byte is looked at once, in document order, with a table lookup; the line, the start of
/// the line and how many more bytes than columns the line has so far are kept up to date, so any
/// column is a subtraction. The n-th start tag in the text is the n-th element the parser reports:
/// no DTD entities are ever expanded (documents declaring any are refused before parsing) and
/// predefined or character references cannot make elements. When the text does not match
/// (another encoding, a tag name that differs), the locator gives up for the rest of the document
/// and the caller falls back to the parser's positions.
class StartTagLocator {
 public:
  explicit StartTagLocator(std::string_view content)
      : at_(reinterpret_cast<const unsigned char*>(content.data())), end_(at_ + content.size()), lineStart_(at_) {
    at_ = lineStart_ = at_ + byteOrderMarkLength(content);  // a byte-order mark is not a column
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
    if (index < element.attributes.size() && sameName(element.attributes[index].name, name)) {
      return &element.attributes[index];
    }
    for (Attribute& attribute : element.attributes) {
      if (sameName(attribute.name, name)) return &attribute;
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

/// A location from expat's line and column. Expat counts columns from 0 and counts a UTF-8
/// byte-order mark as the first column of line 1; elements are located without it
/// (StartTagLocator), and so is everything else.
SourceLocation expatLocation(const FileName& fileName, XML_Size line, XML_Size column, bool byteOrderMark) {
  const int lineNumber = static_cast<int>(line);
  const int columnNumber = static_cast<int>(column) + 1 - (byteOrderMark && lineNumber == 1 ? 1 : 0);
  return SourceLocation{fileName, lineNumber, std::max(columnNumber, 1)};
}

/// Builds the tree in place from expat's events. Each element is constructed where it stays: in
/// its parent's children vector, which only grows while the parent is the innermost open element,
/// so the open elements never move. Expat is C: nothing may be thrown through it, so a handler
/// that must end the scan (depth limit, entity declaration, out of memory) records why and calls
/// XML_StopParser.
class TreeBuilder {
 public:
  TreeBuilder(XML_Parser parser, std::string_view content, const std::string& fileName, std::size_t maxDepth,
              const std::vector<std::uint32_t>& childCounts, std::size_t attributeCount)
      : parser_(parser),
        fileName_(fileName),
        byteOrderMark_(byteOrderMarkLength(content) != 0),
        maxDepth_(maxDepth),
        tags_(content),
        childCounts_(childCounts),
        // Every list of the tree in one block: the scan counted the elements and attributes.
        elementAllocator_(detail::TreeArena::create(childCounts.size() * sizeof(XmlElement) +
                                                    attributeCount * sizeof(Attribute))),
        attributeAllocator_(elementAllocator_) {
    open_.reserve(64);
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &TreeBuilder::onStart, &TreeBuilder::onEnd);
    XML_SetCharacterDataHandler(parser_, &TreeBuilder::onText);
    // Defence in depth: a DOCTYPE with declarations is refused before parsing, so expat never
    // sees an entity declaration; should it ever, the scan ends there.
    XML_SetEntityDeclHandler(parser_, &TreeBuilder::onEntityDeclaration);
  }

  /// Records where each element began in its parent's text (ParseOptions::parentTextLengths).
  void recordParentTextLengths(std::vector<std::size_t>* lengths) { parentTextLengths_ = lengths; }

  /// Collects comments (ParseOptions::comments) from now on.
  void collectComments(std::vector<XmlComment>* comments) {
    comments_ = comments;
    if (comments_) XML_SetCommentHandler(parser_, &TreeBuilder::onComment);
  }

  bool failed() const { return stopped_; }
  const std::string& message() const { return message_; }
  const SourceLocation& errorWhere() const { return errorWhere_; }
  std::optional<XmlElement> takeRoot() { return std::move(root_); }
  /// The name of the innermost element not yet ended (for "mismatched tag" errors), or empty.
  std::string innermostOpenName() const { return open_.empty() ? std::string() : open_.back()->name; }

  void stop(std::string message, SourceLocation where) {
    if (!stopped_) {
      message_ = std::move(message);
      errorWhere_ = std::move(where);
    }
    stopped_ = true;
  }

 private:
  static TreeBuilder& self(void* userData) { return *static_cast<TreeBuilder*>(userData); }

  static void onStart(void* userData, const XML_Char* name, const XML_Char** attributes) {
    TreeBuilder& builder = self(userData);
    try {
      builder.startElement(name, attributes);
    } catch (const std::bad_alloc&) {
      builder.halt("out of memory while reading XML");
    }
  }

  static void onEnd(void* userData, const XML_Char*) { self(userData).closeElement(); }

  static void onText(void* userData, const XML_Char* text, int length) {
    TreeBuilder& builder = self(userData);
    try {
      builder.characters(text, static_cast<std::size_t>(length));
    } catch (const std::bad_alloc&) {
      builder.halt("out of memory while reading XML");
    }
  }

  static void onComment(void* userData, const XML_Char* text) {
    TreeBuilder& builder = self(userData);
    try {
      builder.comment(text);
    } catch (const std::bad_alloc&) {
      builder.halt("out of memory while reading XML");
    }
  }

  static void onEntityDeclaration(void* userData, const XML_Char* name, int, const XML_Char*, int, const XML_Char*,
                                  const XML_Char*, const XML_Char*, const XML_Char*) {
    self(userData).halt(std::string("entity '") + name + "' is declared; entity declarations are not allowed");
  }

  void startElement(const XML_Char* name, const XML_Char** attributes) {
    if (stopped_) return;
    if (comments_) nextNode(started_);
    if (parentTextLengths_) parentTextLengths_->push_back(open_.empty() ? 0 : open_.back()->text.size());
    XmlElement& element = newElement();
    element.name.append(name);
    // Its children vector is sized once from the scan (see StartTagScan) instead of doubling
    // while they arrive: no element is moved, no capacity is wasted. Lists the scan expects to be
    // empty keep the heap allocator (a miscount still works, from the heap).
    if (started_ < childCounts_.size() && childCounts_[started_] > 0) {
      element.children = XmlElement::Children(elementAllocator_);
      element.children.reserve(childCounts_[started_]);
    }
    ++started_;
    std::size_t count = 0;
    while (attributes[2 * count]) ++count;
    if (count > 0) {
      element.attributes = XmlElement::Attributes(attributeAllocator_);
      element.attributes.reserve(count);
      for (std::size_t i = 0; i < count; ++i) {
        // Appended to the fresh strings: the library's append is about half the work of its
        // assignment (which allows for overlap with the string's own text).
        Attribute& attribute = element.attributes.emplace_back();
        attribute.name.append(attributes[2 * i]);
        attribute.value.append(attributes[2 * i + 1]);
        attribute.where.file = fileName_;
      }
    }
    element.where.file = fileName_;
    if (!tags_.locateNext(element, extraBytesOf(element.name))) locateAtTagStart(element);
    if (open_.size() >= maxDepth_) {
      stop("elements are nested deeper than " + std::to_string(maxDepth_) + " levels", element.where);
      XML_StopParser(parser_, XML_FALSE);
      return;
    }
    open_.push_back(&element);
  }

  void characters(const XML_Char* text, std::size_t length) {
    if (comments_) textSinceNode_.append(text, length);
    if (open_.empty() || stopped_) return;
    XmlElement& element = *open_.back();
    if (!element.children.empty() && isAllSpace(std::string_view(text, length))) return;  // layout after a child
    element.text.append(text, length);
  }

  void halt(std::string message) {
    stop(std::move(message), here());
    XML_StopParser(parser_, XML_FALSE);
  }

  XmlElement& newElement() {
    if (open_.empty()) return root_.emplace();
    return open_.back()->children.emplace_back();
  }

  /// A comment, element start or end: the text since the previous one is what follows the last
  /// comment. `ordinal` is the number of a starting element (none otherwise).
  void nextNode(std::size_t ordinal = XmlComment::kOutsideRoot) {
    if (awaitingTextAfter_) comments_->back().textAfter = std::move(textSinceNode_);
    awaitingTextAfter_ = false;
    textSinceNode_.clear();
    if (ordinal != XmlComment::kOutsideRoot) {
      if (!open_.empty()) ++childrenSoFar_.back();
      childrenSoFar_.push_back(0);
      ordinals_.push_back(ordinal);
    }
  }

  void comment(const XML_Char* text) {
    if (stopped_) return;
    std::string before = std::move(textSinceNode_);
    nextNode();
    XmlComment& c = comments_->emplace_back();
    c.text = text;
    c.where = here();
    c.textBefore = std::move(before);
    if (open_.empty()) {
      c.index = root_ ? 1 : 0;
    } else {
      c.parent = ordinals_.back();
      c.index = childrenSoFar_.back();
    }
    awaitingTextAfter_ = true;
  }

  void closeElement() {
    if (comments_ && !open_.empty()) {
      nextNode();
      childrenSoFar_.pop_back();
      ordinals_.pop_back();
    }
    if (open_.empty()) return;
    XmlElement& element = *open_.back();
    open_.pop_back();
    if (!element.children.empty()) detail::dropLayoutText(element.text);
  }

  /// Where expat is: in a start-tag handler, the '<' of that tag.
  SourceLocation here() const {
    return expatLocation(fileName_, XML_GetCurrentLineNumber(parser_), XML_GetCurrentColumnNumber(parser_),
                         byteOrderMark_);
  }

  /// When the text cannot be followed (see StartTagLocator), expat's position of the tag is the
  /// best there is, for the element and its attributes alike.
  void locateAtTagStart(XmlElement& element) const {
    const SourceLocation start = here();
    element.where.line = start.line;
    element.where.column = start.column;
    for (Attribute& attribute : element.attributes) {
      attribute.where.line = start.line;
      attribute.where.column = start.column;
    }
  }

  XML_Parser parser_;
  const FileName fileName_;  // one shared name: every location of the tree points at it
  const bool byteOrderMark_;
  std::size_t maxDepth_;
  StartTagLocator tags_;
  const std::vector<std::uint32_t>& childCounts_;  // per element in document order (a hint)
  detail::TreeAllocator<XmlElement> elementAllocator_;  // both allocators share the tree's arena
  detail::TreeAllocator<Attribute> attributeAllocator_;
  std::size_t started_ = 0;                         // elements started so far
  std::optional<XmlElement> root_;
  std::vector<XmlElement*> open_;  // the elements not yet ended, outermost first
  // Comments (collected only when asked): per open element its number and child elements so far.
  std::vector<XmlComment>* comments_ = nullptr;
  std::vector<std::size_t>* parentTextLengths_ = nullptr;
  std::vector<std::size_t> ordinals_;
  std::vector<std::size_t> childrenSoFar_;
  std::string textSinceNode_;
  bool awaitingTextAfter_ = false;
  bool stopped_ = false;
  std::string message_;
  SourceLocation errorWhere_;
};

/// Encoding names expat does not know but that mean 7-bit ASCII (Xerces, which this reader
/// replaced, read them; DART's sample SDFormat files declare encoding='ASCII'). Bytes above 127
/// are invalid in them, as they are in US-ASCII.
int asciiAliasEncoding(void*, const XML_Char* name, XML_Encoding* info) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  static const char* const kAliases[] = {"ascii", "ansi_x3.4-1968", "iso646-us", "us", "646", "cp367", "ibm367"};
  if (std::find(std::begin(kAliases), std::end(kAliases), lower) == std::end(kAliases)) return XML_STATUS_ERROR;
  for (int i = 0; i < 256; ++i) info->map[i] = i < 128 ? i : -1;
  info->data = nullptr;
  info->convert = nullptr;
  info->release = nullptr;
  return XML_STATUS_OK;
}

/// Owns one expat parser.
struct ParserHandle {
  XML_Parser parser = XML_ParserCreate(nullptr);
  ParserHandle() = default;
  ParserHandle(const ParserHandle&) = delete;
  ParserHandle& operator=(const ParserHandle&) = delete;
  ~ParserHandle() {
    if (parser) XML_ParserFree(parser);
  }
};

/// The first of `stop` or `otherStop` at or after `from` outside quoted ('...' or "...") text, or
/// npos. Every byte of every start tag passes here before parsing: plain comparisons, no calls.
std::size_t findOutsideQuotes(std::string_view content, std::size_t from, char stop, char otherStop) {
  char quote = 0;
  for (std::size_t j = from; j < content.size(); ++j) {
    const char c = content[j];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == stop || c == otherStop) {
      return j;
    }
  }
  return std::string_view::npos;
}

/// The bytes of a start tag the scan before parsing stops at.
enum TagByte : unsigned char { kTagPlain = 0, kTagQuote, kTagEquals, kTagEnd };

struct TagBytes {
  unsigned char of[256] = {};
  constexpr TagBytes() {
    of[static_cast<unsigned char>('"')] = kTagQuote;
    of[static_cast<unsigned char>('\'')] = kTagQuote;
    of[static_cast<unsigned char>('=')] = kTagEquals;
    of[static_cast<unsigned char>('>')] = kTagEnd;
  }
};
constexpr TagBytes kTagBytes;

/// findOutsideQuotes(content, from, '=', '>') with one table lookup per byte outside quoted
/// values and one comparison per byte inside them: the scan before parsing reads every byte of
/// every start tag here.
std::size_t findEqualsOrTagEnd(std::string_view content, std::size_t from) {
  const unsigned char* const begin = reinterpret_cast<const unsigned char*>(content.data());
  const unsigned char* const end = begin + content.size();
  for (const unsigned char* p = begin + std::min(from, content.size()); p < end; ++p) {
    const unsigned char type = kTagBytes.of[*p];
    if (type == kTagPlain) continue;
    if (type != kTagQuote) return static_cast<std::size_t>(p - begin);
    const unsigned char quote = *p;
    do {
      ++p;
    } while (p < end && *p != quote);
    if (p == end) break;
  }
  return std::string_view::npos;
}

/// A document type declaration with an internal subset or an external identifier in the prolog,
/// or nothing: such documents are refused before parsing, so no entity is ever declared or
/// expanded (for UTF-8 and ASCII input; a declaration in another encoding stops expat's scan).
std::optional<SourceLocation> findDoctypeWithDeclarations(std::string_view content, const std::string& fileName) {
  std::size_t i = byteOrderMarkLength(content);
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
      std::size_t j = findOutsideQuotes(content, i + 9, '[', '>');
      if (j == std::string_view::npos) j = content.size();
      bool declares = j < content.size() && content[j] == '[';
      const std::string_view declaration = content.substr(i, j - i);
      declares = declares || declaration.find("SYSTEM") != std::string_view::npos ||
                 declaration.find("PUBLIC") != std::string_view::npos;
      if (!declares) return std::nullopt;
      Cursor cursor;
      for (std::size_t k = byteOrderMarkLength(content); k < i;) cursor.advance(content, k);  // the mark is no column
      return SourceLocation{fileName, cursor.line, cursor.column};
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// What one forward pass over the tags finds before parsing (memchr between tags; comments, CDATA
/// sections and processing instructions skipped).
struct StartTagScan {
  /// The offset of the '<' of the first start tag with more than the allowed number of attributes
  /// ('=' outside quoted values), or npos. Huge attribute lists are a denial-of-service shape for
  /// any parser (duplicate checks, memory); they are refused before parsing starts.
  std::size_t crowded = std::string_view::npos;
  /// The number of child elements of each element, in document order (the n-th start tag of the
  /// text is the n-th element the parser reports, as for StartTagLocator). The tree builder sizes
  /// each children vector once from it instead of growing it (a 4000-link model has 12 000
  /// children). Only a hint: a miscount costs a reallocation, never correctness.
  std::vector<std::uint32_t> childCounts;
  /// The number of attributes of all start tags, to size the tree's arena.
  std::size_t attributes = 0;
};

StartTagScan scanStartTags(std::string_view content, std::size_t maxAttributes) {
  StartTagScan scan;
  std::vector<std::size_t> open;  // indices in childCounts of the elements not yet ended
  std::size_t i = 0;
  const std::size_t size = content.size();
  const auto skipPast = [&](std::size_t from, std::string_view terminator) {
    const std::size_t end = content.find(terminator, from);
    return end == std::string_view::npos ? size : end + terminator.size();
  };
  while (i < size) {
    const void* less = std::memchr(content.data() + i, '<', size - i);
    if (!less) return scan;
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
      std::size_t j = findEqualsOrTagEnd(content, tag + 1);
      for (; j != std::string_view::npos && content[j] == '='; j = findEqualsOrTagEnd(content, j + 1)) {
        if (++attributes > maxAttributes) {
          scan.crowded = tag;
          return scan;
        }
      }
      if (j == std::string_view::npos) return scan;
      if (rest.size() > 1 && rest[1] == '/') {
        if (!open.empty()) open.pop_back();
      } else if (rest.size() > 1 && rest[1] != '!') {  // not a DOCTYPE
        scan.attributes += attributes;
        const std::size_t index = scan.childCounts.size();
        scan.childCounts.push_back(0);
        if (!open.empty()) ++scan.childCounts[open.back()];
        if (content[j - 1] != '/') open.push_back(index);  // "<a/>" has no content
      }
      i = j + 1;
    }
  }
  return scan;
}

}  // namespace

std::optional<XmlElement> parse(std::string_view content, const std::string& fileName, Diagnostics& diagnostics,
                                const ParseOptions& options) {
  const SourceLocation fileOnly{fileName, 0, 0};
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
  detail::PlainXmlFacts plain;
  if (options.fastReader && detail::isPlainXml(content, plain)) {
    const std::size_t commentsBefore = options.comments ? options.comments->size() : 0;
    const std::size_t lengthsBefore = options.parentTextLengths ? options.parentTextLengths->size() : 0;
    if (std::optional<XmlElement> root = detail::readPlainXml(content, fileName, options, plain)) {
      if (options.readByFastReader) *options.readByFastReader = true;
      return root;
    }
    // What it collected before it gave up is collected again by expat.
    if (options.comments) options.comments->resize(commentsBefore);
    if (options.parentTextLengths) options.parentTextLengths->resize(lengthsBefore);
  }
  if (options.readByFastReader) *options.readByFastReader = false;
  StartTagScan tags = scanStartTags(content, options.maxAttributesPerElement);
  if (const std::size_t crowded = tags.crowded; crowded != std::string_view::npos) {
    Cursor cursor;
    for (std::size_t k = byteOrderMarkLength(content); k < crowded;) cursor.advance(content, k);
    diagnostics.error(ErrorCode::XML_SYNTAX,
                      "an element has more than " + std::to_string(options.maxAttributesPerElement) +
                          " attributes (ParseOptions::maxAttributesPerElement); refused before parsing",
                      SourceLocation{fileName, cursor.line, cursor.column});
    return std::nullopt;
  }
  ParserHandle handle;
  if (!handle.parser) {
    diagnostics.error(ErrorCode::XML_SYNTAX, "out of memory while creating the XML reader", fileOnly);
    return std::nullopt;
  }
  XML_Parser parser = handle.parser;
  // Entities: no parameter entities, no external ones (no handler is set, so none is ever read),
  // and declared ones never reach expat (see findDoctypeWithDeclarations); expat's own
  // amplification bound stays as a last line.
  XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
  XML_SetUnknownEncodingHandler(parser, asciiAliasEncoding, nullptr);
  TreeBuilder builder(parser, content, fileName, options.maxDepth == 0 ? 1 : options.maxDepth, tags.childCounts,
                      tags.attributes);
  builder.collectComments(options.comments);
  builder.recordParentTextLengths(options.parentTextLengths);
  // XML_Parse takes an int length: larger input goes in pieces.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  XML_Status status = XML_STATUS_OK;
  std::size_t done = 0;
  do {
    const std::size_t length = std::min(kPiece, content.size() - done);
    const bool last = done + length == content.size();
    status = XML_Parse(parser, content.data() + done, static_cast<int>(length), last ? XML_TRUE : XML_FALSE);
    done += length;
  } while (status == XML_STATUS_OK && done < content.size());
  if (status == XML_STATUS_ERROR && !builder.failed()) {
    const XML_Error code = XML_GetErrorCode(parser);
    std::string message = XML_ErrorString(code);
    if (code == XML_ERROR_TAG_MISMATCH && !builder.innermostOpenName().empty()) {
      message += ": expected </" + builder.innermostOpenName() + ">";
    }
    builder.stop(std::move(message), expatLocation(fileName, XML_GetErrorLineNumber(parser),
                                                   XML_GetErrorColumnNumber(parser), byteOrderMarkLength(content) != 0));
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
