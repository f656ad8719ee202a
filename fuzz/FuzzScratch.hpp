#pragma once
// A private directory under /tmp for the files a harness writes (a mesh, an included file),
// made once per fuzzing process; /tmp itself when it cannot be made.
#include <stdlib.h>

#include <string>

namespace interlink::fuzz {

/// `name` tells whose directory it is ("mesh": /tmp/interlink_fuzz_mesh_XXXXXX).
inline std::string makeScratchDirectory(const std::string& name) {
  std::string pattern = "/tmp/interlink_fuzz_" + name + "_XXXXXX";
  const char* made = ::mkdtemp(pattern.data());
  return made ? std::string(made) : std::string("/tmp");
}

}  // namespace interlink::fuzz
