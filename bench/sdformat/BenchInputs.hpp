#pragma once
// Generated inputs for the SDFormat and composition benchmarks. The same text is written to disk
// and loaded by Interlink and by libsdformat, so both measure exactly the same file.
#include <string>

namespace interlink::bench {

/// A model with a serial chain of `links` links: link i is posed relative_to link i-1, has one
/// frame attached to it and one revolute joint to its predecessor (the first to the world).
/// 4000 links are about 1.2 MB.
std::string serialChainSdf(int links);

/// A world of `models` small models, each with 2 links, 1 revolute joint and 1 frame.
/// 2000 models are about 0.7 MB.
std::string worldOfModelsSdf(int models);

/// A URDF serial chain of `links` links: each link has an inertial; joint i (revolute, with an
/// origin, an axis and limits) joins link i-1 to link i. 20 000 links are about 7 MB.
std::string serialChainUrdf(int links);

/// A small Juice (.jm) model: two box bodies and one revolute joint between them.
std::string smallJuiceModel(int seed);

/// A small SDFormat model (2 links, 1 joint, 1 frame), for the composition fallback when no
/// non-SDFormat plugin is built.
std::string smallSdfModel(int seed);

/// A model that includes `count` files "<directory>/part_<i>.<extension>" (relative URIs), each
/// under its own name and pose.
std::string compositionSdf(int count, const std::string& directory, const std::string& extension);

/// Writes `text` to `path`, creating parent directories. Returns false on failure.
bool writeFile(const std::string& path, const std::string& text);

/// Writes the composition input into `directory`: model.sdf plus `count` parts in parts/.
/// Returns the path of model.sdf, or "" on failure.
std::string writeComposition(const std::string& directory, int count, const std::string& extension);

}  // namespace interlink::bench
