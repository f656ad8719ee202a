#include "CommandSupport.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>

#include "interlink/TextNumbers.hpp"

namespace interlink::cli {

namespace fs = std::filesystem;

LoadOptions InputOptions::loadOptions() const {
  LoadOptions options;
  options.resourcePaths = resourcePaths;
  options.format = from;
  options.listEveryWarning = verbose;
  options.world = world;
  options.strict = strict;
  options.confineToRoots = confine;
  options.keepExpandedText = keepExpandedText;
  for (const std::string& argument : arguments) {
    std::string name, value;
    if (splitArgument(argument, name, value)) options.arguments.emplace_back(std::move(name), std::move(value));
  }
  return options;
}

bool splitArgument(const std::string& text, std::string& name, std::string& value) {
  std::size_t at = text.find(":=");
  std::size_t skip = 2;
  if (at == std::string::npos) {
    at = text.find('=');
    skip = 1;
  }
  if (at == std::string::npos || at == 0) return false;
  name = text.substr(0, at);
  value = text.substr(at + skip);
  return true;
}

std::string shownWorld(const LoadResult& result) {
  const auto& worlds = result.document.worlds;
  const std::size_t index = result.graph.worldIndex();
  if (!result.graph.isWorld() || index >= worlds.size()) return {};
  return "world '" + worlds[index].name + "' (" + std::to_string(index + 1) + " of " + std::to_string(worlds.size()) +
         ")";
}

namespace {

/// What is kept but not interpreted (ELEMENT_UNSUPPORTED notes) is listed only when asked: valid
/// elements of a format are not findings (--verbose, check --explain).
LoadResult withoutUnaskedNotes(LoadResult result, const InputOptions& options) {
  if (options.verbose || options.explain) return result;
  auto& items = result.diagnostics.items();
  items.erase(std::remove_if(items.begin(), items.end(),
                             [](const Diagnostic& d) {
                               return d.severity == Severity::Note && d.code == ErrorCode::ELEMENT_UNSUPPORTED;
                             }),
              items.end());
  return result;
}

LoadResult loadNamed(const Loader& loader, const std::string& input, const InputOptions& options) {
  if (input != "-") return loader.loadFile(input, options.loadOptions());
  std::string content((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  // A name without extension: --from or the sniffers choose the plugin.
  LoadResult result = loader.loadString(content, kStdinName, options.loadOptions());
  std::error_code ec;
  const std::string absolute = fs::absolute(kStdinName, ec).lexically_normal().string();
  Diagnostics renamed;
  for (Diagnostic d : result.diagnostics) {
    if (d.where.file == absolute) d.where.file = kStdinName;
    renamed.add(std::move(d));
  }
  result.diagnostics = std::move(renamed);
  return result;
}

}  // namespace

LoadResult loadInput(const Loader& loader, const std::string& input, const InputOptions& options) {
  return withoutUnaskedNotes(loadNamed(loader, input, options), options);
}

bool colourOn(int fd) {
  const char* noColour = std::getenv("NO_COLOR");
  if (noColour && *noColour) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return ::isatty(fd) == 1;
}

std::string formatDiagnostic(Diagnostic d, const std::string& file, bool colour) {
  if (d.where.file.empty()) d.where.file = file;
  // How to see every warning of a group is said in the CLI's own words (its flag).
  if (d.alike > 0) d.message += " (--verbose lists every one)";
  // The library names its options; the CLI adds the flag that sets each one.
  static const std::pair<const char*, const char*> kFlags[] = {
      {"LoadOptions::confineToRoots", "--confine"},
      {"LoadOptions::format", "--from NAME"},
      {"WriteOptions::urdfFloatingJoint", "--urdf-floating-joint"},
  };
  for (const auto& [option, flag] : kFlags) {
    if (const std::size_t at = d.message.find(option); at != std::string::npos)
      d.message.insert(at + std::char_traits<char>::length(option), std::string(", ") + flag);
  }
  std::string text = d.format();
  if (!colour) return text;
  const std::string word = std::string(severityName(d.severity)) + "[";
  const char* paint = d.severity == Severity::Error ? "\033[1;31m" : d.severity == Severity::Warning ? "\033[1;35m" : "\033[1;36m";
  const std::size_t at = text.find(word);
  if (at == std::string::npos) return text;
  const std::size_t end = text.find("]:", at);
  if (end == std::string::npos) return text;
  return text.substr(0, at) + paint + text.substr(at, end + 1 - at) + "\033[0m" + text.substr(end + 1);
}

void printDiagnostics(const Diagnostics& diagnostics, const std::string& file) {
  const bool colour = colourOn(STDERR_FILENO);
  // std::cerr is unbuffered: each insertion was a system call, two per diagnostic. The lines go
  // out together, in pieces of 64 KB at most.
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    text += formatDiagnostic(d, file, colour);
    text += '\n';
    if (text.size() >= kPiece) {
      std::cerr.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
    }
  }
  if (!text.empty()) std::cerr.write(text.data(), static_cast<std::streamsize>(text.size()));
}

bool onlyIoErrors(const Diagnostics& diagnostics, const std::string& file) {
  bool any = false;
  for (const auto& d : diagnostics) {
    if (!d.isError()) continue;
    if (d.code == ErrorCode::USAGE) return true;  // e.g. --world names no world of the file
    if (d.code != ErrorCode::FILE_READ || (d.where.line > 0) || (!d.where.file.empty() && d.where.file != file)) return false;
    any = true;
  }
  return any;
}

int usageError(const std::string& message, const char* usage) {
  std::cerr << "interlink: " << message << "\n" << usage;
  return 2;
}

std::string extensionOf(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  return toLower(path.substr(dot));
}

bool writeOutput(const std::string& output, const std::string& text) {
  if (output == "-") {
    std::cout << text << std::flush;
    if (std::cout) return true;
    std::cerr << "interlink: cannot write to standard output\n";
    return false;
  }
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (file) return true;
  std::cerr << "interlink: cannot write '" << output << "'\n";
  return false;
}

bool sameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace interlink::cli

#include "interlink/convert/Writers.hpp"

namespace interlink::cli {

std::string diagnosticJson(const Diagnostic& d, const std::string& file) {
  // "</" is written "<\/" (the same string in JSON), so that the text may sit in an HTML <script>.
  const auto quoted = [](std::string_view text) {
    std::string out = convert::jsonQuoted(text);
    for (std::size_t at = out.find("</"); at != std::string::npos; at = out.find("</", at + 3)) out.insert(at + 1, "\\");
    return out;
  };
  return "{\"severity\":\"" + std::string(severityName(d.severity)) + "\",\"code\":\"" + std::string(codeName(d.code)) +
         "\",\"message\":" + quoted(d.message) + ",\"file\":" + quoted(d.where.file.empty() ? file : d.where.file.str()) +
         ",\"line\":" + std::to_string(d.where.line) + ",\"column\":" + std::to_string(d.where.column) + "}";
}

std::string diagnosticsJson(const Diagnostics& diagnostics, const std::string& file) {
  std::string out = "[";
  for (const Diagnostic& d : diagnostics) out += (out.size() > 1 ? "," : "") + diagnosticJson(d, file);
  return out + "]";
}

}  // namespace interlink::cli
