// The "skel" format plugin: DART's .skel files (DART 6.12 semantics, see docs/skel.md). Read the
// file into records, then map them onto the model.
#include <cstddef>
#include <string_view>

#include "SkelMapping.hpp"
#include "SkelReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

int sniffSkel(const char* /*path*/, const char* head, std::size_t headSize) {
  const std::string_view text(head, headSize);
  // Only the extension speaks for a file without <skel>: claim it weakly, so that the reader can
  // say what is wrong with it instead of "no parser".
  return text.find("<skel") != std::string_view::npos ? 90 : 10;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("skel", "1.0.0",
                                 (interlink::plugin::readThenMap<interlink::skel::detail::SkelFile,
                                                                 interlink::skel::detail::readSkelFile,
                                                                 interlink::skel::detail::mapSkelFile>),
                                 sniffSkel, ".skel")
