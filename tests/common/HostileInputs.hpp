#pragma once
// Generators of hostile model texts, shared by tests/hostile (each must end quickly with a
// verdict) and bench/hostile (the time must grow linearly with n). Nothing here is committed as
// a file: every input is made when needed.
#include <string>
#include <utility>
#include <vector>

namespace interlink::test::hostile {

/// A URDF chain of n links (n - 1 joints): the loop check once walked to the root from every link.
inline std::string urdfChain(int n) {
  std::string text = "<robot name=\"chain\">\n";
  for (int i = 0; i < n; ++i) text += "<link name=\"l" + std::to_string(i) + "\"/>\n";
  for (int i = 1; i < n; ++i) {
    text += "<joint name=\"j" + std::to_string(i) + "\" type=\"fixed\"><parent link=\"l" + std::to_string(i - 1) +
            "\"/><child link=\"l" + std::to_string(i) + "\"/></joint>\n";
  }
  return text + "</robot>\n";
}

/// A minified (one-line) Shift JSON file with n bodies and n joints in a chain: columns were once
/// counted from the line start for every value.
inline std::string shiftMinified(int n) {
  std::string text = R"({"model_parameters":{"version":"0.2"},"assemblies":[{"name":"arm","bodies":[)";
  for (int i = 0; i < n; ++i) text += std::string(i ? "," : "") + R"({"name":"b)" + std::to_string(i) + R"(","mass":1.0})";
  text += R"(],"joints":[)";
  for (int i = 0; i < n; ++i) {
    const std::string parent = i == 0 ? "fixed" : "b" + std::to_string(i - 1);
    text += std::string(i ? "," : "") + R"({"name":"j)" + std::to_string(i) + R"(","type":"Rx","body_frame_pairs":[[")" +
            parent + R"(","origin"],["b)" + std::to_string(i) + R"(","origin"]]})";
  }
  return text + "]}]}";
}

/// A Shift file whose n joints all have one name (n - 1 DUPLICATE_NAME errors, found in one lookup each).
inline std::string shiftDuplicateJoints(int n) {
  std::string text = R"({"model_parameters":{"version":"0.2"},"assemblies":[{"name":"arm","bodies":[)";
  for (int i = 0; i < n; ++i) text += std::string(i ? "," : "") + R"({"name":"b)" + std::to_string(i) + R"(","mass":1.0})";
  text += "],\n\"joints\":[";
  for (int i = 0; i < n; ++i) {
    const std::string parent = i == 0 ? "fixed" : "b" + std::to_string(i - 1);
    text += std::string(i ? ",\n" : "") + R"({"name":"j","type":"Rx","body_frame_pairs":[[")" + parent +
            R"(","origin"],["b)" + std::to_string(i) + R"(","origin"]]})";
  }
  return text + "]}]}\n";
}

/// `head`, `element` n times, `tail`.
inline std::string repeated(const std::string& head, const std::string& element, int n, const std::string& tail) {
  std::string text = head;
  text.reserve(head.size() + element.size() * static_cast<std::size_t>(n) + tail.size());
  for (int i = 0; i < n; ++i) text += element;
  return text + tail;
}

/// A SKEL world of n skeletons that are all named "s" (DART renames them "s(1)", "s(2)", ...).
inline std::string skelDuplicateSkeletons(int n) {
  return repeated("<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world name=\"w\">\n",
                  "<skeleton name=\"s\"><body name=\"b\"><transformation>0 0 0 0 0 0</transformation></body>"
                  "<joint type=\"free\" name=\"j\"><parent>world</parent><child>b</child></joint></skeleton>\n",
                  n, "</world>\n</skel>\n");
}

/// A Juice model of n bodies with one name and one ID (each repeat is reported and renamed).
inline std::string juiceDuplicateBodies(int n) {
  return repeated("<Model FileVersion=\"1\">\n<Bodies>\n",
                  "<Body><ID>1</ID><Name>B</Name><Position><X>0</X><Y>0</Y><Z>0</Z></Position>"
                  "<Rotation><Y>0</Y><P>0</P><R>0</R></Rotation><Twin>0</Twin></Body>\n",
                  n, "</Bodies>\n</Model>\n");
}

/// An SDFormat file whose root element carries n attributes (Xerces checks each against all earlier ones).
inline std::string xmlManyAttributes(int n) {
  std::string text = "<sdf version=\"1.9\"";
  for (int i = 0; i < n; ++i) text += " a" + std::to_string(i) + "=\"1\"";
  return text + "><model name=\"m\"><link name=\"l\"/></model></sdf>\n";
}

/// Files to write side by side, name and text.
using FileSet = std::vector<std::pair<std::string, std::string>>;

/// f0.sdf ... f<levels-1>.sdf: each includes the next twice; 2^levels models if nothing stops it.
inline FileSet sdformatIncludeBomb(int levels) {
  FileSet files;
  for (int i = 0; i < levels; ++i) {
    const std::string next = "f" + std::to_string(i + 1) + ".sdf";
    std::string body = "<link name=\"l\"/>";
    if (i + 1 < levels) {
      body += "<include><uri>" + next + "</uri><name>a</name></include><include><uri>" + next + "</uri><name>b</name></include>";
    }
    files.emplace_back("f" + std::to_string(i) + ".sdf",
                       "<sdf version=\"1.9\"><model name=\"m" + std::to_string(i) + "\">" + body + "</model></sdf>\n");
  }
  return files;
}

/// h0.hrdf ... h<levels-1>.hrdf: the same with HRDF <include path>.
inline FileSet hrdfIncludeBomb(int levels) {
  FileSet files;
  for (int i = 0; i < levels; ++i) {
    const std::string next = "h" + std::to_string(i + 1) + ".hrdf";
    const std::string body = i + 1 < levels ? "<include path=\"" + next + "\"/><include path=\"" + next + "\"/>"
                                            : "<actuator type=\"X5-1\"/>";
    files.emplace_back("h" + std::to_string(i) + ".hrdf", "<robot version=\"1.6.0\">" + body + "</robot>\n");
  }
  return files;
}

}  // namespace interlink::test::hostile
