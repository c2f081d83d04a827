// The `retarget` Python module: errors as exceptions, Status as a flag, the shared conversions,
// and the module definition that calls every other unit's bind* function.
#include "bindings.hpp"

#include <retarget/app/motion_file.hpp>
#include <retarget/app/robot_source.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/io/robot_file.hpp>
#include <retarget/version.hpp>

namespace retarget::python {

namespace {

// Owned by the module for its lifetime (never destroyed: the interpreter may be gone by then).
py::object* g_status_type = nullptr;
PyObject* g_error = nullptr;
PyObject* g_invalid_argument = nullptr;
PyObject* g_parse_error = nullptr;

}  // namespace

py::object toPython(Status status) { return (*g_status_type)(status.bits()); }

py::object toPython(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::null: return py::none();
    case nlohmann::ordered_json::value_t::boolean: return py::bool_(value.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer: return py::int_(value.get<long long>());
    case nlohmann::ordered_json::value_t::number_unsigned: return py::int_(value.get<unsigned long long>());
    case nlohmann::ordered_json::value_t::number_float: return py::float_(value.get<double>());
    case nlohmann::ordered_json::value_t::string: return py::str(value.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      py::list out;
      for (const auto& item : value) out.append(toPython(item));
      return std::move(out);
    }
    case nlohmann::ordered_json::value_t::object: {
      py::dict out;
      for (const auto& [key, item] : value.items()) out[py::str(key)] = toPython(item);
      return std::move(out);
    }
    default: return py::none();
  }
}

nlohmann::json toJson(py::handle value) {
  // numpy scalars and arrays become plain numbers and lists first.
  const py::object json = py::module_::import("json");
  const auto default_fn = py::cpp_function([](py::handle v) -> py::object {
    if (py::hasattr(v, "tolist")) return v.attr("tolist")();
    if (py::hasattr(v, "__fspath__")) return py::module_::import("os").attr("fspath")(v);
    throw py::type_error("retarget: cannot convert " + std::string(py::str(py::type::of(v))) + " to JSON");
  });
  const std::string text = py::str(json.attr("dumps")(value, py::arg("default") = default_fn));
  return nlohmann::json::parse(text);
}

py::array_t<double> readOnlyView(const double* data, py::ssize_t size, py::handle owner) {
  py::array_t<double> out({size}, {static_cast<py::ssize_t>(sizeof(double))}, data, owner);
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

py::array_t<double> moveToNumpy(Eigen::MatrixXd&& matrix) {
  auto* owned = new Eigen::MatrixXd(std::move(matrix));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<Eigen::MatrixXd*>(p); });
  const auto s = static_cast<py::ssize_t>(sizeof(double));
  return py::array_t<double>({static_cast<py::ssize_t>(owned->rows()), static_cast<py::ssize_t>(owned->cols())},
                             {s, s * static_cast<py::ssize_t>(owned->rows())}, owned->data(), free_when_done);
}

py::array_t<double> moveToNumpy(std::vector<double>&& values) {
  auto* owned = new std::vector<double>(std::move(values));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(double))},
                             owned->data(), free_when_done);
}

py::array_t<std::uint32_t> statusArray(const std::vector<Status>& statuses) {
  py::array_t<std::uint32_t> out(static_cast<py::ssize_t>(statuses.size()));
  auto view = out.mutable_unchecked<1>();
  for (std::size_t k = 0; k < statuses.size(); ++k) view(static_cast<py::ssize_t>(k)) = statuses[k].bits();
  return out;
}

Eigen::MatrixXd toMatrix(const py::array_t<double, py::array::c_style | py::array::forcecast>& array,
                         const char* what, Eigen::Index cols) {
  if (array.ndim() != 2) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": expected a 2-D array (frames x columns), got " +
                          std::to_string(array.ndim()) + " dimensions");
  }
  if (cols >= 0 && array.shape(1) != cols) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": expected " + std::to_string(cols) +
                          " columns, got " + std::to_string(array.shape(1)));
  }
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const RowMajor>(array.data(), array.shape(0), array.shape(1));
}

RobotPtr loadRobot(const std::string& name_or_path) {
  RobotFile<double> result = app::loadRobotSource(name_or_path);  // built-in, URDF or MJCF
  if (!result.warnings.empty()) {
    const py::object warn = py::module_::import("warnings").attr("warn");
    for (const std::string& w : result.warnings) warn(name_or_path + ": " + w, py::module_::import("builtins").attr("UserWarning"), 2);
  }
  return std::make_shared<const Robot>(std::move(result.model));
}

Motion loadMotion(const std::string& path, const std::string& schema) { return app::loadMotion(path, schema); }

void bindCore(py::module_& m) {
  m.attr("__version__") = std::to_string(RETARGET_VERSION_MAJOR) + "." + std::to_string(RETARGET_VERSION_MINOR) + "." +
                          std::to_string(RETARGET_VERSION_PATCH);

  // Errors: retarget.Error (RuntimeError) for what the library reports, retarget.InvalidArgument
  // (also a ValueError) for bad configuration, retarget.ParseError (also a ValueError) for a
  // malformed file, with .file and .line. The message is the library's.
  g_error = PyErr_NewExceptionWithDoc("retarget.Error",
                                      "Any error the retarget library reports (bad input, a file that cannot be read).",
                                      PyExc_RuntimeError, nullptr);
  const py::tuple invalid_bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_invalid_argument = PyErr_NewExceptionWithDoc(
      "retarget.InvalidArgument", "A bad argument or configuration; the message names the field and the value.",
      invalid_bases.ptr(), nullptr);
  g_parse_error = PyErr_NewExceptionWithDoc(
      "retarget.ParseError",
      "A malformed file or JSON value; the message names the file and line, also in .file and .line (0: unknown).",
      invalid_bases.ptr(), nullptr);
  m.attr("Error") = py::handle(g_error);
  m.attr("InvalidArgument") = py::handle(g_invalid_argument);
  m.attr("ParseError") = py::handle(g_parse_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ParseError& e) {
      py::object error = py::reinterpret_borrow<py::object>(g_parse_error)(e.what());
      error.attr("file") = e.file();
      error.attr("line") = e.line();
      PyErr_SetObject(g_parse_error, error.ptr());
    } catch (const InvalidArgument& e) {
      PyErr_SetString(g_invalid_argument, e.what());
    } catch (const Error& e) {
      PyErr_SetString(g_error, e.what());
    }
  });

  // Status: a flag, as the library's Status (empty = ok).
  const py::object int_flag = py::module_::import("enum").attr("IntFlag");
  py::list members;
  members.append(py::make_tuple("OK", 0));
  members.append(py::make_tuple("CLAMPED", static_cast<std::uint32_t>(StatusCode::kClamped)));
  members.append(py::make_tuple("DEGENERATE_INPUT", static_cast<std::uint32_t>(StatusCode::kDegenerateInput)));
  members.append(py::make_tuple("COLLISION_AVOIDED", static_cast<std::uint32_t>(StatusCode::kCollisionAvoided)));
  members.append(py::make_tuple("NOT_CONVERGED", static_cast<std::uint32_t>(StatusCode::kNotConverged)));
  members.append(py::make_tuple("RATE_LIMITED", static_cast<std::uint32_t>(StatusCode::kRateLimited)));
  members.append(py::make_tuple("INVALID_INPUT", static_cast<std::uint32_t>(StatusCode::kInvalidInput)));
  members.append(py::make_tuple("DISCONTINUITY", static_cast<std::uint32_t>(StatusCode::kDiscontinuity)));
  py::object status = int_flag("Status", members, py::arg("module") = "retarget");
  status.attr("__doc__") =
      "What a per-frame call reports (retarget::Status): OK (0) or any combination of CLAMPED (a joint was "
      "clamped to its limits; see the mapper's clamped()), DEGENERATE_INPUT (unusable input for some joints, "
      "held at their last value; held()), COLLISION_AVOIDED, NOT_CONVERGED, RATE_LIMITED, INVALID_INPUT (wrong "
      "sizes) and DISCONTINUITY (the limits forced a jump). Whole-motion calls return the bits as a uint32 "
      "array: Status(bits[k]) reads one.";
  // str() names the flags ("Status.CLAMPED|DEGENERATE_INPUT"), as repr() does.
  status.attr("__str__") = py::module_::import("enum").attr("Flag").attr("__str__");
  m.attr("Status") = status;
  g_status_type = new py::object(status);
}

}  // namespace retarget::python

PYBIND11_MODULE(retarget, m) {
  m.doc() =
      "retarget: human motion onto humanoid robots, and how well they imitate it.\n\n"
      "Units: metres, radians, seconds. Frames: the canonical human and robot base frame W is x forward, y left, "
      "z up. Joint vectors q follow the robot's coordinate order (Robot.joint_names). Arrays are float64; per-frame "
      "calls return views of buffers the mapper owns (copy them to keep them) or write into `out=`.";
  retarget::python::bindCore(m);
  retarget::python::bindRobots(m);
  retarget::python::bindMotion(m);
  retarget::python::bindSkeletonMappers(m);
  retarget::python::bindOtherMappers(m);
  retarget::python::bindMetrics(m);
  retarget::python::bindFilters(m);
}
