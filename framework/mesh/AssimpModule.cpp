// Loads the Assimp decoder library (AssimpDecode.hpp) once per process, the first time a mesh
// needs it, from the folder of the core library: <libdir>/interlink/, the same relation in the
// build tree, an install and a wheel.
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <filesystem>

#include "AssimpDecode.hpp"
#include "interlink/io/ModelFile.hpp"

namespace interlink::mesh::detail {
namespace {

struct LoadedDecoder {
  boost::dll::shared_library library;  // kept loaded until the process ends
  const AssimpDecoder* decoder = nullptr;
  std::string problem;  // why there is none
};

LoadedDecoder loadDecoder() {
  LoadedDecoder loaded;
  std::error_code ec;
  // The core library's own file (a function it exports, as this plugin or program calls it).
  const std::filesystem::path core = boost::dll::symbol_location_ptr(&io::readRegularFile, ec);
  if (ec) {
    loaded.problem = "cannot locate the Interlink library: " + ec.message();
    return loaded;
  }
  const std::filesystem::path path = core.parent_path() / "interlink" / "libinterlink_mesh_assimp.so";
  loaded.library.load(path, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local, ec);
  if (!ec && loaded.library.has(kAssimpDecoderEntryPoint)) {
    loaded.decoder = loaded.library.get<const AssimpDecoder*()>(kAssimpDecoderEntryPoint)();
  }
  if (!loaded.decoder) {
    loaded.problem = "cannot load Interlink's mesh decoder '" + path.string() + "'" + (ec ? ": " + ec.message() : "");
  }
  return loaded;
}

const AssimpDecoder* decoder(MeshError& error) {
  static const LoadedDecoder loaded = loadDecoder();  // once, thread-safe
  if (!loaded.decoder) error = {ErrorCode::FILE_READ, loaded.problem};
  return loaded.decoder;
}

}  // namespace

std::optional<MeshPolygons> assimpPolygons(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error) {
  const AssimpDecoder* assimp = decoder(error);
  if (!assimp) return std::nullopt;
  return assimp->polygons(parts, path, format, std::move(bytes), maxDecodedBytes, error);
}

std::optional<MeshInfo> assimpMeasure(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                      std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                      std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error) {
  const AssimpDecoder* assimp = decoder(error);
  if (!assimp) return std::nullopt;
  return assimp->measure(parts, path, format, std::move(bytes), how, maxDecodedBytes, decodedBytes, error);
}

std::optional<std::string> assimpDisplayGlb(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                            std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                            MeshError& error) {
  const AssimpDecoder* assimp = decoder(error);
  if (!assimp) return std::nullopt;
  return assimp->displayGlb(parts, path, format, std::move(bytes), maxDecodedBytes, error);
}

}  // namespace interlink::mesh::detail
