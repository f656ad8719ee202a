#include "BenchInputs.hpp"

#include <filesystem>
#include <fstream>

namespace interlink::bench {
namespace {

std::string str(int value) { return std::to_string(value); }

// Kept compact (one line per element) so the sizes match the issue's
// figures: 4000 chain links are about 1.2 MB.
void appendRevolute(std::string& out, const std::string& name, const std::string& parent, const std::string& child) {
  out += "    <joint name=\"" + name + "\" type=\"revolute\"><parent>" + parent + "</parent><child>" + child +
         "</child><axis><xyz>0 1 0</xyz></axis></joint>\n";
}

}  // namespace

std::string serialChainSdf(int links) {
  std::string out = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <model name=\"chain\">\n";
  out.reserve(static_cast<std::size_t>(links) * 320 + 128);
  for (int i = 0; i < links; ++i) {
    const std::string link = "link_" + str(i);
    const std::string previous = i == 0 ? std::string("world") : "link_" + str(i - 1);
    const std::string pose = i == 0 ? std::string("<pose>0 0 0.1 0 0 0</pose>")
                                    : "<pose relative_to=\"" + previous + "\">0 0 0.1 0 0.01 0</pose>";
    out += "    <link name=\"" + link + "\">" + pose + "</link>\n";
    out += "    <frame name=\"frame_" + str(i) + "\" attached_to=\"" + link + "\"><pose>0 0 0.05 0 0 0</pose></frame>\n";
    appendRevolute(out, "joint_" + str(i), previous, link);
  }
  out += "  </model>\n</sdf>\n";
  return out;
}

std::string worldOfModelsSdf(int models) {
  std::string out = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <world name=\"many\">\n";
  out.reserve(static_cast<std::size_t>(models) * 380 + 128);
  for (int i = 0; i < models; ++i) {
    out += "    <model name=\"m" + str(i) + "\"><pose>" + str(i % 50) + " " + str(i / 50) + " 0 0 0 0.5</pose>\n";
    out += "      <link name=\"base\"/>\n";
    out += "      <link name=\"arm\"><pose relative_to=\"base\">0 0 0.2 0 0 0</pose></link>\n";
    out += "      <joint name=\"hinge\" type=\"revolute\"><parent>base</parent><child>arm</child>"
           "<axis><xyz>0 0 1</xyz></axis></joint>\n";
    out += "      <frame name=\"tip\" attached_to=\"arm\"><pose>0 0 0.1 0 0 0</pose></frame>\n";
    out += "    </model>\n";
  }
  out += "  </world>\n</sdf>\n";
  return out;
}

std::string serialChainUrdf(int links) {
  std::string out = "<?xml version=\"1.0\"?>\n<robot name=\"chain\">\n";
  out.reserve(static_cast<std::size_t>(links) * 360 + 128);
  for (int i = 0; i < links; ++i) {
    out += "  <link name=\"link_" + str(i) +
           "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
           "izz=\"0.01\"/></inertial></link>\n";
    if (i == 0) continue;
    out += "  <joint name=\"joint_" + str(i) + "\" type=\"revolute\"><parent link=\"link_" + str(i - 1) +
           "\"/><child link=\"link_" + str(i) +
           "\"/><origin xyz=\"0 0 0.1\" rpy=\"0 0.01 0\"/><axis xyz=\"0 1 0\"/>"
           "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/></joint>\n";
  }
  out += "</robot>\n";
  return out;
}

std::string smallJuiceModel(int seed) {
  const std::string a = str(1000 + 2 * seed);
  const std::string b = str(1001 + 2 * seed);
  auto body = [](const std::string& id, const std::string& name, const char* z) {
    return "\t\t<Body>\n\t\t\t<ID>" + id + "</ID>\n\t\t\t<Name>" + name +
           "</Name>\n\t\t\t<Position>\n\t\t\t\t<X>0</X>\n\t\t\t\t<Y>0</Y>\n\t\t\t\t<Z>" + z +
           "</Z>\n\t\t\t</Position>\n\t\t\t<Rotation>\n\t\t\t\t<Y>0</Y>\n\t\t\t\t<P>0</P>\n\t\t\t\t<R>0</R>\n"
           "\t\t\t</Rotation>\n\t\t\t<Twin>0</Twin>\n\t\t\t<BoxDimensions>\n\t\t\t\t<X>1</X>\n\t\t\t\t<Y>1</Y>\n"
           "\t\t\t\t<Z>2</Z>\n\t\t\t</BoxDimensions>\n\t\t\t<Shape>1</Shape>\n\t\t\t<Mass>1</Mass>\n\t\t</Body>\n";
  };
  std::string out = "<Model FileVersion=\"1\">\n\t<Gravity>50</Gravity>\n\t<Bodies>\n";
  out += body(a, "Lower", "1");
  out += body(b, "Upper", "3");
  out += "\t</Bodies>\n\t<RevoluteJoints>\n\t\t<RevoluteJoint>\n\t\t\t<ID>" + str(900000 + seed) +
         "</ID>\n\t\t\t<Name>Knee</Name>\n\t\t\t<Position>\n\t\t\t\t<X>0</X>\n\t\t\t\t<Y>0</Y>\n\t\t\t\t<Z>2</Z>\n"
         "\t\t\t</Position>\n\t\t\t<Rotation>\n\t\t\t\t<Y>0</Y>\n\t\t\t\t<P>0</P>\n\t\t\t\t<R>90</R>\n"
         "\t\t\t</Rotation>\n\t\t\t<Twin>0</Twin>\n\t\t\t<Body1>" +
         a + "</Body1>\n\t\t\t<Body2>" + b +
         "</Body2>\n\t\t\t<LoStopValue>-45</LoStopValue>\n\t\t\t<HiStopValue>45</HiStopValue>\n"
         "\t\t\t<LoStopFlag>1</LoStopFlag>\n\t\t\t<HiStopFlag>1</HiStopFlag>\n\t\t</RevoluteJoint>\n"
         "\t</RevoluteJoints>\n\t<PrismaticJoints>\n\t</PrismaticJoints>\n\t<SphericalJoints>\n"
         "\t</SphericalJoints>\n</Model>\n";
  return out;
}

std::string smallSdfModel(int seed) {
  std::string out = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <model name=\"part_" + str(seed) + "\">\n";
  out += "    <link name=\"base\"/>\n";
  out += "    <link name=\"arm\"><pose relative_to=\"base\">0 0 0.2 0 0 0</pose></link>\n";
  out += "    <joint name=\"hinge\" type=\"revolute\"><parent>base</parent><child>arm</child>"
         "<axis><xyz>0 0 1</xyz></axis></joint>\n";
  out += "    <frame name=\"tip\" attached_to=\"arm\"><pose>0 0 0.1 0 0 0</pose></frame>\n";
  out += "  </model>\n</sdf>\n";
  return out;
}

std::string compositionSdf(int count, const std::string& directory, const std::string& extension) {
  std::string out = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <model name=\"assembly\">\n";
  out += "    <link name=\"base\"/>\n";
  for (int i = 0; i < count; ++i) {
    out += "    <include><uri>" + directory + "/part_" + str(i) + "." + extension + "</uri><name>part_" + str(i) +
           "</name><pose>" + str(i % 25) + " " + str(i / 25) + " 0 0 0 0</pose></include>\n";
  }
  out += "  </model>\n</sdf>\n";
  return out;
}

bool writeFile(const std::string& path, const std::string& text) {
  std::error_code error;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

std::string writeComposition(const std::string& directory, int count, const std::string& extension) {
  for (int i = 0; i < count; ++i) {
    const std::string part = extension == "jm" ? smallJuiceModel(i) : smallSdfModel(i);
    if (!writeFile(directory + "/parts/part_" + str(i) + "." + extension, part)) return {};
  }
  const std::string model = directory + "/model.sdf";
  return writeFile(model, compositionSdf(count, "parts", extension)) ? model : std::string();
}

}  // namespace interlink::bench
