#pragma once

// Shared declarations of the Python bindings (`import retarget`): one bind* function per
// translation unit, the conversions every unit uses, and the option helpers that turn keyword
// arguments and JSON files into the library's validated option structs.

#include <memory>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget::python {

namespace py = pybind11;

using Robot = RobotModel<double>;
using RobotPtr = std::shared_ptr<const Robot>;
using Motion = SkeletonMotion<double>;
using Frame = SkeletonFrame<double>;

void bindCore(py::module_& m);     // errors, Status, version (module.cpp)
void bindRobots(py::module_& m);   // Robot, FK (robots.cpp)
void bindMotion(py::module_& m);   // Motion, SkeletonFrame, BvhMotion, readers and writers (motion.cpp)
void bindSkeletonMappers(py::module_& m);
void bindOtherMappers(py::module_& m);
void bindMetrics(py::module_& m);  // metric families and raw metrics (metrics.cpp)
void bindFilters(py::module_& m);  // filters and the safety stage (filters.cpp)

/// The Python `retarget.Status` flag (an enum.IntFlag) for `status`.
py::object toPython(Status status);

/// A JSON value as the Python value (dict, list, float, int, str, bool, None), exactly.
py::object toPython(const nlohmann::ordered_json& value);

/// Python JSON-like value (dict, list, numbers, strings) as nlohmann JSON (through `json.dumps`).
nlohmann::json toJson(py::handle value);

/// A read-only 1-D view of `size` doubles at `data`, kept alive by `owner`.
py::array_t<double> readOnlyView(const double* data, py::ssize_t size, py::handle owner);

/// `matrix` moved into a NumPy array (frames x columns) without a copy.
py::array_t<double> moveToNumpy(Eigen::MatrixXd&& matrix);
/// `values` moved into a NumPy array without a copy.
py::array_t<double> moveToNumpy(std::vector<double>&& values);

/// The statuses of a whole motion as a NumPy uint32 array of Status bits.
py::array_t<std::uint32_t> statusArray(const std::vector<Status>& statuses);

/// A rows x cols double matrix from a NumPy array (copied; for the non-real-time calls).
Eigen::MatrixXd toMatrix(const py::array_t<double, py::array::c_style | py::array::forcecast>& array,
                         const char* what, Eigen::Index cols = -1);

/// Loads a built-in robot by name or a URDF file, as the command line does (URDF warnings are
/// issued as Python warnings).
RobotPtr loadRobot(const std::string& name_or_path);

/// Loads any supported human motion, as the command line does (format detected from the
/// extension and the first line); `schema`: a rig schema file for BVH files (`--schema`), or "".
Motion loadMotion(const std::string& path, const std::string& schema = std::string());

/// An option or map struct `T` that has a JSON form (retarget/json/): the defaults `base`, then
/// `source` (None, a dict, or the path of a JSON file as the command line's --config takes), then
/// `kwargs`, validated by the library. Errors are retarget.ParseError naming the file (or
/// "<keyword arguments>") and the JSON pointer of the bad value.
template <typename T>
T structFrom(const T& base, py::handle source, const py::kwargs& kwargs, const char* what) {
  const bool have_source = source && !source.is_none();
  if (!have_source && kwargs.empty()) return base;
  nlohmann::json value = nlohmann::json(toJson(base));
  std::string file = std::string("<") + what + " keyword arguments>";
  if (have_source) {
    if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
      const std::string path = py::str(py::module_::import("os").attr("fspath")(source));
      if (kwargs.empty()) return loadJson<T>(path);
      value = nlohmann::json(toJson(loadJson<T>(path)));
      file = path + " + keyword arguments";
    } else {
      value.merge_patch(toJson(source));
    }
  }
  if (!kwargs.empty()) value.merge_patch(toJson(kwargs));
  return fromJson<T>(value, file);
}

}  // namespace retarget::python
