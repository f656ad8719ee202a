#include "check/MeshCheck.hpp"

namespace interlink::detail {
namespace {

/// MuJoCo refuses a model whose mesh asset is missing, and the asset's directory comes from
/// <compiler meshdir>: the MJCF reader reports it, as an error, at the asset.
bool readerReportsMissingMeshes(const std::string& format) { return format == "mjcf"; }

/// What was searched for a URI and what to set, in the words of its scheme.
std::string whereSearched(const std::string& uri) {
  if (uri.rfind("package://", 0) == 0) {
    return " in ROS_PACKAGE_PATH, AMENT_PREFIX_PATH or an -I directory (set ROS_PACKAGE_PATH to the directory "
           "holding the package, or add it with -I DIR)";
  }
  if (uri.rfind("model://", 0) == 0) {
    return " in the resource paths (-I DIR, INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH)";
  }
  return " beside the file or in the resource paths (-I DIR, INTERLINK_RESOURCE_PATH)";
}

bool isRemote(const std::string& uri) { return uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0; }

void checkShape(Shape& shape, const Link& link, const std::string& file, const std::string& format,
                const MeshLookup& lookup, Diagnostics& diagnostics) {
  Geometry& geometry = shape.geometry;
  if (geometry.type != GeometryType::Mesh || geometry.meshUri.empty() || isRemote(geometry.meshUri)) return;
  const SourceLocation& where = shape.where.line > 0 ? shape.where : link.where;
  if (geometry.meshResolvedPath.empty() && readerReportsMissingMeshes(format)) return;
  if (geometry.meshResolvedPath.empty()) geometry.meshResolvedPath = lookup.resolve(geometry.meshUri, file);
  if (geometry.meshResolvedPath.empty()) {
    diagnostics.warning(ErrorCode::URI_LOOKUP, "mesh '" + geometry.meshUri + "' was not found" + whereSearched(geometry.meshUri),
                        where);
    return;
  }
  if (std::string why = lookup.refusal ? lookup.refusal(geometry.meshResolvedPath) : std::string(); !why.empty()) {
    // Kinematics never needs a mesh's content: a refused mesh is a warning, as a missing one is.
    diagnostics.warning(ErrorCode::PATH_OUTSIDE_ROOTS, "mesh '" + geometry.meshUri + "' not read: " + why, where);
    geometry.meshResolvedPath.clear();
    geometry.mesh.reset();
  }
}

void checkModel(Model& model, const Document& document, const MeshLookup& lookup, Diagnostics& diagnostics) {
  const std::string& file = model.source.file.empty() ? document.sourceFile : model.source.file;
  const std::string& format = model.source.format.empty() ? document.format : model.source.format;
  for (Link& link : model.links) {
    for (auto* shapes : {&link.visuals, &link.collisions}) {
      for (Shape& shape : *shapes) checkShape(shape, link, file, format, lookup, diagnostics);
    }
  }
  for (Model& nested : model.models) checkModel(nested, document, lookup, diagnostics);
}

}  // namespace

void resolveMeshes(Document& document, const MeshLookup& lookup, Diagnostics& diagnostics) {
  if (document.model) checkModel(*document.model, document, lookup, diagnostics);
  for (World& world : document.worlds) {
    for (Model& model : world.models) checkModel(model, document, lookup, diagnostics);
  }
}

}  // namespace interlink::detail
