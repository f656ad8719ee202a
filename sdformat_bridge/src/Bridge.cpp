// Interlink format plugins registered as libsdformat 12 custom model parsers (the SDFormat
// model-composition proposal, sdformat.org/tutorials?tut=composition_proposal, §1.5, as libsdformat
// 12.3 ships it: sdf/InterfaceModel.hh, sdf/ParserConfig.hh RegisterCustomModelParser).
#include "interlink/sdformat/Bridge.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>

#include <sdf/Console.hh>
#include <sdf/Element.hh>
#include <sdf/InterfaceElements.hh>
#include <sdf/InterfaceModel.hh>

#include "detail/ErrorMapping.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::sdformat {
namespace {

namespace fs = std::filesystem;

/// The first bytes handed to the registry's sniffers, as the Loader does.
constexpr std::size_t kSniffBytes = 4096;

/// A name inside the included model ("link", "nested::frame") and its kind, for the reposture.
struct ExposedFrame {
  std::string name;
  FrameKind kind;
};

/// Turns a composed, resolved Interlink model into libsdformat's interface description: every
/// pose is taken from Interlink's resolved graph and expressed in the frame the contract asks
/// for (links in the model frame, frames in their attached-to frame, joints in their child).
class InterfaceBuilder {
 public:
  InterfaceBuilder(const FrameGraph& graph, std::vector<ExposedFrame>& exposed) : graph_(graph), exposed_(exposed) {}

  sdf::InterfaceModelPtr build(const Model& model, const std::string& prefix, std::size_t modelFrame,
                               const Pose& poseInParent, const sdf::RepostureFunction& reposture) {
    const Pose X_RM = graph_.frames()[modelFrame].pose;
    auto result = std::make_shared<sdf::InterfaceModel>(model.name, reposture, model.isStatic,
                                                        canonicalLink(model, prefix, modelFrame), toIgnition(poseInParent));
    for (const Link& link : model.links) {
      if (auto v = find(prefix + link.name)) {
        result->AddLink(sdf::InterfaceLink(link.name, toIgnition(X_RM.inverse() * frame(*v).pose)));
        exposed_.push_back({prefix + link.name, FrameKind::Link});
      }
    }
    for (const Joint& joint : model.joints) {
      auto v = find(prefix + joint.name);
      auto child = v ? graph_.resolveReference(*v, joint.child) : std::nullopt;
      if (!v || !child) continue;
      result->AddJoint(sdf::InterfaceJoint(joint.name, localName(*child, prefix, modelFrame),
                                           toIgnition(frame(*child).pose.inverse() * frame(*v).pose)));
      exposed_.push_back({prefix + joint.name, FrameKind::Joint});
    }
    for (const Frame& explicitFrame : model.frames) {
      auto v = find(prefix + explicitFrame.name);
      if (!v) continue;
      // Attached to what Interlink resolved it to; a target outside this model (a world-level
      // frame of a world-format file) cannot be named here, so such a frame hangs off the model.
      std::size_t target = modelFrame;
      if (frame(*v).attachedTo >= 0 && insideScope(static_cast<std::size_t>(frame(*v).attachedTo), prefix, modelFrame)) {
        target = static_cast<std::size_t>(frame(*v).attachedTo);
      }
      result->AddFrame(sdf::InterfaceFrame(explicitFrame.name, localName(target, prefix, modelFrame),
                                           toIgnition(frame(target).pose.inverse() * frame(*v).pose)));
      exposed_.push_back({prefix + explicitFrame.name, FrameKind::Frame});
    }
    for (const Model& nested : model.models) {
      const std::string nestedName = prefix + nested.name;
      auto v = find(nestedName);
      if (!v) continue;
      exposed_.push_back({nestedName, FrameKind::Model});
      result->AddNestedModel(build(nested, names::scopePrefix(nestedName), *v, X_RM.inverse() * frame(*v).pose, nullptr));
    }
    return result;
  }

 private:
  const FrameInfo& frame(std::size_t index) const { return graph_.frames()[index]; }
  std::optional<std::size_t> find(const std::string& name) const {
    auto v = graph_.find(name);
    return v && *v != 0 ? v : std::nullopt;  // 0 is the root: a frame named like the model is not it
  }
  static bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
  bool insideScope(std::size_t index, const std::string& prefix, std::size_t modelFrame) const {
    return index == modelFrame || (index != 0 && startsWith(frame(index).name, prefix));
  }
  /// The name of frame `index` as written inside the model whose names start with `prefix`.
  std::string localName(std::size_t index, const std::string& prefix, std::size_t modelFrame) const {
    if (index == modelFrame) return "__model__";
    return frame(index).name.substr(prefix.size());
  }
  /// The resolved canonical link as the contract wants it: relative to this model, possibly
  /// inside a nested model ("nested::link"). A static model has none resolved; its declared or
  /// first link stands in.
  std::string canonicalLink(const Model& model, const std::string& prefix, std::size_t modelFrame) const {
    const std::string& resolved = frame(modelFrame).attachedLink;
    if (!resolved.empty() && startsWith(resolved, prefix)) return resolved.substr(prefix.size());
    if (!model.canonicalLink.empty()) return model.canonicalLink;
    if (!model.links.empty()) return model.links.front().name;
    return {};
  }

  const FrameGraph& graph_;
  std::vector<ExposedFrame>& exposed_;
};

/// Where libsdformat read the <include>: its file and line.
SourceLocation includeLocation(const sdf::NestedInclude& include) {
  SourceLocation where;
  if (const sdf::ElementPtr element = include.IncludeElement()) {
    where.file = element->FilePath();
    where.line = element->LineNumber().value_or(0);
  }
  return where;
}

/// Shared by every parser of one registration.
struct BridgeState {
  std::shared_ptr<const Loader> loader;
  BridgeOptions options;
  sdf::EnforcementPolicy warningsPolicy = sdf::EnforcementPolicy::WARN;

  /// Hands Interlink's findings to libsdformat: errors as sdf::Errors, warnings as the
  /// config's warnings policy says.
  void report(const Diagnostics& diagnostics, sdf::Errors& errors) const {
    for (const Diagnostic& d : diagnostics) {
      if (d.isError() || warningsPolicy == sdf::EnforcementPolicy::ERR) {
        errors.push_back(detail::toSdfError(d));
      } else if (warningsPolicy == sdf::EnforcementPolicy::WARN) {
        sdfwarn << d.format() << "\n";
      } else {
        sdfdbg << d.format() << "\n";
      }
    }
  }

  /// libsdformat does not catch what a parser throws: nothing leaves the bridge as an exception.
  sdf::InterfaceModelPtr parse(const sdf::NestedInclude& nested, sdf::Errors& errors) const {
    try {
      return load(nested, errors);
    } catch (const std::exception& e) {
      const SourceLocation where = includeLocation(nested);
      errors.emplace_back(sdf::ErrorCode::ELEMENT_INVALID,
                          "Interlink failed on [" + nested.ResolvedFileName() + "]: " + e.what(), where.file.str(), where.line);
      return nullptr;
    }
  }

  /// Loads the included file through Interlink and describes it to libsdformat.
  sdf::InterfaceModelPtr load(const sdf::NestedInclude& nested, sdf::Errors& errors) const {
    Include include;
    include.uri = nested.ResolvedFileName();
    include.name = nested.LocalModelName();
    include.isStatic = nested.IsStatic();
    include.where = includeLocation(nested);
    LoadResult result = loader->loadInclude(include, include.where.file, options.load);
    report(result.diagnostics, errors);
    if (result.diagnostics.hasErrors() || !errors.empty()) return nullptr;  // the contract: errors, no model
    if (!result.document.model) {
      errors.emplace_back(sdf::ErrorCode::ELEMENT_MISSING, "Interlink found no model in [" + include.uri + "]",
                          include.where.file.str(), include.where.line);
      return nullptr;
    }
    const Model& model = *result.document.model;
    // libsdformat applies //include/pose itself; 12.3 ignores this pose when the include has none.
    const Pose poseInParent = model.pose.relativeTo.empty() ? model.pose.pose : Pose::Identity();
    auto exposed = std::make_shared<std::vector<ExposedFrame>>();
    InterfaceBuilder builder(result.graph, *exposed);
    sdf::RepostureFunction reposture;
    if (options.onReposture) {
      reposture = [callback = options.onReposture, exposed, file = model.source.file,
                   absolute = names::join(nested.AbsoluteParentName(), model.name)](
                      const sdf::InterfaceModelPoseGraph& graph) {
        RepostureEvent event;
        event.modelName = absolute;
        event.sourceFile = file;
        ignition::math::Pose3d pose;
        if (graph.ResolveNestedModelFramePoseInWorldFrame(pose).empty()) event.modelPose = fromIgnition(pose);
        for (const ExposedFrame& f : *exposed) {
          if (graph.ResolveNestedFramePose(pose, f.name, "world").empty()) {
            event.frames.push_back({f.name, f.kind, fromIgnition(pose)});
          }
        }
        callback(event);
      };
    }
    return builder.build(model, "", 0, poseInParent, reposture);
  }
};

std::string lowerExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool isDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

/// The parser of one format plugin: it claims a file when the registry would pick that plugin
/// for it (extension, then the sniffers when several plugins share the extension).
sdf::CustomModelParser pluginParser(std::shared_ptr<const BridgeState> state, const PluginInfo& plugin) {
  return [state, name = plugin.name, extensions = plugin.extensions](const sdf::NestedInclude& include,
                                                                      sdf::Errors& errors) -> sdf::InterfaceModelPtr {
    const std::string& path = include.ResolvedFileName();
    if (std::find(extensions.begin(), extensions.end(), lowerExtension(path)) == extensions.end() || isDirectory(path)) {
      return nullptr;
    }
    std::string head(kSniffBytes, '\0');
    std::ifstream in(path, std::ios::binary);
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    const PluginHandle chosen = state->loader->plugins().formatFor(path, head);
    if (!chosen || chosen.info().name != name) return nullptr;  // another plugin's parser claims it
    return state->parse(include, errors);
  };
}

/// Asked after every format parser: a model directory goes to Interlink (its model.config names
/// the file), then the parsers the host registered before the bridge are asked in their order,
/// and what nobody claims is refused instead of dropped.
sdf::CustomModelParser lastParser(std::shared_ptr<const BridgeState> state, std::vector<sdf::CustomModelParser> earlier) {
  return [state, earlier = std::move(earlier)](const sdf::NestedInclude& include, sdf::Errors& errors) -> sdf::InterfaceModelPtr {
    for (auto parser = earlier.rbegin(); parser != earlier.rend(); ++parser) {
      sdf::Errors theirs;
      sdf::InterfaceModelPtr model = (*parser)(include, theirs);
      if (!theirs.empty()) {
        errors.insert(errors.end(), theirs.begin(), theirs.end());
        return nullptr;
      }
      if (model) return model;
    }
    if (isDirectory(include.ResolvedFileName())) return state->parse(include, errors);
    const SourceLocation where = includeLocation(include);
    const std::string ext = lowerExtension(include.ResolvedFileName());
    errors.emplace_back(sdf::ErrorCode::URI_INVALID,
                        "Unable to read file[" + include.ResolvedFileName() + "] included by uri[" + include.Uri() +
                            "]: no custom model parser claims '" + (ext.empty() ? std::string("(no extension)") : ext) +
                            "'; Interlink formats: " + state->loader->plugins().describeFormats(),
                        where.file.str(), where.line);
    return nullptr;
  };
}

}  // namespace

std::vector<std::string> registerCustomParsers(sdf::ParserConfig& config, const BridgeOptions& options) {
  return registerCustomParsers(config, std::make_shared<const Loader>(), options);
}

std::vector<std::string> registerCustomParsers(sdf::ParserConfig& config, std::shared_ptr<const Loader> loader,
                                               const BridgeOptions& options) {
  auto state = std::make_shared<BridgeState>();
  state->loader = loader ? std::move(loader) : std::make_shared<const Loader>();
  state->options = options;
  state->warningsPolicy = config.WarningsPolicy();
  config.RegisterCustomModelParser(lastParser(state, config.CustomModelParsers()));
  std::vector<std::string> registered;
  for (const PluginHandle& plugin : state->loader->plugins().plugins()) {
    const PluginInfo& info = plugin.info();
    if (info.kind != plugin::PluginKind::Format || info.extensions.empty()) continue;
    const bool wanted = options.formats.empty()
                            ? info.name != "sdformat"
                            : std::find(options.formats.begin(), options.formats.end(), info.name) != options.formats.end();
    if (!wanted) continue;
    config.RegisterCustomModelParser(pluginParser(state, info));
    registered.push_back(info.name);
  }
  return registered;
}

}  // namespace interlink::sdformat
