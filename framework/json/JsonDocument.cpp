#include "JsonDocument.hpp"

#include "interlink/Utf8.hpp"

#include <algorithm>
#include <cstdint>

namespace interlink::json {

std::string describeKind(const json_t* value) {
  if (!value) return "nothing";
  switch (json_typeof(value)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
  }
  return "a value";
}

namespace {

bool isJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Line starts of a text, for offset -> (line, column). Columns count UTF-8 characters, as
/// Jansson does, so our positions and Jansson's agree. A column is the bytes since the line start
/// minus the UTF-8 continuation bytes among them, counted from a checkpoint every kBlock bytes:
/// constant time per value, whatever the order values are asked for in and however long the
/// line (a minified file is one line; counting from the line start made it quadratic).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {
    starts_.push_back(0);
    checkpoints_.reserve(text.size() / kBlock + 1);
    std::size_t continuation = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (i % kBlock == 0) checkpoints_.push_back(continuation);
      if (text[i] == '\n') starts_.push_back(i + 1);
      if (isContinuation(text[i])) ++continuation;
    }
    checkpoints_.push_back(continuation);  // for an offset at the end, when the size is a multiple of kBlock
  }
  TextPosition at(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const std::size_t lineIndex = static_cast<std::size_t>(it - starts_.begin()) - 1;
    const std::size_t start = starts_[lineIndex];
    const std::size_t characters = (offset - start) - (continuationBefore(offset) - continuationBefore(start));
    return {static_cast<int>(lineIndex) + 1, static_cast<int>(characters) + 1};
  }

 private:
  static constexpr std::size_t kBlock = 64;
  static bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
  /// Continuation bytes in [0, offset).
  std::size_t continuationBefore(std::size_t offset) const {
    const std::size_t block = offset / kBlock;
    std::size_t count = checkpoints_[block];
    for (std::size_t i = block * kBlock; i < offset; ++i) count += isContinuation(text_[i]);
    return count;
  }

  std::string_view text_;
  std::vector<std::size_t> starts_;
  std::vector<std::size_t> checkpoints_;  // continuation bytes before each multiple of kBlock
};

/// Walks text that Jansson has accepted, in step with the parsed tree, recording where each value
/// starts and ends. The text is valid JSON, so the walk only has to be correct, not defensive;
/// it still stops cleanly at the end of the text.
class PositionWalker {
 public:
  using Record = void (*)(void* context, const json_t* value, std::size_t begin, std::size_t end);
  PositionWalker(std::string_view text, Record record, void* context)
      : text_(text), record_(record), context_(context) {}

  void walk(const json_t* value) {
    skipSpace();
    const std::size_t begin = pos_;
    if (pos_ >= text_.size()) return;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      skipSpace();
      if (peek() == '}') {
        ++pos_;
      } else {
        while (pos_ < text_.size()) {
          skipSpace();
          std::string key = readString();
          skipSpace();
          if (peek() == ':') ++pos_;
          const json_t* child = json_is_object(value) ? json_object_get(value, key.c_str()) : nullptr;
          walk(child);
          skipSpace();
          const char next = peek();
          ++pos_;
          if (next != ',') break;
        }
      }
    } else if (c == '[') {
      ++pos_;
      skipSpace();
      if (peek() == ']') {
        ++pos_;
      } else {
        std::size_t index = 0;
        while (pos_ < text_.size()) {
          const json_t* child = json_is_array(value) ? json_array_get(value, index) : nullptr;
          walk(child);
          ++index;
          skipSpace();
          const char next = peek();
          ++pos_;
          if (next != ',') break;
        }
      }
    } else if (c == '"') {
      readString();
    } else {
      while (pos_ < text_.size() && !isJsonSpace(text_[pos_]) && text_[pos_] != ',' && text_[pos_] != '}' &&
             text_[pos_] != ']')
        ++pos_;
    }
    // true, false and null are shared singletons in Jansson: a position for them means nothing.
    if (value && !json_is_boolean(value) && !json_is_null(value)) record_(context_, value, begin, pos_);
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < text_.size() && isJsonSpace(text_[pos_])) ++pos_;
  }
  std::string readString() {
    std::string out;
    if (peek() != '"') return out;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\' || pos_ >= text_.size()) {
        out += c;
        continue;
      }
      const char escaped = text_[pos_++];
      switch (escaped) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t code = readHex4();
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            const std::uint32_t low = readHex4();
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          appendUtf8(out, code);
          break;
        }
        default: out += escaped; break;
      }
    }
    ++pos_;  // closing quote
    return out;
  }
  std::uint32_t readHex4() {
    std::uint32_t code = 0;
    for (int i = 0; i < 4 && pos_ < text_.size(); ++i, ++pos_) {
      const char h = text_[pos_];
      code <<= 4;
      if (h >= '0' && h <= '9') code |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') code |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') code |= static_cast<std::uint32_t>(h - 'A' + 10);
    }
    return code;
  }

  std::string_view text_;
  Record record_;
  void* context_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string blankCommentsAndTrailingCommas(std::string_view text, std::vector<TextPosition>& trailingCommas,
                                           std::vector<TextPosition>& unterminatedComments) {
  std::string out(text);
  const LineIndex lines(text);
  auto blank = [&out](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < out.size(); ++i)
      if (out[i] != '\n' && out[i] != '\r') out[i] = ' ';
  };
  // Pass 1: comments, outside strings.
  bool inString = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"' || c == '\n') inString = false;  // a newline ends a broken string; Jansson reports it
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      std::size_t end = out.find('\n', i);
      if (end == std::string::npos) end = out.size();
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      std::size_t end = out.find("*/", i + 2);
      if (end == std::string::npos) {
        unterminatedComments.push_back(lines.at(i));
        end = out.size();
      } else {
        end += 2;
      }
      blank(i, end);
      i = end - 1;
    }
  }
  // Pass 2: a comma followed only by white space and a closing bracket.
  inString = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"' || c == '\n') inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == ',') {
      std::size_t next = i + 1;
      while (next < out.size() && isJsonSpace(out[next])) ++next;
      if (next < out.size() && (out[next] == '}' || out[next] == ']')) {
        trailingCommas.push_back(lines.at(i));
        out[i] = ' ';
      }
    }
  }
  return out;
}

bool JsonDocument::parse(std::string_view content, const std::string& file, Diagnostics& diagnostics) {
  file_ = file;
  // A UTF-8 byte order mark is not JSON; Jansson would refuse it.
  content.remove_prefix(byteOrderMarkLength(content));
  std::vector<TextPosition> trailingCommas;
  std::vector<TextPosition> unterminated;
  text_ = blankCommentsAndTrailingCommas(content, trailingCommas, unterminated);
  for (const auto& at : unterminated)
    diagnostics.error(ErrorCode::JSON_SYNTAX, "comment '/*' is never closed (expected '*/')",
                      SourceLocation{file_, at.line, at.column});
  if (!unterminated.empty()) return false;
  for (const auto& at : trailingCommas)
    diagnostics.warning(ErrorCode::JSON_SYNTAX, "trailing comma before a closing bracket is not JSON; ignored",
                        SourceLocation{file_, at.line, at.column});

  json_error_t error;
  root_.reset(json_loadb(text_.data(), text_.size(), JSON_REJECT_DUPLICATES, &error));
  if (!root_) {
    diagnostics.error(ErrorCode::JSON_SYNTAX, std::string("invalid JSON: ") + error.text,
                      SourceLocation{file_, std::max(error.line, 1), std::max(error.column, 1)});
    return false;
  }
  indexPositions();
  return true;
}

void JsonDocument::indexPositions() {
  struct Context {
    std::unordered_map<const json_t*, Span>* spans;
    LineIndex lines;
  };
  Context context{&spans_, LineIndex(text_)};
  PositionWalker walker(
      text_,
      [](void* raw, const json_t* value, std::size_t begin, std::size_t end) {
        auto* ctx = static_cast<Context*>(raw);
        (*ctx->spans)[value] = Span{begin, end, ctx->lines.at(begin)};
      },
      &context);
  walker.walk(root_.get());
}

SourceLocation JsonDocument::where(const json_t* value) const {
  auto it = value ? spans_.find(value) : spans_.end();
  if (it == spans_.end()) return SourceLocation{file_, 0, 0};
  return SourceLocation{file_, it->second.position.line, it->second.position.column};
}

SourceLocation JsonDocument::where(const json_t* object, const char* key) const {
  const json_t* value = json_is_object(object) ? json_object_get(object, key) : nullptr;
  SourceLocation location = where(value);
  if (location.line > 0) return location;
  // true, false and null have no position of their own (shared singletons): the key's position
  // in the object's text stands for them, found from the object's start.
  const auto span = object ? spans_.find(object) : spans_.end();
  if (span == spans_.end()) return where(object);
  const std::string quoted = std::string("\"") + key + "\"";
  const std::size_t found = text_.find(quoted, span->second.begin);
  if (found == std::string_view::npos || found >= span->second.end) return where(object);
  TextPosition position = span->second.position;
  for (std::size_t i = span->second.begin; i < found; ++i) {
    const auto byte = static_cast<unsigned char>(text_[i]);
    if (byte == '\n') {
      ++position.line;
      position.column = 1;
    } else if (byte < 0x80 || byte >= 0xC0) {
      ++position.column;
    }
  }
  return SourceLocation{file_, position.line, position.column};
}

std::string JsonDocument::textOf(const json_t* value) const {
  auto it = value ? spans_.find(value) : spans_.end();
  if (it != spans_.end()) return text_.substr(it->second.begin, it->second.end - it->second.begin);
  char* dumped = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
  std::string out = dumped ? dumped : "";
  free(dumped);
  return out;
}

}  // namespace interlink::json
