// MuJoCo's schema and compile-time checks in the MJCF reader (docs/mjcf.md, issue 27): unknown
// elements and attributes are errors worded as MuJoCo words them, with a "did you mean"; the
// children of every section are checked; every element and attribute MuJoCo 2.2.2's own schema
// lists is accepted; the references and ranges MuJoCo's compiler checks are errors at the element;
// and mesh files are read only when a geom needs their data, each once per load.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "MeshFiles.hpp"
#include "MujocoOracle.hpp"
#include "Scratch.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

std::vector<Diagnostic> errorsWith(const LoadResult& result, const std::string& text) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.isError() && d.message.find(text) != std::string::npos) found.push_back(d);
  }
  return found;
}

class MjcfSchema : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return scratch_.write(name, text); }

  test::Scratch scratch_;
  const std::string dir_ = scratch_.dir().string();
  Loader loader_;
};

TEST_F(MjcfSchema, UnknownAttributesAndElementsAreRefusedAsMujocoRefusesThem) {
  struct Case {
    const char* name;
    const char* body;            // inside <worldbody>
    const char* message;         // Interlink's error holds this
    int line;
  };
  const Case cases[] = {
      {"typo_range", "<body>\n<joint rnage='0 1'/><geom size='1'/></body>",
       "Schema violation: unrecognized attribute 'rnage' in <joint>; did you mean 'range'?", 2},
      {"typo_size", "<body><geom\n szie='1'/></body>", "unrecognized attribute 'szie' in <geom>; did you mean 'size'?", 2},
      {"bogus", "<body><geom size='1' bogusgeom='2'/></body>", "unrecognized attribute 'bogusgeom' in <geom>", 1},
      {"typo_element", "<bodyy/>", "Schema violation: unrecognized element <bodyy> in <worldbody>; did you mean <body>?", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write(std::string(c.name) + ".xml", std::string("<mujoco><worldbody>") + c.body + "</worldbody></mujoco>");
    test::expectBothRefuse(loader_, path);
    const LoadResult loaded = loader_.loadFile(path);
    const auto found = errorsWith(loaded, c.message);
    ASSERT_EQ(found.size(), 1u) << test::dump(loaded.diagnostics);
    EXPECT_EQ(found[0].where.line, c.line) << found[0].format();
    if (std::string(c.name) == "bogus") {
      EXPECT_EQ(found[0].message.find("did you mean"), std::string::npos);
    }
  }
}

/// The children of <option>, <actuator>, <sensor>, <tendon>, <equality>, <contact> and <keyframe>
/// are checked like every other element; every error is reported, each at its line.
TEST_F(MjcfSchema, EverySectionsChildrenAreChecked) {
  const std::string text = R"(<mujoco>
<option timestep="0.01" timestpe="0.02"><flag gravty="disable"/></option>
<worldbody><body name="b"><joint name="j"/><geom name="g" size="0.1"/><site name="s"/></body></worldbody>
<tendon><fixed name="t" rnage="0 1"><joint joint="j" coeff="1"/></fixed></tendon>
<actuator><motor joint="j" gera="1"/><motr joint="j"/></actuator>
<sensor><jointpos joint="j" nosie="0.1"/><jointpos2 joint="j"/></sensor>
<equality><weld body1="b" relpos="0 0 0"/></equality>
<contact><exclude body1="b" body2="world" bodyy="b"/></contact>
<keyframe><key qpos="0" qvl="0"/></keyframe>
</mujoco>)";
  const std::string path = write("sections.xml", text);
  test::expectBothRefuse(loader_, path);
  const LoadResult loaded = loader_.loadFile(path);
  const std::pair<const char*, int> expected[] = {
      {"'timestpe' in <option>; did you mean 'timestep'?", 2}, {"'gravty' in <flag>; did you mean 'gravity'?", 2},
      {"'rnage' in <fixed>; did you mean 'range'?", 4},        {"'coeff' in <joint>; did you mean 'coef'?", 4},
      {"'gera' in <motor>; did you mean 'gear'?", 5},          {"<motr> in <actuator>; did you mean <motor>?", 5},
      {"'nosie' in <jointpos>; did you mean 'noise'?", 6},     {"<jointpos2> in <sensor>", 6},
      {"'relpos' in <weld>; did you mean 'relpose'?", 7},      {"'bodyy' in <exclude>; did you mean 'body1'?", 8},
      {"'qvl' in <key>; did you mean 'qvel'?", 9}};
  for (const auto& [message, line] : expected) {
    const auto found = errorsWith(loaded, message);
    ASSERT_EQ(found.size(), 1u) << message << "\n" << test::dump(loaded.diagnostics);
    EXPECT_EQ(found[0].where.line, line) << found[0].format();
    EXPECT_NE(found[0].message.find("Schema violation"), std::string::npos);
  }
}

/// MuJoCo 2.2.2's own schema (mj_printSchema): a document with each of its elements, carrying every
/// attribute the schema lists for it, meets no schema error (values may be refused otherwise).
TEST_F(MjcfSchema, EveryElementAndAttributeOfMujocosSchemaIsKnown) {
  std::vector<char> buffer(1 << 20);
  mj_printSchema(nullptr, buffer.data(), static_cast<int>(buffer.size()), 0, 0);
  std::istringstream schema(buffer.data());
  struct Element {
    std::vector<std::string> path;
    std::vector<std::string> attributes;
  };
  std::vector<Element> elements;
  std::vector<std::pair<std::size_t, std::string>> stack;  // indentation, name
  for (std::string line; std::getline(schema, line);) {
    if (line.find_first_not_of(' ') == std::string::npos) continue;
    const bool continuation = line.compare(0, 30, std::string(30, ' ')) == 0;
    std::istringstream attributes(line.size() > 30 ? line.substr(30) : std::string());
    if (!continuation) {
      const std::size_t indent = line.find_first_not_of(' ');
      std::string name = line.substr(indent, line.find(' ', indent) - indent);
      while (!stack.empty() && stack.back().first >= indent) stack.pop_back();
      if (name == "(world)body") name = stack.size() == 1 ? "worldbody" : "body";
      stack.emplace_back(indent, name);
      Element e;
      for (const auto& entry : stack) e.path.push_back(entry.second);
      if (e.path.size() == 2 && e.path[1] == "worldbody") {
        elements.push_back(e);  // the world body itself, then as a body with its attributes
        e.path.push_back("body");
        stack.back().second = "worldbody";
      }
      elements.push_back(e);
    }
    for (std::string a; attributes >> a;) elements.back().attributes.push_back(a);
  }
  // Children of (world)body are children of <body> inside <worldbody>.
  ASSERT_GT(elements.size(), 100u);
  int attributeCount = 0;
  for (Element& e : elements) {
    std::vector<std::string> path = e.path;
    if (path.size() >= 3 && path[1] == "worldbody" && path[2] != "body") path.insert(path.begin() + 2, "body");
    std::string open, close;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      open += "<" + path[i] + ">";
      close = "</" + path[i] + ">" + close;
    }
    std::string element = "<" + path.back();
    for (const std::string& a : e.attributes) {
      if (path.back() == "worldbody") break;  // takes no attributes (MuJoCo's reference)
      element += " " + a + "=\"0\"";
      ++attributeCount;
    }
    const std::string text = path.size() == 1 ? element + "/>" : open + element + "/>" + close;
    const LoadResult loaded = loader_.loadString(text, dir_ + "/schema.xml");
    for (const Diagnostic& d : loaded.diagnostics) {
      EXPECT_EQ(d.message.find("Schema violation"), std::string::npos) << text << "\n" << d.format();
    }
  }
  EXPECT_GT(attributeCount, 900);
}

// --- compile-time checks (item 6) ----------------------------------------------------------------

TEST_F(MjcfSchema, MujocosCompileTimeChecksAreErrorsAtTheElement) {
  struct Case {
    const char* name;
    const char* model;
    const char* message;
    int line;
  };
  const char* const body = "<worldbody><body name='b'><joint name='j'/><geom name='g' size='0.1'/></body></worldbody>\n";
  const Case cases[] = {
      {"tendon_joint", "<tendon><fixed>\n<joint joint='nope' coef='1'/></fixed></tendon>",
       "names the unknown joint 'nope'", 3},
      {"tendon_site", "<tendon><spatial>\n<site site='s1'/><site site='s2'/></spatial></tendon>",
       "names the unknown site 's1'", 3},
      {"actuator_joint", "<actuator>\n<motor joint='nope'/></actuator>", "names the unknown joint 'nope'", 3},
      {"pair_geom", "<contact>\n<pair geom1='g' geom2='nope'/></contact>", "names the unknown geom 'nope'", 3},
      {"ctrlrange_auto", "<compiler autolimits='false'/><actuator>\n<motor joint='j' ctrlrange='-1 1'/></actuator>",
       "has a ctrlrange but 'ctrllimited' is auto", 3},
      {"forcerange_auto", "<compiler autolimits='false'/><actuator>\n<motor joint='j' forcerange='-1 1'/></actuator>",
       "has a forcerange but 'forcelimited' is auto", 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write(std::string(c.name) + ".xml", std::string("<mujoco>") + body + c.model + "</mujoco>");
    test::expectBothRefuse(loader_, path);
    const LoadResult loaded = loader_.loadFile(path);
    const auto found = errorsWith(loaded, c.message);
    ASSERT_EQ(found.size(), 1u) << test::dump(loaded.diagnostics);
    EXPECT_EQ(found[0].where.line, c.line) << found[0].format();
  }
  // Inside <worldbody>: a geom naming a missing material, a plane without a positive third size.
  const std::pair<const char*, const char*> geoms[] = {
      {"<geom size='1' material='nope'/>", "names the unknown material 'nope'"},
      {"<geom type='plane' size='1 1 0'/>", "plane size(3) must be positive"},
      {"<geom type='plane' size='1 1'/>", "plane size(3) must be positive"},
  };
  for (const auto& [geom, message] : geoms) {
    SCOPED_TRACE(geom);
    const std::string path = write("geom.xml", std::string("<mujoco><worldbody>\n") + geom + "</worldbody></mujoco>");
    test::expectBothRefuse(loader_, path);
    const LoadResult loaded = loader_.loadFile(path);
    const auto found = errorsWith(loaded, message);
    ASSERT_EQ(found.size(), 1u) << test::dump(loaded.diagnostics);
    EXPECT_EQ(found[0].where.line, 2) << found[0].format();
  }
  // Stateless actuators after stateful ones: MuJoCo 2.2.2 refuses the order, MuJoCo since 2.3.1
  // reads it; Interlink reads it as current MuJoCo does, with a note naming the release.
  const std::string order = write("order.xml", std::string("<mujoco>") + body +
                                                   "<actuator><cylinder joint='j'/>\n<motor joint='j'/></actuator></mujoco>");
  std::string error;
  EXPECT_FALSE(test::loadMujoco(order, error));
  EXPECT_NE(error.find("stateless actuators must come before stateful actuators"), std::string::npos) << error;
  const LoadResult loaded = loader_.loadFile(order);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  bool noted = false;
  for (const Diagnostic& d : loaded.diagnostics) {
    noted = noted || (d.severity == Severity::Note && d.message.find("2.3.1") != std::string::npos && d.where.line == 3);
  }
  EXPECT_TRUE(noted) << test::dump(loaded.diagnostics);
}

// --- mesh data read when needed, each file once -----------------------------------------------------

/// Counts the times files in a directory are opened while `action` runs (inotify IN_OPEN).
template <class Action>
int opensDuring(const std::string& directory, Action action) {
  const int fd = inotify_init1(IN_NONBLOCK);
  if (fd < 0) return -1;
  inotify_add_watch(fd, directory.c_str(), IN_OPEN);
  action();
  int opens = 0;
  alignas(inotify_event) char buffer[1 << 16];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) {
    for (char* p = buffer; p < buffer + n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(p);
      if ((event->mask & IN_OPEN) && event->len > 0 && std::string(event->name) == "part.obj") ++opens;
      p += sizeof(inotify_event) + event->len;
    }
  }
  close(fd);
  return opens;
}

TEST_F(MjcfSchema, MeshFilesAreReadWhenNeededAndOncePerLoad) {
  const std::string meshes = dir_ + "/meshes";
  fs::create_directories(meshes);
  test::writeObj(meshes + "/part.obj", test::skewedBox(Vector3(0.02, 0.03, 0.04), 0.004));
  auto model = [&](int assets, bool needed) {
    std::string text = "<mujoco><compiler meshdir='meshes'/><asset>";
    for (int i = 0; i < assets; ++i) text += "<mesh name='m" + std::to_string(i) + "' file='part.obj'/>";
    text += "</asset><worldbody>";
    for (int i = 0; i < assets; ++i) {
      const std::string n = std::to_string(i);
      // Needed: the body weighs its mesh geom; else a visual geom on a body with its own inertial.
      text += "<body name='b" + n + "' pos='" + n + " 0 0'><joint/>" +
              (needed ? std::string() : "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/>") + "<geom type='mesh' mesh='m" +
              n + "'" + (needed ? "" : " contype='0' conaffinity='0'") + "/></body>";
    }
    return text + "</worldbody></mujoco>";
  };
  const std::string one = write("one.xml", model(1, true));
  const std::string hundred = write("hundred.xml", model(100, true));
  const std::string visual = write("visual.xml", model(100, false));
  const int opensOne = opensDuring(meshes, [&] { EXPECT_TRUE(loader_.loadFile(one).ok()); });
  const int opensHundred = opensDuring(meshes, [&] { EXPECT_TRUE(loader_.loadFile(hundred).ok()); });
  const int opensVisual = opensDuring(meshes, [&] { EXPECT_TRUE(loader_.loadFile(visual).ok()); });
  EXPECT_GT(opensOne, 0);
  EXPECT_EQ(opensHundred, opensOne) << "100 assets naming one file must read it once";
  EXPECT_EQ(opensVisual, 0) << "no geom needs the mesh's data";
  // The masses of the 100 bodies are still MuJoCo's.
  std::string error;
  test::MujocoModel reference = test::loadMujoco(hundred, error);
  ASSERT_TRUE(reference) << error;
  const LoadResult loaded = loader_.loadFile(hundred);
  test::MujocoDifferential differential(reference.get(), loaded);
  const test::Comparison result = differential.compare(1, 1e-9);
  for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(result.meshBodiesWeighed, 100);
}

}  // namespace
}  // namespace interlink
