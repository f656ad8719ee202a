// The fast path of the XML reader: plain documents read straight into the tree (FastXmlReader.hpp, docs/xml.md).
#include "xml/FastXmlReader.hpp"


#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlink/Utf8.hpp"
#include "interlink/xml/SameName.hpp"
#include "util/LargeBlocks.hpp"
#include "xml/TextCursor.hpp"

namespace interlink::xml::detail {
namespace {

// Most model files are plain, well-formed UTF-8, and for those most of what a conforming parser
// does (encodings, DTDs, entities, CDATA, processing instructions, line-end normalisation) has
// nothing to do. plainText() checks every byte for that, and PlainTreeReader then reads the tags
// straight into the tree, checking the rest of XML's grammar as it goes (names, duplicate
// attributes, end tags, nesting, what stands around the root). Anything else, every document with
// an error among them, is read by expat, which says what is wrong. The tree is the one the expat
// reader builds, location for location and text piece for text piece (tests and a fuzz target
// compare both).

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

/// XML's name characters within ASCII (interlink/xml/SameName.hpp) as tables of every byte: the
/// reader leaves a name with any other byte to expat.
struct NameBytes {
  bool start[256] = {};
  bool rest[256] = {};
  constexpr NameBytes() {
    for (int c = 0; c < 0x80; ++c) {
      start[c] = isAsciiNameStartChar(static_cast<char>(c));
      rest[c] = isAsciiNameChar(static_cast<char>(c));
    }
  }
};
constexpr NameBytes kNameBytes;

/// Appends an attribute's value as XML normalises it: a tab or line break is a space (a CR never
/// gets here, plainText() leaves it to expat), references replaced.
void appendAttributeValue(std::string& out, std::string_view raw) {
  std::size_t plainUpTo = 0;
  while (plainUpTo < raw.size() && raw[plainUpTo] != '\t' && raw[plainUpTo] != '\n' && raw[plainUpTo] != '&') ++plainUpTo;
  if (plainUpTo == raw.size()) {
    out.append(raw);
    return;
  }
  std::string normalised(raw);
  for (char& c : normalised) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  appendDecoded(out, normalised);
}

// PlainTreeReader's levels_ grow by moving their elements, never by copying them (a copy would
// leave the arena).
static_assert(std::is_nothrow_move_constructible_v<XmlElement>);

/// Reads a document plainText() took straight from its text into the XmlElement tree that
/// TreeBuilder builds from expat's events, in one pass and without a second copy of the text or a
/// tree in between. It checks what plainText() left: the tags' grammar, names, duplicate
/// attributes, end tags matching, nesting, that only white space and comments stand around the
/// root. It gives up (nothing) on anything else, and expat reads the document then.
class PlainTreeReader {
 public:
  PlainTreeReader(std::string_view content, const std::string& fileName, const ParseOptions& options,
                  const PlainXmlFacts& facts)
      : begin_(reinterpret_cast<const unsigned char*>(content.data())),
        end_(begin_ + content.size()),
        p_(begin_ + facts.prologStart),
        fileName_(fileName),
        maxDepth_(options.maxDepth == 0 ? 1 : options.maxDepth),
        maxAttributes_(options.maxAttributesPerElement),
        comments_(options.comments),
        parentTextLengths_(options.parentTextLengths),
        cursor_(content, facts.ascii) {
    if (comments_) comments_->reserve(comments_->size() + facts.comments);
    // Every list of the tree in one block, sized from the text: start tags (plainText() counted
    // them) and '=' signs outside comments (the attributes, and any '=' of text: a slightly larger
    // block; a comment's row of '=' signs counted as attributes made a block eight times the tree's
    // size).
    const std::size_t attributes =
        static_cast<std::size_t>(std::count(content.begin(), content.end(), '=')) - facts.equalsInComments;
    elementAllocator_ = TreeAllocator<XmlElement>(
        TreeArena::create(facts.startTags * sizeof(XmlElement) + attributes * sizeof(Attribute)));
    attributeAllocator_ = TreeAllocator<Attribute>(elementAllocator_.arena());
  }

  /// The tree, or nothing when the document is not one this reader takes.
  std::optional<XmlElement> read() {
    if (!outsideRoot(0) || p_ == end_) return std::nullopt;
    if (!startTag()) return std::nullopt;
    while (!open_.empty()) {
      Open& top = open_.back();
      const unsigned char* const textBegin = p_;
      p_ = static_cast<const unsigned char*>(std::memchr(p_, '<', static_cast<std::size_t>(end_ - p_)));
      if (!p_ || end_ - p_ < 2) return std::nullopt;
      const std::string_view text(reinterpret_cast<const char*>(textBegin), static_cast<std::size_t>(p_ - textBegin));
      const bool commentNext = p_[1] == '!';
      if (!text.empty()) {
        addText(levels_[top.depth].back(), text, top.childrenSoFar > 0);
        // Text between two comments is the second one's text before, not the first one's after.
        if (top.commentBefore != kNone && !commentNext) appendDecoded((*comments_)[top.commentBefore].textAfter, text);
      }
      top.commentBefore = kNone;
      bool ok;
      if (p_[1] == '/') {
        ok = endTag();
      } else if (commentNext) {
        ok = comment(top.ordinal, top.childrenSoFar, text, &top);
      } else {
        ok = startTag();
      }
      if (!ok) return std::nullopt;
    }
    if (!outsideRoot(1) || p_ != end_) return std::nullopt;
    return std::move(levels_[0].back());
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  struct Open {
    std::size_t depth;            // its level in levels_
    std::size_t ordinal;          // its number in document order (the root is 0)
    std::string_view name;
    std::size_t childrenSoFar = 0;    // its child elements started so far
    std::size_t commentBefore = kNone;  // a comment just read in it: the text after it is its text after
  };

  struct PendingAttribute {
    std::string_view name;
    std::string_view value;
    std::size_t offset;
  };

  std::size_t offsetOf(const unsigned char* at) const { return static_cast<std::size_t>(at - begin_); }

  /// White space and comments before the root (`index` 0) or after it (1), up to the next other
  /// byte or the end.
  bool outsideRoot(std::size_t index) {
    while (p_ != end_) {
      if (isSpace(static_cast<char>(*p_))) {
        ++p_;
      } else if (end_ - p_ >= 4 && std::memcmp(p_, "<!--", 4) == 0) {
        if (!comment(XmlComment::kOutsideRoot, index, {}, nullptr)) return false;
      } else {
        return *p_ == '<' && index == 0;  // the root's start tag; after the root, nothing else
      }
    }
    return true;
  }

  /// A name at p_ of XML's ASCII name characters, empty when none starts there.
  std::string_view name() {
    const unsigned char* const from = p_;
    if (p_ == end_ || !kNameBytes.start[*p_]) return {};
    ++p_;
    while (p_ != end_ && kNameBytes.rest[*p_]) ++p_;
    return {reinterpret_cast<const char*>(from), static_cast<std::size_t>(p_ - from)};
  }

  bool skipSpace() {
    const unsigned char* const from = p_;
    while (p_ != end_ && isSpace(static_cast<char>(*p_))) ++p_;
    return p_ != from;
  }

  /// The start tag at p_ ('<'): the element with its attributes, open unless the tag closes it.
  bool startTag() {
    if (open_.size() >= maxDepth_) return false;  // expat says so
    const unsigned char* const tag = p_++;
    const std::string_view elementName = name();
    if (elementName.empty()) return false;
    attributes_.clear();
    bool selfClosing = false;
    while (true) {
      const bool spaced = skipSpace();
      if (p_ == end_) return false;
      if (*p_ == '>') {
        ++p_;
        break;
      }
      if (*p_ == '/') {
        if (end_ - p_ < 2 || p_[1] != '>') return false;
        p_ += 2;
        selfClosing = true;
        break;
      }
      if (!spaced) return false;  // attributes are separated by white space
      const std::size_t offset = offsetOf(p_);
      const std::string_view attributeName = name();
      if (attributeName.empty()) return false;
      skipSpace();
      if (p_ == end_ || *p_ != '=') return false;
      ++p_;
      skipSpace();
      if (p_ == end_ || (*p_ != '"' && *p_ != '\'')) return false;
      const unsigned char* const valueBegin = p_ + 1;
      p_ = static_cast<const unsigned char*>(std::memchr(valueBegin, *p_, static_cast<std::size_t>(end_ - valueBegin)));
      if (!p_) return false;
      const std::string_view value(reinterpret_cast<const char*>(valueBegin), static_cast<std::size_t>(p_ - valueBegin));
      ++p_;
      if (value.find('<') != std::string_view::npos) return false;  // not XML: expat says so
      if (attributes_.size() >= maxAttributes_) return false;      // refused before parsing: expat's path says so
      attributes_.push_back(PendingAttribute{attributeName, value, offset});
    }
    if (attributes_.size() > 1) {
      names_.clear();
      for (const PendingAttribute& attribute : attributes_) names_.push_back(attribute.name);
      if (hasRepeatedName(names_)) return false;  // a duplicate: expat's error
    }
    const std::size_t depth = open_.size();
    if (parentTextLengths_) parentTextLengths_->push_back(depth == 0 ? 0 : levels_[depth - 1].back().text.size());
    if (depth > 0) ++open_.back().childrenSoFar;
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    XmlElement& element = levels_[depth].emplace_back();
    element.name.append(elementName);
    element.where.file = fileName_;
    cursor_.locate(offsetOf(tag), element.where);
    if (!attributes_.empty()) {
      element.attributes = XmlElement::Attributes(attributeAllocator_);
      element.attributes.reserve(attributes_.size());
      for (const PendingAttribute& pending : attributes_) {
        Attribute& attribute = element.attributes.emplace_back();
        attribute.name.append(pending.name);
        appendAttributeValue(attribute.value, pending.value);
        attribute.where.file = fileName_;
        cursor_.locate(pending.offset, attribute.where);
      }
    }
    const std::size_t ordinal = started_++;
    if (selfClosing) return true;  // no children, no text: nothing to finish
    open_.push_back(Open{depth, ordinal, elementName});
    return true;
  }

  /// The end tag at p_ ("</"): it names the element open, which is complete then.
  bool endTag() {
    p_ += 2;
    const Open& top = open_.back();
    if (static_cast<std::size_t>(end_ - p_) < top.name.size() || std::memcmp(p_, top.name.data(), top.name.size()) != 0) {
      return false;
    }
    p_ += top.name.size();
    skipSpace();
    if (p_ == end_ || *p_ != '>') return false;  // another name, or more of it
    ++p_;
    XmlElement& element = levels_[top.depth].back();
    if (levels_.size() > top.depth + 1 && !levels_[top.depth + 1].empty()) {
      std::vector<XmlElement>& children = levels_[top.depth + 1];
      element.children = XmlElement::Children(elementAllocator_);
      element.children.reserve(children.size());
      for (XmlElement& child : children) element.children.push_back(std::move(child));
      children.clear();
      dropLayoutText(element.text);
    }
    open_.pop_back();
    return true;
  }

  /// The comment at p_ ("<!--"), kept when comments are asked for. `textBefore`: the text just
  /// before it in its element; `in`: that element (null outside the root).
  bool comment(std::size_t parent, std::size_t index, std::string_view textBefore, Open* in) {
    const unsigned char* const open = p_;
    if (end_ - p_ < 4 || std::memcmp(p_, "<!--", 4) != 0) return false;  // plainText() let no other "<!" through
    const std::string_view rest(reinterpret_cast<const char*>(p_ + 4), static_cast<std::size_t>(end_ - p_ - 4));
    const std::size_t close = rest.find("-->");
    if (close == std::string_view::npos) return false;
    const std::string_view text = rest.substr(0, close);
    if (!plainComment(text)) return false;
    p_ += 4 + close + 3;
    if (!comments_) return true;
    XmlComment& kept = comments_->emplace_back();
    kept.text = text;
    kept.where.file = fileName_;
    cursor_.locate(offsetOf(open), kept.where, true);
    kept.parent = parent;
    kept.index = index;
    if (in) {
      appendDecoded(kept.textBefore, textBefore);
      in->commentBefore = comments_->size() - 1;
    }
    return true;
  }

  /// Text as expat hands it over: before the first child element all of it; after, in pieces split
  /// at line breaks and references, without the pieces that are white space only (layout).
  static void addText(XmlElement& element, std::string_view raw, bool afterChildren) {
    if (!afterChildren) {
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

  const unsigned char* const begin_;
  const unsigned char* const end_;
  const unsigned char* p_;  // where the reading is
  const FileName fileName_;
  const std::size_t maxDepth_;
  const std::size_t maxAttributes_;
  std::vector<XmlComment>* const comments_;
  std::vector<std::size_t>* const parentTextLengths_;
  OffsetCursor cursor_;
  TreeAllocator<XmlElement> elementAllocator_;
  TreeAllocator<Attribute> attributeAllocator_;
  /// The elements being made, by depth: levels_[d] holds the finished children of the element
  /// open at depth d - 1 and, last, the one open at depth d (levels_[0]: the root). An element's
  /// children move into one block of the arena, of their exact number, when it ends.
  std::vector<std::vector<XmlElement>> levels_;
  std::vector<Open> open_;
  std::vector<PendingAttribute> attributes_;  // of the start tag being read
  std::vector<std::string_view> names_;       // their names (hasRepeatedName)
  std::size_t started_ = 0;                   // elements started so far
};

}  // namespace

bool isPlainXml(std::string_view content, PlainXmlFacts& facts) { return plainText(content, facts); }

std::optional<XmlElement> readPlainXml(std::string_view content, const std::string& fileName,
                                       const ParseOptions& options, const PlainXmlFacts& facts) {
  return PlainTreeReader(content, fileName, options, facts).read();
}

}  // namespace interlink::xml::detail
