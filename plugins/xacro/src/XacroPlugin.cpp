// The xacro format plugin: a macro language over URDF. It expands the file (XacroExpander) and
// hands the URDF text, with the map back to the xacro sources, to the loader, which has the URDF
// plugin read it (FormatApi::expand, docs/plugin-guide.md).
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
  const auto& children = expansion.root->children;
  if (std::none_of(children.begin(), children.end(), [](const interlink::xacro::OutElement& e) { return !e.comment; })) {
    // A library of macros and properties that other xacro files include: nothing to load, and
    // not an error (`interlink check DIR` walks such files too).
    diagnostics.warning(interlink::ErrorCode::EXPANSION_ERROR,
                        "the file expands to an empty <" + expansion.root->name +
                            ">: a library of macros and properties for other xacro files; nothing to load",
                        expansion.root->where);
    return;
  }
  expanded.extension = ".urdf";
  expanded.content = interlink::xacro::writeExpansion(expansion, expanded.origins);
  expanded.steps = std::move(expansion.steps);
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
