#include "PolygonReaders.hpp"

#include <assimp/fast_atof.h>

#include "interlink/Utf8.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace interlink::mesh::detail {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// The whitespace-separated words of a line, up to a '#'.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    if (i >= line.size() || line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

/// Assimp's IsNumeric (a sign or a digit: ".5" is not a number to it) or nan/inf.
bool looksNumeric(std::string_view word) {
  const char c = word[0];
  if ((c >= '0' && c <= '9') || c == '-' || c == '+') return true;
  const auto lower = [](char x) { return static_cast<char>(x | 0x20); };
  return word.size() >= 3 && ((lower(word[0]) == 'n' && lower(word[1]) == 'a' && lower(word[2]) == 'n') ||
                              (lower(word[0]) == 'i' && lower(word[1]) == 'n' && lower(word[2]) == 'f'));
}

/// What fast_atof throws (Assimp's own DeadlyImportError is not exported by libassimp).
struct NotANumber {
  template <typename... Parts>
  explicit NotANumber(Parts&&...) {}
};

/// A run of decimal digits at `c` read as fast_atof reads it (strtoul10_64): at most `maxDigits`
/// of them (the rest skipped; 0: no bound), in 64 bits; `digits` counts those read. An overflow
/// by its test gives 0 with `c` left where it was, as there (where Assimp also logs a warning).
std::uint64_t digitRun(const char*& c, unsigned maxDigits, unsigned& digits) {
  std::uint64_t value = 0;
  const char* p = c;
  for (digits = 0; *p >= '0' && *p <= '9';) {
    const std::uint64_t next = value * 10 + static_cast<std::uint64_t>(*p - '0');
    if (next < value) return 0;
    value = next;
    ++p;
    if (++digits == maxDigits) {
      while (*p >= '0' && *p <= '9') ++p;
      break;
    }
  }
  c = p;
  return value;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool startsWithNoCase(const char* text, const char* word) {
  for (; *word; ++text, ++word) {
    if ((*text | 0x20) != *word) return false;
  }
  return true;
}

/// A number as Assimp's OBJ importer reads it (fast_atoreal_move<float>, with its table of powers
/// of ten), with the same float for every input; throws NotANumber where Assimp refuses the file.
/// Its own code rather than Assimp's template, which calls Assimp's logger on an overflow: the
/// mesh module does not load libassimp unless a mesh needs Assimp (AssimpDecode.hpp).
float number(std::string_view word) {
  // Assimp copies a word into a 4 KiB buffer before fast_atof.
  char buffer[4096];
  const std::size_t length = std::min(word.size(), sizeof buffer - 1);
  std::memcpy(buffer, word.data(), length);
  buffer[length] = '\0';
  const char* c = buffer;
  const bool negative = *c == '-';
  if (negative || *c == '+') ++c;
  if (startsWithNoCase(c, "nan")) return std::numeric_limits<float>::quiet_NaN();
  if (startsWithNoCase(c, "inf")) return negative ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  if (!isDigit(c[0]) && !((c[0] == '.' || c[0] == ',') && isDigit(c[1]))) throw NotANumber();
  float value = 0;
  unsigned digits = 0;
  if (*c != '.' && *c != ',') value = static_cast<float>(digitRun(c, 0, digits));
  if ((*c == '.' || *c == ',') && isDigit(c[1])) {
    ++c;
    // At most 15 decimals, scaled by the table's power of ten in double precision.
    const double fraction = static_cast<double>(digitRun(c, AI_FAST_ATOF_RELAVANT_DECIMALS, digits));
    value += static_cast<float>(fraction * Assimp::fast_atof_table[digits]);
  } else if (*c == '.') {
    ++c;
  }
  if (*c == 'e' || *c == 'E') {
    ++c;
    const bool negativeExponent = *c == '-';
    if (negativeExponent || *c == '+') ++c;
    if (!isDigit(*c)) throw NotANumber();
    float exponent = static_cast<float>(digitRun(c, 0, digits));
    if (negativeExponent) exponent = -exponent;
    value *= std::pow(10.0f, exponent);
  }
  return negative ? -value : value;
}

struct ObjFace {
  int type;  // 1 point, 2 line, 3 polygon
  std::uint32_t first;  // into ObjState::indices
  std::uint32_t count;
};

struct ObjMesh {
  std::size_t object;
  std::optional<std::string> material;
  std::vector<ObjFace> faces;
};

struct ObjState {
  std::vector<float> positions;
  std::vector<std::uint32_t> indices;  // 0-based vertex indices of every face, in file order
  std::vector<std::string> objects;
  std::vector<ObjMesh> meshes;
  std::optional<std::size_t> currentObject, currentMesh;
  std::optional<std::string> currentMaterial;
  std::string activeGroup;

  void createMesh() {
    meshes.push_back({currentObject.value_or(SIZE_MAX), std::nullopt, {}});
    currentMesh = meshes.size() - 1;
  }
  void createObject(const std::string& name) {
    objects.push_back(name);
    currentObject = objects.size() - 1;
    createMesh();
    if (currentMaterial) meshes[*currentMesh].material = currentMaterial;
  }
};

std::optional<MeshPolygons> readObjLines(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error);

}  // namespace

std::optional<MeshPolygons> readObj(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error) {
  const auto fail = [&](ErrorCode code, std::string message) {
    error = {code, std::move(message)};
    return std::nullopt;
  };
  if (bytes.size() < 16) return fail(ErrorCode::FILE_READ, "OBJ file is too small (Assimp reads 16 bytes at least)");
  bytes.remove_prefix(byteOrderMarkLength(bytes));
  try {
    return readObjLines(bytes, maxDecodedBytes, error);
  } catch (const NotANumber&) {
    return fail(ErrorCode::FILE_READ, "a vertex has a value that is not a number (Assimp refuses the file)");
  }
}

namespace {

std::optional<MeshPolygons> readObjLines(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error) {
  const auto fail = [&](ErrorCode code, std::string message) {
    error = {code, std::move(message)};
    return std::nullopt;
  };
  ObjState obj;
  std::uint64_t decoded = 0;
  std::size_t lineNumber = 0;
  bool insideCstype = false;
  std::string joined;
  for (std::size_t at = 0; at < bytes.size();) {
    std::size_t end = bytes.find('\n', at);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view line = bytes.substr(at, end - at);
    at = end + 1;
    ++lineNumber;
    // A backslash at the end of a line continues it on the next.
    if (!line.empty() && (line.back() == '\\' || (line.size() > 1 && line.back() == '\r' && line[line.size() - 2] == '\\'))) {
      joined.assign(line.substr(0, line.find_last_of('\\')));
      while (at < bytes.size()) {
        std::size_t next = bytes.find('\n', at);
        if (next == std::string_view::npos) next = bytes.size();
        std::string_view more = bytes.substr(at, next - at);
        at = next + 1;
        ++lineNumber;
        const bool continues = !more.empty() && (more.back() == '\\' || (more.size() > 1 && more.back() == '\r' && more[more.size() - 2] == '\\'));
        joined += ' ';
        joined.append(continues ? more.substr(0, more.find_last_of('\\')) : more);
        if (!continues) break;
      }
      line = joined;
    }
    if (line.empty()) continue;
    const auto w = words(line);
    if (insideCstype) {
      if (!w.empty() && w[0] == "end") insideCstype = false;
      continue;
    }
    const std::string where = "line " + std::to_string(lineNumber) + ": ";
    switch (line[0]) {
      case 'v': {
        if (line.size() > 1 && (line[1] == ' ' || line[1] == '\t')) {
          std::size_t components = 0;
          for (std::size_t i = 1; i < w.size() && looksNumeric(w[i]); ++i) ++components;
          // Assimp reads xyz, xyzw (divided by w) and xyz with a colour; other counts are dropped.
          if (components == 3 || components == 6) {
            obj.positions.insert(obj.positions.end(), {number(w[1]), number(w[2]), number(w[3])});
          } else if (components == 4) {
            const float h = number(w[4]);
            if (h == 0) return fail(ErrorCode::FILE_READ, where + "a homogeneous vertex with w = 0");
            obj.positions.insert(obj.positions.end(), {number(w[1]) / h, number(w[2]) / h, number(w[3]) / h});
          }
          decoded += 12;
        } else if (line.size() > 1 && line[1] == 't') {
          std::size_t components = 0;
          for (std::size_t i = 1; i < w.size() && looksNumeric(w[i]); ++i) ++components;
          if (components != 2 && components != 3) {
            return fail(ErrorCode::FILE_READ, where + "a texture coordinate needs 2 or 3 numbers (Assimp refuses the file)");
          }
        }
        break;
      }
      case 'f':
      case 'l':
      case 'p': {
        const int type = line[0] == 'f' ? 3 : line[0] == 'l' ? 2 : 1;
        const std::uint32_t first = static_cast<std::uint32_t>(obj.indices.size());
        const long vertexCount = static_cast<long>(obj.positions.size() / 3);
        for (std::size_t i = 1; i < w.size(); ++i) {
          const std::string_view corner = w[i].substr(0, w[i].find('/'));
          if (corner.empty()) continue;
          const long index = std::strtol(std::string(corner).c_str(), nullptr, 10);
          if (index == 0) return fail(ErrorCode::FILE_READ, where + "a face names vertex 0 or no number (OBJ counts from 1)");
          const long zeroBased = index > 0 ? index - 1 : vertexCount + index;
          if (zeroBased < 0 || zeroBased >= vertexCount) {
            return fail(ErrorCode::FILE_READ, where + "a face names vertex " + std::to_string(index) + " of " +
                                                  std::to_string(vertexCount));
          }
          obj.indices.push_back(static_cast<std::uint32_t>(zeroBased));
        }
        const std::uint32_t count = static_cast<std::uint32_t>(obj.indices.size()) - first;
        if (count == 0) break;
        if (!obj.currentObject) obj.createObject("defaultobject");
        if (!obj.currentMesh) obj.createMesh();
        obj.meshes[*obj.currentMesh].faces.push_back({type, first, count});
        decoded += 16ull * count + 8;  // a vertex and an index per corner, a count per face
        break;
      }
      case 'u': {
        if (w.size() < 2 || w[0] != "usemtl") break;
        const std::string name(w[1]);
        if (obj.currentMaterial && *obj.currentMaterial == name) break;
        obj.currentMaterial = name;
        ObjMesh* mesh = obj.currentMesh ? &obj.meshes[*obj.currentMesh] : nullptr;
        if (!mesh || (mesh->material && *mesh->material != name && !mesh->faces.empty())) {
          obj.createMesh();
          mesh = &obj.meshes[*obj.currentMesh];
        }
        mesh->material = name;
        break;
      }
      case 'g': {
        if (w.size() < 2) break;
        std::string name(w[1]);
        for (std::size_t i = 2; i < w.size(); ++i) name += " " + std::string(w[i]);
        if (name != obj.activeGroup) {
          obj.createObject(name);
          obj.activeGroup = name;
        }
        break;
      }
      case 'o': {
        if (w.size() < 2) break;
        const std::string name(w[1]);
        obj.currentObject.reset();
        for (std::size_t i = 0; i < obj.objects.size(); ++i) {
          if (obj.objects[i] == name) {
            obj.currentObject = i;
            break;
          }
        }
        if (!obj.currentObject) obj.createObject(name);
        break;
      }
      case 'c':
        insideCstype = !w.empty() && w[0] == "cstype";
        break;
      default:
        break;  // comments, mtllib (never opened: only the geometry is read), s, vn, vp, ...
    }
    if (decoded > maxDecodedBytes) {
      return fail(ErrorCode::MESH_LIMIT, "the OBJ file decodes to more than " + std::to_string(maxDecodedBytes) +
                                              " bytes (LoadOptions::meshLimits)");
    }
  }

  // Assimp's output: objects in order, each object's meshes in order, one vertex per corner;
  // lines become segments, points single corners. A file without faces is a point cloud.
  MeshPolygons out;
  if (obj.objects.empty()) {
    out.vertices = std::move(obj.positions);
    return out;
  }
  const auto addCorner = [&](std::uint32_t index) {
    out.corners.push_back(static_cast<std::uint32_t>(out.vertices.size() / 3));
    out.vertices.insert(out.vertices.end(), obj.positions.begin() + 3 * index, obj.positions.begin() + 3 * index + 3);
  };
  for (std::size_t o = 0; o < obj.objects.size(); ++o) {
    for (const ObjMesh& mesh : obj.meshes) {
      if (mesh.object != o) continue;
      for (const ObjFace& face : mesh.faces) {
        const std::uint32_t* index = obj.indices.data() + face.first;
        if (face.type == 3) {
          out.cornerCounts.push_back(face.count);
          for (std::uint32_t k = 0; k < face.count; ++k) addCorner(index[k]);
        } else if (face.type == 2) {
          // Assimp's layout: the first corner once, each middle corner twice (the start of the next
          // segment, then the end of the one before), the last once.
          if (face.count < 2) continue;
          const auto base = static_cast<std::uint32_t>(out.vertices.size() / 3);
          addCorner(index[0]);
          for (std::uint32_t k = 1; k + 1 < face.count; ++k) {
            addCorner(index[k]);
            addCorner(index[k]);
          }
          addCorner(index[face.count - 1]);
          out.corners.resize(out.corners.size() - (2 * face.count - 2));
          for (std::uint32_t segment = 0; segment + 1 < face.count; ++segment) {
            out.cornerCounts.push_back(2);
            out.corners.push_back(base + (segment == 0 ? 0 : 2 * segment - 1));
            out.corners.push_back(base + (segment + 2 == face.count ? 2 * face.count - 3 : 2 * segment + 2));
          }
        } else {
          for (std::uint32_t k = 0; k < face.count; ++k) {
            out.cornerCounts.push_back(1);
            addCorner(index[k]);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace

std::optional<MeshPolygons> readBinaryStl(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error) {
  if (bytes.size() < 84) return std::nullopt;
  std::uint32_t count;
  std::memcpy(&count, bytes.data() + 80, sizeof count);
  if (bytes.size() != 84 + 50ull * count) return std::nullopt;
  if (count == 0) {
    error = {ErrorCode::FILE_READ, "the STL file has no triangles"};
    return std::nullopt;
  }
  if (48ull * count > maxDecodedBytes) {
    error = {ErrorCode::MESH_LIMIT, "the STL file decodes to more than " + std::to_string(maxDecodedBytes) +
                                        " bytes (LoadOptions::meshLimits)"};
    return std::nullopt;
  }
  MeshPolygons out;
  out.vertices.resize(9ull * count);
  out.cornerCounts.assign(count, 3);
  out.corners.resize(3ull * count);
  for (std::uint32_t t = 0; t < count; ++t) {
    std::memcpy(out.vertices.data() + 9ull * t, bytes.data() + 84 + 50ull * t + 12, 36);
    for (std::uint32_t k = 0; k < 3; ++k) out.corners[3ull * t + k] = 3 * t + k;
  }
  return out;
}

}  // namespace interlink::mesh::detail
