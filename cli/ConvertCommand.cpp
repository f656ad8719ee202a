// `interlink convert IN -o OUT`: any loaded format to SDFormat 1.9, URDF or the JSON core model.
#include <iostream>
#include <optional>

#include "Commands.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/convert/ConversionWarnings.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::cli {

const char* const kConvertUsage =
    "usage: interlink convert IN -o OUT [--to FORMAT] [-I DIR] [--from NAME] [--arg NAME:=VALUE]...\n"
    "  Loads IN (any registered format, includes composed; '-' reads standard input) and writes it\n"
    "  in the format named by --to, else by OUT's extension:\n"
    "    sdformat (.sdf)  SDFormat 1.9: nested models and frames kept, every pose written relative_to\n"
    "    urdf (.urdf)     URDF: nested models flattened (\"::\" becomes \"__\"), frames as fixed joints and\n"
    "                     massless links; refused when the kinematic graph is not a tree\n"
    "    json (.json)     the complete core model and its resolved frames (docs/convert.md); readable\n"
    "                     again by interlink\n"
    "    mjcf (.mjcf)     MJCF for MuJoCo 2.2.2 (docs/mjcf.md); --to mjcf also writes .xml\n"
    "  -o -                      write to standard output (needs --to)\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  --arg NAME:=VALUE         an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md); a xacro file\n"
    "                            converted to .urdf is written as expanded, as ROS's xacro writes it\n"
    "  -v, --verbose             every warning on its own line (default: what OUT cannot hold is\n"
    "                            reported once per kind, with a count)\n"
    "  OUT is never IN: convert refuses to overwrite its input.\n"
    "  exit status: 0 written, 1 invalid input or not convertible, 2 usage or I/O error\n";

namespace {

int usage(const std::string& message) { return usageError(message, kConvertUsage); }

/// One output format. Adding a format is one line here.
struct Writer {
  const char* name;
  const char* extension;
  std::optional<std::string> (*write)(const LoadResult&, Diagnostics&);
};

const Writer kWriters[] = {
    {"sdformat", ".sdf", [](const LoadResult& l, Diagnostics& d) { return convert::writeSdformat(l, d); }},
    {"urdf", ".urdf", [](const LoadResult& l, Diagnostics& d) { return convert::writeUrdf(l, d); }},
    {"mjcf", ".mjcf", [](const LoadResult& l, Diagnostics& d) { return convert::writeMjcf(l, d); }},
    {"json", ".json", [](const LoadResult& l, Diagnostics&) -> std::optional<std::string> { return convert::writeJson(l); }},
};

/// The writer named by --to (its name or extension, with or without the dot), else by extension.
const Writer* writerFor(const std::string& to, const std::string& output) {
  const std::string wanted = toLower(to);
  for (const Writer& w : kWriters) {
    if (wanted.empty() ? extensionOf(output) == w.extension
                       : (wanted == w.name || wanted == w.extension || "." + wanted == w.extension)) {
      return &w;
    }
  }
  return nullptr;
}

std::string writerNames() {
  std::string out;
  for (const Writer& w : kWriters) out += (out.empty() ? "" : ", ") + std::string(w.name) + " (" + w.extension + ")";
  return out;
}

}  // namespace

int runConvert(const ConvertOptions& options) {
  const std::string& input = options.file;
  const std::string& output = options.output;
  if (output == "-" && options.to.empty()) return usage("-o - (standard output) needs --to FORMAT: " + writerNames());
  const Writer* writer = writerFor(options.to, output);
  if (!writer) {
    return usage(options.to.empty() ? "cannot write '" + output + "': the output extension must be one of " + writerNames()
                                    : "unknown output format '" + options.to + "'; known: " + writerNames());
  }
  if (input != "-" && output != "-" && sameFile(input, output)) {
    return usage("refusing to overwrite the input '" + input + "' with its conversion; choose another -o");
  }

  Loader loader;
  LoadResult loaded = loadInput(loader, input, options.input);
  const std::string name = displayName(input);
  printDiagnostics(loaded.diagnostics, name);
  if (!loaded.ok()) {
    std::cerr << "interlink: " << name << " has errors; nothing was written\n";
    return onlyIoErrors(loaded.diagnostics, input) ? 2 : 1;
  }
  // A macro-language file (xacro) converted to the format it expands to is written as expanded,
  // as ROS's xacro writes it, not rebuilt from the model.
  if (!loaded.expandedText.empty() && loaded.expandedExtension == writer->extension) {
    return writeOutput(output, loaded.expandedText) ? 0 : 2;
  }
  Diagnostics diagnostics;
  std::optional<std::string> text = writer->write(loaded, diagnostics);
  // What the target cannot hold: one warning per kind, every one with -v.
  if (!options.input.verbose) convert::groupWarningsByKind(diagnostics);
  printDiagnostics(diagnostics, name);
  if (!text) {
    std::cerr << "interlink: " << name << " cannot be written as " << writer->name << "; nothing was written\n";
    return 1;
  }
  return writeOutput(output, *text) ? 0 : 2;
}

}  // namespace interlink::cli
