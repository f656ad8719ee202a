// The include step: every Include record becomes the model it names, composed, with
// //include/name, static, pose and placement_frame applied; merge-includes merged.
#include "compose/LoaderImpl.hpp"

namespace interlink {

namespace detail {

std::uint64_t elementCount(const Model& model) {
  std::uint64_t count = 1 + model.links.size() + model.joints.size() + model.frames.size();
  for (const Model& nested : model.models) count += elementCount(nested);
  return count;
}

}  // namespace detail

namespace {

namespace fs = std::filesystem;

/// Whether `model` or a model nested in it (included ones too) is static.
bool anyStatic(const Model& model) {
  if (model.isStatic) return true;
  return std::any_of(model.models.begin(), model.models.end(), [](const Model& nested) { return anyStatic(nested); });
}

void makeStatic(Model& model) {
  model.isStatic = true;
  for (Model& nested : model.models) makeStatic(nested);
}

/// //include/static (composition proposal 1.4.6): it may only turn a model static, and then every
/// model it brings, transitively included ones too. `false` on a model that is (or holds) a static
/// model is an error: a static model cannot be made to move.
void applyIncludeStatic(const Include& include, Model& model, Diagnostics& diagnostics) {
  if (!include.isStatic) return;
  if (*include.isStatic) {
    makeStatic(model);
  } else if (anyStatic(model)) {
    diagnostics.error(ErrorCode::ELEMENT_INVALID,
                      "<static>false</static> in the <include> of '" + include.uri +
                          "': the included model is static (or includes a static model); //include/static can only "
                          "change false to true",
                      include.where);
  }
}

/// //include/frame and //include/joint join the included model, in its scope.
void addIncludeElements(const Include& include, Model& model) {
  model.frames.insert(model.frames.end(), include.frames.begin(), include.frames.end());
  model.joints.insert(model.joints.end(), include.joints.begin(), include.joints.end());
}

/// Index of the world named `name` in `document` (empty: the first); an unknown name is a usage
/// The scoped name of the link a model frame is attached to: @canonical_link, else the first
/// link, else (recursively) the first nested model's, prefixed with that model's name.
std::string canonicalLinkName(const Model& model) {
  if (!model.canonicalLink.empty()) return model.canonicalLink;
  if (!model.links.empty()) return model.links.front().name;
  for (const Model& nested : model.models) {
    std::string inner = canonicalLinkName(nested);
    if (!inner.empty()) return names::join(nested.name, inner);
  }
  return {};
}

/// X_MP: the pose of `model`'s placement frame in its model frame, resolved in the model alone (a
/// merge-include's model frame is gone once its content has joined the enclosing model).
std::optional<Pose> placementFramePose(const Model& model, Diagnostics& diagnostics) {
  Document alone;
  alone.model = model;
  Diagnostics graphDiagnostics;  // the composed document's graph reports the model's own errors
  const FrameGraph graph = FrameGraph::build(alone, graphDiagnostics);
  if (const auto frame = graph.find(model.placementFrame)) return graph.frames()[*frame].pose;
  // libsdformat reports it through its relative-to graph, as for a plain include; so do we.
  diagnostics.error(ErrorCode::POSE_RELATIVE_TO_INVALID,
                    "placement_frame '" + model.placementFrame + "' of merge-included model '" + model.name +
                        "' is not a frame of that model",
                    model.where);
  return std::nullopt;
}

/// //include/@merge (SDFormat 1.9): the included model's content joins `into` without a scope of
/// its own, as libsdformat does it. A proxy frame `_merged__<name>__model__` stands for the merged
/// model frame: attached to its canonical link and posed (like the model was) relative to the
/// include's relative_to, else the enclosing model frame. Everything that referred to the merged
/// model frame, explicitly ("__model__") or by default (an empty relative_to or attached_to),
/// refers to the proxy instead. Name clashes with the enclosing model's elements are reported by
/// the frame graph (DUPLICATE_NAME). With //include/placement_frame the include's pose places
/// that frame, so the proxy is posed at X_RM = X_RP · X_MP⁻¹, X_MP resolved inside the included
/// model before it is merged (as libsdformat 12.3 poses its proxy frame).
void mergeInto(Model& into, Model&& merged, Diagnostics& diagnostics) {
  const std::string proxy = "_merged__" + merged.name + "__model__";
  Frame frame;
  frame.name = proxy;
  frame.pose = merged.pose;
  if (!merged.placementFrame.empty()) {
    if (auto X_MP = placementFramePose(merged, diagnostics)) frame.pose.pose = frame.pose.pose * X_MP->inverse();
  }
  if (frame.pose.relativeTo.empty()) frame.pose.relativeTo = "__model__";
  frame.where = merged.where;
  frame.attachedTo = canonicalLinkName(merged);
  if (frame.attachedTo.empty()) frame.attachedTo = "__model__";  // a static model of frames only
  into.frames.push_back(std::move(frame));
  auto toProxy = [&](std::string& reference) {
    if (reference.empty() || reference == "__model__") reference = proxy;
  };
  auto explicitToProxy = [&](std::string& reference) {
    if (reference == "__model__") reference = proxy;
  };
  for (Link& link : merged.links) {
    toProxy(link.pose.relativeTo);
    into.links.push_back(std::move(link));
  }
  for (Frame& f : merged.frames) {
    toProxy(f.attachedTo);
    explicitToProxy(f.pose.relativeTo);
    into.frames.push_back(std::move(f));
  }
  for (Joint& joint : merged.joints) {
    explicitToProxy(joint.parent);
    explicitToProxy(joint.child);
    explicitToProxy(joint.pose.relativeTo);  // empty stays: relative to the child
    for (JointAxis& axis : joint.axes) explicitToProxy(axis.expressedIn);
    into.joints.push_back(std::move(joint));
  }
  for (Model& nested : merged.models) {
    toProxy(nested.pose.relativeTo);
    into.models.push_back(std::move(nested));
  }
  for (Light& light : merged.lights) {
    toProxy(light.pose.relativeTo);
    into.lights.push_back(std::move(light));
  }
  for (KeptElement& element : merged.kept) into.kept.push_back(std::move(element));
}


}  // namespace

std::optional<Loader::Impl::IncludedContent> Loader::Impl::loadIncludedModel(const Include& include, const std::string& resolved,
                                                                           const std::string& includerFormat,
                                                                           const std::string& parentScopedName,
                                                                           Context& context) const {
  // 1. A file of the including file's own format is read by its plugin; host parsers are asked
  //    only for other files (libsdformat asks its custom parsers for non-SDFormat files).
  const PluginHandle target = registry.formatFor(resolved);
  const bool sameFormat = target && target.info().name == includerFormat;
  // 2. Otherwise host parsers, newest first.
  if (!sameFormat && !customParsers.empty()) {
    bool answered = false;
    auto content = askHostParsers(include, resolved, parentScopedName, answered, context);
    if (answered) return content;
  }
  // 3. Format plugins by extension.
  const std::size_t errorsBefore = context.diagnostics.errorCount();
  auto document = loadDocument(resolved, include.where, context);
  if (!document) return std::nullopt;
  IncludedContent content;
  if (document->model) {
    content.model = std::move(*document->model);
    return content;
  }
  if (!document->lights.empty() || !document->kept.empty()) {
    // SDFormat may include a file whose top level is a <light> or an <actor>.
    content.lights = std::move(document->lights);
    content.kept = std::move(document->kept);
    return content;
  }
  if (document->worlds.size() == 1 && document->format != includerFormat) {
    // A format whose files are worlds (e.g. one robot in its environment): include the world's
    // content as one model named after the file.
    World& world = document->worlds.front();
    if (world.models.size() == 1 && world.frames.empty() && world.includes.empty()) {
      content.model = std::move(world.models.front());
      return content;
    }
    Model wrapper;
    wrapper.name = fs::path(resolved).stem().string();
    wrapper.models = std::move(world.models);
    wrapper.includes = std::move(world.includes);
    wrapper.frames = std::move(world.frames);
    wrapper.joints = std::move(world.joints);
    wrapper.source = ModelSource{resolved, document->format, document->formatVersion, false, document->rules};
    wrapper.where = world.where;
    content.model = std::move(wrapper);
    return content;
  }
  if (context.diagnostics.errorCount() == errorsBefore) {
    context.diagnostics.error(ErrorCode::ELEMENT_MISSING,
                              "'" + resolved + "' has no top-level <model>, <light> or <actor>; an <include> needs one",
                              include.where);
  }
  return std::nullopt;
}

std::optional<Model> Loader::Impl::resolveInclude(const Include& include, const ModelSource& includer,
                                                  const std::string& parentScopedName, std::vector<Light>& lights,
                                                  std::vector<KeptElement>& kept, Context& context) const {
  auto resolved = beginInclude(include.uri, includer.file, includer.format, include.where, context.diagnostics, context);
  if (!resolved) return std::nullopt;
  struct Leave {
    std::vector<std::string>& stack;
    ~Leave() { stack.pop_back(); }
  } leave{context.includeStack};
  if (include.placementFrame && !include.pose) {
    context.diagnostics.error(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
                              "<placement_frame> requires a <pose> in the same <include>", include.where);
    return std::nullopt;
  }
  auto content = loadIncludedModel(include, *resolved, includer.format, parentScopedName, context);
  if (!content) return std::nullopt;
  if (!content->model) {
    for (Light& light : content->lights) {
      if (include.name) light.name = *include.name;
      if (include.pose) light.pose = *include.pose;
      lights.push_back(std::move(light));
    }
    for (KeptElement& element : content->kept) {
      // An included actor keeps //include/name, as libsdformat applies it (two includes of one
      // actor file are two actors).
      if (include.name && element.element.name == "actor") {
        bool named = false;
        for (auto& [key, value] : element.element.attributes) {
          if (key == "name") value = *include.name, named = true;
        }
        if (!named) element.element.attributes.emplace_back("name", *include.name);
      }
      kept.push_back(std::move(element));
    }
    return std::nullopt;
  }
  Model& model = *content->model;
  if (!countElements(model, include.where, context)) return std::nullopt;
  // The framework applies //include/name, //include/static and //include/pose for every include
  // (host parsers included: the values it set are overridden only when the <include> gives them).
  if (include.name) model.name = *include.name;
  addIncludeElements(include, model);
  if (include.pose) model.pose = *include.pose;
  if (include.placementFrame) model.placementFrame = *include.placementFrame;
  model.where = include.where;
  if (!model.source.fromInterfaceModel) {
    composeModel(model, scopedName(parentScopedName, model.name), context);
  }
  applyIncludeStatic(include, model, context.diagnostics);  // after composing: it reaches the models it includes
  return std::move(model);
}

void Loader::Impl::composeScope(std::vector<Model>& models, std::vector<Include>& includes, const ModelSource& includer,
                                const std::string& scopeName, std::vector<Light>& lights, std::vector<KeptElement>& kept,
                                std::vector<Model>* merged, Context& context) const {
  if (includes.empty()) {  // nothing to insert: each model is composed where it is (no copy of the list)
    for (Model& model : models) composeModel(model, scopedName(scopeName, model.name), context);
    return;
  }
  // Models and includes in document order: an include's model goes where the include was.
  std::vector<Model> declared = std::move(models);
  std::vector<Include> pending = std::move(includes);
  models.clear();
  includes.clear();
  std::stable_sort(pending.begin(), pending.end(), [](const Include& a, const Include& b) { return a.position < b.position; });
  models.reserve(declared.size() + pending.size());
  std::size_t next = 0;
  auto includesUpTo = [&](std::size_t position) {
    for (; next < pending.size() && pending[next].position <= position; ++next) {
      const Include& include = pending[next];
      if (include.merge && !merged) {
        context.diagnostics.error(ErrorCode::MERGE_INCLUDE_UNSUPPORTED,
                                  "merge-include is only allowed inside a model, not directly in a world", include.where);
        continue;
      }
      const std::size_t errorsBefore = context.diagnostics.errorCount();
      auto included = resolveInclude(include, includer, scopeName, lights, kept, context);
      if (included) {
        (include.merge ? *merged : models).push_back(std::move(*included));
      } else if (context.diagnostics.errorCount() > errorsBefore) {
        ++context.failedIncludes;
      }
    }
  };
  for (std::size_t i = 0; i < declared.size(); ++i) {
    includesUpTo(i);
    composeModel(declared[i], scopedName(scopeName, declared[i].name), context);
    models.push_back(std::move(declared[i]));
  }
  includesUpTo(static_cast<std::size_t>(-1));
}

void Loader::Impl::composeModel(Model& model, const std::string& modelScopedName, Context& context) const {
  std::vector<Model> merged;
  const std::size_t failedBefore = context.failedIncludes;
  composeScope(model.models, model.includes, model.source, modelScopedName, model.lights, model.kept, &merged, context);
  if (context.failedIncludes > failedBefore) context.modelsMissingIncludes.push_back(model.where);
  for (Model& m : merged) mergeInto(model, std::move(m), context.diagnostics);
}

void Loader::Impl::composeWorld(World& world, const ModelSource& worldSource, Context& context) const {
  composeScope(world.models, world.includes, worldSource, "", world.lights, world.kept, nullptr, context);
}


}  // namespace interlink
