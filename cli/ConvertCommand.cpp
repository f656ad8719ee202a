// `interlink convert IN -o OUT`: any loaded format to any writer of convert::WriterRegistry.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "Commands.hpp"
#include "interlink/convert/ConversionWarnings.hpp"
#include "interlink/convert/WriterRegistry.hpp"

namespace interlink::cli {

const char* const kConvertUsage =
    "usage: interlink convert IN -o OUT [--to FORMAT] [--mesh-uris STYLE] [--urdf-floating-joint] [-I DIR] [--from NAME] [--arg NAME:=VALUE]...\n"
    "  Loads IN (any registered format, includes composed; '-' reads standard input) and writes it\n"
    "  in the format named by --to, else by OUT's extension:\n"
    "    sdformat (.sdf)  SDFormat 1.9: nested models and frames kept, every pose written relative_to\n"
    "    urdf (.urdf)     URDF: nested models flattened (\"::\" becomes \"__\"), frames as fixed joints and\n"
    "                     massless links; refused when the kinematic graph is not a tree\n"
    "    mjcf (.mjcf)     MJCF for MuJoCo 2.2.2 (docs/mjcf.md); also .xml\n"
    "    json (.json)     the complete core model and its resolved frames (docs/convert.md); readable\n"
    "                     again by interlink\n"
    "    dot (.dot)       Graphviz DOT of the frame graph (see also `interlink graph`)\n"
    "  Every file written is read back by interlink first: when it does not load, exit status 1 and\n"
    "  nothing is left at OUT (the output goes to a temporary file beside OUT, renamed when checked).\n"
    "  -o -                      write to standard output (needs --to)\n"
    "  --mesh-uris STYLE         portable (default: package:// and model:// as written, other files\n"
    "                            relative to OUT), relative, absolute or as-written\n"
    "  --urdf-floating-joint     URDF: write a floating base (MJCF <freejoint>) as a `floating` joint\n"
    "                            from `world` (default: its child is the root link, free as in Gazebo)\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  --arg NAME:=VALUE         an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md); a xacro file\n"
    "                            converted to .urdf is written as expanded, as ROS's xacro writes it\n"
    "  -v, --verbose             every warning on its own line (default: what OUT cannot hold is\n"
    "                            reported once per kind, with a count)\n"
    "  OUT is never IN: convert refuses to overwrite its input.\n"
    "  exit status: 0 written, 1 invalid input or not convertible, 2 usage or I/O error\n";

namespace {

int usage(const std::string& message) { return usageError(message, kConvertUsage); }

}  // namespace

int runConvert(const ConvertOptions& options) {
  const std::string& input = options.file;
  const std::string& output = options.output;
  const convert::WriterRegistry& writers = convert::WriterRegistry::builtIn();
  if (output == "-" && options.to.empty()) return usage("-o - (standard output) needs --to FORMAT: " + writers.describe());
  const convert::WriterRegistry::Writer* writer = options.to.empty() ? writers.forPath(output) : writers.find(options.to);
  if (!writer) {
    return usage(options.to.empty() ? "cannot write '" + output + "': the output extension must be one of " + writers.describe()
                                    : "unknown output format '" + options.to + "'; known: " + writers.describe());
  }
  convert::WriteOptions writeOptions;
  if (!options.meshUris.empty()) {
    const auto style = convert::meshUriStyleNamed(options.meshUris);
    if (!style) return usage("unknown --mesh-uris '" + options.meshUris + "'; known: portable, relative, absolute, as-written");
    writeOptions.meshUris = *style;
  }
  writeOptions.urdfFloatingJoint = options.urdfFloatingJoint;
  if (input != "-" && output != "-" && sameFile(input, output)) {
    return usage("refusing to overwrite the input '" + input + "' with its conversion; choose another -o");
  }

  Loader loader;
  InputOptions inputOptions = options.input;
  inputOptions.keepExpandedText = true;  // a xacro file converted to URDF is its expansion
  LoadResult loaded = loadInput(loader, input, inputOptions);
  const std::string name = displayName(input);
  printDiagnostics(loaded.diagnostics, name);
  if (!loaded.ok()) {
    std::cerr << "interlink: " << name << " has errors; nothing was written\n";
    return onlyIoErrors(loaded.diagnostics, input) ? 2 : 1;
  }
  // A macro-language file (xacro) converted to the format it expands to is written as expanded,
  // as ROS's xacro writes it, not rebuilt from the model.
  const auto& extensions = writer->extensions;
  if (!loaded.expandedText.empty() &&
      std::find(extensions.begin(), extensions.end(), loaded.expandedExtension) != extensions.end()) {
    return writeOutput(output, loaded.expandedText) ? 0 : 2;
  }
  // The read-back finds meshes and includes as the load did, with the output's own directory first.
  LoadOptions readBackOptions = options.input.loadOptions();
  readBackOptions.listEveryWarning = true;
  Diagnostics diagnostics;
  bool written = false;
  bool ioFailure = false;
  if (output == "-") {
    writeOptions.outputPath = "-";  // relative URIs: relative to the working directory
    std::optional<std::string> text = writer->write(loaded, writeOptions, diagnostics);
    if (text && writers.readBack(*writer, loaded, *text, "<stdout>" + writer->extensions.front(), loader,
                                 readBackOptions, diagnostics)) {
      written = writeOutput(output, *text);
      ioFailure = !written;
    }
  } else {
    written = writers.writeFile(*writer, loaded, output, writeOptions, loader, readBackOptions, diagnostics);
    ioFailure = !written && diagnostics.contains(ErrorCode::FILE_READ);
  }
  // What the target cannot hold: one warning per kind, every one with -v.
  if (!options.input.verbose) convert::groupWarningsByKind(diagnostics);
  printDiagnostics(diagnostics, name);
  if (!written && !ioFailure) {
    std::cerr << "interlink: " << name << " cannot be written as " << writer->name << "; nothing was written\n";
    return 1;
  }
  return written ? 0 : 2;
}

}  // namespace interlink::cli
