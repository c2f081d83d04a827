// Human motion in Python: Motion (a SkeletonMotion: positions frames x 25 x 3 as a view),
// SkeletonFrame, BvhMotion (raw channels), every reader, the writers, the demo motions, and
// joint-trajectory CSVs.
#include "bindings.hpp"

#include <cstddef>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/keypoints_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/ntu_skeleton.hpp>
#include <retarget/io/skeleton_csv.hpp>

namespace retarget::python {

namespace {

constexpr auto kDouble = static_cast<py::ssize_t>(sizeof(double));
constexpr auto kPoint = static_cast<py::ssize_t>(sizeof(Eigen::Vector3d));
constexpr auto kFrame = static_cast<py::ssize_t>(sizeof(Frame));
static_assert(sizeof(Eigen::Vector3d) == 3 * sizeof(double), "Vector3d must be packed for the position views");

std::vector<std::string> humanJointNames() {
  std::vector<std::string> names;
  for (const auto name : kHumanJointNames) names.emplace_back(name);
  return names;
}

// Positions (F x 25 x 3) and states (F x 25) into `motion`, times (F) or frame k / rate.
Motion motionFromArrays(const py::array_t<double, py::array::c_style | py::array::forcecast>& positions,
                        const py::object& times, const py::object& tracking, const py::object& hands,
                        double frame_rate) {
  if (positions.ndim() != 3 || positions.shape(1) != kHumanJointCount || positions.shape(2) != 3) {
    throw InvalidArgument("[retarget] Motion: expected positions of shape (frames, 25, 3), got " +
                          std::to_string(positions.ndim()) + " dimensions");
  }
  const auto frames = static_cast<std::size_t>(positions.shape(0));
  Motion motion;
  motion.format = "numpy";
  motion.frame_rate = frame_rate;
  motion.frames.resize(frames);
  const double* p = positions.data();
  for (std::size_t k = 0; k < frames; ++k) {
    Frame& f = motion.frames[k];
    for (int j = 0; j < kHumanJointCount; ++j, p += 3) {
      f.p_W[static_cast<std::size_t>(j)] = Eigen::Vector3d(p[0], p[1], p[2]);
      f.state[static_cast<std::size_t>(j)] =
          f.p_W[static_cast<std::size_t>(j)].allFinite() ? TrackingState::kTracked : TrackingState::kNotTracked;
    }
    f.time = frame_rate > 0 ? static_cast<double>(k) / frame_rate : static_cast<double>(k);
  }
  if (!times.is_none()) {
    const auto t = times.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    if (t.ndim() != 1 || static_cast<std::size_t>(t.shape(0)) != frames) {
      throw InvalidArgument("[retarget] Motion: expected one time per frame (" + std::to_string(frames) + ")");
    }
    for (std::size_t k = 0; k < frames; ++k) motion.frames[k].time = t.data()[k];
  }
  if (!tracking.is_none()) {
    const auto s = tracking.cast<py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>>();
    if (s.ndim() != 2 || static_cast<std::size_t>(s.shape(0)) != frames || s.shape(1) != kHumanJointCount) {
      throw InvalidArgument("[retarget] Motion: expected tracking of shape (frames, 25)");
    }
    for (std::size_t k = 0; k < frames; ++k) {
      for (int j = 0; j < kHumanJointCount; ++j) {
        const std::uint8_t v = s.data()[k * kHumanJointCount + static_cast<std::size_t>(j)];
        if (v > 2) throw InvalidArgument("[retarget] Motion: tracking states are 0, 1 or 2 (got " + std::to_string(v) + ")");
        motion.frames[k].state[static_cast<std::size_t>(j)] = static_cast<TrackingState>(v);
      }
    }
  }
  if (!hands.is_none()) {
    const auto h = hands.cast<py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>>();
    if (h.ndim() != 2 || static_cast<std::size_t>(h.shape(0)) != frames || h.shape(1) != 2) {
      throw InvalidArgument("[retarget] Motion: expected hands of shape (frames, 2)");
    }
    for (std::size_t k = 0; k < frames; ++k) {
      for (std::size_t side = 0; side < 2; ++side) {
        const std::uint8_t v = h.data()[2 * k + side];
        if (v > 2) throw InvalidArgument("[retarget] Motion: hand states are 0, 1 or 2 (got " + std::to_string(v) + ")");
        (side == 0 ? motion.frames[k].left_hand : motion.frames[k].right_hand) = static_cast<HandState>(v);
      }
    }
  }
  return motion;
}

// The left and right hand states of a frame sit side by side (one byte each): one (2,) view.
std::uint8_t* handStates(Frame& f) {
  auto* left = reinterpret_cast<std::uint8_t*>(&f.left_hand);
  if (reinterpret_cast<std::uint8_t*>(&f.right_hand) != left + 1) {
    throw Error("[retarget] Motion.hands: unexpected SkeletonFrame layout");
  }
  return left;
}

}  // namespace

void bindMotion(py::module_& m) {
  m.attr("HUMAN_JOINT_NAMES") = humanJointNames();

  py::class_<Frame>(m, "SkeletonFrame", R"doc(
One frame of the canonical human skeleton (retarget::SkeletonFrame): 25 joints in the Kinect v2
order (retarget.HUMAN_JOINT_NAMES), positions in metres in the canonical frame W (x forward,
y left, z up). `positions` (25 x 3) and `tracking` (25, uint8: 0 not tracked, 1 inferred,
2 tracked) are writable views of the frame's own storage.)doc")
      .def(py::init([](const py::array_t<double, py::array::c_style | py::array::forcecast>& positions, double time) {
             if (positions.ndim() != 2 || positions.shape(0) != kHumanJointCount || positions.shape(1) != 3) {
               throw InvalidArgument("[retarget] SkeletonFrame: expected positions of shape (25, 3)");
             }
             Frame f;
             f.time = time;
             for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
               f.p_W[j] = Eigen::Vector3d(positions.data()[3 * j], positions.data()[3 * j + 1], positions.data()[3 * j + 2]);
               f.state[j] = f.p_W[j].allFinite() ? TrackingState::kTracked : TrackingState::kNotTracked;
             }
             return f;
           }),
           py::arg("positions"), py::arg("time") = 0.0,
           "A frame from positions (25 x 3, m, frame W); joints with a non-finite position are not tracked.")
      .def_readwrite("time", &Frame::time, "Seconds since the start of the motion.")
      .def_property_readonly(
          "positions",
          [](py::object self) {
            Frame& f = self.cast<Frame&>();
            return py::array_t<double>({py::ssize_t{kHumanJointCount}, py::ssize_t{3}}, {kPoint, kDouble},
                                       f.p_W[0].data(), self);
          },
          "Joint positions (25 x 3, m, frame W): a writable view.")
      .def_property_readonly(
          "tracking",
          [](py::object self) {
            Frame& f = self.cast<Frame&>();
            return py::array_t<std::uint8_t>({py::ssize_t{kHumanJointCount}},
                                             {static_cast<py::ssize_t>(sizeof(TrackingState))},
                                             reinterpret_cast<std::uint8_t*>(f.state.data()), self);
          },
          "Tracking state per joint (0 not tracked, 1 inferred, 2 tracked): a writable view.");

  py::class_<Motion>(m, "Motion", R"doc(
A human motion in the canonical skeleton (retarget::SkeletonMotion): frames of 25 joints,
metres, canonical frame W (x forward, y left, z up), read from any supported file by
retarget.read_motion() or built from arrays.

positions (frames x 25 x 3), times (frames, s) and tracking (frames x 25, uint8) are views of
the motion's own storage (no copy; writable); motion[k] is frame k (a SkeletonFrame view).)doc")
      .def(py::init(&motionFromArrays), py::arg("positions"), py::arg("times") = py::none(),
           py::arg("tracking") = py::none(), py::arg("hands") = py::none(), py::arg("frame_rate") = 0.0, R"doc(
A motion from positions (frames x 25 x 3, m, frame W; joints in HUMAN_JOINT_NAMES order).
times (s) default to k / frame_rate (k when frame_rate is 0); tracking (frames x 25: 0, 1, 2)
defaults to tracked where the position is finite, not tracked elsewhere; hands (frames x 2: left,
right; 0 unknown, 1 open, 2 closed) default to unknown. Orientations and head angles are not
taken from arrays.)doc")
      .def("__len__", &Motion::size)
      .def(
          "__getitem__",
          [](Motion& motion, long k) -> Frame& {
            const long n = static_cast<long>(motion.size());
            if (k < 0) k += n;
            if (k < 0 || k >= n) throw py::index_error("frame index out of range");
            return motion.frames[static_cast<std::size_t>(k)];
          },
          py::return_value_policy::reference_internal)
      .def_property_readonly(
          "positions",
          [](py::object self) {
            Motion& motion = self.cast<Motion&>();
            double* data = motion.frames.empty() ? nullptr : motion.frames[0].p_W[0].data();
            return py::array_t<double>(
                {static_cast<py::ssize_t>(motion.size()), py::ssize_t{kHumanJointCount}, py::ssize_t{3}},
                {kFrame, kPoint, kDouble}, data, self);
          },
          "Joint positions (frames x 25 x 3, m, frame W): a writable view of the frames (no copy).")
      .def_property_readonly(
          "times",
          [](py::object self) {
            Motion& motion = self.cast<Motion&>();
            double* data = motion.frames.empty() ? nullptr : &motion.frames[0].time;
            return py::array_t<double>({static_cast<py::ssize_t>(motion.size())}, {kFrame}, data, self);
          },
          "Frame times (s): a writable view.")
      .def_property_readonly(
          "tracking",
          [](py::object self) {
            Motion& motion = self.cast<Motion&>();
            auto* data = motion.frames.empty() ? nullptr : reinterpret_cast<std::uint8_t*>(motion.frames[0].state.data());
            return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(motion.size()), py::ssize_t{kHumanJointCount}},
                                             {kFrame, static_cast<py::ssize_t>(sizeof(TrackingState))}, data, self);
          },
          "Tracking states (frames x 25: 0 not tracked, 1 inferred, 2 tracked): a writable view.")
      .def_property_readonly(
          "hands",
          [](py::object self) {
            Motion& motion = self.cast<Motion&>();
            std::uint8_t* data = motion.frames.empty() ? nullptr : handStates(motion.frames[0]);
            return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(motion.size()), py::ssize_t{2}}, {kFrame, py::ssize_t{1}},
                                             data, self);
          },
          "Hand states (frames x 2: left, right; 0 unknown, 1 open, 2 closed): a writable view.")
      .def_property_readonly("joint_names", [](const Motion&) { return humanJointNames(); },
                             "Names of the 25 joints of positions' second axis (Kinect v2 order).")
      .def_readwrite("frame_rate", &Motion::frame_rate, "Nominal frames per second (0 when unknown).")
      .def_readonly("format", &Motion::format, "The source format, e.g. 'bvh', 'kinect-laban-csv'.")
      .def_readonly("extra_joint_names", &Motion::extra_joint_names,
                    "Names of the source's joints beyond the 25 (keypoint files, BVH rigs).")
      .def_property_readonly(
          "extra_positions",
          [](const Motion& motion) {
            const auto extra = static_cast<py::ssize_t>(motion.extra_joint_names.size());
            py::array_t<double> out({static_cast<py::ssize_t>(motion.extra_p_W.size()), extra, py::ssize_t{3}});
            double* data = out.mutable_data();
            for (const auto& p : motion.extra_p_W) {
              for (Eigen::Index j = 0; j < p.cols(); ++j) {
                for (int c = 0; c < 3; ++c) *data++ = p(c, j);
              }
            }
            return out;
          },
          "Positions of the extra joints (frames x extra_joint_names x 3, m, frame W): a copy.")
      .def_property_readonly("duration", &Motion::duration, "Last time minus first time, s.")
      .def("__repr__", [](const Motion& motion) {
        return "<retarget.Motion: " + std::to_string(motion.size()) + " frames, " + motion.format + ">";
      });

  py::class_<BvhMotion>(m, "BvhMotion", R"doc(
A BVH file as read (retarget::BvhMotion): the joint hierarchy and the raw channel values of every
frame in file units and degrees. The input of the Euler/BVH mapper; to_motion() gives the
canonical skeleton (what read_motion() returns for a .bvh).)doc")
      .def_property_readonly("joint_names",
                             [](const BvhMotion& b) {
                               std::vector<std::string> names;
                               for (const auto& j : b.joints) names.push_back(j.name);
                               return names;
                             },
                             "Joints and End Sites, depth-first file order.")
      .def_readonly("frame_time", &BvhMotion::frame_time, "Seconds per frame.")
      .def_readonly("frame_count", &BvhMotion::frame_count)
      .def_readonly("channel_count", &BvhMotion::channel_count, "Values per frame.")
      .def_readonly("source", &BvhMotion::source, "The file it was read from.")
      .def_property_readonly(
          "channels",
          [](py::object self) {
            BvhMotion& b = self.cast<BvhMotion&>();
            return py::array_t<double>({static_cast<py::ssize_t>(b.frame_count), static_cast<py::ssize_t>(b.channel_count)},
                                       {kDouble * b.channel_count, kDouble}, b.values.data(), self);
          },
          "Channel values (frames x channels, file units and degrees): a writable view.")
      .def("__len__", [](const BvhMotion& b) { return b.frame_count; })
      .def("to_motion", [](const BvhMotion& b) { return bvhToSkeleton(b); },
           "The canonical skeleton of this motion (built-in rig schemas, else the automatic rig binding).");

  m.def("read_motion", [](const std::string& path, const std::string& schema) { return loadMotion(path, schema); },
        py::arg("path"), py::arg("schema") = std::string(), py::call_guard<py::gil_scoped_release>(), R"doc(
Reads any supported human motion as the command line does: BVH (built-in rigs or the automatic
binding), Kinect v2 Laban CSV / Keraal TXT, NTU .skeleton, skeleton CSV, MediaPipe / OpenPose
keypoint CSV; the format from the extension and the first line. schema: a rig schema file
(human/schema.hpp text format, e.g. from `retarget schema suggest`) for BVH files, as the
command line's --schema. Raises retarget.ParseError with the file and line for a malformed file.)doc");
  m.def("read_bvh", [](const std::string& path) { return readBvh(path); }, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads a BVH file's hierarchy and channels (BvhMotion). Raises retarget.ParseError (file, line).");
  m.def("read_skeleton_csv", [](const std::string& path) { return readSkeletonCsv(path); }, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads a skeleton CSV (time,<Joint>.x,...; m, frame W).");
  m.def("read_kinect", [](const std::string& path) { return readKinect(path); }, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads a Kinect v2 recording (Laban CSV or Keraal TXT), converted into frame W.");
  m.def("read_ntu_skeleton", [](const std::string& path) { return readNtuSkeleton(path); }, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads an NTU RGB+D .skeleton file (first body), converted into frame W.");
  m.def("read_keypoint_csv", [](const std::string& path) { return readKeypointCsv(path); }, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads a MediaPipe Pose / OpenPose BODY_25 3D keypoint CSV (schema from the header).");
  m.def(
      "write_skeleton_csv",
      [](const Motion& motion, const std::string& path, bool tracking_states) {
        SkeletonCsvWriteOptions options;
        options.tracking_states = tracking_states;
        writeSkeletonCsv(motion, path, options);
      },
      py::arg("motion"), py::arg("path"), py::arg("tracking_states") = true, py::call_guard<py::gil_scoped_release>(),
      "Writes a motion as skeleton CSV (m, frame W; read back by read_skeleton_csv / read_motion).");
  m.def("write_bvh", [](const BvhMotion& motion, const std::string& path) { writeBvh(motion, path); },
        py::arg("motion"), py::arg("path"), py::call_guard<py::gil_scoped_release>(), "Writes a BvhMotion as a BVH file (hierarchy and channels unchanged).");
  m.def("demo_motion_names", [] { return demoMotionNames(); }, "Names demo_motion() accepts.");
  m.def(
      "demo_motion",
      [](const std::string& name, double rate, double duration, double body_height) {
        DemoMotionOptions options;
        options.rate = rate;
        options.duration = duration;
        options.body_height = body_height;
        return demoMotion(name, options);
      },
      py::arg("name"), py::arg("rate") = 30.0, py::arg("duration") = 6.0, py::arg("body_height") = 1.75,
      py::call_guard<py::gil_scoped_release>(), R"doc(
A generated human motion (the command line's `retarget demo`): wave, arms-raise, squat,
one-leg-stand, arm-circles, walk-in-place, fold-arms, bow. rate in frames/s, duration in s,
body_height in m.)doc");

  m.def(
      "read_joint_trajectory",
      [](const std::string& path, const RobotPtr& robot) {
        JointTrajectory t = readJointTrajectoryCsv(path);
        if (robot) t = toRobotOrder(t, *robot);
        std::vector<std::string> names = t.joint_names;
        return py::make_tuple(moveToNumpy(std::move(t.times)), moveToNumpy(std::move(t.positions)), names);
      },
      py::arg("path"), py::arg("robot") = RobotPtr(), R"doc(
Reads a joint-trajectory CSV (what `retarget map -o` writes): (times (s), Q (frames x joints, rad),
joint names), values parsed at full precision. With robot, the columns in robot.joint_names order.)doc");
  m.def(
      "write_joint_trajectory",
      [](const std::string& path, const RobotPtr& robot,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& times,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& q) {
        JointTrajectory t = makeJointTrajectory(*robot);
        t.positions = toMatrix(q, "write_joint_trajectory", robot->nq());
        t.times.assign(times.data(), times.data() + times.size());
        writeJointTrajectoryCsv(t, path);
      },
      py::arg("path"), py::arg("robot"), py::arg("times"), py::arg("Q"),
      "Writes Q (frames x robot.nq, rad) at times (s) as a joint-trajectory CSV, as `retarget map -o` does.");
}

}  // namespace retarget::python
