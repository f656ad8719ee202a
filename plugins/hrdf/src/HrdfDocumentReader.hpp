#pragma once
// The HRDF reader's state and steps, shared by its source files: HrdfReader.cpp (versions and
// attribute rules, the document, chains, includes and attachment), HrdfElements.cpp (elements,
// built-in hardware, overrides and outputs) and HrdfAttributes.cpp (attribute values).
#include <cstddef>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "HrdfRobot.hpp"
#include "interlink/plugin/HardwareServices.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::hrdf::detail {

namespace fs = std::filesystem;
using hardware::ComponentKind;
using xml::Attribute;
using xml::XmlElement;

/// The published versions, oldest first; a file's minor version indexes it.
extern const std::vector<std::string> kVersions;
std::string versionName(int minor);
std::string lower(std::string_view text);
std::optional<ElementKind> kindFromName(std::string_view name);
/// The HRDF version that introduced a built-in type (format knowledge, not physics). Types this
/// table does not know (drop-in hardware) are accepted in every version.
int minimumVersionOf(ElementKind kind, const std::string& type);

/// Attributes of an element and the minor version that introduced each.
using AttributeRules = std::vector<std::pair<const char*, int>>;
extern const AttributeRules kOverrideAttributes;
AttributeRules rulesFor(ElementKind kind);
std::string joinList(const std::vector<std::string>& items);
Pose makePose(const Matrix3& rotation, const Vector3& translation);

/// One file being read: its path and bytes, for locations inside attribute values.
struct SourceFile {
  std::string path;
  std::string_view content;
  std::vector<std::size_t> lineStarts;

  SourceFile(std::string p, std::string_view c) : path(std::move(p)), content(c) {
    lineStarts.push_back(0);
    for (std::size_t i = 0; i < content.size(); ++i)
      if (content[i] == '\n') lineStarts.push_back(i + 1);
  }

  /// Location of the character `offset` bytes into the value of attribute `a`.
  SourceLocation valueLocation(const Attribute& a, std::size_t offset) const {
    SourceLocation where = a.where;
    if (where.file.empty()) where.file = path;
    if (a.where.line <= 0 || static_cast<std::size_t>(a.where.line) > lineStarts.size()) return where;
    std::size_t i = lineStarts[static_cast<std::size_t>(a.where.line - 1)] + static_cast<std::size_t>(std::max(0, a.where.column - 1));
    while (i < content.size() && content[i] != '=') ++i;
    while (i < content.size() && content[i] != '"' && content[i] != '\'') ++i;
    if (i >= content.size()) return where;
    i += 1 + offset;
    if (i > content.size()) return where;
    const auto line = std::upper_bound(lineStarts.begin(), lineStarts.end(), i) - lineStarts.begin();
    where.line = static_cast<int>(line);
    where.column = static_cast<int>(i - lineStarts[static_cast<std::size_t>(line - 1)]) + 1;
    return where;
  }
};

/// Where the next element of a chain attaches.
struct Attach {
  int element = -1;  // -1: the robot's base frame
  int output = 0;
  bool valid = true;  // false after an error made the chain unknowable (no cascaded errors)
};

class Reader {
 public:
  Reader(const plugin::HostServices* host, Robot& robot, Diagnostics& diagnostics)
      : host_(host),
        hardware_(plugin::hostHas(host, offsetof(plugin::HostServices, hardware)) && host->hardware &&
                          host->hardware->size >= sizeof(plugin::HardwareServices)
                      ? host->hardware
                      : nullptr),
        robot_(robot),
        diagnostics_(diagnostics) {}

  bool read(std::string_view content, const std::string& path);

 private:
  void readRobotAttributes(const XmlElement& root);
  Attach readChain(const XmlElement& container, Attach attach);
  void readInclude(const XmlElement& include, Attach& attach);
  int readElement(const XmlElement& xml, ElementKind kind, const Attach& attach);
  bool readBuiltIn(const XmlElement& xml, Element& e, ComponentKind catalogKind);
  void applyOverrides(const XmlElement& xml, Element& e);
  void readOutputs(const XmlElement& xml, int index);
  bool attachTo(Element& e, const Attach& attach, const XmlElement& xml);
  void addImplicitEndEffector(const Attach& attach);

  // Attribute helpers: each reports its own errors at the offending column.
  bool checkAttributes(const XmlElement& xml, const AttributeRules& rules);
  std::optional<double> formula(const Attribute& a, const XmlElement& xml);
  std::optional<Matrix3> rotation(const Attribute& a, const XmlElement& xml);
  std::optional<Vector3> translation(const Attribute& a, const XmlElement& xml);
  std::optional<std::string> enumValue(const Attribute& a, const XmlElement& xml, const std::vector<std::string>& allowed);
  const Attribute* required(const XmlElement& xml, const char* name);

  SourceLocation at(const SourceLocation& where) const {
    SourceLocation w = where;
    if (w.file.empty()) w.file = file().path;
    return w;
  }
  const SourceFile& file() const { return files_.back(); }
  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), at(where));
  }
  void warning(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.warning(code, std::move(message), at(where));
  }

  std::string describeFamilies() const {
    return hardware_ && hardware_->describeFamilies ? hardware_->describeFamilies(hardware_->context)
                                                    : std::string("none (the host offers no hardware catalogs)");
  }

  const plugin::HostServices* host_;
  const plugin::HardwareServices* hardware_;  // null: no catalogs
  Robot& robot_;
  Diagnostics& diagnostics_;
  std::deque<SourceFile> files_;            // the include stack, root first
  struct ParsedInclude {
    std::string_view content;
    XmlElement root;
  };
  std::map<std::string, ParsedInclude> parsedIncludes_;
  std::map<ElementKind, int> counters_;
  std::map<std::string, SourceLocation> tags_;
  std::set<std::string> approximateWarned_;
  std::vector<std::vector<bool>> outputUsed_;  // per element, per output
  bool baseUsed_ = false;
};

}  // namespace interlink::hrdf::detail
