// The xacro format plugin: a macro language over URDF. It expands the file (XacroExpander) and
// hands the URDF, as text or (when the host needs no text) as its XML tree, with the map back to
// the xacro sources, to the loader, which has the URDF plugin read it (FormatApi::expand,
// docs/plugin-guide.md).
#include <algorithm>
#include <cstring>

#include "XacroExpander.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void expandXacroFile(const interlink::plugin::LoadRequest& request, interlink::plugin::ExpandedDocument& expanded,
                     interlink::Diagnostics& diagnostics) {
  static const std::vector<std::pair<std::string, std::string>> kNoArguments;
  const auto* host = request.host;
  const bool hasArguments =
      interlink::plugin::hostHas(host, offsetof(interlink::plugin::HostServices, arguments)) && host->arguments;
  interlink::xacro::Expansion expansion =
      interlink::xacro::expandXacro(request.path, request.content, host, hasArguments ? *host->arguments : kNoArguments,
                                    diagnostics);
  if (!expansion.root) return;
  const interlink::xacro::OutElement& root = *expansion.root;
  const bool robot = root.name == "robot";
  const bool hasLink = std::any_of(root.children.begin(), root.children.end(),
                                   [](const interlink::xacro::OutElement& child) { return !child.comment && child.name == "link"; });
  // Kept comments and text are not content.
  const auto firstElement = std::find_if(root.children.begin(), root.children.end(),
                                         [](const interlink::xacro::OutElement& child) { return !child.comment && !child.textNode; });
  if (firstElement == root.children.end() || (robot && !hasLink)) {
    // A library of macros and properties, or a fragment (a ROS package's `robot.gazebo.xacro` of
    // <gazebo> elements) that other xacro files include: valid xacro with nothing to load, so a
    // note naming it as xacro rather than "a robot without links", and not a warning (`check DIR
    // --werror` walks such files too). Not said when errors emptied it: they say why.
    if (!diagnostics.hasErrors()) {
      const std::string what = firstElement == root.children.end()
                                   ? "a library of macros and properties"
                                   : "a fragment without a <link> (<" + firstElement->name + ">, ...)";
      diagnostics.add(interlink::Diagnostic{interlink::Severity::Note, interlink::ErrorCode::EXPANSION_ERROR,
                                            "xacro file: it expands to " + what +
                                                " for other xacro files to include; nothing to load on its own",
                                            root.where});
    }
    return;
  }
  expanded.extension = ".urdf";
  expanded.steps = std::move(expansion.steps);
  if (!expanded.textWanted) {
    // Nobody needs the text: the URDF plugin takes the tree, neither written nor parsed.
    auto tree = std::make_shared<interlink::xml::XmlElement>();
    if (interlink::xacro::expansionTree(expansion, request.path, *tree, expanded.origins)) {
      expanded.tree = std::move(tree);
      return;
    }
  }
  expanded.content = interlink::xacro::writeExpansion(expansion, expanded.origins);
}

/// Certain with xacro's namespace or elements in the head; a `.xacro` without them is still
/// possibly xacro (a plain URDF renamed); anything else is not ours.
int sniffXacro(const char* path, const char* head, std::size_t size) {
  const std::string_view text(head, size);
  if (text.find("xmlns:xacro") != std::string_view::npos || text.find("<xacro:") != std::string_view::npos) return 90;
  const std::string_view name(path ? path : "");
  return name.size() >= 6 && name.substr(name.size() - 6) == ".xacro" ? 10 : 0;
}

}  // namespace

INTERLINK_REGISTER_EXPANDING_FORMAT_PLUGIN("xacro", "1.0.0", expandXacroFile, sniffXacro, ".xacro")
