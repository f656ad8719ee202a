#include "MeshFormat.hpp"

#include <cctype>
#include <filesystem>

namespace interlink::mesh::detail {
namespace {

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

std::optional<MeshFormat> formatOf(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".stl") return MeshFormat::Stl;
  if (ext == ".obj") return MeshFormat::Obj;
  if (ext == ".dae") return MeshFormat::Collada;
  if (ext == ".gltf") return MeshFormat::Gltf;
  if (ext == ".glb") return MeshFormat::GltfBinary;
  if (ext == ".ply") return MeshFormat::Ply;
  return std::nullopt;
}

const char* supportedFormats() { return "STL, OBJ, COLLADA (.dae), glTF (.gltf, .glb) and PLY"; }

bool mayOpenAsPart(MeshFormat format, const std::string& path) {
  const std::string ext = lowerExtension(path);
  switch (format) {
    case MeshFormat::Obj: return ext == ".mtl";
    case MeshFormat::Gltf:
    case MeshFormat::GltfBinary: return ext == ".bin";
    default: return false;
  }
}

std::string normalisedPath(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path given(path);
  const std::filesystem::path absolute = given.is_absolute() ? given : std::filesystem::absolute(given, ec);
  return absolute.lexically_normal().string();
}

std::string quotable(const std::string& text) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (out.size() >= 200) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 0xF];
    }
  }
  return out;
}

}  // namespace interlink::mesh::detail
