#include "Commands.hpp"

#include <iomanip>
#include <iostream>
#include <optional>
#include <cmath>
#include <sstream>

#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace interlink::cli {

namespace {

/// Clean output: round-trip precision, and -0 / 1e-17 noise printed as 0.
std::string number(double value) {
  if (std::abs(value) < 1e-15) value = 0.0;
  return formatNumber(value);
}

}  // namespace

const char* const kFramesUsage =
    "usage: interlink frames FILE [--positions zero|initial|q1,q2,...] [--relative-to FRAME] [--world NAME] [--json] [-I DIR] [--from NAME]\n"
    "                    [--arg NAME:=VALUE]...\n"
    "  Prints every named frame (links, joints, frames, models; nested names scoped with '::') with its\n"
    "  pose: position x y z and quaternion w x y z. Poses are relative to the world for a world file and\n"
    "  to the top model frame for a model file, unless --relative-to names another frame.\n"
    "  --positions   the configuration: zero (default), initial (the file's initial positions), or one\n"
    "                value per DOF in the DOF order printed by `interlink tree`\n"
    "  --world NAME  the world to show when the file holds several (default: the first); every world\n"
    "                is checked either way, and the output names the world it shows\n"
    "  --json        {\"frames\":[{\"name\",\"kind\",\"position\",\"quaternion_wxyz\"}],\"dofs\":[...]}; when the\n"
    "                load fails, {\"error\":{\"message\",\"diagnostics\":[...]}} (docs/cli.md)\n"
    "  Text output: one frame a line, fields separated by two spaces; a name containing spaces or\n"
    "  quotes is printed in double quotes (JSON string rules).\n"
    "  FILE may be '-' (standard input); --from NAME chooses the format plugin.\n"
    "  --arg NAME:=VALUE         an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md)\n";

const char* const kTreeUsage =
    "usage: interlink tree FILE [--world NAME] [-I DIR] [--from NAME] [--arg NAME:=VALUE]...\n"
    "  Draws the kinematic tree (links under their parent link with box-drawing lines, the joint\n"
    "  between them) and prints the DOF order used by `frames --positions`. --world NAME chooses the\n"
    "  world of a file that holds several (default: the first; every world is checked either way).\n";

const char* const kHardwareUsage =
    "usage: interlink hardware\n"
    "  Lists the actuator families and component types that the loaded hardware plugins provide.\n";

const char* const kPluginsUsage =
    "usage: interlink plugins\n"
    "  Lists every plugin (name, version, kind, extensions, path) and every refused library with its\n"
    "  reason. Plugins are found beside the Interlink library and in INTERLINK_PLUGIN_PATH; what is\n"
    "  known about them is cached in $XDG_CACHE_HOME/interlink/plugins.cache (INTERLINK_PLUGIN_CACHE=off\n"
    "  disables the cache) and a library is opened only when a file of its format is read.\n";

namespace {

/// A frame name for the text listing: quoted (JSON string rules) when it holds spaces or quotes,
/// so every line splits into the same fields (Juice names contain spaces).
std::string textName(const std::string& name) {
  return name.find_first_of(" \t\"") == std::string::npos ? name : convert::jsonQuoted(name);
}

/// The JSON error object `frames --json` prints when the load fails.
void printJsonError(const std::string& message, const Diagnostics& diagnostics, const std::string& file) {
  std::cout << "{\"error\":{\"message\":" << convert::jsonQuoted(message)
            << ",\"diagnostics\":" << diagnosticsJson(diagnostics, file) << "}}\n";
}

}  // namespace

int runFrames(const FramesOptions& options) {
  const std::string file = displayName(options.file);
  Loader loader;
  LoadResult result = loadInput(loader, options.file, options.input);
  if (options.json && !result.ok()) {
    printJsonError(file + " could not be loaded", result.diagnostics, file);
    return onlyIoErrors(result.diagnostics, options.file) ? 2 : 1;
  }
  printDiagnostics(result.diagnostics, file);
  if (!result.ok()) return onlyIoErrors(result.diagnostics, options.file) ? 2 : 1;
  const std::string& positions = options.positions;
  const std::string& relativeTo = options.relativeTo;
  const bool json = options.json;

  std::vector<double> q;
  if (positions == "zero") {
    q = result.kinematics.zeroConfiguration();
  } else if (positions == "initial") {
    q = result.kinematics.initialConfiguration();
  } else {
    Diagnostics parseDiagnostics;
    std::string spaced = positions;
    for (char& c : spaced) {
      if (c == ',') c = ' ';
    }
    auto values = parseDoubles(spaced, SourceLocation{}, "--positions", parseDiagnostics);
    if (!values) {
      printDiagnostics(parseDiagnostics, "--positions");
      return 2;
    }
    q = *values;
  }
  Diagnostics kinematicDiagnostics;
  auto poses = result.kinematics.framePoses(q, kinematicDiagnostics);
  if (!poses) {
    printDiagnostics(kinematicDiagnostics, "--positions");
    return 2;
  }
  const auto& frames = result.graph.frames();
  Pose X_WR = Pose::Identity();
  if (!relativeTo.empty()) {
    auto index = result.graph.find(relativeTo);
    if (!index) {
      std::cerr << "interlink: --relative-to: no frame named '" << relativeTo << "'\n";
      return 2;
    }
    X_WR = (*poses)[*index];
  }
  const Pose X_RW = X_WR.inverse();

  std::ostringstream out;
  if (json) {
    out << "{\"frames\":[";
    bool first = true;
    for (std::size_t i = 1; i < frames.size(); ++i) {  // frame 0 is the root itself
      const Pose pose = X_RW * (*poses)[i];
      const Eigen::Vector4d wxyz = quaternionWxyz(pose);
      out << (first ? "" : ",") << "{\"name\":" << convert::jsonQuoted(frames[i].name) << ",\"kind\":\""
          << frameKindName(frames[i].kind) << "\",\"position\":[" << number(pose.translation().x()) << ","
          << number(pose.translation().y()) << "," << number(pose.translation().z()) << "],\"quaternion_wxyz\":["
          << number(wxyz[0]) << "," << number(wxyz[1]) << "," << number(wxyz[2]) << "," << number(wxyz[3])
          << "],\"attached_to_link\":" << convert::jsonQuoted(frames[i].attachedLink) << "}";
      first = false;
    }
    out << "],\"dofs\":[";
    const auto& dofs = result.kinematics.dofs();
    for (std::size_t i = 0; i < dofs.size(); ++i) out << (i ? "," : "") << convert::jsonQuoted(dofs[i].name);
    out << "],\"relative_to\":" << convert::jsonQuoted(relativeTo.empty() ? result.graph.rootName() : relativeTo);
    if (result.graph.isWorld()) {
      out << ",\"world\":" << convert::jsonQuoted(result.document.worlds[result.graph.worldIndex()].name);
    }
    out << "}\n";
  } else {
    out << "# frames of " << file << " relative to '" << (relativeTo.empty() ? result.graph.rootName() : relativeTo)
        << "' at positions " << positions;
    if (const std::string world = shownWorld(result); !world.empty()) out << ", " << world;
    out << "\n";
    out << "# name  kind  x y z  qw qx qy qz\n";
    for (std::size_t i = 1; i < frames.size(); ++i) {
      const Pose pose = X_RW * (*poses)[i];
      const Eigen::Vector4d wxyz = quaternionWxyz(pose);
      out << textName(frames[i].name) << "  " << frameKindName(frames[i].kind) << "  " << number(pose.translation().x()) << " "
          << number(pose.translation().y()) << " " << number(pose.translation().z()) << "  " << number(wxyz[0]) << " "
          << number(wxyz[1]) << " " << number(wxyz[2]) << " " << number(wxyz[3]) << "\n";
    }
    out << "# dofs:";
    for (const auto& dof : result.kinematics.dofs()) out << " " << textName(dof.name);
    out << "\n";
  }
  std::cout << out.str();
  return 0;
}

int runTree(const TreeOptions& options) {
  const std::string file = displayName(options.file);
  Loader loader;
  LoadResult result = loadInput(loader, options.file, options.input);
  printDiagnostics(result.diagnostics, file);
  if (!result.ok()) return onlyIoErrors(result.diagnostics, options.file) ? 2 : 1;
  if (const std::string world = shownWorld(result); !world.empty()) std::cout << "# " << world << "\n";
  std::cout << result.kinematics.describeTree();
  const auto& dofs = result.kinematics.dofs();
  std::cout << "DOF order (" << dofs.size() << "):\n";
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    std::cout << "  " << i << "  " << dofs[i].name << "\n";
  }
  return 0;
}

int runPlugins() {
  Loader loader;
  const auto& registry = loader.plugins();
  std::cout << "search path:\n";
  for (const auto& dir : registry.searchDirectories()) std::cout << "  " << dir << "\n";
  // From the cache where it is fresh: listing plugins opens none that it already knows.
  const std::vector<PluginInfo> available = registry.available();
  std::cout << "plugins (" << available.size() << "):\n";
  for (const auto& info : available) {
    std::cout << "  " << info.name << " " << info.version << "  "
              << (info.kind == plugin::PluginKind::Format ? "format" : "hardware") << "  ";
    for (std::size_t i = 0; i < info.extensions.size(); ++i) std::cout << (i ? "," : "") << info.extensions[i];
    if (info.hasSniffer) std::cout << " (sniffer)";
    std::cout << "  " << info.path << "\n";
  }
  if (!registry.refused().empty()) {
    std::cout << "refused (" << registry.refused().size() << "):\n";
    for (const auto& refused : registry.refused()) {
      std::cout << "  " << refused.path << ": " << codeName(refused.reason.code) << ": " << refused.reason.message << "\n";
    }
  }
  for (const auto& notice : registry.notices()) std::cerr << notice.format() << "\n";
  return 0;
}

int runHardware() {
  Loader loader;
  std::cout << hardware::formatHardwareListing(loader.hardware());
  return 0;
}

}  // namespace interlink::cli
