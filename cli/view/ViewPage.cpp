#include "view/ViewPage.hpp"

#include <zlib.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <unordered_map>

#include "interlink/io/ModelFile.hpp"
#include "MeshReader.hpp"
#include "interlink/xml/XmlEscape.hpp"
#include "view/Scene.hpp"
#include "view/ViewAssets.hpp"

namespace interlink::cli::view {

namespace {

constexpr std::uint64_t kMaxMeshBytes = std::uint64_t{256} << 20;

std::string base64(const std::string& bytes) {
  static const char* const kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (two ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0u);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += two ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// zlib-deflated bytes (the page inflates them with the browser's DecompressionStream).
std::string deflated(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(bytes.data()),
                static_cast<uLong>(bytes.size()), 9) != Z_OK) {
    return {};
  }
  out.resize(size);
  return out;
}

/// The document around the viewer: `data` are the <script> elements that give it its scene.
std::string page(const std::string& title, const std::string& data) {
  std::string html;
  html.reserve(2 << 20);
  html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
          "style-src 'unsafe-inline'; img-src data: blob:; connect-src 'self' data: blob:\">\n";
  html += "<title>" + xml::escapedXml(title, true) + " - interlink view</title>\n<style>\n";
  html += assetText(Asset::ViewerCss);
  html += "</style></head>\n<body>\n";
  html += "<!-- three.js r111 with its GLTFLoader and OrbitControls, from Debian's libjs-three: MIT licence (Expat),\n"
          "     Copyright (c) 2010-2019 three.js authors, https://github.com/mrdoob/three.js/blob/r111/LICENSE -->\n";
  html += "<script>\n" + assetText(Asset::ThreeJs) + "\n</script>\n";
  html += "<script>\n" + assetText(Asset::OrbitControlsJs) + "\n</script>\n";
  html += "<script>\n" + assetText(Asset::GltfLoaderJs) + "\n</script>\n";
  html += data;
  html += "<script>\n" + assetText(Asset::ViewerJs) + "\n</script>\n";
  html += "</body></html>\n";
  return html;
}

}  // namespace

MeshBlobs readMeshes(const std::vector<std::string>& paths) {
  MeshBlobs blobs;
  // Every mesh through the framework's mesh module: its file checks and limits, and Assimp in a
  // process of its own (docs/hostile-input.md).
  mesh::MeshReader reader(nullptr);
  std::unordered_map<std::size_t, std::vector<std::pair<std::string, int>>> byHash;  // content hash -> (content, blob)
  for (const std::string& path : paths) {
    Diagnostics reading;
    auto bytes = io::readRegularFile(path, kMaxMeshBytes, SourceLocation{}, reading);
    if (!bytes) {
      blobs.diagnostics.append(reading);
      continue;
    }
    // The extension is part of the content: the same bytes mean another mesh as .dae and as .stl.
    const std::string key = path.substr(path.rfind('.') == std::string::npos ? path.size() : path.rfind('.')) + '\n' + *bytes;
    auto& sameHash = byHash[std::hash<std::string>{}(key)];
    auto same = std::find_if(sameHash.begin(), sameHash.end(), [&](const auto& entry) { return entry.first == key; });
    if (same != sameHash.end()) {
      blobs.indexOfPath[path] = same->second;
      continue;
    }
    mesh::MeshError error;
    auto glb = reader.displayGlb(path, error);
    if (!glb) {
      blobs.diagnostics.warning(error.code == ErrorCode::NONE ? ErrorCode::FILE_READ : error.code,
                                "mesh could not be read for drawing: " + error.message, SourceLocation{path, 0, 0});
      continue;
    }
    const int index = static_cast<int>(blobs.glb.size());
    blobs.glb.push_back(std::move(*glb));
    blobs.indexOfPath[path] = index;
    sameHash.emplace_back(key, index);
  }
  return blobs;
}

ViewScene buildViewScene(const LoadResult& loaded, const std::string& title) {
  ViewScene scene;
  scene.meshes = readMeshes(meshPaths(loaded));
  scene.json = sceneJson(loaded, title, scene.meshes.indexOfPath, scene.meshes.diagnostics);
  return scene;
}

std::string selfContainedPage(const ViewScene& scene, const std::string& title) {
  std::string data = "<script type=\"application/json\" id=\"interlink-scene\">" + scene.json + "</script>\n";
  data += "<script type=\"application/json\" id=\"interlink-meshes\">[";
  for (std::size_t i = 0; i < scene.meshes.glb.size(); ++i) {
    data += (i ? ",\"" : "\"") + base64(deflated(scene.meshes.glb[i])) + "\"";
  }
  data += "]</script>\n";
  return page(title, data);
}

std::string livePage(const std::string& title) {
  return page(title, "<script>window.INTERLINK_LIVE = true;</script>\n");
}

}  // namespace interlink::cli::view
