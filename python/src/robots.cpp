// Robots in Python: built-in models by name and URDF files, joint names and limits, forward
// kinematics of every link.
#include "bindings.hpp"

#include <pybind11/eigen.h>

#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/robots/builtin.hpp>

namespace retarget::python {

namespace {

// X_WL of every link (4 x 4 homogeneous, m) at q, written into `out` (links x 4 x 4, C order).
void linkPoses(const Robot& model, const Eigen::Ref<const Eigen::VectorXd>& q, double* out) {
  RobotData<double> data(model);
  forwardKinematics(model, data, q);
  for (std::size_t l = 0; l < data.X_WL.size(); ++l) {
    using RowMajor4 = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;
    Eigen::Map<RowMajor4>(out + 16 * l) = data.X_WL[l].matrix();
  }
}

Eigen::VectorXd checkedQ(const Robot& model, const py::array_t<double, py::array::c_style | py::array::forcecast>& q) {
  if (q.ndim() != 1 || q.shape(0) != model.nq()) {
    throw InvalidArgument("[retarget] Robot.forward_kinematics: expected q of size " + std::to_string(model.nq()) +
                          " (robot '" + model.name() + "'), got shape of " + std::to_string(q.ndim()) + " dimensions, " +
                          std::to_string(q.size()) + " values");
  }
  return Eigen::Map<const Eigen::VectorXd>(q.data(), model.nq());
}

}  // namespace

void bindRobots(py::module_& m) {
  py::class_<Robot, std::shared_ptr<Robot>> robot(m, "Robot", R"doc(
A robot model: joints, limits, links and collision shapes (retarget::RobotModel, immutable).

Robot(name_or_urdf) loads a built-in robot by name (nao, pepper, inmoov, tangy, baxter, yumi;
Robot.builtin_names()) or any URDF or MuJoCo MJCF file (told apart by the root element),
exactly as `retarget ... --robot` does. The reader's warnings (e.g. swapped URDF limits) are
issued as Python warnings. Raises retarget.InvalidArgument for an unknown name and
retarget.ParseError (file, line) for a bad file. From MJCF, q is MuJoCo's qpos of the hinge
and slide joints and the root link is the free joint's body.

Joint vectors q (rad for revolute, m for prismatic joints) follow joint_names; fixed and mimic
joints have no coordinate. Link poses are X_WL in the robot's base frame W (x forward, y left,
z up), metres.)doc");
  robot
      .def(py::init([](const std::string& name_or_urdf) {
             return std::const_pointer_cast<Robot>(loadRobot(name_or_urdf));
           }),
           py::arg("name_or_urdf"))
      .def_static("builtin_names", &builtinRobotNames, "Names Robot() accepts for the built-in models.")
      .def_property_readonly("name", &Robot::name, "The robot's name (built-in name or the URDF's <robot name>).")
      .def_property_readonly("nq", &Robot::nq, "Number of coordinates of q.")
      .def_property_readonly("joint_names", &Robot::qNames, "Joint name of each coordinate of q, in order.")
      .def_property_readonly(
          "lower_limits", [](py::object self) {
            const Robot& r = self.cast<const Robot&>();
            return readOnlyView(r.lowerLimits().data(), r.nq(), self);
          },
          "Lower position limit of each coordinate (rad or m; -inf when unlimited), a read-only view.")
      .def_property_readonly(
          "upper_limits", [](py::object self) {
            const Robot& r = self.cast<const Robot&>();
            return readOnlyView(r.upperLimits().data(), r.nq(), self);
          },
          "Upper position limit of each coordinate (rad or m; +inf when unlimited), a read-only view.")
      .def_property_readonly(
          "velocity_limits", [](py::object self) {
            const Robot& r = self.cast<const Robot&>();
            return readOnlyView(r.velocityLimits().data(), r.nq(), self);
          },
          "Velocity limit of each coordinate (rad/s or m/s; inf when unknown), a read-only view.")
      .def_property_readonly(
          "link_names",
          [](const Robot& r) {
            std::vector<std::string> names;
            for (const auto& link : r.links()) names.push_back(link.name);
            return names;
          },
          "Names of the links, in the order of forward_kinematics().")
      .def_property_readonly("total_mass", &Robot::totalMass, "Sum of the link masses, kg (0 when not modelled).")
      .def("neutral_configuration", &Robot::neutralConfiguration,
           "q with every coordinate at 0 clamped into its limits (rad or m).")
      .def("joint_index", &Robot::qIndex, py::arg("joint_name"),
           "Index in q of the named joint; raises retarget.InvalidArgument when it has no coordinate.")
      .def(
          "forward_kinematics",
          [](const Robot& r, const py::array_t<double, py::array::c_style | py::array::forcecast>& q) {
            const Eigen::VectorXd qv = checkedQ(r, q);
            py::array_t<double> out({static_cast<py::ssize_t>(r.links().size()), py::ssize_t{4}, py::ssize_t{4}});
            linkPoses(r, qv, out.mutable_data());
            return out;
          },
          py::arg("q"), R"doc(
Pose of every link at q: an array (links x 4 x 4) of homogeneous transforms X_WL (metres,
robot base frame W), in the order of link_names.)doc")
      .def(
          "link_pose",
          [](const Robot& r, const py::array_t<double, py::array::c_style | py::array::forcecast>& q,
             const std::string& link) {
            const Eigen::VectorXd qv = checkedQ(r, q);
            const int index = r.linkIndex(link);
            RobotData<double> data(r);
            forwardKinematics(r, data, qv);
            Eigen::Matrix<double, 4, 4, Eigen::RowMajor> X = data.X_WL[static_cast<std::size_t>(index)].matrix();
            return py::array_t<double>({py::ssize_t{4}, py::ssize_t{4}}, X.data());
          },
          py::arg("q"), py::arg("link"), "Pose X_WL (4 x 4, metres, base frame W) of one link at q.")
      .def("__repr__", [](const Robot& r) {
        return "<retarget.Robot '" + r.name() + "': " + std::to_string(r.nq()) + " coordinates, " +
               std::to_string(r.links().size()) + " links>";
      });
}

}  // namespace retarget::python
