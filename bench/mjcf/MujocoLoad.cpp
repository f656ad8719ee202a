// mujoco_load FILE: MuJoCo's mj_loadXML on FILE (parse and compile, meshes included), the
// reference process of bench_mjcf_meshes. Exit 0 when it loads, 1 with MuJoCo's error otherwise.
#include <mujoco/mujoco.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mujoco_load FILE\n");
    return 2;
  }
  char error[1000] = "";
  mjModel* model = mj_loadXML(argv[1], nullptr, error, sizeof error);
  if (!model) {
    std::fprintf(stderr, "%s\n", error);
    return 1;
  }
  mj_deleteModel(model);
  return 0;
}
