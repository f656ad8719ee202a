#include "Commands.hpp"

#include "CommandSupport.hpp"

#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace interlink::cli {

namespace {

/// Options shared by the commands that load a file.
struct CommonOptions {
  std::vector<std::string> files;
  LoadOptions load;
  bool help = false;
  std::string error;  // a usage error, when not empty
};

/// Parses FILE arguments and the options every loading command accepts; `extra` handles the rest
/// (returns false for an unknown option).
template <class Extra>
CommonOptions parseCommon(const Arguments& args, Extra extra) {
  CommonOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) -> std::optional<std::string> {
      if (i + 1 >= args.size()) {
        options.error = std::string("option ") + name + " needs a value";
        return std::nullopt;
      }
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      options.help = true;
    } else if (a == "-I" || a == "--resource-path") {
      if (auto v = value("--resource-path")) options.load.resourcePaths.push_back(*v);
    } else if (a == "--verbose" || a == "-v") {
      options.load.listEveryWarning = true;
    } else if (a.size() > 1 && a[0] == '-') {
      if (!extra(a, value)) options.error = "unknown option '" + a + "'";
    } else {
      options.files.push_back(a);
    }
    if (!options.error.empty()) break;
  }
  return options;
}

/// True when the only errors are about reading the top-level file itself (exit code 2).
bool onlyIoErrors(const Diagnostics& diagnostics, const std::string& file) {
  bool any = false;
  for (const auto& d : diagnostics) {
    if (!d.isError()) continue;
    if (d.code != ErrorCode::FILE_READ || (d.where.line > 0) || (!d.where.file.empty() && d.where.file != file)) return false;
    any = true;
  }
  return any;
}


/// Clean output: round-trip precision, and -0 / 1e-17 noise printed as 0.
std::string number(double value) {
  if (std::abs(value) < 1e-15) value = 0.0;
  return formatNumber(value);
}

const char* kCheckUsage =
    "usage: interlink check FILE... [-I DIR] [--verbose]\n"
    "  Loads each file with its format plugin, resolves includes and runs every frame-graph phase.\n"
    "  Diagnostics are printed as file:line:col: error[CODE]: message.\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  -v, --verbose             every warning on its own line (default: repeats of one kind grouped)\n"
    "  exit status: 0 all valid, 1 some file invalid, 2 usage or I/O error\n";

const char* kFramesUsage =
    "usage: interlink frames FILE [--positions zero|initial|q1,q2,...] [--relative-to FRAME] [--json] [-I DIR]\n"
    "  Prints every named frame (links, joints, frames, models; nested names scoped with '::') with its\n"
    "  pose: position x y z and quaternion w x y z. Poses are relative to the world for a world file and\n"
    "  to the top model frame for a model file, unless --relative-to names another frame.\n"
    "  --positions   the configuration: zero (default), initial (the file's initial positions), or one\n"
    "                value per DOF in the DOF order printed by `interlink tree`\n"
    "  --json        {\"frames\":[{\"name\",\"kind\",\"position\",\"quaternion_wxyz\"}],\"dofs\":[...]}\n";

const char* kTreeUsage =
    "usage: interlink tree FILE [-I DIR]\n"
    "  Prints the kinematic tree (links under their parent link, with the joint between them) and the\n"
    "  DOF order used by --positions.\n";

const char* kHardwareUsage =
    "usage: interlink hardware\n"
    "  Lists the actuator families and component types that the loaded hardware plugins provide.\n";

const char* kPluginsUsage =
    "usage: interlink plugins\n"
    "  Lists every loaded plugin (name, version, kind, extensions, path) and every refused library with\n"
    "  its reason. Plugins are found beside the Interlink library and in INTERLINK_PLUGIN_PATH.\n";

}  // namespace

int runCheck(const Arguments& args) {
  auto options = parseCommon(args, [](const std::string&, auto&) { return false; });
  if (options.help) {
    std::cout << kCheckUsage;
    return 0;
  }
  if (!options.error.empty()) return usageError(options.error, kCheckUsage);
  if (options.files.empty()) return usageError("check needs at least one FILE", kCheckUsage);
  Loader loader;
  int status = 0;
  for (const auto& file : options.files) {
    LoadResult result = loader.loadFile(file, options.load);
    printDiagnostics(result.diagnostics, file);
    if (result.ok()) {
      std::cout << file << ": valid\n";
    } else if (onlyIoErrors(result.diagnostics, file)) {
      status = 2;
    } else {
      std::cout << file << ": invalid (" << result.diagnostics.errorCount() << " error"
                << (result.diagnostics.errorCount() == 1 ? "" : "s") << ")\n";
      if (status == 0) status = 1;
    }
  }
  return status;
}

int runFrames(const Arguments& args) {
  std::string positions = "zero";
  std::string relativeTo;
  bool json = false;
  auto options = parseCommon(args, [&](const std::string& a, auto& value) {
    if (a == "--json") {
      json = true;
    } else if (a == "--positions") {
      if (auto v = value("--positions")) positions = *v;
    } else if (a == "--relative-to") {
      if (auto v = value("--relative-to")) relativeTo = *v;
    } else {
      return false;
    }
    return true;
  });
  if (options.help) {
    std::cout << kFramesUsage;
    return 0;
  }
  if (!options.error.empty()) return usageError(options.error, kFramesUsage);
  if (options.files.size() != 1) return usageError("frames needs exactly one FILE", kFramesUsage);
  const std::string& file = options.files.front();

  Loader loader;
  LoadResult result = loader.loadFile(file, options.load);
  printDiagnostics(result.diagnostics, file);
  if (!result.ok()) return onlyIoErrors(result.diagnostics, file) ? 2 : 1;

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
    out << "],\"relative_to\":" << convert::jsonQuoted(relativeTo.empty() ? result.graph.rootName() : relativeTo) << "}\n";
  } else {
    out << "# frames of " << file << " relative to '" << (relativeTo.empty() ? result.graph.rootName() : relativeTo)
        << "' at positions " << positions << "\n";
    out << "# name  kind  x y z  qw qx qy qz\n";
    for (std::size_t i = 1; i < frames.size(); ++i) {
      const Pose pose = X_RW * (*poses)[i];
      const Eigen::Vector4d wxyz = quaternionWxyz(pose);
      out << frames[i].name << "  " << frameKindName(frames[i].kind) << "  " << number(pose.translation().x()) << " "
          << number(pose.translation().y()) << " " << number(pose.translation().z()) << "  " << number(wxyz[0]) << " "
          << number(wxyz[1]) << " " << number(wxyz[2]) << " " << number(wxyz[3]) << "\n";
    }
    out << "# dofs:";
    for (const auto& dof : result.kinematics.dofs()) out << " " << dof.name;
    out << "\n";
  }
  std::cout << out.str();
  return 0;
}

int runTree(const Arguments& args) {
  auto options = parseCommon(args, [](const std::string&, auto&) { return false; });
  if (options.help) {
    std::cout << kTreeUsage;
    return 0;
  }
  if (!options.error.empty()) return usageError(options.error, kTreeUsage);
  if (options.files.size() != 1) return usageError("tree needs exactly one FILE", kTreeUsage);
  const std::string& file = options.files.front();
  Loader loader;
  LoadResult result = loader.loadFile(file, options.load);
  printDiagnostics(result.diagnostics, file);
  if (!result.ok()) return onlyIoErrors(result.diagnostics, file) ? 2 : 1;
  std::cout << result.kinematics.describeTree();
  const auto& dofs = result.kinematics.dofs();
  std::cout << "DOF order (" << dofs.size() << "):\n";
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    std::cout << "  " << i << "  " << dofs[i].name << "\n";
  }
  return 0;
}

int runPlugins(const Arguments& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kPluginsUsage;
      return 0;
    }
    return usageError("unexpected argument '" + a + "'", kPluginsUsage);
  }
  Loader loader;
  const auto& registry = loader.plugins();
  std::cout << "search path:\n";
  for (const auto& dir : registry.searchDirectories()) std::cout << "  " << dir << "\n";
  std::cout << "plugins (" << registry.plugins().size() << "):\n";
  for (const auto& handle : registry.plugins()) {
    const auto& info = handle.info();
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

int runHardware(const Arguments& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kHardwareUsage;
      return 0;
    }
    return usageError("unexpected argument '" + a + "'", kHardwareUsage);
  }
  Loader loader;
  std::cout << hardware::formatHardwareListing(hardware::HardwareRegistry::fromPlugins(loader.plugins()));
  return 0;
}

}  // namespace interlink::cli
