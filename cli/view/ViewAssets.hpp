#pragma once
// The page's scripts and style, compiled into the command (cmake/EmbedAssets.cmake writes them
// from Debian's libjs-three and web/view/): the page never loads anything from the network.
#include <string>

namespace interlink::cli::view {

enum class Asset { ThreeJs, OrbitControlsJs, GltfLoaderJs, ViewerJs, ViewerCss };

std::string assetText(Asset asset);

}  // namespace interlink::cli::view
