#include "Commands.hpp"
#include "OutputStream.hpp"

#include <iomanip>
#include <iostream>
#include <optional>
#include <cmath>
#include <sstream>

#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/QposLayout.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace interlink::cli {

const char* const kFramesUsage =
    "usage: interlink frames FILE [--positions SPEC | --qpos Q] [--frame NAME] [--relative-to FRAME] [--format quaternion|rpy|matrix]\n"
    "                       [--world NAME] [--json] [-I DIR] [--from NAME] [--arg NAME:=VALUE]...\n"
    "  Prints every named frame (links, joints, frames, models; nested names scoped with '::') with its\n"
    "  pose. Poses are relative to the world for a world file and to the top model frame for a model\n"
    "  file, unless --relative-to names another frame.\n"
    "  --positions SPEC  the configuration: zero (default); initial (the file's initial positions); one\n"
    "                    value per DOF in the DOF order printed by `interlink tree` (q1,q2,...); or values\n"
    "                    by DOF name, the others at zero (elbow=0.3,wrist=-1) or, after a leading\n"
    "                    'initial,' item, at their initial positions\n"
    "  --qpos q1,q2,...  instead of --positions: MuJoCo's qpos layout, 7 values per free joint (position,\n"
    "                    quaternion w x y z) and 4 per ball joint (quaternion), as docs/mjcf.md maps them\n"
    "  --frame NAME      print that frame only\n"
    "  --format F        how a pose is written: quaternion (default: x y z  qw qx qy qz), rpy\n"
    "                    (x y z  roll pitch yaw, the URDF/SDFormat convention) or matrix (the 4x4\n"
    "                    homogeneous matrix, row by row: 16 numbers)\n"
    "  --world NAME      the world to show when the file holds several (default: the first); every world\n"
    "                    is checked either way, and the output names the world it shows\n"
    "  --json            {\"frames\":[{\"name\",\"kind\",\"position\",\"quaternion_wxyz\"}],\"dofs\":[...]} (with\n"
    "                    \"rpy\" or \"matrix\" for --format rpy or matrix); when the load fails,\n"
    "                    {\"error\":{\"message\",\"diagnostics\":[...]}} (docs/cli.md)\n"
    "  Numbers are the shortest text that reads back to the same double. Text output: one frame a line,\n"
    "  fields separated by two spaces; a name containing spaces or quotes is printed in double quotes\n"
    "  (JSON string rules). FILE may be '-' (standard input); --from NAME chooses the format plugin.\n"
    "  --arg NAME:=VALUE an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md)\n";

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

/// The numbers of a pose in the chosen --format: x y z then qw qx qy qz, roll pitch yaw, or the
/// 16 entries of the 4x4 matrix row by row. Returns how many were written to `out`.
std::size_t poseNumbers(const Pose& pose, std::string_view format, double (&out)[16]) {
  if (format == "matrix") {
    const Eigen::Matrix4d m = pose.matrix();
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) out[4 * r + c] = m(r, c);
    }
    return 16;
  }
  const Vector3 p = pose.translation();
  out[0] = p.x();
  out[1] = p.y();
  out[2] = p.z();
  if (format == "rpy") {
    const Vector3 rpy = rpyFromRotation(pose.linear());
    for (int i = 0; i < 3; ++i) out[3 + i] = rpy[i];
    return 6;
  }
  const Eigen::Vector4d wxyz = quaternionWxyz(pose);
  for (int i = 0; i < 4; ++i) out[3 + i] = wxyz[i];
  return 7;
}

void numberList(OutputStream& out, const double* values, std::size_t from, std::size_t to, std::string_view separator) {
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out << separator;
    out.number(values[i]);
  }
}

/// Writes the listing as it is made (OutputStream): `poseOf(k)` is the pose of frame `shown[k]`.
template <class PoseOf>
void printFrames(const LoadResult& result, const ModelQuery& query, const std::vector<std::size_t>& shown,
                 const PoseOf& poseOf, const FramesOptions& options, const std::string& file) {
  const auto& frames = result.graph.frames();
  const std::string& format = options.format;
  const std::string relativeTo = options.relativeTo.empty() ? result.graph.rootName() : options.relativeTo;
  const std::vector<std::string> dofNames = query.dofNames();
  OutputStream out;
  double values[16];
  if (options.json) {
    out << "{\"frames\":[";
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const FrameInfo& frame = frames[shown[k]];
      const Pose& pose = poseOf(k);
      poseNumbers(pose, "quaternion", values);
      if (k) out << ',';
      // A joint named like a link keeps its name beside its kind; "frame" gives the name that
      // addresses its frame (--frame, --relative-to) where that differs.
      out << "{\"name\":";
      out.jsonString(frame.shownName()) << ",\"kind\":\"" << frameKindName(frame.kind) << '"';
      if (!frame.ownName.empty()) {
        out << ",\"frame\":";
        out.jsonString(frame.name);
      }
      out << ",\"position\":[";
      numberList(out, values, 0, 3, ",");
      out << "],\"quaternion_wxyz\":[";
      numberList(out, values, 3, 7, ",");
      out << ']';
      if (format == "rpy" || format == "matrix") {
        const std::size_t count = poseNumbers(pose, format, values);
        out << (format == "rpy" ? ",\"rpy\":[" : ",\"matrix\":[");
        numberList(out, values, format == "rpy" ? 3 : 0, count, ",");
        out << ']';
      }
      out << ",\"attached_to_link\":";
      out.jsonString(frame.attachedLink) << '}';
    }
    out << "],\"dofs\":[";
    for (std::size_t i = 0; i < dofNames.size(); ++i) {
      if (i) out << ',';
      out.jsonString(dofNames[i]);
    }
    out << "],\"relative_to\":";
    out.jsonString(relativeTo);
    if (result.graph.isWorld()) {
      out << ",\"world\":";
      out.jsonString(result.document.worlds[result.graph.worldIndex()].name);
    }
    out << "}\n";
  } else {
    out << "# frames of " << file << " relative to '" << relativeTo << "' at "
        << (options.qpos.empty() ? "positions " + options.positions : "qpos " + options.qpos);
    if (const std::string world = shownWorld(result); !world.empty()) out << ", " << world;
    out << "\n";
    out << (format == "matrix" ? "# name  kind  m00 m01 m02 m03  m10 ... m33 (row by row)\n"
            : format == "rpy"  ? "# name  kind  x y z  roll pitch yaw\n"
                               : "# name  kind  x y z  qw qx qy qz\n");
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const FrameInfo& frame = frames[shown[k]];
      const std::size_t count = poseNumbers(poseOf(k), format, values);
      out << textName(frame.shownName()) << "  " << frameKindName(frame.kind) << "  ";
      if (format == "matrix") {
        for (std::size_t r = 0; r < 4; ++r) {
          if (r) out << "  ";
          numberList(out, values, 4 * r, 4 * r + 4, " ");
        }
      } else {
        numberList(out, values, 0, 3, " ");
        out << "  ";
        numberList(out, values, 3, count, " ");
      }
      out << "\n";
    }
    out << "# dofs:";
    for (const std::string& dof : dofNames) out << " " << textName(dof);
    out << "\n";
    // Joints named like links share their link's name above; say which name addresses each frame.
    bool renamed = false;
    for (std::size_t index : shown) {
      const FrameInfo& frame = frames[index];
      if (frame.ownName.empty()) continue;
      out << (renamed ? "" : "# joint frames named like links, as --frame and --relative-to take them:") << " "
          << textName(frame.ownName) << "=" << textName(frame.name);
      renamed = true;
    }
    if (renamed) out << "\n";
  }
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
  const std::string& relativeTo = options.relativeTo;
  const ModelQuery query(result);
  Diagnostics argumentDiagnostics;
  auto q = query.parseConfiguration(options.positions, argumentDiagnostics);
  if (!q) {
    printDiagnostics(argumentDiagnostics, "--positions");
    return 2;
  }
  if (!options.qpos.empty()) {
    if (options.positions != "zero") {
      std::cerr << "interlink: give --positions or --qpos, not both\n";
      return 2;
    }
    std::string spaced = options.qpos;
    for (char& c : spaced) {
      if (c == ',') c = ' ';
    }
    Diagnostics qposDiagnostics;
    auto values = parseDoubles(spaced, SourceLocation{}, "--qpos", qposDiagnostics);
    auto mapped = values ? configurationFromQpos(result.kinematics, result.graph, *values, qposDiagnostics) : std::nullopt;
    if (!mapped) {
      printDiagnostics(qposDiagnostics, "--qpos");
      return 2;
    }
    q = std::move(mapped);
  }
  std::vector<std::size_t> shown;  // frame 0 is the root itself
  if (!options.frame.empty()) {
    auto index = result.graph.find(options.frame);
    if (!index) {
      std::cerr << "interlink: --frame: no frame named '" << options.frame << "'\n";
      return 2;
    }
    shown.push_back(*index);
  } else {
    for (std::size_t i = 1; i < result.graph.frames().size(); ++i) shown.push_back(i);
  }
  std::size_t reference = 0;
  if (!relativeTo.empty()) {
    auto index = result.graph.find(relativeTo);
    if (!index) {
      std::cerr << "interlink: --relative-to: " << result.graph.unknownFrameMessage(relativeTo) << "\n";
      return 2;
    }
    reference = *index;
  }
  // One frame walks its own path to the root; the whole listing computes every frame once.
  // The listing makes each pose as it writes it: one pose kept per link, not per frame (FramePoses).
  Diagnostics kinematicDiagnostics;
  if (shown.size() == 1) {
    auto pose = query.pose(shown.front(), *q, reference, kinematicDiagnostics);
    if (pose) {
      printFrames(result, query, shown, [&](std::size_t) -> const Pose& { return *pose; }, options, file);
      return 0;
    }
  } else if (auto all = query.framePosesAt(*q, relativeTo, kinematicDiagnostics)) {
    printFrames(result, query, shown, [&](std::size_t k) { return (*all)[shown[k]]; }, options, file);
    return 0;
  }
  printDiagnostics(kinematicDiagnostics, "--positions");
  return 2;
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
