// One library's verdict as text: see PluginRecord.hpp.
#include "plugin/PluginRecord.hpp"

namespace interlink::detail {

std::string escapeField(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string unescapeField(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char next = text[++i];
      out += next == 't' ? '\t' : next == 'n' ? '\n' : next;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Plain string scanning, not string streams: reading the cache is on every start-up's path, and
// a stream per field cost more than the rest of the cache.
std::vector<std::string> splitFields(const std::string& line, char separator) {
  std::vector<std::string> fields;
  if (line.empty()) return fields;
  std::size_t start = 0;
  for (std::size_t end = line.find(separator); end != std::string::npos; end = line.find(separator, start)) {
    fields.emplace_back(line, start, end - start);
    start = end + 1;
  }
  fields.emplace_back(line, start, std::string::npos);
  return fields;
}

std::string verdictFields(const LibraryVerdict& verdict) {
  if (!verdict.accepted) {
    return "refused\t" + std::string(codeName(verdict.refusal)) + "\t" + escapeField(verdict.reason);
  }
  const PluginInfo& info = verdict.info;
  std::string extensions;
  for (std::size_t i = 0; i < info.extensions.size(); ++i) extensions += (i ? "," : "") + info.extensions[i];
  return "accepted\t" + escapeField(info.name) + "\t" + escapeField(info.version) + "\t" +
         (info.kind == plugin::PluginKind::Hardware ? "hardware" : "format") + "\t" +
         (info.hasSniffer ? "sniffer" : "-") + "\t" + escapeField(extensions);
}

bool parseVerdictFields(const std::vector<std::string>& fields, std::size_t first, LibraryVerdict& verdict) {
  if (fields.size() <= first) return false;
  const std::size_t count = fields.size() - first;
  if (fields[first] == "accepted" && count == 6) {
    verdict.accepted = true;
    verdict.info.name = unescapeField(fields[first + 1]);
    verdict.info.version = unescapeField(fields[first + 2]);
    verdict.info.kind = fields[first + 3] == "hardware" ? plugin::PluginKind::Hardware : plugin::PluginKind::Format;
    verdict.info.hasSniffer = fields[first + 4] == "sniffer";
    verdict.info.extensions.clear();
    if (!fields[first + 5].empty()) verdict.info.extensions = splitFields(unescapeField(fields[first + 5]), ',');
    return !verdict.info.name.empty();
  }
  if (fields[first] == "refused" && count == 3) {
    verdict.accepted = false;
    verdict.refusal = codeFromName(fields[first + 1]);
    verdict.reason = unescapeField(fields[first + 2]);
    return verdict.refusal != ErrorCode::NONE;
  }
  return false;
}

}  // namespace interlink::detail
