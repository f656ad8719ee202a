#include "check/MeshCheck.hpp"

namespace interlink::detail {
namespace {

bool readerLooksMeshesUp(const std::string& format) { return format != "sdformat"; }

bool isRemote(const std::string& uri) { return uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0; }

void resolveModel(Model& model, const std::string& documentFormat, const std::string& documentFile,
                  const std::function<std::string(const std::string&, const std::string&)>& resolve,
                  Diagnostics& diagnostics) {
  const std::string& format = model.source.format.empty() ? documentFormat : model.source.format;
  const std::string& file = model.source.file.empty() ? documentFile : model.source.file;
  if (!readerLooksMeshesUp(format)) {
    for (Link& link : model.links) {
      for (auto* shapes : {&link.visuals, &link.collisions}) {
        for (Shape& shape : *shapes) {
          Geometry& geometry = shape.geometry;
          if (geometry.type != GeometryType::Mesh || geometry.meshUri.empty() || !geometry.meshResolvedPath.empty() ||
              isRemote(geometry.meshUri)) {
            continue;
          }
          geometry.meshResolvedPath = resolve(geometry.meshUri, file);
          if (geometry.meshResolvedPath.empty()) {
            diagnostics.warning(ErrorCode::URI_LOOKUP,
                                "mesh '" + geometry.meshUri +
                                    "' was not found (package:// and model:// are searched in -I directories and "
                                    "INTERLINK_RESOURCE_PATH)",
                                shape.where.line > 0 ? shape.where : link.where);
          }
        }
      }
    }
  }
  for (Model& nested : model.models) resolveModel(nested, documentFormat, documentFile, resolve, diagnostics);
}

}  // namespace

void resolveMeshes(Document& document, const std::function<std::string(const std::string&, const std::string&)>& resolve,
                   Diagnostics& diagnostics) {
  if (document.model) resolveModel(*document.model, document.format, document.sourceFile, resolve, diagnostics);
  for (World& world : document.worlds) {
    for (Model& model : world.models) resolveModel(model, document.format, document.sourceFile, resolve, diagnostics);
  }
}

}  // namespace interlink::detail
