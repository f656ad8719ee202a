// XmlElement queries and re-serialisation.
#include "interlink/xml/XmlElement.hpp"
#include "interlink/xml/XmlEscape.hpp"
#include "interlink/xml/SameName.hpp"
#include "util/LargeBlocks.hpp"

#include <algorithm>
#include <cstdint>

namespace interlink::xml {
namespace {

bool isXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void serialise(const XmlElement& element, std::string& out) {
  out += '<';
  out += element.name;
  for (const Attribute& attribute : element.attributes) {
    out += ' ';
    out += attribute.name;
    out += "=\"";
    out += escapedXml(attribute.value, true);
    out += '"';
  }
  if (element.children.empty() && element.text.empty()) {
    out += "/>";
    return;
  }
  out += '>';
  if (element.children.empty()) {
    out += escapedXml(element.text, false);
  } else {
    // Text interleaved with children was concatenated on reading; white space between children
    // carries no meaning, other text is written before the children.
    const std::string trimmed = element.trimmedText();
    out += escapedXml(trimmed, false);
    for (const XmlElement& child : element.children) serialise(child, out);
  }
  out += "</";
  out += element.name;
  out += '>';
}

}  // namespace

namespace detail {

namespace {

#ifndef INTERLINK_TREE_ARENA_POISONS
/// One released block per thread, kept for the next tree the thread builds. A host that loads
/// descriptions again and again (Python, the live viewer, a simulator) then parses into the same
/// memory instead of taking a block from the heap and giving it back at every load: with glibc's
/// malloc a freed block at the heap's top lowers the program break, and the next load faulted the
/// pages in again (two brk calls and the faults of a ~140 KB block per URDF load of Franka's FR3,
/// and a repeated load's time doubled or not as the heap's layout happened to fall). Only blocks
/// below the large-block threshold (plain heap) are kept: at most 1 MiB a thread, and big models
/// keep their huge-page blocks to themselves. The spare is freed when the thread ends; a tree
/// destroyed after that (a static one, at exit) frees its blocks as before.
struct SpareBlock {
  void* raw = nullptr;
  std::size_t bytes = 0;
  ~SpareBlock();
};
thread_local SpareBlock spareBlock;
thread_local bool spareBlockGone = false;  // trivially destructible: readable after ~SpareBlock

SpareBlock::~SpareBlock() {
  if (raw) interlink::detail::releaseLargeBlock(raw, bytes);
  raw = nullptr;
  spareBlockGone = true;
}

/// The spare block if it holds `bytes`; null otherwise. `bytes` becomes the block's size.
void* takeSpare(std::size_t& bytes) {
  if (spareBlockGone || !spareBlock.raw || spareBlock.bytes < bytes) return nullptr;
  void* raw = spareBlock.raw;
  bytes = spareBlock.bytes;
  spareBlock.raw = nullptr;
  return raw;
}

/// Keeps a released block as the spare when it is small enough and larger than the one kept.
bool keepSpare(void* raw, std::size_t bytes) {
  if (spareBlockGone || bytes >= interlink::detail::kLargeBlockThreshold) return false;
  if (spareBlock.raw && spareBlock.bytes >= bytes) return false;
  if (spareBlock.raw) interlink::detail::releaseLargeBlock(spareBlock.raw, spareBlock.bytes);
  spareBlock.raw = raw;
  spareBlock.bytes = bytes;
  return true;
}
#else
// Under AddressSanitizer every block is the heap's, so that a use after release is reported.
void* takeSpare(std::size_t&) { return nullptr; }
bool keepSpare(void*, std::size_t) { return false; }
#endif

}  // namespace

struct TreeArena::Block {
  Block* next;
  std::size_t usable;  // bytes after the header
};

// The header is padded so that every block's usable bytes are aligned for any type.
const std::size_t TreeArena::kHeaderBytes =
    (sizeof(Block) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

TreeArena::TreeArena(std::size_t firstBlockBytes) {
  // The estimate comes from a scan of the whole input, before the parser has seen it: a file that
  // is not well-formed past its first bytes must not reserve its whole estimate up front.
  firstBlockBytes = std::min(firstBlockBytes, kMaxFirstBlockBytes);
  if (firstBlockBytes > 0) addBlock(firstBlockBytes);
}

TreeArena::~TreeArena() {
  while (blocks_) {
    Block* next = blocks_->next;
#ifdef INTERLINK_TREE_ARENA_POISONS
    ASAN_UNPOISON_MEMORY_REGION(blocks_, kHeaderBytes + blocks_->usable);
#endif
    if (!keepSpare(blocks_, kHeaderBytes + blocks_->usable)) {
      interlink::detail::releaseLargeBlock(blocks_, kHeaderBytes + blocks_->usable);
    }
    blocks_ = next;
  }
}

void TreeArena::addBlock(std::size_t usable) {
  std::size_t bytes = kHeaderBytes + usable;
  char* raw = static_cast<char*>(takeSpare(bytes));
  if (raw) {
    usable = bytes - kHeaderBytes;  // the whole spare
  } else {
    raw = static_cast<char*>(interlink::detail::allocateLargeBlock(bytes));
  }
  blocks_ = new (raw) Block{blocks_, usable};
  current_ = raw + kHeaderBytes;
  capacity_ = usable;
  used_ = 0;
#ifdef INTERLINK_TREE_ARENA_POISONS
  ASAN_POISON_MEMORY_REGION(current_, usable);
#endif
}

void* TreeArena::allocateInNewBlock(std::size_t bytes, std::size_t alignment) {
  // Lists beyond the first block (a miscount, a tree larger than the first block's cap, or a
  // reader adding elements) get blocks of at least 64 KiB that grow with the tree, so that the
  // number of blocks stays logarithmic in its size.
  addBlock(std::max({bytes + alignment, std::size_t{64} << 10, std::min(capacity_, kMaxFirstBlockBytes)}));
  // Blocks start aligned for any type (operator new, and a header of a multiple of that size).
  used_ = bytes;
  return current_;
}

}  // namespace detail

const Attribute* XmlElement::attribute(std::string_view attributeName) const {
  for (const Attribute& a : attributes) {
    if (sameName(a.name, attributeName)) return &a;
  }
  return nullptr;
}

std::string XmlElement::attributeOr(std::string_view attributeName, std::string_view fallback) const {
  const Attribute* found = attribute(attributeName);
  return found ? found->value : std::string(fallback);
}

const XmlElement* XmlElement::child(std::string_view childName) const {
  for (const XmlElement& c : children) {
    if (sameName(c.name, childName)) return &c;
  }
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::childrenNamed(std::string_view childName) const {
  std::vector<const XmlElement*> found;
  for (const XmlElement& c : children) {
    if (sameName(c.name, childName)) found.push_back(&c);
  }
  return found;
}

std::string XmlElement::trimmedText() const {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && isXmlSpace(text[begin])) ++begin;
  while (end > begin && isXmlSpace(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool XmlElement::isNamespaced() const { return hasNamespacePrefix(name); }

std::string XmlElement::toXml() const {
  std::string out;
  serialise(*this, out);
  return out;
}

void appendEscapedXml(std::string& out, std::string_view text, bool inAttribute) {
  // Runs of characters that need no reference are appended whole (most values have none).
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string_view reference;
    switch (text[i]) {
      case '&': reference = "&amp;"; break;
      case '<': reference = "&lt;"; break;
      case '>': reference = "&gt;"; break;
      case '\r': reference = "&#13;"; break;
      // Attribute values are normalised by readers; keep quotes, line breaks and tabs as references.
      case '"': reference = inAttribute ? "&quot;" : ""; break;
      case '\n': reference = inAttribute ? "&#10;" : ""; break;
      case '\t': reference = inAttribute ? "&#9;" : ""; break;
      default: break;
    }
    if (reference.empty()) continue;
    out.append(text.data() + run, i - run);
    out.append(reference.data(), reference.size());
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

std::string escapedXml(std::string_view text, bool inAttribute) {
  std::string out;
  out.reserve(text.size());
  appendEscapedXml(out, text, inAttribute);
  return out;
}

}  // namespace interlink::xml
