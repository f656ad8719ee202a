#pragma once
// The Juice reader's state and steps, shared by its source files: JuiceReader.cpp (the entry
// points and reading the components) and JuiceModelBuild.cpp (IDs and twins checked, names
// assigned, links and joints built).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "JuiceConventions.hpp"
#include "JuiceReader.hpp"
#include "JuiceRecords.hpp"
#include "JuiceSymmetry.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::juice::detail {

using xml::XmlElement;

inline constexpr double kPi = 3.14159265358979323846;
/// Juice's application preference when a file has no <Gravity> (UserPreferences: 9.81).
inline constexpr double kDefaultGravity = 9.81;

/// Juice stores IDs as 32-bit integers written in decimal; newer files use hexadecimal
/// serialization IDs. Decimal ones are compared by value ("00000000" is 0), others as written.
std::string canonicalId(const std::string& text);
/// The name without "::", which separates scopes in Interlink names.
std::string sanitizeName(std::string name);

class Reader {
 public:
  Reader(std::string path, Document& document, Diagnostics& diagnostics)
      : path_(std::move(path)), document_(document), diagnostics_(diagnostics) {}

  /// Step 2: the components read and checked (IDs, twins, symmetry), then mapped onto the model.
  void map(const XmlElement& modelElement);

 private:
  SourceLocation at(const XmlElement& e) const;

  // ---------------------------------------------------------------- reading
  void readVersion(const XmlElement& root);

  /// Juice writes no attributes below <Model>; any found is reported (behaviours are opaque).
  void checkNoAttributes(const XmlElement& e, const std::string& parentPath);

  /// Unknown children are reported and kept (never dropped silently).
  void reportUnknown(const XmlElement& child, const std::string& parentPath, const std::string& expected);

  std::optional<double> number(const XmlElement& e, const std::string& what);

  void readNumber(const XmlElement& e, const std::string& what, double& into);

  void readFlag(const XmlElement& e, const std::string& what, bool& into);

  /// <X>, <Y>, <Z> children (or Y, P, R for rotations).
  void readTriple(const XmlElement& e, const std::string& path, const char* const names[3], double* into[3]);

  void readVector(const XmlElement& e, const std::string& path, Vector3& into);

  void readModelParameters(const XmlElement& root);

  void readComponents(const XmlElement& root);

  template <typename ReadOne>
  void readList(const XmlElement& list, const std::string& itemName, ReadOne readOne) {
    checkNoText(list, "Model/" + list.name);
    for (const XmlElement& c : list.children) {
      if (c.name == itemName)
        readOne(c);
      else
        reportUnknown(c, "Model/" + list.name, "<" + itemName + ">");
    }
  }

  /// A child that may appear once: later repeats are reported and skipped (the first counts).
  bool firstOccurrence(const XmlElement& c, std::set<std::string>& seen, const std::string& path);

  /// Containers hold elements only; stray text is reported rather than dropped silently.
  void checkNoText(const XmlElement& e, const std::string& path);

  void checkMissing(const std::set<std::string>& seen, const Component& c, const std::string& path,
                    std::initializer_list<const char*> names);

  /// IDs are decimal integers, or hexadecimal serialization IDs in newer files.
  void checkIdText(const XmlElement& c, const std::string& path);

  /// Reads a child shared by bodies and joints; false when the child is not one of them.
  bool readComponentChild(const XmlElement& c, const std::string& path, Component& component);

  void readBody(const XmlElement& e);

  void checkBodySizes(const Body& body, const XmlElement& e);

  void readJoint(const XmlElement& e, JointKind kind);

  // ---------------------------------------------------------------- checks
  void checkDuplicateIds();

  /// Core names: "<Name>_<ID>" (Juice names repeat, IDs do not). See docs/juice.md.
  void assignNames();

  /// Juice resolves a twin within its own list (bodies among bodies, hinges among hinges, ...).
  template <typename Item>
  void checkTwinsOf(const std::vector<Item>& items, const std::string& listName,
                    const std::function<bool(const Item&)>& sameList, const std::function<std::string(const Item&)>& word) {
    std::map<std::string, std::size_t> byId;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (sameList(items[i]) && !items[i].id.empty()) byId.emplace(items[i].id, i);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (!sameList(item) || isNoReference(item.twin)) continue;
      SourceLocation where = item.twinWhere.line > 0 ? item.twinWhere : item.where;
      auto it = byId.find(item.twin);
      if (it == byId.end()) {
        diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                             "Twin " + item.twinText + " of " + word(item) + " " + inQuotes(item.name) +
                                 " names nothing in <" + listName + ">; expected the ID of its mirror partner or 0",
                             where);
        continue;
      }
      const Item& twin = items[it->second];
      if (twin.twin != item.id) {
        diagnostics_.warning(ErrorCode::ELEMENT_INVALID,
                             "Twin of " + word(item) + " " + inQuotes(item.name) + " (ID " + item.id + ") is " +
                                 inQuotes(twin.name) + " (ID " + twin.id + "), whose Twin is " +
                                 (twin.twinText.empty() ? std::string("missing") : twin.twinText) +
                                 "; expected twins to point back to each other",
                             where);
        continue;
      }
      if (it->second > i) recordTwins(item, twin);
    }
  }

  void recordTwins(const Body& a, const Body& b) { bodyTwins_.push_back({&a, &b}); }
  void recordTwins(const JointRecord& a, const JointRecord& b) { jointTwins_.push_back({&a, &b}); }

  void checkTwins();

  // ---------------------------------------------------------------- mapping
  static Pose bodyPose(const Body& b);

  void buildLinks();

  /// Returns the body index, or reports why the reference is unusable.
  std::optional<std::size_t> resolveBody(const JointRecord& j, bool first);

  void buildJoints();

  static bool isAncestor(const std::vector<int>& parentOf, std::size_t candidate, std::size_t of);

  std::string path_;
  Document& document_;
  Diagnostics& diagnostics_;
  Model model_;
  JuiceComponents components_;
  std::vector<Body> bodies_;
  std::vector<JointRecord> joints_;
  std::map<std::string, std::size_t> bodyById_;
  std::vector<BodyTwins> bodyTwins_;
  std::vector<JointTwins> jointTwins_;
};

}  // namespace interlink::juice::detail
