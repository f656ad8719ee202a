// Model queries for Python: poses (one frame, every frame, one frame at many configurations),
// Jacobians and mass properties. Arguments are read under the GIL, the work runs without it.
#include <pybind11/stl.h>

#include <atomic>
#include <map>
#include <optional>

#include "ModelState.hpp"

namespace interlink::python {

void ensureNumpy() {
  static std::atomic<bool> ready{false};
  if (ready.load(std::memory_order_acquire)) return;
  py::module_::import("numpy.core.multiarray");
  py::detail::npy_api::get();
  ready.store(true, std::memory_order_release);
}

py::array_t<double> toArray(const Pose& pose) {
  ensureNumpy();
  py::array_t<double> out({4, 4});
  auto view = out.mutable_unchecked<2>();
  const Eigen::Matrix4d m = pose.matrix();
  for (py::ssize_t r = 0; r < 4; ++r) {
    for (py::ssize_t c = 0; c < 4; ++c) view(r, c) = m(r, c);
  }
  return out;
}

py::array_t<double> toArray(const Vector3& v) {
  ensureNumpy();
  py::array_t<double> out(3);
  auto view = out.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < 3; ++i) view(i) = v[i];
  return out;
}

py::array_t<double> toArray(const Eigen::MatrixXd& m) {
  ensureNumpy();
  py::array_t<double> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  auto view = out.mutable_unchecked<2>();
  for (py::ssize_t r = 0; r < view.shape(0); ++r) {
    for (py::ssize_t c = 0; c < view.shape(1); ++c) view(r, c) = m(r, c);
  }
  return out;
}

void raise(const Diagnostics& diagnostics) {
  std::string message;
  for (const Diagnostic& d : diagnostics) message += (message.empty() ? "" : "\n") + d.format();
  throw py::value_error(message.empty() ? std::string("query failed") : message);
}

std::vector<double> PyModel::configuration(const py::object& q) const {
  const std::size_t dofs = loaded().kinematics.dofs().size();
  if (q.is_none()) return std::vector<double>(dofs, 0.0);
  Diagnostics diagnostics;
  std::optional<std::vector<double>> vector;
  if (py::isinstance<py::dict>(q)) {
    std::map<std::string, double> values;
    for (auto item : q.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first) || !PyNumber_Check(item.second.ptr())) {
        throw py::type_error("q: a dict maps DOF names (str) to numbers; got " + std::string(py::repr(item.first)) + ": " +
                             std::string(py::repr(item.second)));
      }
      values[item.first.cast<std::string>()] = item.second.cast<double>();
    }
    vector = query().configuration(values, diagnostics);
  } else if (py::isinstance<py::str>(q)) {
    vector = query().parseConfiguration(q.cast<std::string>(), diagnostics);
  } else {
    ensureNumpy();
    auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(q);
    if (!array || array.ndim() != 1) {
      throw py::value_error("q: expected a one-dimensional sequence of " + std::to_string(dofs) +
                            " numbers (DOF order), a dict {DOF name: value} or a text ('zero', 'initial', 'elbow=0.3')");
    }
    return std::vector<double>(array.data(), array.data() + array.size());
  }
  if (!vector) raise(diagnostics);
  return *vector;
}

namespace {

/// A frame index by name (empty: the root), ValueError when unknown.
std::size_t frameIndex(const PyModel& self, const std::optional<std::string>& name) {
  Diagnostics diagnostics;
  auto index = self.query().frameIndex(name.value_or(""), diagnostics);
  if (!index) raise(diagnostics);
  return *index;
}

py::dict frames(const PyModel& self, const py::object& q, const std::optional<std::string>& relativeTo) {
  const std::vector<double> values = self.configuration(q);
  const std::string reference = relativeTo.value_or("");
  Diagnostics diagnostics;
  std::optional<std::vector<Pose>> poses;
  {
    py::gil_scoped_release release;
    poses = self.query().framePoses(values, reference, diagnostics);
  }
  if (!poses) raise(diagnostics);
  py::dict out;
  const auto& all = self.loaded().graph.frames();
  for (std::size_t i = 1; i < all.size(); ++i) out[py::str(all[i].name)] = toArray((*poses)[i]);  // 0: the root
  return out;
}

py::array_t<double> pose(const PyModel& self, const std::string& frame, const py::object& q,
                         const std::optional<std::string>& relativeTo) {
  const std::vector<double> values = self.configuration(q);
  const std::size_t a = frameIndex(self, frame);
  const std::size_t b = frameIndex(self, relativeTo);
  Diagnostics diagnostics;
  std::optional<Pose> X_BA;
  {
    py::gil_scoped_release release;
    X_BA = self.query().pose(a, values, b, diagnostics);
  }
  if (!X_BA) raise(diagnostics);
  return toArray(*X_BA);
}

/// One frame at N configurations (rows of Q) -> (N, 4, 4), the loop in C++ without the GIL.
py::array_t<double> poses(const PyModel& self, const std::string& frame, const py::object& configurations,
                          const std::optional<std::string>& relativeTo) {
  ensureNumpy();
  const std::size_t a = frameIndex(self, frame);
  const std::size_t b = frameIndex(self, relativeTo);
  const auto dofs = static_cast<py::ssize_t>(self.loaded().kinematics.dofs().size());
  auto Q = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(configurations);
  if (!Q || Q.ndim() != 2 || Q.shape(1) != dofs) {
    throw py::value_error("Q: expected an array of shape (N, " + std::to_string(dofs) +
                          "): one configuration per row, in DOF order (m.dofs)");
  }
  const py::ssize_t n = Q.shape(0);
  py::array_t<double> out({n, py::ssize_t{4}, py::ssize_t{4}});
  double* target = out.mutable_data();
  const double* source = Q.data();
  Diagnostics diagnostics;
  bool ok = true;
  {
    py::gil_scoped_release release;
    std::vector<double> q(static_cast<std::size_t>(dofs));
    for (py::ssize_t row = 0; row < n && ok; ++row) {
      std::copy(source + row * dofs, source + (row + 1) * dofs, q.begin());
      auto X_BA = self.query().pose(a, q, b, diagnostics);
      if (!X_BA) {
        ok = false;
        diagnostics.error(ErrorCode::KINEMATICS_INVALID, "in row " + std::to_string(row) + " of Q");
        break;
      }
      Eigen::Map<Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(target + row * 16) = X_BA->matrix();
    }
  }
  if (!ok) raise(diagnostics);
  return out;
}

py::tuple massProperties(const PyModel& self, const py::object& q, const std::optional<std::string>& subtree) {
  const std::vector<double> values = self.configuration(q);
  const std::string root = subtree.value_or("");
  Diagnostics diagnostics;
  std::optional<MassProperties> mass;
  {
    py::gil_scoped_release release;
    mass = self.query().massProperties(values, root, diagnostics);
  }
  if (!mass) raise(diagnostics);
  return py::make_tuple(mass->mass, toArray(mass->centerOfMass), toArray(Eigen::MatrixXd(mass->inertia)));
}

py::array_t<double> jacobian(const PyModel& self, const std::string& frame, const py::object& q) {
  const std::vector<double> values = self.configuration(q);
  Diagnostics diagnostics;
  std::optional<Jacobian> J;
  {
    py::gil_scoped_release release;
    J = self.query().jacobian(frame, values, diagnostics);
  }
  if (!J) raise(diagnostics);
  return toArray(Eigen::MatrixXd(*J));
}

}  // namespace

void bindQueries(py::class_<PyModel>& model) {
  model
      .def("frames", &frames, py::arg("q") = py::none(), py::arg("relative_to") = py::none(),
           "Poses of every frame (the root excluded) at q as a dict: scoped name -> 4x4 array X_RF.")
      .def("pose", &pose, py::arg("frame"), py::arg("q") = py::none(), py::arg("relative_to") = py::none(),
           "4x4 pose of `frame` relative to `relative_to` (default: the root) at q. Only the tree path\n"
           "from the frame to the root is computed.")
      .def("poses", &poses, py::arg("frame"), py::arg("Q"), py::arg("relative_to") = py::none(),
           "Poses of `frame` at many configurations: Q of shape (N, len(dofs)), one configuration per row\n"
           "in DOF order -> array (N, 4, 4). The loop runs in C++ without the GIL.")
      .def("mass_properties", &massProperties, py::arg("q") = py::none(), py::arg("subtree") = py::none(),
           "(mass, com[3], inertia[3,3] about the com) in the root frame at q.")
      .def("jacobian", &jacobian, py::arg("frame"), py::arg("q") = py::none(),
           "6 x len(dofs) geometric Jacobian of `frame`: rows 0-2 origin velocity, 3-5 angular velocity.")
      .def("configuration", [](const PyModel& self, const py::object& q) {
            const auto values = self.configuration(q);
            ensureNumpy();
            return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
          }, py::arg("q") = py::none(),
          "q (None, 'zero', 'initial', 'name=value,...', a sequence or a dict) as an array in DOF order.");
}

}  // namespace interlink::python
