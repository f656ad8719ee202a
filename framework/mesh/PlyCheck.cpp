#include "PlyCheck.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace interlink::mesh::detail {
namespace {

enum class Scalar { None, Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

Scalar scalarNamed(std::string_view name) {
  if (name == "char" || name == "int8") return Scalar::Int8;
  if (name == "uchar" || name == "uint8") return Scalar::UInt8;
  if (name == "short" || name == "int16") return Scalar::Int16;
  if (name == "ushort" || name == "uint16") return Scalar::UInt16;
  if (name == "int" || name == "int32") return Scalar::Int32;
  if (name == "uint" || name == "uint32") return Scalar::UInt32;
  if (name == "float" || name == "float32") return Scalar::Float32;
  if (name == "double" || name == "float64") return Scalar::Float64;
  return Scalar::None;
}

std::size_t sizeOf(Scalar type) {
  switch (type) {
    case Scalar::Int8:
    case Scalar::UInt8:
      return 1;
    case Scalar::Int16:
    case Scalar::UInt16:
      return 2;
    case Scalar::Int32:
    case Scalar::UInt32:
    case Scalar::Float32:
      return 4;
    case Scalar::Float64:
      return 8;
    default:
      return 0;
  }
}

bool isInteger(Scalar type) { return type != Scalar::Float32 && type != Scalar::Float64 && type != Scalar::None; }

struct Property {
  std::string name;
  bool list = false;
  Scalar countType = Scalar::None;
  Scalar type = Scalar::None;
  /// A face's corners: each must name an existing vertex.
  bool vertexIndices = false;
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::vector<Property> properties;
};

enum class Encoding { Ascii, LittleEndian, BigEndian };

struct Header {
  Encoding encoding = Encoding::Ascii;
  std::vector<Element> elements;
  std::size_t bodyStart = 0;
  std::size_t lines = 0;
  std::uint64_t vertexCount = 0;
};

bool fail(MeshError& error, std::string message) {
  error = {ErrorCode::FILE_READ, "PLY " + std::move(message)};
  return false;
}

std::vector<std::string_view> wordsOf(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string printable(std::string_view word) {
  std::string out;
  for (const char c : word.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

bool digitsOnly(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

/// The header up to `end_header`: every line a keyword the format defines, every type known.
bool readHeader(std::string_view bytes, Header& header, MeshError& error) {
  constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
  std::size_t position = 0;
  bool sawFormat = false;
  while (true) {
    if (position >= bytes.size() || position > kMaxHeaderBytes) {
      return fail(error, "header has no 'end_header' line in its first MiB");
    }
    std::size_t newline = bytes.find('\n', position);
    const bool last = newline == std::string_view::npos;
    if (last) newline = bytes.size();
    const std::string_view line = bytes.substr(position, newline - position);
    position = last ? bytes.size() : newline + 1;
    const std::string where = "header line " + std::to_string(++header.lines) + ": ";
    for (const char c : line) {
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) return fail(error, where + "a control byte in the header text");
    }
    const auto words = wordsOf(line);
    if (header.lines == 1) {
      if (words.size() != 1 || words[0] != "ply") return fail(error, where + "expected 'ply' as the first line");
      continue;
    }
    if (words.empty()) continue;
    const std::string_view keyword = words[0];
    if (keyword == "comment" || keyword == "obj_info") continue;
    if (keyword == "format") {
      if (sawFormat || !header.elements.empty()) return fail(error, where + "'format' must come once, before the elements");
      if (words.size() != 3) return fail(error, where + "expected 'format <ascii|binary_little_endian|binary_big_endian> 1.0'");
      if (words[1] == "ascii") {
        header.encoding = Encoding::Ascii;
      } else if (words[1] == "binary_little_endian") {
        header.encoding = Encoding::LittleEndian;
      } else if (words[1] == "binary_big_endian") {
        header.encoding = Encoding::BigEndian;
      } else {
        return fail(error, where + "unknown format '" + printable(words[1]) +
                               "' (expected ascii, binary_little_endian or binary_big_endian)");
      }
      sawFormat = true;
    } else if (keyword == "element") {
      if (words.size() != 3 || !digitsOnly(words[2]) || words[2].size() > 18) {
        return fail(error, where + "expected 'element <name> <count>' with a decimal count");
      }
      header.elements.push_back({std::string(words[1]), std::stoull(std::string(words[2])), {}});
      if (words[1] == "vertex") header.vertexCount = header.elements.back().count;
    } else if (keyword == "property") {
      if (header.elements.empty()) return fail(error, where + "a property before any element");
      Property property;
      if (words.size() == 5 && words[1] == "list") {
        property.list = true;
        property.countType = scalarNamed(words[2]);
        property.type = scalarNamed(words[3]);
        property.name = std::string(words[4]);
        if (!isInteger(property.countType)) {
          return fail(error, where + "a list count type must be an integer type, not '" + printable(words[2]) + "'");
        }
      } else if (words.size() == 3) {
        property.type = scalarNamed(words[1]);
        property.name = std::string(words[2]);
      } else {
        return fail(error, where + "expected 'property <type> <name>' or 'property list <count type> <type> <name>'");
      }
      if (property.type == Scalar::None) {
        return fail(error, where + "unknown property type '" + printable(property.list ? words[3] : words[1]) +
                               "' (expected char, uchar, short, ushort, int, uint, float, double or a sized name)");
      }
      property.vertexIndices = property.list && (header.elements.back().name == "face") &&
                               (property.name == "vertex_indices" || property.name == "vertex_index");
      if (property.vertexIndices && !isInteger(property.type)) {
        return fail(error, where + "face vertex indices must have an integer type");
      }
      header.elements.back().properties.push_back(std::move(property));
    } else if (keyword == "end_header") {
      if (!sawFormat) return fail(error, where + "'end_header' before a 'format' line");
      header.bodyStart = position;
      break;
    } else {
      return fail(error, where + "unknown keyword '" + printable(keyword) +
                             "' (expected format, comment, obj_info, element, property or end_header)");
    }
  }
  for (const Element& element : header.elements) {
    if (element.count > 0 && element.properties.empty()) {
      return fail(error, "element '" + printable(element.name) + "' declares " + std::to_string(element.count) +
                             " instances but no properties");
    }
  }
  return true;
}

/// An optionally signed decimal integer.
bool readInteger(std::string_view token, std::int64_t& value) {
  std::size_t i = token.size() > 0 && (token[0] == '-' || token[0] == '+') ? 1 : 0;
  if (i == token.size() || token.size() - i > 18) return false;
  value = 0;
  for (; i < token.size(); ++i) {
    if (token[i] < '0' || token[i] > '9') return false;
    value = value * 10 + (token[i] - '0');
  }
  if (token[0] == '-') value = -value;
  return true;
}

/// A finite decimal number: sign, digits with an optional fraction, an optional exponent.
bool isNumber(std::string_view token) {
  std::size_t i = 0;
  if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
  std::size_t digits = 0;
  while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i, ++digits;
  if (i < token.size() && token[i] == '.') {
    ++i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
    std::size_t exponent = 0;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i, ++exponent;
    if (exponent == 0 || exponent > 3) return false;
  }
  return i == token.size();
}

bool checkAscii(std::string_view bytes, const Header& header, MeshError& error) {
  std::size_t position = header.bodyStart;
  std::size_t lineNumber = header.lines;
  for (const Element& element : header.elements) {
    for (std::uint64_t instance = 0; instance < element.count; ++instance) {
      std::vector<std::string_view> tokens;
      while (tokens.empty()) {
        if (position >= bytes.size()) {
          return fail(error, "header claims " + std::to_string(element.count) + " '" + printable(element.name) +
                                 "' elements; the data ends after " + std::to_string(instance));
        }
        std::size_t newline = bytes.find('\n', position);
        if (newline == std::string_view::npos) newline = bytes.size();
        tokens = wordsOf(bytes.substr(position, newline - position));
        position = newline + 1;
        ++lineNumber;
      }
      const std::string where = "line " + std::to_string(lineNumber) + " ('" + printable(element.name) + "' " +
                                std::to_string(instance) + "): ";
      std::size_t next = 0;
      for (const Property& property : element.properties) {
        if (next >= tokens.size()) return fail(error, where + "no value for '" + printable(property.name) + "'");
        if (!property.list) {
          if (!isNumber(tokens[next])) {
            return fail(error, where + "'" + printable(tokens[next]) + "' is not a number ('" + printable(property.name) + "')");
          }
          ++next;
          continue;
        }
        std::int64_t count = 0;
        if (!readInteger(tokens[next], count) || count < 0 || static_cast<std::uint64_t>(count) > tokens.size() - next - 1) {
          return fail(error, where + "'" + printable(tokens[next]) + "' is not the count of the values that follow ('" +
                                 printable(property.name) + "')");
        }
        if (property.vertexIndices && count < 3) {
          return fail(error, where + "a face needs at least 3 vertices, this one has " + std::to_string(count));
        }
        ++next;
        for (std::int64_t k = 0; k < count; ++k, ++next) {
          std::int64_t index = 0;
          if (property.vertexIndices ? !readInteger(tokens[next], index) : !isNumber(tokens[next])) {
            return fail(error, where + "'" + printable(tokens[next]) + "' is not a number ('" + printable(property.name) + "')");
          }
          if (property.vertexIndices && (index < 0 || static_cast<std::uint64_t>(index) >= header.vertexCount)) {
            return fail(error, where + "vertex index " + std::to_string(index) + " is not one of the " +
                                   std::to_string(header.vertexCount) + " vertices");
          }
        }
      }
      if (next != tokens.size()) {
        return fail(error, where + std::to_string(tokens.size() - next) + " values more than the header declares");
      }
    }
  }
  return true;
}

std::uint64_t readUnsigned(const char* at, std::size_t size, bool bigEndian) {
  std::uint64_t value = 0;
  for (std::size_t k = 0; k < size; ++k) {
    const auto byte = static_cast<std::uint8_t>(at[bigEndian ? k : size - 1 - k]);
    value = (value << 8) | byte;
  }
  return value;
}

/// A binary integer of `type` as a signed value.
std::int64_t readInteger(const char* at, Scalar type, bool bigEndian) {
  const std::size_t size = sizeOf(type);
  const std::uint64_t raw = readUnsigned(at, size, bigEndian);
  const bool isSigned = type == Scalar::Int8 || type == Scalar::Int16 || type == Scalar::Int32;
  if (isSigned && (raw >> (8 * size - 1)) != 0) return static_cast<std::int64_t>(raw) - (std::int64_t{1} << (8 * size));
  return static_cast<std::int64_t>(raw);
}

bool checkBinary(std::string_view bytes, const Header& header, MeshError& error) {
  const bool bigEndian = header.encoding == Encoding::BigEndian;
  std::uint64_t position = header.bodyStart;
  const std::uint64_t size = bytes.size();
  const auto ends = [&](const Element& element, std::uint64_t instance) {
    return fail(error, "header claims " + std::to_string(element.count) + " '" + printable(element.name) +
                           "' elements; the " + std::to_string(size) + "-byte file ends inside element " +
                           std::to_string(instance));
  };
  for (const Element& element : header.elements) {
    if (element.count == 0) continue;
    bool fixed = true;
    std::uint64_t stride = 0;
    for (const Property& property : element.properties) {
      fixed = fixed && !property.list;
      stride += sizeOf(property.type);
    }
    if (fixed) {
      // Every instance the same size: checked at once, so a large claim costs nothing.
      if (element.count > (size - position) / stride) return ends(element, (size - position) / stride);
      position += element.count * stride;
      continue;
    }
    // Each instance takes at least one byte (its first list count), so this ends with the file.
    for (std::uint64_t instance = 0; instance < element.count; ++instance) {
      for (const Property& property : element.properties) {
        if (!property.list) {
          if (size - position < sizeOf(property.type)) return ends(element, instance);
          position += sizeOf(property.type);
          continue;
        }
        const std::size_t countSize = sizeOf(property.countType);
        if (size - position < countSize) return ends(element, instance);
        const std::int64_t count = readInteger(bytes.data() + position, property.countType, bigEndian);
        position += countSize;
        const std::size_t itemSize = sizeOf(property.type);
        if (count < 0 || static_cast<std::uint64_t>(count) > (size - position) / itemSize) {
          return fail(error, "'" + printable(element.name) + "' " + std::to_string(instance) + " at byte " +
                                 std::to_string(position - countSize) + ": a list of " + std::to_string(count) +
                                 " values where the file has " + std::to_string(size - position) + " bytes left");
        }
        if (property.vertexIndices) {
          if (count < 3) {
            return fail(error, "'face' " + std::to_string(instance) + " at byte " + std::to_string(position - countSize) +
                                   ": a face needs at least 3 vertices, this one has " + std::to_string(count));
          }
          for (std::int64_t k = 0; k < count; ++k) {
            const std::int64_t index = readInteger(bytes.data() + position + k * itemSize, property.type, bigEndian);
            if (index < 0 || static_cast<std::uint64_t>(index) >= header.vertexCount) {
              return fail(error, "'face' " + std::to_string(instance) + ": vertex index " + std::to_string(index) +
                                     " is not one of the " + std::to_string(header.vertexCount) + " vertices");
            }
          }
        }
        position += static_cast<std::uint64_t>(count) * itemSize;
      }
    }
  }
  return true;
}

}  // namespace

bool checkPlyFile(std::string_view bytes, MeshError& error) {
  Header header;
  if (!readHeader(bytes, header, error)) return false;
  return header.encoding == Encoding::Ascii ? checkAscii(bytes, header, error) : checkBinary(bytes, header, error);
}

}  // namespace interlink::mesh::detail
