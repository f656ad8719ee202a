#pragma once
// Text helpers shared by the writers (internal).
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "graph/ElementIndex.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Loader.hpp"
#include "interlink/Pose.hpp"
#include "interlink/convert/WriteOptions.hpp"
#include "interlink/model/Geometry.hpp"
#include "interlink/model/JointAxis.hpp"
#include "interlink/model/JointType.hpp"

namespace interlink::convert::detail {

/// Round-trip precision; values within 1e-15 of zero print as 0 (no "-0" or "1e-17" noise).
std::string number(double value);
std::string numbers(const Vector3& v);
/// Escapes &, <, >, " and control characters for XML text and attribute values.
std::string xmlEscape(std::string_view text);
/// Escapes for a JSON string and adds the quotes.
std::string jsonString(std::string_view text);

/// Indented XML output: open/close elements, leaf elements with text.
class XmlOut {
 public:
  /// `attributes` is written as is after the name (already escaped, starting with a space).
  void open(const std::string& name, const std::string& attributes = {});
  void close(const std::string& name);
  void leaf(const std::string& name, const std::string& text, const std::string& attributes = {});
  void empty(const std::string& name, const std::string& attributes = {});
  void comment(const std::string& text);
  /// One line of markup written as is (already escaped), indented.
  void raw(const std::string& markup);
  std::string str() const { return out_.str(); }

 private:
  void indent();
  std::ostringstream out_;
  int depth_ = 0;
};

/// What every XML writer starts from: the load it writes, its options, the frame graph, where its
/// findings go, the element index and the markup being written.
class XmlWriterBase {
 public:
  XmlWriterBase(const LoadResult& loaded, const WriteOptions& options, Diagnostics& diagnostics)
      : loaded_(loaded), options_(options), graph_(loaded.graph), diagnostics_(diagnostics),
        index_(loaded.graph, loaded.document) {}

 protected:
  const LoadResult& loaded_;
  const WriteOptions& options_;
  const FrameGraph& graph_;
  Diagnostics& diagnostics_;
  interlink::detail::ElementIndex index_;
  XmlOut out_;
};

/// Whether a joint position bound limits the motion: SDFormat up to 1.9 says "no limit" with its
/// default ±1e16 (what libsdformat 12.3 reports), SDFormat 1.10 and the other formats with ±inf.
/// Targets that have their own "no limit" (URDF continuous, MJCF unlimited) use it for both.
bool boundsMotion(double bound);

/// The last component of a path: what a written comment names a source by, so that output holds
/// no path of the machine it was written on.
std::string fileNameOf(const std::string& path);

/// The URI schemes a target resolves as Interlink's readers do (through package paths and
/// resource paths): SDFormat package:// and model://, URDF package://, MJCF none (file paths only).
struct TargetSchemes {
  bool package = false;
  bool model = false;
};

/// What a target writes for the mesh `geometry` names, by `options.meshUris` (docs/convert.md,
/// "Mesh URIs"): portable keeps a package:// or model:// URI the target resolves alike and writes
/// any other file found on disk relative to the output file's directory; relative and absolute
/// write the file found (a mesh not found is written as the source wrote it); as-written never
/// changes it. `resolvedPath` is the file found (empty: not found). Without an output path, files
/// found are written by absolute path (the place of the text is unknown).
std::string meshUriFor(const std::string& uriAsWritten, const std::string& resolvedPath, TargetSchemes schemes,
                       const WriteOptions& options);

/// ` name="value"` with the value escaped.
std::string attr(const std::string& name, const std::string& value);

/// True when `loaded` can be written: no load errors and a world or a model to write. Otherwise
/// says why in `diagnostics`.
bool writable(const LoadResult& loaded, Diagnostics& diagnostics);

/// `Writer`'s output for a writable load (see writable), else nothing.
template <typename Writer>
std::optional<std::string> writeWith(const LoadResult& loaded, const WriteOptions& options, Diagnostics& diagnostics) {
  if (!writable(loaded, diagnostics)) return std::nullopt;
  return Writer(loaded, options, diagnostics).write();
}

/// "w x y z" of the pose's rotation (w >= 0).
std::string quaternionWxyzText(const Pose& pose);

/// The pose of frame `frame` relative to frame `reference` (indices of graph.frames()).
Pose relativePose(const FrameGraph& graph, std::size_t reference, std::size_t frame);

/// The direction of `axis` in the frame of joint `jointFrame`, honouring its expressed_in frame
/// (as written when that frame is unknown).
Vector3 axisInJointFrame(const FrameGraph& graph, std::size_t jointFrame, const JointAxis& axis);

/// One joint of the target format among those a core joint becomes (URDF, MJCF): the target's
/// type name, its axis in the frame the target writes axes in, and the core axis whose limits and
/// dynamics it carries (null: none).
struct TargetJoint {
  std::string type;
  Vector3 axis = Vector3::UnitZ();
  const JointAxis* limits = nullptr;
};

/// What of a model's non-kinematic content a target format (as its writer writes it) holds.
struct TargetHolds {
  std::string_view format;         // "URDF", "MJCF", "SDFormat 1.9"
  bool keptTrees = false;          // kept elements read as XML trees, in their model or world
  bool modelLights = false;        // lights inside models
  bool worldLights = false;        // lights of a world, and one light of a file without models
  bool worldGravity = false;       // world gravity
  bool worldPhysics = false;       // world physics (engine, step size, solver settings)
  bool modelGravity = false;       // Model::gravity of the model a model file holds (Juice)
  bool nestedModelFrames = false;  // the frames of nested models
  bool linkFlags = false;          // a link's gravity switched off, its self-collision switched on
  bool jointSprings = false;       // joint springs (stiffness and reference)
  bool initialPositions = false;   // joint initial positions
  bool mjcfSections = false;       // sections an MJCF source keeps as MJCF text (MjcfKept.hpp)
  bool gazeboBlocks = false;       // URDF <gazebo> blocks (GazeboExtensions.hpp)
  bool urdfElements = false;       // a URDF source's kept elements (isKeptUrdfElement, isKeptUrdfChild)
};

/// Warns, element by element, for what `holds` says the target cannot hold: kept elements
/// (sensors, plugins, actors, ...: one kind per element name), lights, world gravity and physics,
/// nested model frames, link flags, joint springs, initial positions, a model's gravity and the
/// model and world parameters (content; the notes of the reading, Model::readingNotes, are not).
/// Only JSON writes parameters.
/// The messages quote only names, so groupWarningsByKind makes one line per kind.
void warnWhatTargetCannotHold(const Document& document, const TargetHolds& holds, Diagnostics& diagnostics);

/// True for an element a URDF source keeps as text under <robot> (<gazebo>, <transmission>, a
/// custom element): URDF output writes it back as it was.
bool isKeptUrdfElement(const KeptElement& kept);

/// True for an element a URDF source keeps inside a link or joint (<calibration>,
/// <safety_controller>, custom elements; owned by that link or joint) or a visual's material
/// (<texture>; owned by the link and the visual): URDF output writes it back into its owner.
bool isKeptUrdfChild(const KeptElement& kept);

/// A root link that stands for the world: "worldbody" (an MJCF source's) or "world" (URDF's),
/// massless, at the root frame, the child of no joint.
bool standsForWorld(const FrameGraph& graph, const interlink::detail::ElementIndex& index, std::size_t frame);

/// Whether `joint` is a floating base: a free joint from the world or from a link that stands for
/// it (docs/convert.md, "Floating bases").
bool isFloatingBase(const FrameGraph& graph, const interlink::detail::ElementIndex& index, const TreeJoint& joint);

/// The single-axis chain (JointType.hpp) of `joint` with its axes in the joint frame `jointFrame`.
SingleAxisChain singleAxisChainOf(const FrameGraph& graph, std::size_t jointFrame, const Joint& joint);

}  // namespace interlink::convert::detail

namespace interlink::convert {
// The XML writers' vocabulary, unqualified in each of them.
using detail::attr;
using detail::boundsMotion;
using detail::number;
using detail::numbers;
using detail::XmlOut;
using detail::XmlWriterBase;
}  // namespace interlink::convert
