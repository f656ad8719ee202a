#pragma once
// Public MJCF models are kept as XML only (tests/data/*/README.md): before a test loads one, every
// mesh and texture file it names is written as a small placeholder of the same name (a skewed box
// sized from the file's name, binary STL or OBJ after its extension; a 1x1 PNG per texture).
// Frames do not depend on mesh shapes; where a mass comes from a mesh, MuJoCo and Interlink weigh
// the same placeholder.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "MeshFiles.hpp"

namespace interlink::test {

/// The smallest valid PNG (one transparent RGBA pixel): MuJoCo decodes every texture it names.
inline void writePng(const std::string& path) {
  static const unsigned char png[] = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
      0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00,
      0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01,
      0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png), sizeof png);
}

/// A placeholder mesh of a few centimetres whose proportions and skew follow its file name, so
/// that different parts weigh differently and have distinct principal axes.
inline TriangleMesh placeholderMesh(const std::string& name) {
  unsigned h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  const Vector3 half(0.01 + 0.002 * (h % 7), 0.012 + 0.002 * ((h / 7) % 5), 0.015 + 0.003 * ((h / 35) % 4));
  return skewedBox(half, 0.002 + 0.001 * ((h / 140) % 3));
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Writes a placeholder for every mesh, texture and heightfield file that the MJCF files
/// `xmlFiles` name, resolved as MuJoCo resolves them: against the directory of `mainFile` and its
/// <compiler meshdir texturedir>. Returns how many files it wrote.
inline int writePlaceholders(const std::filesystem::path& mainFile, const std::vector<std::filesystem::path>& xmlFiles) {
  namespace fs = std::filesystem;
  const std::string main = readText(mainFile.string());
  std::smatch match;
  std::string meshDir, textureDir;
  if (std::regex_search(main, match, std::regex("meshdir=\"([^\"]*)\""))) meshDir = match[1];
  if (std::regex_search(main, match, std::regex("texturedir=\"([^\"]*)\""))) textureDir = match[1];
  const fs::path dir = mainFile.parent_path();
  const std::regex asset("<(mesh|texture|hfield)\\b[^>]*\\bfile=[\"']([^\"']+)[\"']");
  std::set<fs::path> written;
  for (const fs::path& xmlFile : xmlFiles) {
    const std::string text = readText(xmlFile.string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), asset); it != std::sregex_iterator(); ++it) {
      const std::string kind = (*it)[1], file = (*it)[2];
      const fs::path path = (dir / (kind == "texture" ? textureDir : meshDir) / file).lexically_normal();
      if (!written.insert(path).second) continue;
      fs::create_directories(path.parent_path());
      const std::string ext = path.extension().string();
      if (ext == ".png") {
        writePng(path.string());
      } else if (ext == ".obj") {
        writeObj(path.string(), placeholderMesh(file));
      } else {
        writeBinaryStl(path.string(), placeholderMesh(file));
      }
    }
  }
  return static_cast<int>(written.size());
}

}  // namespace interlink::test
