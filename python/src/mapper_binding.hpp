#pragma once

// The one Python shape every mapper gets (docs/mapper_contract.md): a class owning the mapper,
// a reference to its robot and the output buffer, with
//   map(frame, out=None, time=None) -> (q, Status)    per frame, no allocation of arrays
//   map_motion(motion) -> (Q, statuses)               whole motion, the GIL released
//   reset(), clamped, held, robot, nq, joint_names.
// `q` is a read-only view of the buffer the mapper writes (valid until the next call; copy to
// keep), or `out` when given (a float64 array of nq values the call writes into).

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <retarget/mappers/mapper.hpp>

#include "bindings.hpp"

namespace retarget::python {

template <typename M>
struct BoundMapper {
  RobotPtr robot;
  std::unique_ptr<M> mapper;
  Eigen::VectorXd q;
  Frame frame;  // the per-frame input when it comes as an array
  // Set while map_motion runs without the GIL: a mapper is a workspace, one per thread.
  std::atomic<bool> busy{false};

  BoundMapper(RobotPtr r, std::unique_ptr<M> m) : robot(std::move(r)), mapper(std::move(m)), q(robot->nq()) {
    q.setZero();
  }
};

namespace internal_binding {

inline py::array_t<bool> flags(const JointFlags& f) {
  py::array_t<bool> out(f.size());
  for (Eigen::Index i = 0; i < f.size(); ++i) out.mutable_data()[i] = f[i];
  return out;
}

// The buffer `out` names (a writable, contiguous float64 array of n values).
inline double* outputBuffer(py::handle out, Eigen::Index n) {
  if (!py::isinstance<py::array_t<double>>(out)) {
    throw py::type_error("retarget: out must be a float64 numpy array");
  }
  auto array = py::reinterpret_borrow<py::array_t<double>>(out);
  if (array.ndim() != 1 || array.shape(0) != n || !array.writeable() ||
      (array.strides(0) != static_cast<py::ssize_t>(sizeof(double)) && n > 1)) {
    throw py::value_error("retarget: out must be a writable contiguous float64 array of " + std::to_string(n) +
                          " values");
  }
  return array.mutable_data();
}

// The skeleton input of one call: a SkeletonFrame as is, or positions (25 x 3) copied into the
// mapper's own frame (fixed size: no allocation), joints tracked where finite.
template <typename M>
const Frame& skeletonInput(BoundMapper<M>& b, py::handle frame, py::handle time) {
  if (py::isinstance<Frame>(frame)) return frame.cast<const Frame&>();
  if (!py::isinstance<py::array>(frame)) {
    throw py::type_error("retarget: map() takes a SkeletonFrame or a (25, 3) float64 array of positions");
  }
  auto array = py::reinterpret_borrow<py::array>(frame);
  if (array.ndim() != 2 || array.shape(0) != kHumanJointCount || array.shape(1) != 3 ||
      !py::isinstance<py::array_t<double>>(array)) {
    throw py::value_error("retarget: map() takes positions as a (25, 3) float64 array (m, frame W)");
  }
  const auto* base = static_cast<const char*>(array.data());
  const py::ssize_t s0 = array.strides(0), s1 = array.strides(1);
  for (int j = 0; j < kHumanJointCount; ++j) {
    Eigen::Vector3d& p = b.frame.p_W[static_cast<std::size_t>(j)];
    for (int c = 0; c < 3; ++c) p[c] = *reinterpret_cast<const double*>(base + j * s0 + c * s1);
    b.frame.state[static_cast<std::size_t>(j)] = p.allFinite() ? TrackingState::kTracked : TrackingState::kNotTracked;
  }
  if (!time.is_none()) b.frame.time = time.cast<double>();
  return b.frame;
}

// A mapper used by two threads at once (map_motion releases the GIL) is a bug of the caller.
template <typename M>
void checkNotBusy(const BoundMapper<M>& b) {
  if (b.busy.load()) {
    throw Error("[retarget] map: this mapper is mapping a motion in another thread (a mapper is a workspace: use "
                "one per thread)");
  }
}

// One map() call: into the mapper's buffer (returned as a read-only view) or into `out`.
template <typename M>
py::tuple mapOne(py::handle self, BoundMapper<M>& b, const typename M::Input& input, py::handle out) {
  checkNotBusy(b);
  if (out.is_none()) {
    const Status status = b.mapper->map(input, b.q);
    return py::make_tuple(readOnlyView(b.q.data(), b.q.size(), self), toPython(status));
  }
  Eigen::Map<Eigen::VectorXd> q(outputBuffer(out, b.q.size()), b.q.size());
  const Status status = b.mapper->map(input, q);
  return py::make_tuple(py::reinterpret_borrow<py::object>(out), toPython(status));
}

// map()'s docstring: its signature (pybind11's would say "handle"), then what it does.
inline const char* mapDoc(bool skeleton) {
  static const std::string common = R"doc(

Maps one frame: returns (q, status). q (rad, robot.joint_names order; finite, within limits) is
a read-only view of the mapper's own buffer, overwritten by the next call (copy it to keep it),
or `out` when given (a float64 array of nq values written in place). status is a
retarget.Status flag. No array is allocated; the mapper's real-time call never throws.

)doc";
  static const std::string for_skeleton =
      "map(frame: SkeletonFrame | numpy.ndarray, out: numpy.ndarray | None = None, time: float | None = None) "
      "-> tuple[numpy.ndarray, Status]" +
      common +
      "frame: a SkeletonFrame (e.g. motion[k]) or positions, a (25, 3) float64 array (m, frame W,\n"
      "HUMAN_JOINT_NAMES order; NaN rows are untracked joints); time (s) is set on the mapper's copy\n"
      "of an array frame.";
  static const std::string for_channels =
      "map(frame: numpy.ndarray, out: numpy.ndarray | None = None) -> tuple[numpy.ndarray, Status]" + common +
      "frame: one frame's BVH channels, a 1-D float64 array (a row of BvhMotion.channels: file units\n"
      "and degrees), read without a copy.";
  return skeleton ? for_skeleton.c_str() : for_channels.c_str();
}

}  // namespace internal_binding

/// The common methods of a mapper class `cls` (BoundMapper<M>): skeleton or BVH-channel input.
template <typename M, typename Class>
void addMapperMethods(Class& cls) {
  using B = BoundMapper<M>;
  constexpr bool kSkeleton = std::is_same_v<typename M::Input, Frame>;
  // map() takes loosely typed arguments (dispatched by hand, for speed): its signature is written
  // in its docstring instead of pybind11's "handle".
  {
    py::options options;
    options.disable_function_signatures();
    cls.def(
         "map",
         [](py::object self, py::handle frame, py::handle out, py::handle time) {
           B& b = self.cast<B&>();
           if constexpr (std::is_same_v<typename M::Input, Frame>) {
             return internal_binding::mapOne(self, b, internal_binding::skeletonInput(b, frame, time), out);
           } else {
             (void)time;
             const auto channels = frame.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
             const Eigen::Map<const Eigen::VectorXd> values(channels.data(), channels.size());
             return internal_binding::mapOne(self, b, typename M::Input(values), out);
           }
         },
         py::arg("frame"), py::arg("out") = py::none(), py::arg("time") = py::none(), internal_binding::mapDoc(kSkeleton));
  }
  cls.def(
          "map_motion",
          [](B& b, const typename std::conditional_t<std::is_same_v<typename M::Input, Frame>, Motion, BvhMotion>& motion) {
            if (b.busy.exchange(true)) {
              throw Error("[retarget] map_motion: this mapper is mapping a motion in another thread (a mapper is a "
                          "workspace: use one per thread)");
            }
            MappedMotion<double> mapped;
            {
              py::gil_scoped_release release;
              try {
                mapped = mapMotion(*b.mapper, motion);
              } catch (...) {
                b.busy.store(false);
                throw;
              }
            }
            b.busy.store(false);
            return py::make_tuple(moveToNumpy(std::move(mapped.q)), statusArray(mapped.status));
          },
          py::arg("motion"), R"doc(
Maps a whole motion after reset(), frame by frame, exactly as `retarget map` does before its
filters: returns (Q, statuses), Q (frames x nq, rad) and the uint32 Status bits of each frame.
Releases the GIL: run several mappers (one per thread) over several files in a thread pool.)doc")
      .def(
          "reset",
          [](B& b) {
            internal_binding::checkNotBusy(b);
            b.mapper->reset();
          },
          "Forgets all temporal state (as a new mapper).")
      .def_property_readonly("robot", [](const B& b) { return std::const_pointer_cast<Robot>(b.robot); },
                             "The Robot this mapper maps onto.")
      .def_property_readonly("nq", [](const B& b) { return b.robot->nq(); }, "Size of q.")
      .def_property_readonly("joint_names", [](const B& b) { return b.robot->qNames(); }, "Names of q's coordinates.")
      .def_property_readonly("clamped", [](const B& b) { return internal_binding::flags(b.mapper->clamped()); },
                             "Per coordinate: clamped to a limit in the last frame (bool array).")
      .def_property_readonly("held", [](const B& b) { return internal_binding::flags(b.mapper->held()); },
                             "Per coordinate: held at its last value (unusable input) in the last frame.");
}

}  // namespace retarget::python

namespace retarget::python {

/// Sets fields of an option struct from keyword arguments: `fields` maps each accepted name to
/// its setter. An unknown name raises retarget.InvalidArgument listing the known ones.
using FieldSetter = std::function<void(py::handle)>;
inline void applyKwargs(const py::kwargs& kwargs, const std::vector<std::pair<std::string, FieldSetter>>& fields,
                        const char* what) {
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    bool found = false;
    for (const auto& [field, set] : fields) {
      if (field == name) {
        set(value);
        found = true;
        break;
      }
    }
    if (!found) {
      std::string known;
      for (const auto& field : fields) known += (known.empty() ? "" : ", ") + field.first;
      throw InvalidArgument(std::string("[retarget] ") + what + ": unknown option '" + name + "' (known: " + known + ")");
    }
  }
}

/// A setter writing `value.cast<T>()` into `field`.
template <typename T>
FieldSetter setField(T& field) {
  return [&field](py::handle value) { field = value.cast<T>(); };
}

inline InferredJoints inferredFrom(const std::string& name) {
  if (name == "hold") return InferredJoints::kHold;
  if (name == "use") return InferredJoints::kUse;
  throw InvalidArgument("[retarget] inferred_joints: expected 'hold' or 'use', got '" + name + "'");
}

}  // namespace retarget::python
