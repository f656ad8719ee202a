#pragma once
// Where a model was read from and the rules it was read under. The framework stamps it on every
// model of the document a plugin returns (plugins leave it alone), so each included file keeps its
// own format and version (SDFormat 1.6 name rules apply to a 1.6 file even inside a 1.9 world). A
// recorded core model (the interlink_model plugin) brings its models' sources, and keeps them.
#include <string>

namespace interlink {

struct ModelSource {
  std::string file;           // absolute path (empty for text loaded without a file)
  std::string format;         // plugin name ("sdformat", "hrdf"); "interface" for host parsers
  std::string formatVersion;  // the file's own version as written ("1.6"); empty when none
  /// Built from a host parser's InterfaceModel: its joints name only a child frame, so they take
  /// part in the frame graph but not in the kinematic tree.
  bool fromInterfaceModel = false;

  /// SDFormat's version-dependent rules (before 1.7: joints and links have separate names).
  /// `version` names a release with a one-digit minor (1.7, 1.8); the file's version is compared
  /// as <major>.<minor> integers, so "1.10" is after 1.9 (not 1.1).
  bool sdformatBefore(double version) const;
};

inline bool ModelSource::sdformatBefore(double version) const {
  if (format != "sdformat" || formatVersion.empty()) return false;
  int major = 0;
  int minor = 0;
  bool fraction = false;
  for (char c : formatVersion) {
    if (c == '.') {
      if (fraction) break;
      fraction = true;
    } else if (c >= '0' && c <= '9') {
      int& part = fraction ? minor : major;
      if (part < 100000) part = part * 10 + (c - '0');
    } else {
      break;
    }
  }
  const int askedMajor = static_cast<int>(version + 1e-9);
  const int askedMinor = static_cast<int>((version - askedMajor) * 10 + 0.5);
  return major < askedMajor || (major == askedMajor && minor < askedMinor);
}

}  // namespace interlink
