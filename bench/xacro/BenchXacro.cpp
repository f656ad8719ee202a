// The cost of xacro: loading a description from its .urdf.xacro (expansion, then the URDF plugin,
// frame graph and kinematics) against loading the URDF that expansion produced (the same work
// without the expansion). The difference is the expansion; the issue asks it be well under the
// URDF load. Franka FR3 (with hand) and Universal Robots UR5e (xacro.load_yaml of four files).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "interlink/Loader.hpp"

namespace {

struct Description {
  const char* name;
  const char* file;
  std::vector<std::pair<std::string, std::string>> arguments;
};

const Description kDescriptions[] = {
    {"franka_fr3", "franka_description/robots/fr3/fr3.urdf.xacro", {}},
    {"ur5e", "ur_description/urdf/ur.urdf.xacro", {{"ur_type", "ur5e"}, {"name", "ur5e"}}},
};

const interlink::Loader& loader() {
  static const interlink::Loader instance;
  return instance;
}

interlink::LoadOptions options(const Description& d) {
  interlink::LoadOptions o;
  o.resourcePaths = {INTERLINK_TEST_DATA};
  o.arguments = d.arguments;
  return o;
}

void loadXacro(benchmark::State& state, const Description& d) {
  const std::string path = std::string(INTERLINK_TEST_DATA) + "/" + d.file;
  for (auto _ : state) {
    interlink::LoadResult r = loader().loadFile(path, options(d));
    if (!r.ok()) {
      state.SkipWithError("the xacro file did not load");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
}

void loadExpandedUrdf(benchmark::State& state, const Description& d) {
  const std::string path = std::string(INTERLINK_TEST_DATA) + "/" + d.file;
  const interlink::LoadResult expanded = loader().loadFile(path, options(d));
  const std::string urdf = expanded.expandedText;
  const std::string name = path.substr(0, path.size() - 6);  // beside the xacro file, as .urdf
  for (auto _ : state) {
    interlink::LoadResult r = loader().loadString(urdf, name, options(d));
    if (!r.ok()) {
      state.SkipWithError("the expanded URDF did not load");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const Description& d : kDescriptions) {
    benchmark::RegisterBenchmark((std::string("xacro/") + d.name).c_str(), loadXacro, d)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("urdf_of_expansion/") + d.name).c_str(), loadExpandedUrdf, d)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
