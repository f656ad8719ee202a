#pragma once
// Helpers shared by the Juice tests: one loader for the process, temp files, diagnostic queries.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::test::juice {

/// Plugins are discovered once: every test goes through the real registry and shared libraries.
inline const Loader& loader() { return test::sharedLoader(); }

inline LoadResult load(const std::string& path) { return loader().loadFile(path); }

inline std::vector<const Diagnostic*> withCode(const Diagnostics& diagnostics, ErrorCode code) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : diagnostics)
    if (d.code == code) out.push_back(&d);
  return out;
}

/// A directory of its own per test process, removed at exit.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("interlink_juice_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::string& content) const {
    std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

inline const TempDir& tempDir() {
  static const TempDir dir;
  return dir;
}

/// White-space separated words ("1 2 3" -> {"1", "2", "3"}).
inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text + " ") {
    if (c != ' ') {
      current += c;
    } else if (!current.empty()) {
      out.push_back(current);
      current.clear();
    }
  }
  return out;
}

/// A minimal body element; `extra` is inserted before </Body>.
inline std::string body(const std::string& id, const std::string& name, const std::string& xyz,
                        const std::string& ypr = "0 0 0", const std::string& twin = "0",
                        const std::string& extra = "<BoxDimensions><X>1</X><Y>1</Y><Z>1</Z></BoxDimensions>"
                                                   "<Shape>1</Shape><Mass>1</Mass>") {
  auto p = words(xyz);
  auto r = words(ypr);
  return "  <Body>\n    <ID>" + id + "</ID>\n    <Name>" + name + "</Name>\n    <Position><X>" + p[0] + "</X><Y>" +
         p[1] + "</Y><Z>" + p[2] + "</Z></Position>\n    <Rotation><Y>" + r[0] + "</Y><P>" + r[1] + "</P><R>" + r[2] +
         "</R></Rotation>\n    <Twin>" + twin + "</Twin>\n    " + extra + "\n  </Body>\n";
}

/// A minimal joint element of `kind` ("RevoluteJoint", "PrismaticJoint", "SphericalJoint").
inline std::string joint(const std::string& kind, const std::string& id, const std::string& name,
                         const std::string& body1, const std::string& body2, const std::string& xyz = "0 0 0",
                         const std::string& ypr = "0 0 0", const std::string& stops = "", const std::string& twin = "0") {
  auto p = words(xyz);
  auto r = words(ypr);
  std::string s = stops.empty() ? "<LoStopValue>0</LoStopValue><HiStopValue>0</HiStopValue>"
                                  "<LoStopFlag>0</LoStopFlag><HiStopFlag>0</HiStopFlag>"
                                : stops;
  std::string display = kind == "SphericalJoint" ? "<Diameter>0.25</Diameter>" : "<Length>1</Length><Diameter>0.25</Diameter>";
  return "  <" + kind + ">\n    <ID>" + id + "</ID>\n    <Name>" + name + "</Name>\n    <Position><X>" + p[0] +
         "</X><Y>" + p[1] + "</Y><Z>" + p[2] + "</Z></Position>\n    <Rotation><Y>" + r[0] + "</Y><P>" + r[1] +
         "</P><R>" + r[2] + "</R></Rotation>\n    <Twin>" + twin + "</Twin>\n    <Body1>" + body1 +
         "</Body1>\n    <Body2>" + body2 + "</Body2>\n    <Gain>10</Gain><MaxForce>700</MaxForce>\n    " + s +
         "\n    " + display + "\n  </" + kind + ">\n";
}

/// A whole file around the given sections.
inline std::string modelFile(const std::string& bodies, const std::string& revolute = "",
                             const std::string& prismatic = "", const std::string& spherical = "",
                             const std::string& extraModelChildren = "") {
  return "<Model FileVersion=\"1\">\n<Gravity>20</Gravity>\n<Friction>75</Friction>\n<ERP>1</ERP>\n<CFM>0.005</CFM>\n"
         "<StandardSpeed>35</StandardSpeed>\n<SpeedFactor>1.27</SpeedFactor>\n<PoseDelay>1</PoseDelay>\n"
         "<PosePhase>90</PosePhase>\n" +
         extraModelChildren + "<Bodies>\n" + bodies + "</Bodies>\n<RevoluteJoints>\n" + revolute +
         "</RevoluteJoints>\n<PrismaticJoints>\n" + prismatic + "</PrismaticJoints>\n<SphericalJoints>\n" + spherical +
         "</SphericalJoints>\n<Behaviors>\n</Behaviors>\n</Model>\n";
}

/// Line (1-based) of the first occurrence of `needle` in `text`, 0 if absent.
inline int lineOf(const std::string& text, const std::string& needle) {
  std::size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++line;
  return line;
}

}  // namespace interlink::test::juice
