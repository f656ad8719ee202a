#pragma once
// What the pieces of interlink._interlink share: a loaded model kept alive by every object taken
// from it (ModelState), the NumPy conversions, and the GIL rules.
//
// GIL: loads and queries run without the GIL where they touch no Python object (arguments are
// read into C++ values first, results are turned into Python objects after). NumPy's C API is
// looked up by pybind11 inside a function-local static; ensureNumpy() makes that lookup happen
// before any thread can wait for it while holding the GIL (issue 35: eight threads deadlocked).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"

namespace interlink::python {

namespace py = pybind11;

/// One Loader per process: plugins are discovered once (beside the library and in
/// INTERLINK_PLUGIN_PATH), as the CLI does per run. Loads run concurrently on it without the GIL
/// (Loader::loadFile is const and thread-safe, docs/thread-safety.md).
const Loader& sharedLoader();

/// Imports NumPy's multiarray module (the GIL held, no C++ lock held) and then fills pybind11's
/// static table of NumPy functions. Without it the first array made in a thread imports NumPy
/// from inside that static's initialiser; the import may hand the GIL to a second thread, which
/// then waits for the initialiser while holding the GIL: a deadlock. Once the module is in
/// sys.modules the initialiser runs no Python code and cannot give the GIL away.
void ensureNumpy();

py::array_t<double> toArray(const Pose& pose);
py::array_t<double> toArray(const Vector3& v);
py::array_t<double> toArray(const Eigen::MatrixXd& m);

/// Query failures become ValueError with every diagnostic, one per line.
[[noreturn]] void raise(const Diagnostics& diagnostics);

/// A load result and its query index, shared by the Model and every link, joint or frame taken
/// from it (they stay valid after the Model is gone). Read-only after construction; the index is
/// built once, on first use, by whichever thread asks first.
class ModelState {
 public:
  ModelState(LoadResult loaded, LoadOptions options) : loaded_(std::move(loaded)), options_(std::move(options)) {}
  const LoadResult& loaded() const { return loaded_; }
  /// The options it was loaded with (a writer's read-back resolves URIs as the load did).
  const LoadOptions& options() const { return options_; }
  const ModelQuery& query() const {
    std::call_once(queryOnce_, [this] { query_ = std::make_unique<ModelQuery>(loaded_); });
    return *query_;
  }

 private:
  LoadResult loaded_;
  LoadOptions options_;
  mutable std::once_flag queryOnce_;
  mutable std::unique_ptr<ModelQuery> query_;
};

using SharedState = std::shared_ptr<const ModelState>;

/// The Python Model: the shared state and the conversions of Python arguments.
class PyModel {
 public:
  PyModel(LoadResult loaded, LoadOptions options)
      : state_(std::make_shared<ModelState>(std::move(loaded), std::move(options))) {}
  const SharedState& state() const { return state_; }
  const LoadResult& loaded() const { return state_->loaded(); }
  const ModelQuery& query() const { return state_->query(); }

  /// q as None (zeros), 'zero', 'initial', a text of ModelQuery::parseConfiguration
  /// ('elbow=0.3,wrist=-1'), a sequence or array (DOF order) or a dict {DOF name: value}
  /// (the others at zero). Needs the GIL.
  std::vector<double> configuration(const py::object& q) const;

 private:
  SharedState state_;
};

/// Binds Link, Shape, Geometry, Joint, Mimic, FrameElement, ModelElement and Tree, and the
/// Model properties that list them (links, link(), joints, frames_list, models, tree).
void bindElements(py::module_& module, py::class_<PyModel>& model);
/// Binds the Model queries (frames, pose, poses, jacobian, mass_properties, configuration).
void bindQueries(py::class_<PyModel>& model);
/// Binds the writers: Model.convert and _convert (module level).
void bindWriters(py::module_& module, py::class_<PyModel>& model);

}  // namespace interlink::python
