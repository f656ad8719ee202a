#pragma once
// What a custom model parser is told about one <include>: libsdformat 12's NestedInclude.
#include <memory>
#include <optional>
#include <string>

#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink {

class INTERLINK_API NestedInclude {
 public:
  const std::string& Uri() const { return uri_; }
  const std::string& ResolvedFileName() const { return resolvedFileName_; }
  /// Absolute scoped name of the enclosing model ("" at world scope).
  const std::string& AbsoluteParentName() const { return absoluteParentName_; }
  const std::optional<std::string>& LocalModelName() const { return localModelName_; }
  const std::optional<bool>& IsStatic() const { return isStatic_; }
  const std::optional<Pose>& IncludeRawPose() const { return includeRawPose_; }
  const std::optional<std::string>& IncludePoseRelativeTo() const { return includePoseRelativeTo_; }
  const std::optional<std::string>& PlacementFrame() const { return placementFrame_; }
  /// The whole <include> element as written, custom elements included (null if not XML).
  const xml::XmlElement* IncludeElement() const { return includeElement_.get(); }

  void SetUri(std::string v) { uri_ = std::move(v); }
  void SetResolvedFileName(std::string v) { resolvedFileName_ = std::move(v); }
  void SetAbsoluteParentName(std::string v) { absoluteParentName_ = std::move(v); }
  void SetLocalModelName(std::optional<std::string> v) { localModelName_ = std::move(v); }
  void SetIsStatic(std::optional<bool> v) { isStatic_ = v; }
  void SetIncludeRawPose(std::optional<Pose> v) { includeRawPose_ = std::move(v); }
  void SetIncludePoseRelativeTo(std::optional<std::string> v) { includePoseRelativeTo_ = std::move(v); }
  void SetPlacementFrame(std::optional<std::string> v) { placementFrame_ = std::move(v); }
  void SetIncludeElement(std::shared_ptr<const xml::XmlElement> v) { includeElement_ = std::move(v); }

 private:
  std::string uri_;
  std::string resolvedFileName_;
  std::string absoluteParentName_;
  std::optional<std::string> localModelName_;
  std::optional<bool> isStatic_;
  std::optional<Pose> includeRawPose_;
  std::optional<std::string> includePoseRelativeTo_;
  std::optional<std::string> placementFrame_;
  std::shared_ptr<const xml::XmlElement> includeElement_;
};

}  // namespace interlink
