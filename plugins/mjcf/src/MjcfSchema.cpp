// The MJCF schema check (MjcfSchema.hpp). The table is data: one line per element, parsed once.
#include "MjcfSchema.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace interlink::mjcf {
namespace {

using xml::XmlElement;

/// An element or attribute name with the MuJoCo release that introduced it (empty: 2.2.2 has it)
/// or `legacy` when only MuJoCo 2.2.2 has it.
struct Name {
  std::string name;
  std::string since;
  bool legacy = false;
};

struct ElementRule {
  Name element;
  char cardinality = '*';  // '!' exactly one, '?' at most one, '*' any number
  std::vector<Name> attributes;
  std::vector<std::string> children;
};

const char* const kTable =
#include "MjcfSchemaTable.inc"
    ;

Name parseName(std::string_view word) {
  Name n;
  if (const auto at = word.find('@'); at != std::string_view::npos) {
    n.since = std::string(word.substr(at + 1));
    word = word.substr(0, at);
  } else if (!word.empty() && word.back() == '~') {
    n.legacy = true;
    word.remove_suffix(1);
  }
  n.name = std::string(word);
  return n;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    out.push_back(text.substr(start, end - start));
    at = end;
  }
  return out;
}

/// "parent/name" -> rule; the root is "/mujoco".
const std::unordered_map<std::string, ElementRule>& schema() {
  static const std::unordered_map<std::string, ElementRule> table = [] {
    std::unordered_map<std::string, ElementRule> rules;
    std::string_view text(kTable);
    while (!text.empty()) {
      const std::size_t end = std::min(text.find('\n'), text.size());
      const std::string_view line = text.substr(0, end);
      text.remove_prefix(std::min(end + 1, text.size()));
      const std::size_t colon = line.find(": "), bar = line.find(" | ");
      if (colon == std::string_view::npos || bar == std::string_view::npos) continue;
      const auto head = words(line.substr(0, colon));
      if (head.size() != 2) continue;
      ElementRule rule;
      rule.element = parseName(head[0]);
      rule.cardinality = head[1].empty() ? '*' : head[1][0];
      for (std::string_view w : words(line.substr(colon + 2, bar - colon - 2))) rule.attributes.push_back(parseName(w));
      for (std::string_view w : words(line.substr(bar + 3))) rule.children.emplace_back(w);
      std::string key = rule.element.name;
      rules.emplace(std::move(key), std::move(rule));
    }
    return rules;
  }();
  return table;
}

/// Edit distance with transpositions (optimal string alignment), for "did you mean".
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

/// "; did you mean 'x'?" for the nearest of `known`, when near enough to be a typo.
template <class Names, class NameOf>
std::string didYouMean(std::string_view wrong, const Names& known, NameOf nameOf, const char* open, const char* close) {
  std::string best;
  std::size_t bestDistance = std::max<std::size_t>(1, wrong.size() / 3) + 1;
  for (const auto& k : known) {
    const std::string& name = nameOf(k);
    const std::size_t d = distance(wrong, name);
    if (d < bestDistance) {
      bestDistance = d;
      best = name;
    }
  }
  return best.empty() ? std::string() : "; did you mean " + std::string(open) + best + close + "?";
}

class SchemaChecker {
 public:
  explicit SchemaChecker(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  void checkRoot(const XmlElement& root) {
    const auto found = schema().find("/" + root.name);
    if (found == schema().end()) return;  // the reader refuses other roots
    check(root, found->second);
  }

 private:
  void check(const XmlElement& e, const ElementRule& rule) {
    if (!rule.element.since.empty() || rule.element.legacy) noteVersion(rule.element, "<" + e.name + ">", e.where, true);
    for (const xml::Attribute& a : e.attributes) {
      const auto known = std::find_if(rule.attributes.begin(), rule.attributes.end(),
                                      [&](const Name& n) { return n.name == a.name; });
      const SourceLocation& at = a.where.line > 0 ? a.where : e.where;
      if (known == rule.attributes.end()) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "Schema violation: unrecognized attribute '" + a.name + "' in <" + e.name + ">" +
                               didYouMean(a.name, rule.attributes, [](const Name& n) -> const std::string& { return n.name; }, "'", "'"),
                           at);
        continue;
      }
      if (!known->since.empty() || known->legacy) noteVersion(*known, "<" + e.name + " " + a.name + ">", at, false);
    }
    std::unordered_map<std::string, int> counts;
    for (const XmlElement& c : e.children) {
      const bool allowed = std::find(rule.children.begin(), rule.children.end(), c.name) != rule.children.end();
      const auto child = allowed ? schema().find(e.name + "/" + c.name) : schema().end();
      if (child == schema().end()) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           "Schema violation: unrecognized element <" + c.name + "> in <" + e.name + ">" +
                               didYouMean(c.name, rule.children, [](const std::string& n) -> const std::string& { return n; }, "<", ">"),
                           c.where);
        continue;
      }
      const bool once = child->second.cardinality == '?' || child->second.cardinality == '!';
      if (once && ++counts[c.name] == 2) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                           "Schema violation: repeated element <" + c.name + "> in <" + e.name + "> (at most one allowed)",
                           c.where);
      }
      check(c, child->second);
    }
  }

  /// One note per element or attribute name that MuJoCo 2.2.2 and the current MuJoCo disagree on.
  void noteVersion(const Name& name, const std::string& what, const SourceLocation& where, bool element) {
    if (name.since.empty() && !name.legacy) return;
    if (!noted_.insert(what).second) return;
    if (name.legacy) {
      diagnostics_.add(Diagnostic{Severity::Note, element ? ErrorCode::ELEMENT_DEPRECATED : ErrorCode::ATTRIBUTE_DEPRECATED,
                                  what + " is read as MuJoCo 2.2.2 reads it; the current MuJoCo XML reference no longer has "
                                         "it, so current MuJoCo releases refuse this file (reported once)",
                                  where});
      return;
    }
    const std::string release = name.since == "after-2.2.2" ? "a release after 2.2.2" : name.since;
    diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                what + " is read as the current MuJoCo XML reference defines it; it was introduced by MuJoCo " +
                                    release + ", so older MuJoCo releases (Debian's 2.2.2 among them) refuse this file "
                                    "(reported once)",
                                where});
  }

  Diagnostics& diagnostics_;
  std::set<std::string> noted_;
};

}  // namespace

void checkSchema(const xml::XmlElement& root, Diagnostics& diagnostics) { SchemaChecker(diagnostics).checkRoot(root); }

}  // namespace interlink::mjcf
