// The Juice format plugin: registration, sniffer and load entry point.
#include <cstddef>
#include <string>
#include <string_view>

#include "JuiceReader.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// .jm is Juice's own extension; .xml is shared, so there only a <Model FileVersion=...> root counts.
int sniffJuice(const char* path, const char* head, std::size_t headSize) {
  const int score = interlink::juice::sniffJuiceHead(std::string_view(head ? head : "", head ? headSize : 0));
  const std::string lowerPath = interlink::toLower(path ? path : "");
  if (endsWith(lowerPath, ".jm")) return score > 0 ? 100 : 50;
  return score;
}

void loadJuice(const interlink::plugin::LoadRequest& request, interlink::Document& document,
               interlink::Diagnostics& diagnostics) {
  interlink::juice::readJuiceFile(request.path, request.content, document, diagnostics);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("juice", "1.0.0", loadJuice, sniffJuice, ".jm", ".xml")
