#include "check/MeshCheck.hpp"

namespace interlink::detail {
namespace {

/// What was searched for a URI and what to set, in the words of its scheme.
std::string whereSearched(const std::string& uri, const UriLookup& lookup) {
  if (uri.rfind("package://", 0) == 0) {
    if (!lookup.packageDirectory.empty()) {
      return ": " + describeMissingFromPackage(uri, lookup.packageDirectory) +
             " (a misspelt file name, or meshes that were not installed with the package?)";
    }
    return " in ROS_PACKAGE_PATH, AMENT_PREFIX_PATH or the resource paths (set ROS_PACKAGE_PATH to the directory "
           "holding the package, or add it to the resource paths)";
  }
  if (uri.rfind("model://", 0) == 0) {
    return " in the resource paths (LoadOptions::resourcePaths, INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH)";
  }
  return " beside the file or in the resource paths (LoadOptions::resourcePaths, INTERLINK_RESOURCE_PATH)";
}

bool isRemote(const std::string& uri) { return uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0; }

void checkShape(Shape& shape, const Link& link, const std::string& file, const FormatRules& rules,
                const MeshLookup& lookup, Diagnostics& diagnostics) {
  Geometry& geometry = shape.geometry;
  if (geometry.type != GeometryType::Mesh || geometry.meshUri.empty() || isRemote(geometry.meshUri)) return;
  const SourceLocation& where = shape.where.line > 0 ? shape.where : link.where;
  if (geometry.meshResolvedPath.empty() && rules.readerReportsMissingMeshes) return;
  if (geometry.meshResolvedPath.empty()) {
    const UriLookup& found = lookup.resolve(geometry.meshUri, file);
    if (found.path.empty()) {
      diagnostics.warning(ErrorCode::URI_LOOKUP,
                          "mesh '" + geometry.meshUri + "' was not found" + whereSearched(geometry.meshUri, found), where,
                          geometry.meshUri);
      return;
    }
    geometry.meshResolvedPath = found.path;
  }
  if (std::string why = lookup.refusal ? lookup.refusal(geometry.meshResolvedPath) : std::string(); !why.empty()) {
    // Kinematics never needs a mesh's content: a refused mesh is a warning, as a missing one is.
    diagnostics.warning(ErrorCode::PATH_OUTSIDE_ROOTS, "mesh '" + geometry.meshUri + "' not read: " + why, where,
                        geometry.meshUri);
    geometry.meshResolvedPath.clear();
    geometry.mesh.reset();
  }
}

void checkModel(Model& model, const Document& document, const MeshLookup& lookup, Diagnostics& diagnostics) {
  const std::string& file = model.source.file.empty() ? document.sourceFile : model.source.file;
  // The plugin's policy (FormatRules::readerReportsMissingMeshes): MuJoCo refuses a missing mesh
  // asset whose directory only the MJCF reader knows, so that reader reports it itself.
  const FormatRules& rules = model.source.format.empty() ? document.rules : model.source.rules;
  for (Link& link : model.links) {
    for (auto* shapes : {&link.visuals, &link.collisions}) {
      for (Shape& shape : *shapes) checkShape(shape, link, file, rules, lookup, diagnostics);
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
