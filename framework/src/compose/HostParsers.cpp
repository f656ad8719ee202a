// Host parsers: a CustomModelParser answers an include with an InterfaceModel (SDFormat's
// composition proposal §1.5), which becomes a model whose joints name only a child frame.
#include "compose/LoaderImpl.hpp"
#include "interlink/xml/KeptNodes.hpp"

namespace interlink {

Model Loader::Impl::fromInterfaceModel(const InterfaceModel& im, const std::string& modelScopedName, const std::string& file,
                                       Context& context, const std::shared_ptr<const InterfaceModel>& owner,
                                       const SourceLocation& where) const {
  Model m;
  m.name = im.Name();
  m.isStatic = im.Static();
  m.canonicalLink = im.CanonicalLinkName();
  m.pose.pose = im.ModelFramePoseInParentFrame();
  m.source = ModelSource{file, "interface", "", true, FormatRules{}};
  m.where = where;
  for (const auto& link : im.Links()) {
    Link& l = m.links.emplace_back();
    std::tie(l.name, l.pose.pose, l.where) = std::make_tuple(link.Name(), link.PoseInModelFrame(), where);
  }
  for (const auto& frame : im.Frames()) {
    Frame& f = m.frames.emplace_back();
    std::tie(f.name, f.pose.pose, f.where) = std::make_tuple(frame.Name(), frame.PoseInAttachedToFrame(), where);
    if (frame.AttachedTo() != "__model__") f.attachedTo = frame.AttachedTo();
  }
  for (const auto& joint : im.Joints()) {
    Joint& j = m.joints.emplace_back();
    std::tie(j.name, j.child, j.pose.pose, j.where) =
        std::make_tuple(joint.Name(), joint.ChildName(), joint.PoseInChildFrame(), where);
  }
  // The reposture callback keeps its InterfaceModel (and whatever it captured) alive until it ran.
  if (im.Reposture()) context.repostures.push_back({modelScopedName, im.Reposture(), owner, where});
  for (const auto& nested : im.NestedModels()) {
    if (!nested) continue;
    m.models.push_back(fromInterfaceModel(*nested, interlink::scopedName(modelScopedName, nested->Name()), file, context, nested, where));
  }
  return m;
}

std::optional<Loader::Impl::IncludedContent> Loader::Impl::askHostParsers(const Include& include, const std::string& resolved,
                                                                        const std::string& parentScopedName, bool& answered,
                                                                        Context& context) const {
  answered = false;
  NestedInclude nested;
  nested.SetUri(include.uri);
  nested.SetResolvedFileName(resolved);
  nested.SetAbsoluteParentName(parentScopedName);
  nested.SetLocalModelName(include.name);
  nested.SetIsStatic(include.isStatic);
  if (include.pose) {
    nested.SetIncludeRawPose(include.pose->pose);
    if (!include.pose->relativeTo.empty()) nested.SetIncludePoseRelativeTo(include.pose->relativeTo);
  }
  nested.SetPlacementFrame(include.placementFrame);
  if (!include.element.name.empty())
    nested.SetIncludeElement(std::make_shared<const xml::XmlElement>(xml::elementOf(include.element, include.where)));
  for (auto parser = customParsers.rbegin(); parser != customParsers.rend(); ++parser) {
    Diagnostics parserDiagnostics;
    InterfaceModelPtr model;
    try {
      model = (*parser)(nested, parserDiagnostics);
    } catch (const std::exception& e) {
      parserDiagnostics.error(ErrorCode::PLUGIN_EXCEPTION, std::string("custom model parser threw: ") + e.what(), include.where);
    } catch (...) {
      parserDiagnostics.error(ErrorCode::PLUGIN_EXCEPTION, "custom model parser threw an unknown exception", include.where);
    }
    for (auto d : parserDiagnostics) {
      if (!d.where.known()) d.where = include.where;
      context.diagnostics.add(std::move(d));
    }
    if (parserDiagnostics.hasErrors()) {  // the contract: errors end the search
      answered = true;
      return std::nullopt;
    }
    if (!model) continue;
    answered = true;
    IncludedContent content;
    content.model = fromInterfaceModel(*model, scopedName(parentScopedName, include.name.value_or(model->Name())),
                                       resolved, context, model, include.where);
    return content;
  }
  return std::nullopt;
}


}  // namespace interlink
