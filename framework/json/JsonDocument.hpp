#pragma once
// JSON reading for the JSON format plugins (Shift, the core model): Jansson underneath, with the
// two liberties real Shift files take (comments, trailing commas) and a source position for every
// value, which Jansson does not keep after parsing.
#include <jansson.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interlink/Diagnostics.hpp"

namespace interlink::json {

struct TextPosition {
  int line = 0;
  int column = 0;
};

/// `text` with every `//` and `/* */` comment and every trailing comma before `}` or `]` replaced
/// by spaces (newlines kept), so that line and column numbers stay those of the original.
/// Positions of the trailing commas are returned for warnings.
std::string blankCommentsAndTrailingCommas(std::string_view text, std::vector<TextPosition>& trailingCommas,
                                           std::vector<TextPosition>& unterminatedComments);

/// How diagnostics name the kind of a JSON value: "an object", "a number", ..., "nothing" for a
/// missing one.
std::string describeKind(const json_t* value);

struct JsonDeleter {
  void operator()(json_t* value) const { json_decref(value); }
};
using JsonPtr = std::unique_ptr<json_t, JsonDeleter>;

class JsonDocument {
 public:
  /// Parses `content`; syntax problems are reported with line and column. Returns false when
  /// there is no usable document.
  bool parse(std::string_view content, const std::string& file, Diagnostics& diagnostics);

  const json_t* root() const { return root_.get(); }
  /// Where a value starts (the file alone when unknown, e.g. for the shared true/false/null).
  SourceLocation where(const json_t* value) const;
  /// Where the value of `key` in `object` starts, falling back to the object itself.
  SourceLocation where(const json_t* object, const char* key) const;
  const std::string& file() const { return file_; }
  /// The text of a value as written (comments blanked), for kept elements.
  std::string textOf(const json_t* value) const;

 private:
  void indexPositions();

  std::string file_;
  std::string text_;  // comments blanked
  JsonPtr root_;
  struct Span {
    std::size_t begin = 0;
    std::size_t end = 0;
    TextPosition position;
  };
  std::unordered_map<const json_t*, Span> spans_;
};

}  // namespace interlink::json
