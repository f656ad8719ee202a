#pragma once
// A macro language's file (xacro) read in two steps: its plugin expands it into a document of
// another format, that format's plugin reads the text, and every finding and model location is
// mapped back to the macro-language source with its macro/include chain as notes.
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::detail {

struct ExpansionResult {
  PluginHandle reader;  // the plugin that read the expanded text; empty when nothing was read
  std::string text;     // the expanded document
  std::string extension;
};

/// Expands `request` with `expander` and has the plugin of the expansion's format read it into
/// `document`. `request.path` stays the macro-language file (relative URIs resolve beside it).
/// Without `keepText`, an expansion the plugin gives as a tree goes to a reader that takes trees
/// as it is (ExpansionResult::text stays empty): no text written, none parsed.
ExpansionResult expandThenLoad(const PluginRegistry& registry, const PluginHandle& expander,
                               const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics,
                               bool keepText);

/// Where expanded-text location `at` came from (its file is the expanded file's), and its chain.
SourceLocation expansionOrigin(const plugin::ExpandedDocument& expanded, const SourceLocation& at, std::uint32_t* step);

}  // namespace interlink::detail
