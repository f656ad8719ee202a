#include "MeshPrecheck.hpp"

#include <jansson.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <vector>

#include "PlyCheck.hpp"

namespace interlink::mesh::detail {
namespace {

bool fail(MeshError& error, ErrorCode code, std::string message) {
  error = {code, std::move(message)};
  return false;
}

/// An unsigned attribute value as pugixml reads it for Assimp (leading blanks, a sign, decimal or
/// 0x hexadecimal); a negative or too long value reads as the largest, as it wraps there.
std::uint64_t xmlUnsigned(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  const bool hex = text.compare(i, 2, "0x") == 0 || text.compare(i, 2, "0X") == 0;
  if (hex) i += 2;
  std::uint64_t value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    const int digit = c >= '0' && c <= '9' ? c - '0'
                      : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (digit < 0) break;
    if (value > (UINT64_MAX >> 4)) return UINT64_MAX;
    value = value * (hex ? 16 : 10) + static_cast<std::uint64_t>(digit);
  }
  return negative && value != 0 ? UINT64_MAX : value;
}

/// The values of every attribute `name` in XML text, with the offset where each appears.
template <typename Visit>
bool eachXmlAttribute(std::string_view text, std::string_view name, Visit&& visit) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if (at == 0 || !std::isspace(static_cast<unsigned char>(text[at - 1]))) continue;
    std::size_t i = end;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '=') continue;
    ++i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) continue;
    const std::size_t close = text.find(text[i], i + 1);
    if (close == std::string_view::npos) break;
    if (!visit(text.substr(i + 1, close - i - 1))) return false;
  }
  return true;
}

/// The numbers of a whitespace-separated list, summed (saturating).
std::uint64_t sumOfList(std::string_view list) {
  std::uint64_t sum = 0;
  while (!list.empty()) {
    const std::size_t start = list.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) break;
    list.remove_prefix(start);
    const std::uint64_t n = xmlUnsigned(list);
    sum = n > UINT64_MAX - sum ? UINT64_MAX : sum + n;
    const std::size_t next = list.find_first_of(" \t\r\n");
    list.remove_prefix(next == std::string_view::npos ? list.size() : next);
  }
  return sum;
}

/// COLLADA: Assimp reserves memory for what the file claims before it reads the values: a `count`
/// attribute's worth of array values, and for each primitive (`<triangles>`, `<lines>`,
/// `<polylist>`) its corners times the index stride (the largest `<input offset>` + 1). Every
/// value or index takes at least two characters of the file (a digit and a separator), so no
/// claim may exceed half the file.
bool checkColladaClaims(std::string_view bytes, MeshError& error) {
  const std::uint64_t most = bytes.size() / 2 + 1;
  const std::string size = std::to_string(bytes.size());
  std::uint64_t claimed = 0;
  if (!eachXmlAttribute(bytes, "count", [&](std::string_view value) {
        claimed = xmlUnsigned(value);
        return claimed <= most;
      })) {
    return fail(error, ErrorCode::FILE_READ,
                "the COLLADA file claims a count of " + std::to_string(claimed) + ", more than its " + size +
                    " bytes can hold");
  }
  // Index lists hold unsigned integers only: Assimp reads a stray character as a huge index and
  // spends seconds and gigabytes on it (fuzz_mesh: a '(' in <p>).
  for (const std::string_view list : {"<p>", "<vcount>", "<v>", "<h>"}) {
    for (std::size_t at = bytes.find(list); at != std::string_view::npos; at = bytes.find(list, at + 1)) {
      const std::size_t start = at + list.size();
      const std::size_t end = std::min(bytes.find('<', start), bytes.size());
      const std::size_t wrong = bytes.substr(start, end - start).find_first_not_of("0123456789 \t\r\n");
      if (wrong != std::string_view::npos) {
        const char c = bytes[start + wrong];
        return fail(error, ErrorCode::FILE_READ,
                    "a COLLADA " + std::string(list) + " index list holds " +
                        (c > 0x20 && c < 0x7f ? "'" + std::string(1, c) + "'"
                                              : "a byte of value " + std::to_string(static_cast<unsigned char>(c))) +
                        " at byte " + std::to_string(start + wrong) + " (expected unsigned integers)");
      }
    }
  }
  struct Primitive {
    std::string_view name;
    std::uint64_t cornersEach;  // 0: the corners are listed in <vcount>
  };
  for (const Primitive primitive : {Primitive{"triangles", 3}, Primitive{"lines", 2}, Primitive{"polylist", 0}}) {
    const std::string open = "<" + std::string(primitive.name);
    const std::string close = "</" + std::string(primitive.name);
    for (std::size_t at = bytes.find(open); at != std::string_view::npos; at = bytes.find(open, at + 1)) {
      const std::size_t tagEnd = bytes.find('>', at);
      if (tagEnd == std::string_view::npos) break;
      const std::size_t bodyEnd = std::min(bytes.find(close, tagEnd), bytes.size());
      const std::string_view body = bytes.substr(tagEnd, bodyEnd - tagEnd);
      std::uint64_t corners = 0;
      if (primitive.cornersEach > 0) {
        std::uint64_t count = 0;
        eachXmlAttribute(bytes.substr(at, tagEnd - at), "count", [&](std::string_view value) {
          count = xmlUnsigned(value);
          return true;
        });
        corners = count * primitive.cornersEach;  // count <= most: no overflow
      } else {
        const std::size_t list = body.find("<vcount>");
        if (list != std::string_view::npos) {
          const std::size_t listEnd = std::min(body.find('<', list + 8), body.size());
          corners = sumOfList(body.substr(list + 8, listEnd - list - 8));
        }
      }
      std::uint64_t stride = 1;
      for (std::size_t input = body.find("<input"); input != std::string_view::npos; input = body.find("<input", input + 1)) {
        const std::size_t inputEnd = std::min(body.find('>', input), body.size());
        eachXmlAttribute(body.substr(input, inputEnd - input), "offset", [&](std::string_view value) {
          const std::uint64_t offset = xmlUnsigned(value);
          stride = std::max(stride, offset >= most ? most : offset + 1);
          return true;
        });
      }
      if (corners > most || (corners > 0 && stride > most / corners)) {
        return fail(error, ErrorCode::FILE_READ,
                    "a COLLADA <" + std::string(primitive.name) + "> claims " + std::to_string(corners) +
                        " corners of " + std::to_string(stride) + " indices each, more than the " + size +
                        " bytes of the file can hold");
      }
    }
  }
  return true;
}

struct JsonDeleter {
  void operator()(json_t* value) const { json_decref(value); }
};
using JsonPointer = std::unique_ptr<json_t, JsonDeleter>;

std::uint64_t integerOr(const json_t* object, const char* key, std::uint64_t fallback) {
  const json_t* value = json_object_get(object, key);
  return json_is_integer(value) && json_integer_value(value) >= 0 ? static_cast<std::uint64_t>(json_integer_value(value))
                                                                  : fallback;
}

/// glTF: Assimp decodes each mesh primitive into a mesh of its own, copying every accessor it names
/// (attributes, indices, morph targets), so one accessor named by many primitives multiplies. The
/// bytes all primitives name together may be at most four times the per-mesh limit (a vertex's
/// position, normal, texture coordinates and colour each come from an accessor).
bool checkGltfPrimitives(const json_t* meshes, const std::vector<std::uint64_t>& accessorBytes, const MeshLimits& limits,
                         MeshError& error) {
  const std::uint64_t most = limits.maxDecodedBytesPerMesh > UINT64_MAX / 4 ? UINT64_MAX : 4 * limits.maxDecodedBytesPerMesh;
  std::uint64_t named = 0;
  const auto add = [&](const json_t* index) {
    if (!json_is_integer(index) || json_integer_value(index) < 0) return;
    const auto a = static_cast<std::uint64_t>(json_integer_value(index));
    if (a < accessorBytes.size()) named = std::min(most + 1, named + accessorBytes[a]);
  };
  const auto addAll = [&](const json_t* attributes) {
    const char* key;
    json_t* value;
    json_object_foreach(const_cast<json_t*>(attributes), key, value) add(value);
  };
  for (std::size_t m = 0; json_is_array(meshes) && m < json_array_size(meshes); ++m) {
    const json_t* primitives = json_object_get(json_array_get(meshes, m), "primitives");
    for (std::size_t p = 0; json_is_array(primitives) && p < json_array_size(primitives); ++p) {
      const json_t* primitive = json_array_get(primitives, p);
      addAll(json_object_get(primitive, "attributes"));
      add(json_object_get(primitive, "indices"));
      const json_t* targets = json_object_get(primitive, "targets");
      for (std::size_t t = 0; json_is_array(targets) && t < json_array_size(targets); ++t) addAll(json_array_get(targets, t));
      if (named > most) {
        return fail(error, ErrorCode::MESH_LIMIT,
                    "the glTF mesh primitives name more accessor data together than LoadOptions::meshLimits."
                    "maxDecodedBytesPerMesh allows (an accessor named by many primitives is decoded for each)");
      }
    }
  }
  return true;
}

/// glTF: node children form a forest (each node one parent, no cycle) no deeper than the limit;
/// each buffer's byteLength is there (GLB chunk, data URI, file size) and each accessor fits its
/// buffer view (or, sparse without one, the decoded-size limit).
bool checkGltfJson(std::string_view json, const std::string& path, std::uint64_t binaryChunk, const MeshLimits& limits,
                   MeshError& error) {
  if (jsonDepth(json) > limits.maxNodeDepth) {
    return fail(error, ErrorCode::MESH_LIMIT, "the glTF JSON nests deeper than " + std::to_string(limits.maxNodeDepth) +
                                                  " levels (LoadOptions::meshLimits.maxNodeDepth)");
  }
  json_error_t parseError;
  JsonPointer root(json_loadb(json.data(), json.size(), 0, &parseError));
  if (!root || !json_is_object(root.get())) {
    return fail(error, ErrorCode::FILE_READ, std::string("the glTF JSON is not valid: line ") +
                                                 std::to_string(parseError.line) + ": " + parseError.text);
  }
  const json_t* nodes = json_object_get(root.get(), "nodes");
  const std::size_t nodeCount = json_is_array(nodes) ? json_array_size(nodes) : 0;
  std::vector<std::size_t> parent(nodeCount, SIZE_MAX);
  for (std::size_t n = 0; n < nodeCount; ++n) {
    const json_t* children = json_object_get(json_array_get(nodes, n), "children");
    for (std::size_t c = 0; json_is_array(children) && c < json_array_size(children); ++c) {
      const json_t* child = json_array_get(children, c);
      const json_int_t index = json_is_integer(child) ? json_integer_value(child) : -1;
      if (index < 0 || static_cast<std::size_t>(index) >= nodeCount) {
        return fail(error, ErrorCode::FILE_READ, "glTF node " + std::to_string(n) + " names a child that does not exist");
      }
      if (parent[static_cast<std::size_t>(index)] != SIZE_MAX || static_cast<std::size_t>(index) == n) {
        return fail(error, ErrorCode::FILE_READ, "glTF node " + std::to_string(index) +
                                                     " has two parents or is its own child (the nodes must form trees)");
      }
      parent[static_cast<std::size_t>(index)] = n;
    }
  }
  // Depth of each node by walking up (memoised); a walk longer than the node count is a cycle.
  std::vector<std::uint32_t> depth(nodeCount, 0);
  for (std::size_t n = 0; n < nodeCount; ++n) {
    std::vector<std::size_t> chain;
    std::size_t at = n;
    while (at != SIZE_MAX && depth[at] == 0) {
      chain.push_back(at);
      if (chain.size() > nodeCount) return fail(error, ErrorCode::FILE_READ, "glTF nodes form a cycle");
      at = parent[at];
    }
    std::uint32_t d = at == SIZE_MAX ? 0 : depth[at];
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) depth[*it] = ++d;
    if (d > limits.maxNodeDepth) {
      return fail(error, ErrorCode::MESH_LIMIT, "glTF nodes nest deeper than " + std::to_string(limits.maxNodeDepth) +
                                                    " levels (LoadOptions::meshLimits.maxNodeDepth)");
    }
  }
  const json_t* buffers = json_object_get(root.get(), "buffers");
  std::vector<std::uint64_t> bufferBytes;
  for (std::size_t b = 0; json_is_array(buffers) && b < json_array_size(buffers); ++b) {
    const json_t* buffer = json_array_get(buffers, b);
    const std::uint64_t claimed = integerOr(buffer, "byteLength", 0);
    const json_t* uri = json_object_get(buffer, "uri");
    std::uint64_t available = 0;
    if (!json_is_string(uri)) {
      available = b == 0 ? binaryChunk : 0;
    } else if (std::strncmp(json_string_value(uri), "data:", 5) == 0) {
      available = json_string_length(uri) / 4 * 3 + 3;
    } else {
      struct stat status {};
      const std::string file = (std::filesystem::path(path).parent_path() / json_string_value(uri)).string();
      available = ::stat(file.c_str(), &status) == 0 ? static_cast<std::uint64_t>(status.st_size) : 0;
    }
    if (claimed > available) {
      return fail(error, ErrorCode::FILE_READ, "glTF buffer " + std::to_string(b) + " claims " + std::to_string(claimed) +
                                                   " bytes, but only " + std::to_string(available) + " are there");
    }
    bufferBytes.push_back(claimed);
  }
  const json_t* views = json_object_get(root.get(), "bufferViews");
  const json_t* accessors = json_object_get(root.get(), "accessors");
  std::vector<std::uint64_t> accessorBytes(json_is_array(accessors) ? json_array_size(accessors) : 0, 0);
  for (std::size_t a = 0; json_is_array(accessors) && a < json_array_size(accessors); ++a) {
    const json_t* accessor = json_array_get(accessors, a);
    const std::uint64_t count = integerOr(accessor, "count", 0);
    const std::uint64_t component = integerOr(accessor, "componentType", 5126) <= 5121 ? 1
                                    : integerOr(accessor, "componentType", 5126) <= 5123 ? 2 : 4;
    const json_t* typeValue = json_object_get(accessor, "type");
    const std::string type = json_is_string(typeValue) ? json_string_value(typeValue) : "SCALAR";
    const std::uint64_t components = type == "VEC2" ? 2 : type == "VEC3" ? 3 : type == "VEC4" || type == "MAT2" ? 4
                                     : type == "MAT3" ? 9 : type == "MAT4" ? 16 : 1;
    if (count > (limits.maxDecodedBytesPerMesh / (component * components)) + 1) {
      return fail(error, ErrorCode::MESH_LIMIT, "glTF accessor " + std::to_string(a) + " claims " + std::to_string(count) +
                                                    " elements, more than LoadOptions::meshLimits.maxDecodedBytesPerMesh");
    }
    accessorBytes[a] = count * component * components;
    const json_t* viewIndex = json_object_get(accessor, "bufferView");
    if (!json_is_integer(viewIndex)) continue;
    const json_t* view = json_array_get(views, static_cast<std::size_t>(json_integer_value(viewIndex)));
    const std::uint64_t viewBytes = integerOr(view, "byteLength", 0);
    const std::uint64_t stride = std::max(integerOr(view, "byteStride", 0), component * components);
    if (count > 0 && (count - 1) * stride + component * components > viewBytes) {
      return fail(error, ErrorCode::FILE_READ, "glTF accessor " + std::to_string(a) + " claims " + std::to_string(count) +
                                                   " elements, more than its buffer view's " + std::to_string(viewBytes) +
                                                   " bytes hold");
    }
  }
  return checkGltfPrimitives(json_object_get(root.get(), "meshes"), accessorBytes, limits, error);
}

bool checkGlb(std::string_view bytes, const std::string& path, const MeshLimits& limits, MeshError& error) {
  if (bytes.size() < 20 || bytes.substr(0, 4) != "glTF") {
    return fail(error, ErrorCode::FILE_READ, "not a binary glTF file (no 'glTF' header)");
  }
  std::uint32_t jsonLength = 0, jsonType = 0;
  std::memcpy(&jsonLength, bytes.data() + 12, 4);
  std::memcpy(&jsonType, bytes.data() + 16, 4);
  if (jsonType != 0x4E4F534Au || 20ull + jsonLength > bytes.size()) {
    return fail(error, ErrorCode::FILE_READ, "the binary glTF's JSON chunk is missing or longer than the file");
  }
  std::uint64_t binary = 0;
  const std::uint64_t binaryHeader = 20ull + jsonLength;
  if (binaryHeader + 8 <= bytes.size()) {
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + binaryHeader, 4);
    binary = std::min<std::uint64_t>(length, bytes.size() - binaryHeader - 8);
  }
  return checkGltfJson(bytes.substr(20, jsonLength), path, binary, limits, error);
}

}  // namespace

std::size_t xmlDepth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '<') continue;
    if (text.compare(i, 4, "<!--") == 0) {
      i = text.find("-->", i);
    } else if (text.compare(i, 9, "<![CDATA[") == 0) {
      i = text.find("]]>", i);
    } else if (i + 1 < text.size() && (text[i + 1] == '?' || text[i + 1] == '!')) {
      i = text.find('>', i);
    } else if (i + 1 < text.size() && text[i + 1] == '/') {
      if (depth > 0) --depth;
      i = text.find('>', i);
    } else {
      // An opening tag: to its end, past quoted attribute values; "/>" closes it at once.
      char quote = 0;
      std::size_t j = i + 1;
      for (; j < text.size(); ++j) {
        if (quote) {
          if (text[j] == quote) quote = 0;
        } else if (text[j] == '"' || text[j] == '\'') {
          quote = text[j];
        } else if (text[j] == '>') {
          break;
        }
      }
      if (j >= text.size()) break;
      if (text[j - 1] != '/') {
        deepest = std::max(deepest, ++depth);
      } else {
        deepest = std::max(deepest, depth + 1);  // an empty element is a level too
      }
      i = j;
    }
    if (i == std::string_view::npos) break;
  }
  return deepest;
}

std::size_t jsonDepth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

bool precheckMesh(MeshFormat format, const std::string& path, std::string_view bytes, const MeshLimits& limits,
                  MeshError& error) {
  switch (format) {
    case MeshFormat::Ply:
      return checkPlyFile(bytes, error);
    case MeshFormat::Collada:
      if (xmlDepth(bytes) > limits.maxNodeDepth) {
        return fail(error, ErrorCode::MESH_LIMIT, "the COLLADA file nests elements deeper than " +
                                                      std::to_string(limits.maxNodeDepth) +
                                                      " levels (LoadOptions::meshLimits.maxNodeDepth)");
      }
      return checkColladaClaims(bytes, error);
    case MeshFormat::Gltf:
      return checkGltfJson(bytes, path, 0, limits, error);
    case MeshFormat::GltfBinary:
      return checkGlb(bytes, path, limits, error);
    default:
      return true;
  }
}

}  // namespace interlink::mesh::detail
