// The fast path of the XML reader: pugixml for plain documents (FastXmlReader.hpp, docs/xml.md).
#include "xml/FastXmlReader.hpp"

#include <pugixml.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "interlink/Utf8.hpp"
#include "interlink/xml/SameName.hpp"
#include "util/LargeBlocks.hpp"
#include "xml/TextCursor.hpp"

namespace interlink::xml::detail {
namespace {

// Most model files are plain, well-formed UTF-8. pugixml reads those about six times faster than
// expat (docs/dev/benchmarks.md), but it is not a conforming parser: it takes text around the root,
// duplicate attributes, undefined entities, '<' in attribute values, "--" in comments and more. So
// it reads only documents whose every byte plainText() has checked, and the tree built from its
// nodes is checked for the rest (names, duplicates, nesting, what stands around the root). Anything
// else, every document with an error among them, is read by expat, which says what is wrong. The
// tree is the one the expat reader builds, location for location and text piece for text piece
// (tests and a fuzz target compare both).

/// The byte classes of plainText().
enum PlainByte : unsigned char { kPlain = 0, kControl, kAmpersand, kOpenAngle, kCloseSquare, kMultiByte };

struct PlainBytes {
  unsigned char of[256] = {};
  constexpr PlainBytes() {
    for (int c = 0; c < 0x20; ++c) of[c] = kControl;
    of[static_cast<unsigned char>('\t')] = kPlain;
    of[static_cast<unsigned char>('\n')] = kPlain;  // a CR is left to expat (line ends, CR LF in values)
    of[static_cast<unsigned char>('&')] = kAmpersand;
    of[static_cast<unsigned char>('<')] = kOpenAngle;
    of[static_cast<unsigned char>(']')] = kCloseSquare;
    for (int c = 0x80; c < 0x100; ++c) of[c] = kMultiByte;
  }
};
constexpr PlainBytes kPlainBytes;

bool isXmlCharacter(std::uint32_t code) {
  return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
         (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

/// The length of the reference at `p` ('&') and the character it stands for, or 0: a predefined
/// entity or a character reference. A reference to white space is left to expat: expat keeps it
/// unnormalised in attribute values and as a piece of its own in text.
std::size_t referenceLength(const unsigned char* p, const unsigned char* end, std::uint32_t& code) {
  const std::string_view rest(reinterpret_cast<const char*>(p), static_cast<std::size_t>(std::min<std::ptrdiff_t>(end - p, 16)));
  static constexpr std::pair<std::string_view, char> kPredefined[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  for (const auto& [name, character] : kPredefined) {
    if (rest.substr(0, name.size()) == name) {
      code = static_cast<unsigned char>(character);
      return name.size();
    }
  }
  if (rest.size() < 4 || rest[1] != '#') return 0;
  const bool hex = rest[2] == 'x';
  std::size_t i = hex ? 3 : 2;
  const std::size_t digitsBegin = i;
  code = 0;
  for (; p + i < end; ++i) {
    const unsigned char c = p[i];
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (hex && c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (hex && c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      break;
    }
    code = code * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
    if (code > 0x10FFFF) return 0;
  }
  if (i == digitsBegin || p + i == end || p[i] != ';') return 0;
  if (!isXmlCharacter(code) || code == 0x9 || code == 0xA || code == 0xD || code == 0x20) return 0;
  return i + 1;
}

/// Appends `raw` with its references (all valid: plainText() checked them) replaced.
void appendDecoded(std::string& out, std::string_view raw) {
  std::size_t from = 0;
  while (true) {
    const std::size_t amp = raw.find('&', from);
    out.append(raw, from, amp == std::string_view::npos ? std::string_view::npos : amp - from);
    if (amp == std::string_view::npos) return;
    const auto* p = reinterpret_cast<const unsigned char*>(raw.data()) + amp;
    std::uint32_t code = 0;
    const std::size_t length = referenceLength(p, reinterpret_cast<const unsigned char*>(raw.data()) + raw.size(), code);
    appendUtf8(out, code);
    from = amp + (length ? length : 1);
  }
}

/// Past an XML declaration expat reads as UTF-8 at `p` ("<?xml version='1.0'", then optionally
/// encoding 'UTF-8' and standalone 'yes' or 'no', "?>"), or null.
const unsigned char* pastPlainDeclaration(const unsigned char* p, const unsigned char* end) {
  const auto take = [&](std::string_view word) {
    if (static_cast<std::size_t>(end - p) < word.size() || std::memcmp(p, word.data(), word.size()) != 0) return false;
    p += word.size();
    return true;
  };
  const auto blanks = [&] {
    const unsigned char* from = p;
    while (p != end && isSpace(static_cast<char>(*p))) ++p;
    return p != from;
  };
  // name = 'value' or "value", with the blanks before it (required) and around '='.
  const auto pseudoAttribute = [&](std::string_view name, auto valueIsAllowed) {
    const unsigned char* before = p;
    if (!blanks() || !take(name)) {
      p = before;
      return false;
    }
    blanks();
    if (!take("=")) return false;
    blanks();
    if (p == end || (*p != '"' && *p != '\'')) return false;
    const unsigned char quote = *p++;
    const unsigned char* valueBegin = p;
    while (p != end && *p != quote) ++p;
    if (p == end) return false;
    const std::string_view value(reinterpret_cast<const char*>(valueBegin), static_cast<std::size_t>(p - valueBegin));
    ++p;
    return static_cast<bool>(valueIsAllowed(value));
  };
  if (!take("<?xml")) return nullptr;
  if (!pseudoAttribute("version", [](std::string_view v) { return v == "1.0"; })) return nullptr;
  bool ok = true;
  const unsigned char* mark = p;
  if (!pseudoAttribute("encoding", [](std::string_view v) {
        return v.size() == 5 && (v[0] | 0x20) == 'u' && (v[1] | 0x20) == 't' && (v[2] | 0x20) == 'f' && v[3] == '-' && v[4] == '8';
      })) {
    if (p != mark) ok = false;  // an encoding other than UTF-8: expat's
    p = mark;
  }
  mark = p;
  if (ok && !pseudoAttribute("standalone", [](std::string_view v) { return v == "yes" || v == "no"; })) {
    if (p != mark) ok = false;
    p = mark;
  }
  blanks();
  if (!ok || !take("?>")) return nullptr;
  return p;
}

/// The first byte at or after `p` that plainText() must look at, or `end`.
const unsigned char* pastPlainBytes(const unsigned char* p, const unsigned char* end) {
#if defined(__SSE2__)
  // Sixteen bytes at a time: a byte below 0x20 or above 0x7F (signed, below 0x20) or '&', '<' or
  // ']' stops the block; a tab or a line break is plain, and the blocks go on after it.
  const __m128i space = _mm_set1_epi8(0x20), ampersand = _mm_set1_epi8('&'), less = _mm_set1_epi8('<'),
                bracket = _mm_set1_epi8(']');
  while (end - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(bytes, space), _mm_cmpeq_epi8(bytes, ampersand)),
                                       _mm_or_si128(_mm_cmpeq_epi8(bytes, less), _mm_cmpeq_epi8(bytes, bracket)));
    const int mask = _mm_movemask_epi8(stops);
    if (mask == 0) {
      p += 16;
      continue;
    }
    p += __builtin_ctz(static_cast<unsigned>(mask));
    if (kPlainBytes.of[*p] != kPlain) return p;
    ++p;  // a tab or a line break
  }
#endif
  while (p != end && kPlainBytes.of[*p] == kPlain) ++p;
  return p;
}

/// Whether the fast reader may read `content`: UTF-8 holding only characters XML allows and no CR,
/// a declaration only at the start and only as pastPlainDeclaration() takes it, valid references,
/// no CDATA section, DOCTYPE or processing instruction, no "]]>".
bool plainText(std::string_view content, PlainXmlFacts& facts) {
  bool& ascii = facts.ascii;
  std::size_t& startTags = facts.startTags;
  const auto* p = reinterpret_cast<const unsigned char*>(content.data());
  const unsigned char* const end = p + content.size();
  p += byteOrderMarkLength(content);
  if (end - p >= 5 && std::memcmp(p, "<?xml", 5) == 0) {
    p = pastPlainDeclaration(p, end);
    if (!p) return false;
  }
  facts.prologStart = static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(content.data()));
  while (p != end) {
    p = pastPlainBytes(p, end);
    if (p == end) break;
    switch (kPlainBytes.of[*p]) {
      case kControl: return false;
      case kMultiByte: {
        const std::size_t length = xmlCharacterLength(p, end);
        if (!length) return false;
        ascii = false;
        p += length;
        break;
      }
      case kAmpersand: {
        std::uint32_t code = 0;
        const std::size_t length = referenceLength(p, end, code);
        if (!length) return false;
        p += length;
        break;
      }
      case kCloseSquare:
        if (end - p >= 3 && p[1] == ']' && p[2] == '>') return false;
        ++p;
        break;
      default: {  // '<'
        if (end - p < 2 || p[1] == '?') return false;
        if (p[1] != '!') {
          startTags += p[1] != '/';
          ++p;
          break;
        }
        if (end - p < 4 || p[2] != '-' || p[3] != '-') return false;  // CDATA, DOCTYPE: expat's
        // A comment: its characters are checked, its '&' and ']' are plain text.
        const std::string_view rest(reinterpret_cast<const char*>(p + 4), static_cast<std::size_t>(end - p - 4));
        const std::size_t close = rest.find("-->");
        if (close == std::string_view::npos) return false;
        const unsigned char* const commentEnd = p + 4 + close;
        ++facts.comments;
        for (p += 4; p != commentEnd;) {
          facts.equalsInComments += *p == '=';
          const unsigned char type = kPlainBytes.of[*p];
          if (type == kControl) return false;
          if (type == kMultiByte) {
            const std::size_t length = xmlCharacterLength(p, end);
            if (!length) return false;
            ascii = false;
            p += length;
          } else {
            ++p;
          }
        }
        p = commentEnd + 3;
        break;
      }
    }
  }
  return true;
}

/// Whether a comment's text is one XML allows: no "--", no '-' before the end.
bool plainComment(std::string_view text) {
  return text.find("--") == std::string_view::npos && (text.empty() || text.back() != '-');
}

/// Whether a name as pugixml read it is one expat reads the same (pugixml checks the ASCII
/// characters of names as XML does; other names are left to expat).
bool plainName(const char* name) {
  for (const char* c = name; *c; ++c) {
    if (static_cast<unsigned char>(*c) >= 0x80) return false;
  }
  return *name != 0;
}

/// Past the white space and comments at `p`: the first other byte, or `end`; null inside a comment
/// that does not end.
const unsigned char* pastSpaceAndComments(const unsigned char* p, const unsigned char* end) {
  while (p != end) {
    if (isSpace(static_cast<char>(*p))) {
      ++p;
    } else if (end - p >= 4 && std::memcmp(p, "<!--", 4) == 0) {
      const std::string_view rest(reinterpret_cast<const char*>(p + 4), static_cast<std::size_t>(end - p - 4));
      const std::size_t close = rest.find("-->");
      if (close == std::string_view::npos) return nullptr;
      p += 4 + close + 3;
    } else {
      return p;
    }
  }
  return p;
}

/// Line and column of offsets met in increasing order (columns in UTF-16 units, as
/// StartTagLocator counts them).
class OffsetCursor {
 public:
  OffsetCursor(std::string_view content, bool ascii)
      : begin_(reinterpret_cast<const unsigned char*>(content.data())), at_(begin_), lineStart_(begin_), ascii_(ascii) {
    at_ = lineStart_ = begin_ + byteOrderMarkLength(content);  // a byte-order mark is not a column
  }

  /// `codePoints`: columns as expat counts them (one per character), for what TreeBuilder locates
  /// with expat's position (comments).
  void locate(std::size_t offset, SourceLocation& where, bool codePoints = false) {
    const unsigned char* const target = begin_ + offset;
    if (ascii_) {
      while (const void* found = std::memchr(at_, '\n', static_cast<std::size_t>(target - at_))) {
        ++line_;
        at_ = lineStart_ = static_cast<const unsigned char*>(found) + 1;
      }
    } else {
      for (; at_ < target; ++at_) {
        if (*at_ == '\n') {
          ++line_;
          lineStart_ = at_ + 1;
          extraBytes_ = 0;
          continuationBytes_ = 0;
        } else if (*at_ >= 0x80) {
          extraBytes_ += extraBytesOf(*at_);
          continuationBytes_ += *at_ < 0xC0;
        }
      }
    }
    at_ = target;
    where.line = line_;
    where.column = static_cast<int>(target - lineStart_) - (codePoints ? continuationBytes_ : extraBytes_) + 1;
  }

 private:
  const unsigned char* const begin_;
  const unsigned char* at_;
  const unsigned char* lineStart_;
  const bool ascii_;
  int line_ = 1;
  int extraBytes_ = 0;         // bytes minus UTF-16 units in [lineStart_, at_)
  int continuationBytes_ = 0;  // bytes minus characters in [lineStart_, at_)
};

/// Past the start tag at `p` ('<'), quoted values skipped; `selfClosing` tells whether it ended
/// with "/>". Null when it does not end.
const unsigned char* pastStartTag(const unsigned char* p, const unsigned char* end, bool& selfClosing) {
  for (++p; p != end; ++p) {
    if (*p == '"' || *p == '\'') {
      p = static_cast<const unsigned char*>(std::memchr(p + 1, *p, static_cast<std::size_t>(end - p - 1)));
      if (!p) return nullptr;
    } else if (*p == '>') {
      selfClosing = p[-1] == '/';
      return p + 1;
    }
  }
  return nullptr;
}

/// Builds the XmlElement tree from pugixml's nodes as TreeBuilder builds it from expat's events.
/// pugixml reads a copy in place, so every name it gives points into the copy at the offset of
/// that name in the text: locations are offsets turned into lines and columns.
class FastTreeReader {
 public:
  FastTreeReader(std::string_view content, const std::string& fileName, const ParseOptions& options,
                 const PlainXmlFacts& facts)
      : content_(content),
        fileName_(fileName),
        maxDepth_(options.maxDepth == 0 ? 1 : options.maxDepth),
        maxAttributes_(options.maxAttributesPerElement),
        comments_(options.comments),
        parentTextLengths_(options.parentTextLengths),
        startTags_(facts.startTags),
        commentCount_(facts.comments),
        equalsInComments_(facts.equalsInComments),
        prologStart_(facts.prologStart),
        ascii_(facts.ascii),
        cursor_(content, facts.ascii) {}

  /// The tree, or nothing when the document is not one this reader takes (expat reads it then).
  std::optional<XmlElement> read() {
    copy_.assign(content_.begin(), content_.end());
    if (comments_) comments_->reserve(comments_->size() + commentCount_);
    pugi::xml_document document;
    // References are decoded here (appendDecoded), so that text splits where expat splits it.
    // An element's first character data, when nothing comes before it, is kept in the element's
    // own node (parse_embed_pcdata): a node fewer for every element with text (start() reads it).
    const unsigned flags =
        pugi::parse_wconv_attribute | pugi::parse_ws_pcdata | pugi::parse_comments | pugi::parse_embed_pcdata;
    if (!document.load_buffer_inplace(copy_.data(), copy_.size(), flags, pugi::encoding_utf8)) return std::nullopt;
    pugi::xml_node rootNode;
    for (pugi::xml_node node : document.children()) {
      if (node.type() == pugi::node_element && !rootNode) {
        rootNode = node;
      } else if (node.type() == pugi::node_comment) {
        if (!plainComment(node.value())) return std::nullopt;
        if (comments_ && !rootNode) addComment(node, XmlComment::kOutsideRoot, 0);
      } else if (node.type() != pugi::node_pcdata || !isAllSpace(node.value())) {
        return std::nullopt;
      }
    }
    if (!rootNode || !prologIsPlain()) return std::nullopt;
    // Every list of the tree in one block, as TreeBuilder sizes it from its scan.
    // The counts come from the text: start tags (plainText() counted them) and '=' signs outside
    // comments (the attributes, and any '=' of text: a slightly larger block; a comment's row of
    // '=' signs counted as attributes made a block eight times the tree's size).
    const std::size_t attributes =
        static_cast<std::size_t>(std::count(content_.begin(), content_.end(), '=')) - equalsInComments_;
    elementAllocator_ = TreeAllocator<XmlElement>(
        TreeArena::create(startTags_ * sizeof(XmlElement) + attributes * sizeof(Attribute)));
    attributeAllocator_ = TreeAllocator<Attribute>(elementAllocator_.arena());
    if (!start(rootNode, nullptr)) return std::nullopt;
    while (!open_.empty()) {
      Open& top = open_.back();
      if (!top.next) {
        finish(*top.element);
        open_.pop_back();
        continue;
      }
      const pugi::xml_node node = top.next;
      top.next = node.next_sibling();
      XmlElement& element = *top.element;  // open_ may grow below: no reference into it after this
      switch (node.type()) {
        case pugi::node_element:
          if (!start(node, &element)) return std::nullopt;
          break;
        case pugi::node_pcdata: addText(element, node.value()); break;
        case pugi::node_comment:
          if (!plainComment(node.value())) return std::nullopt;
          if (comments_) addComment(node, top.ordinal, top.childrenSoFar);
          break;
        default: return std::nullopt;
      }
    }
    if (!epilogIsPlain()) return std::nullopt;
    if (comments_) {
      for (pugi::xml_node node = rootNode.next_sibling(); node; node = node.next_sibling()) {
        if (node.type() == pugi::node_comment) addComment(node, XmlComment::kOutsideRoot, 1);
      }
    }
    return std::move(root_);
  }

 private:
  struct Open {
    XmlElement* element;
    pugi::xml_node next;             // its next child node to read
    std::size_t ordinal;             // its number in document order (the root is 0)
    std::size_t childrenSoFar = 0;   // its child elements started so far
  };

  /// As TreeBuilder collects it: the text before and after is the character data between it and
  /// the tags or comments around it, as the parser reports it (all of it, references decoded).
  void addComment(pugi::xml_node node, std::size_t parent, std::size_t index) {
    XmlComment& comment = comments_->emplace_back();
    comment.text = node.value();
    comment.where.file = fileName_;
    cursor_.locate(offsetOf(node.value()) - 4, comment.where, true);
    comment.parent = parent;
    comment.index = index;
    if (parent == XmlComment::kOutsideRoot) return;  // the parser reports no text outside the root
    if (pugi::xml_node before = node.previous_sibling(); before.type() == pugi::node_pcdata) {
      appendDecoded(comment.textBefore, before.value());
    } else if (!before) {  // the first child node: the text before it is kept in the element's node
      appendDecoded(comment.textBefore, node.parent().value());
    }
    // Text between two comments is the second one's text before, not the first one's after.
    if (pugi::xml_node after = node.next_sibling();
        after.type() == pugi::node_pcdata && after.next_sibling().type() != pugi::node_comment) {
      appendDecoded(comment.textAfter, after.value());
    }
  }

  std::size_t offsetOf(const char* inCopy) const { return static_cast<std::size_t>(inCopy - copy_.data()); }

  bool start(pugi::xml_node node, XmlElement* parent) {
    if (open_.size() >= maxDepth_) return false;  // expat says so
    const char* const name = node.name();
    if (!ascii_ ? !plainName(name) : *name == 0) return false;  // an ASCII text has only plain names
    std::size_t attributeCount = 0;
    for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
      if (++attributeCount > maxAttributes_) return false;  // refused before parsing: expat's path says so
    }
    std::size_t childCount = 0;
    for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
      childCount += child.type() == pugi::node_element;
    }
    if (parentTextLengths_) parentTextLengths_->push_back(parent ? parent->text.size() : 0);
    if (!open_.empty()) ++open_.back().childrenSoFar;
    XmlElement& element = parent ? parent->children.emplace_back() : root_.emplace();
    element.name.append(name);
    if (childCount > 0) {
      element.children = XmlElement::Children(elementAllocator_);
      element.children.reserve(childCount);
    }
    element.where.file = fileName_;
    lastTag_ = offsetOf(name) - 1;
    cursor_.locate(lastTag_, element.where);
    lastDepth_ = open_.size();
    if (attributeCount > 0) {
      element.attributes = XmlElement::Attributes(attributeAllocator_);
      element.attributes.reserve(attributeCount);
      for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
        const std::string_view attributeName(a.name());
        const std::string_view value(a.value());
        if (!ascii_ && !plainName(a.name())) return false;
        // One pass over the value (most are a few bytes): a raw '<' can only be there if the text
        // is not XML; a '&' starts a reference to decode.
        bool references = false;
        for (const char c : value) {
          if (c == '<') return false;
          references |= c == '&';
        }
        for (const Attribute& before : element.attributes) {
          if (sameName(before.name, attributeName)) return false;  // a duplicate: expat's error
        }
        Attribute& attribute = element.attributes.emplace_back();
        attribute.name.append(attributeName);
        if (references) {
          appendDecoded(attribute.value, value);
        } else {
          attribute.value.append(value);
        }
        attribute.where.file = fileName_;
        cursor_.locate(offsetOf(a.name()), attribute.where);
      }
    }
    // Character data before any child node, which pugixml kept in the element's node.
    if (const char* text = node.value(); *text) addText(element, text);
    open_.push_back(Open{&element, node.first_child(), started_++});
    return true;
  }

  /// Text as expat hands it over: before the first child element all of it; after, in pieces split
  /// at line breaks and references, without the pieces that are white space only (layout).
  static void addText(XmlElement& element, std::string_view raw) {
    if (element.children.empty()) {
      appendDecoded(element.text, raw);
      return;
    }
    std::size_t i = 0;
    while (i < raw.size()) {
      if (raw[i] == '\n') {
        ++i;
      } else if (raw[i] == '&') {
        const std::size_t end = raw.find(';', i);
        appendDecoded(element.text, raw.substr(i, end + 1 - i));  // never white space (plainText)
        i = end + 1;
      } else {
        std::size_t end = i;
        while (end < raw.size() && raw[end] != '\n' && raw[end] != '&') ++end;
        const std::string_view piece = raw.substr(i, end - i);
        if (!isAllSpace(piece)) element.text.append(piece);
        i = end;
      }
    }
  }

  static void finish(XmlElement& element) {
    if (!element.children.empty()) dropLayoutText(element.text);
  }

  /// Before the root element, past the byte-order mark and declaration plainText() went over:
  /// white space and comments.
  bool prologIsPlain() const {
    const auto* begin = reinterpret_cast<const unsigned char*>(content_.data());
    const unsigned char* const end = begin + content_.size();
    const unsigned char* p = pastSpaceAndComments(begin + prologStart_, end);
    return p && p != end && *p == '<';
  }

  /// After the last start tag: the end tags of the elements still open, then only white space
  /// and comments (pugixml drops text after the root without a word).
  bool epilogIsPlain() const {
    const unsigned char* const end = reinterpret_cast<const unsigned char*>(content_.data()) + content_.size();
    bool selfClosing = false;
    const unsigned char* p =
        pastStartTag(reinterpret_cast<const unsigned char*>(content_.data()) + lastTag_, end, selfClosing);
    if (!p) return false;
    std::size_t stillOpen = lastDepth_ + (selfClosing ? 0 : 1);
    while (stillOpen > 0) {
      p = static_cast<const unsigned char*>(std::memchr(p, '<', static_cast<std::size_t>(end - p)));
      if (!p || end - p < 2) return false;
      if (p[1] == '/') {
        p = static_cast<const unsigned char*>(std::memchr(p, '>', static_cast<std::size_t>(end - p)));
        if (!p) return false;
        ++p;
        --stillOpen;
      } else {
        const unsigned char* past = pastSpaceAndComments(p, end);
        if (!past || past == p) return false;
        p = past;
      }
    }
    return pastSpaceAndComments(p, end) == end;
  }

  std::string_view content_;
  const FileName fileName_;
  const std::size_t maxDepth_;
  const std::size_t maxAttributes_;
  std::vector<XmlComment>* const comments_;
  std::vector<std::size_t>* const parentTextLengths_;
  const std::size_t startTags_;
  const std::size_t commentCount_;
  const std::size_t equalsInComments_;
  const std::size_t prologStart_;
  const bool ascii_;  // every byte of the text is ASCII: names need no check of their bytes
  OffsetCursor cursor_;
  std::vector<char, interlink::detail::LargeBlockAllocator<char>> copy_;  // what pugixml reads in place
  TreeAllocator<XmlElement> elementAllocator_;
  TreeAllocator<Attribute> attributeAllocator_;
  std::optional<XmlElement> root_;
  std::vector<Open> open_;
  std::size_t started_ = 0;    // elements started so far
  std::size_t lastTag_ = 0;    // the offset of the '<' of the element last started
  std::size_t lastDepth_ = 0;  // and its depth
};

}  // namespace

bool isPlainXml(std::string_view content, PlainXmlFacts& facts) { return plainText(content, facts); }

std::optional<XmlElement> readPlainXml(std::string_view content, const std::string& fileName,
                                       const ParseOptions& options, const PlainXmlFacts& facts) {
  return FastTreeReader(content, fileName, options, facts).read();
}

}  // namespace interlink::xml::detail
