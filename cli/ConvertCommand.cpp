// `interlink convert IN -o OUT`: any loaded format to SDFormat 1.9, URDF or the JSON core model.
#include <fstream>
#include <iostream>
#include <optional>

#include "CommandSupport.hpp"
#include "Commands.hpp"
#include "interlink/Loader.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::cli {
namespace {

const char* kConvertUsage =
    "usage: interlink convert IN -o OUT [-I DIR]\n"
    "  Loads IN (any registered format, includes composed) and writes it in the format of OUT's\n"
    "  extension:\n"
    "    .sdf    SDFormat 1.9: nested models and frames kept, every pose written relative_to\n"
    "    .urdf   URDF: nested models flattened (\"::\" becomes \"__\"), frames as fixed joints and\n"
    "            massless links; refused when the kinematic graph is not a tree\n"
    "    .mjcf   MJCF for MuJoCo 2.2.2 (docs/mjcf.md)\n"
    "    .json   the complete core model and its resolved frames (docs/convert.md)\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  exit status: 0 written, 1 invalid input or not convertible, 2 usage or I/O error\n";

int usage(const std::string& message) { return usageError(message, kConvertUsage); }


}  // namespace

int runConvert(const Arguments& args) {
  InputOutput parsed = parseInputOutput(args, "convert");
  if (parsed.help) {
    std::cout << kConvertUsage;
    return 0;
  }
  if (!parsed.error.empty()) return usage(parsed.error);
  const std::string& input = parsed.input;
  const std::string& output = parsed.output;
  const LoadOptions& options = parsed.load;
  if (output.empty()) return usage("convert needs -o OUT");
  const std::string extension = extensionOf(output);
  if (extension != ".sdf" && extension != ".urdf" && extension != ".mjcf" && extension != ".json") {
    return usage("cannot write '" + output + "': the output extension must be .sdf, .urdf, .mjcf or .json");
  }

  Loader loader;
  LoadResult loaded = loader.loadFile(input, options);
  printDiagnostics(loaded.diagnostics, input);
  if (!loaded.ok()) {
    bool ioOnly = true;
    for (const auto& d : loaded.diagnostics) {
      if (d.isError() && (d.code != ErrorCode::FILE_READ || d.where.line > 0)) ioOnly = false;
    }
    std::cerr << "interlink: " << input << " has errors; nothing was written\n";
    return ioOnly ? 2 : 1;
  }
  Diagnostics diagnostics;
  std::optional<std::string> text;
  if (extension == ".sdf") {
    text = convert::writeSdformat(loaded, diagnostics);
  } else if (extension == ".urdf") {
    text = convert::writeUrdf(loaded, diagnostics);
  } else if (extension == ".mjcf") {
    text = convert::writeMjcf(loaded, diagnostics);
  } else {
    text = convert::writeJson(loaded);
  }
  printDiagnostics(diagnostics, input);
  if (!text) {
    std::cerr << "interlink: " << input << " cannot be written as " << extension << "; nothing was written\n";
    return 1;
  }
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file << *text;
  file.close();
  if (!file) {
    std::cerr << "interlink: cannot write '" << output << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace interlink::cli
