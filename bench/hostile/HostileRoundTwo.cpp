// The rows of `bench_hostile --table` for the second round of hostile inputs (issue 29): each
// generated in a scratch directory and run by the real CLI in its own process, like the first
// round's (HostileTable.cpp), under the same bounds: one second of CPU time and 256 MiB.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "HostileInputs.hpp"
#include "HostileRoundTwoInputs.hpp"
#include "HostileTable.hpp"

namespace interlink::bench {
namespace {

namespace fs = std::filesystem;
namespace hostile = interlink::test::hostile;

std::string put(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  return file.string();
}

std::string fifo(const fs::path& file) {
  fs::create_directories(file.parent_path());
  ::mkfifo(file.c_str(), 0600);
  return file.string();
}

/// A SKEL model of one body whose mesh is `mesh` (written as `bytes` unless empty).
std::function<std::string(const fs::path&)> skelWith(const std::string& mesh, const std::string& bytes) {
  return [mesh, bytes](const fs::path& d) {
    if (!bytes.empty()) put(d / mesh, bytes);
    return put(d / "robot.skel", hostile::skelMesh(mesh));
  };
}

}  // namespace

std::vector<HostileCase> roundTwoCases(const fs::path& pluginDir) {
  std::vector<HostileCase> list = {
      {"FIFO as an OBJ's mtllib (SKEL mesh)",
       [](const fs::path& d) {
         fifo(d / "pipe.mtl");
         put(d / "cube.obj", hostile::objCube("mtllib pipe.mtl"));
         return put(d / "robot.skel", hostile::skelMesh("cube.obj"));
       }, "FILE_READ"},
      {"FIFO as a Shift body mesh",
       [](const fs::path& d) {
         fifo(d / "pipe.obj");
         return put(d / "robot.json", hostile::shiftMesh("pipe.obj"));
       }, "FILE_READ"},
      {"glTF buffer naming a text file (its bytes as vertices)",
       [](const fs::path& d) {
         put(d / "secret.txt", std::string(64, 'A'));
         put(d / "leak.gltf", hostile::gltfWithBuffer("secret.txt", 36));
         return put(d / "robot.skel", hostile::skelMesh("leak.gltf"));
       }, "FILE_READ"},
      {"OBJ mtllib outside the model's tree (--confine)",
       [](const fs::path& d) {
         put(d / "outside" / "secret.mtl", "newmtl s\n");
         put(d / "project" / "cube.obj", hostile::objCube("mtllib ../outside/secret.mtl"));
         return put(d / "project" / "robot.skel", hostile::skelMesh("cube.obj"));
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"MJCF mesh outside the model's tree (--confine)",
       [](const fs::path& d) {
         put(d / "outside" / "cube.stl", hostile::stlCube());
         return put(d / "project" / "robot.xml", hostile::mjcfMeshAssets("../outside/cube.stl"));
       }, "PATH_OUTSIDE_ROOTS", {"--confine"}},
      {"OFF header claiming 1e8 vertices (not a supported format)", skelWith("bomb.off", hostile::offClaiming()), "FILE_READ"},
      {"X3D scene (not a supported format)",
       skelWith("scene.x3d", "<X3D><Scene><Transform><Transform/></Transform></Scene></X3D>"), "FILE_READ"},
      {"3MF archive (not a supported format)", skelWith("scene.3mf", "PK\x03\x04 an archive"), "FILE_READ"},
      {"DirectX .x (not a supported format)", skelWith("scene.x", "xof 0303txt 0032\nFrame { Frame { } }\n"), "FILE_READ"},
      {"113-byte PLY claiming 2e7 vertices", skelWith("claim.ply", hostile::plyClaiming(20000000)), "FILE_READ"},
      {"PLY face naming a vertex the file lacks", skelWith("tetra.ply", hostile::plyFaceNamingMissingVertex()), "FILE_READ"},
      {"COLLADA on which Assimp dereferences null (decoded in its own process)",
       skelWith("misspelt.dae", hostile::colladaMisspeltCount()), "FILE_READ"},
      {"COLLADA with 10 000 nested nodes", skelWith("deep.dae", hostile::colladaNestedNodes(10000)), "MESH_LIMIT"},
      {"glTF chain of 20 000 nodes", skelWith("chain.gltf", hostile::gltfNodeChain(20000)), "MESH_LIMIT"},
      {"glTF nodes in a cycle", skelWith("cycle.gltf", hostile::gltfNodeChain(2, true)), "FILE_READ"},
      {"OBJ face of 25 000 corners (SKEL triangulates)", skelWith("polygon.obj", hostile::objPolygon(25000)), "MESH_LIMIT"},
      {"100 MJCF mesh assets naming one OBJ",
       [](const fs::path& d) {
         put(d / "cube.obj", hostile::objCube());
         return put(d / "robot.xml", hostile::mjcfMeshAssets("cube.obj", 100));
       }, ""},
      {"MJCF includes splicing 10 files x 500 nested bodies",
       [](const fs::path& d) {
         const auto files = hostile::mjcfDeepIncludes(10, 500);
         for (const auto& [name, text] : files) put(d / name, text);
         return (d / files.front().first).string();
       }, "INCLUDE_DEPTH"},
      {"convert a 10 000-link chain to MJCF (nests deeper than MJCF reads back)",
       [](const fs::path& d) { return put(d / "chain.urdf", hostile::urdfChain(10000)); }, "deeper than 512", {}, false,
       {"convert", "{}", "-o", "/dev/null", "--to", "mjcf"}},
      {"SKEL chain of 20 000 joints", [](const fs::path& d) { return put(d / "chain.skel", hostile::skelJointChain(20000)); }, ""},
      {"URDF joint offsets of 1.5e308 twice",
       [](const fs::path& d) { return put(d / "overflow.urdf", hostile::urdfOverflowingOffsets()); }, "VALUE_INVALID"},
      {"URDF joint mimicking itself",
       [](const fs::path& d) { return put(d / "self.urdf", hostile::urdfMimicCycle(1)); }, "JOINT_AXIS_MIMIC_INVALID"},
      {"URDF mimic cycle of 20 000 joints",
       [](const fs::path& d) { return put(d / "cycle.urdf", hostile::urdfMimicCycle(20000)); }, "JOINT_AXIS_MIMIC_INVALID"},
      {"MJCF equality coupling a joint to itself",
       [](const fs::path& d) { return put(d / "self.xml", hostile::mjcfEqualityCycle(1)); }, "JOINT_AXIS_MIMIC_INVALID"},
      {"MJCF equality couplings in a cycle of 20 000 joints, 10 per body (--strict)",
       [](const fs::path& d) { return put(d / "cycle.xml", hostile::mjcfEqualityCycle(20000, 10)); }, "DEVIATION_TOLERATED",
       {"--strict"}},
      {"interlink frames > /dev/full",
       [](const fs::path& d) { return put(d / "chain.urdf", hostile::urdfChain(200)); }, "cannot write", {}, false,
       {"frames", "{}"}, "/dev/full"},
      {"interlink check > /dev/full",
       [](const fs::path& d) { return put(d / "chain.urdf", hostile::urdfChain(200)); }, "cannot write", {}, false,
       {"check", "{}"}, "/dev/full"},
      {"world-writable plugin directory (interlink plugins)",
       [pluginDir](const fs::path& d) {
         fs::create_directories(d / "plugins");
         fs::copy_file(pluginDir / "libinterlink_plugin_urdf.so", d / "plugins" / "libinterlink_plugin_urdf.so");
         ::chmod((d / "plugins").c_str(), 0777);
         return (d / "plugins").string();
       }, "PLUGIN_REFUSED", {}, true},
  };
  // A plugin that calls exit(0) while reading (built with the tests: test_plugins/hostile/exit).
  const fs::path exiting = pluginDir.parent_path().parent_path().parent_path() / "test_plugins" / "hostile" / "exit" /
                           "libtest_plugin_exiting.so";
  std::error_code ec;
  if (fs::exists(exiting, ec)) {
    list.push_back({"plugin calling exit(0) while reading",
                    [exiting](const fs::path& d) {
                      fs::create_directories(d / "plugins");
                      fs::copy_file(exiting, d / "plugins" / exiting.filename());
                      return put(d / "model.exit", "anything\n");
                    },
                    "before a verdict", {}, false, {"check", "{}"}});
  }
  // Libraries whose constructor aborts or marks (built with the tests: test_plugins/hostile/constructor),
  // in the plugin path of a check of a valid SDFormat file: examined by the plugin scanner only.
  const fs::path constructors = exiting.parent_path().parent_path() / "constructor";
  if (fs::exists(constructors / "libtest_plugin_constructor_aborts.so", ec)) {
    auto withConstructors = [constructors](const fs::path& d) {
      fs::create_directories(d / "plugins");
      for (const char* variant : {"aborts", "crashes", "exits"}) {
        const std::string name = std::string("libtest_plugin_constructor_") + variant + ".so";
        fs::copy_file(constructors / name, d / "plugins" / name);
      }
      return put(d / "ok.sdf", "<sdf version='1.9'><model name='m'><link name='l'/></model></sdf>\n");
    };
    list.push_back({"libraries whose constructors abort, crash, exit in the plugin path (check ok.sdf)", withConstructors,
                    ""});
    list.push_back({"the same libraries (interlink plugins)", withConstructors, "the plugin scanner", {}, true});
  }
  // Eight Python threads calling loads().frames() at once in a fresh interpreter (they deadlocked
  // when NumPy was first imported by a thread): the built package, when the build has it.
  const fs::path pythonPackage = pluginDir.parent_path().parent_path().parent_path() / "python";
  if (fs::exists(pythonPackage / "interlink" / "__init__.py", ec) && fs::exists("/usr/bin/python3", ec)) {
    bool built = false;
    for (const auto& entry : fs::directory_iterator(pythonPackage / "interlink", ec)) {
      built = built || (entry.path().filename().string().rfind("_interlink", 0) == 0 && entry.path().extension() == ".so");
    }
    if (built) {
      list.push_back({"Python: eight threads calling loads().frames() (fresh interpreter)",
                      [](const fs::path& d) {
                        put(d / "chain.urdf", hostile::urdfChain(30));
                        return put(d / "threads.py", R"(import os, sys, threading
import interlink
text = open(os.path.join(os.path.dirname(sys.argv[0]), "chain.urdf")).read()
done, errors = [], []
start = threading.Barrier(8)
def work(k):
    try:
        start.wait()
        for _ in range(10):
            frames = interlink.loads(text, format="urdf", file_name="chain.urdf").frames()
            assert len(frames) >= 30, len(frames)
        done.append(k)
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print("threads finished:", len(done), "errors:", errors)
sys.exit(0 if len(done) == 8 else 1)
)");
                      },
                      "threads finished: 8", {}, false, {"{}"}, {}, {"/usr/bin/python3"},
                      {"PYTHONPATH=" + pythonPackage.string(), "PYTHONDONTWRITEBYTECODE=1"}});
    }
  }
  return list;
}

}  // namespace interlink::bench
