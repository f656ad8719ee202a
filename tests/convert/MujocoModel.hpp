#pragma once
// A file compiled by MuJoCo 2.2.2 (Debian's libmujoco), the reference the MJCF conversion tests
// compare with; freed with the object.
#include <mujoco/mujoco.h>

#include <string>

namespace interlink::test {

struct Mujoco {
  mjModel* model = nullptr;
  std::string error;  // MuJoCo's message when it refused the file
  explicit Mujoco(const std::string& path) {
    char buffer[1000] = "";
    model = mj_loadXML(path.c_str(), nullptr, buffer, sizeof buffer);
    error = buffer;
  }
  ~Mujoco() {
    if (model) mj_deleteModel(model);
  }
  Mujoco(const Mujoco&) = delete;
  Mujoco& operator=(const Mujoco&) = delete;
};

}  // namespace interlink::test
