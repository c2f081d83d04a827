// Metrics in Python. The metric families of `retarget eval --metrics <family> --json`
// (similarity, collision, pose, dtw, physical) as functions returning the same keys, computed
// the way the command line computes them (apps/retarget/metric_families.cpp), so the numbers
// agree bit for bit; and the single metrics (DTW, weighted joint DTW, W, frame similarity,
// the robot's virtual skeleton) on arrays.
#include <cmath>

#include <retarget/json/euler_map.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/safety/self_collision.hpp>

#include <retarget/app/metric_families.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/robots/arm_chains.hpp>
#include <retarget/robots/robot_skeleton.hpp>

#include "bindings.hpp"

namespace retarget::python {

namespace {

using Json = nlohmann::ordered_json;
using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Q (frames x nq) with one row per frame of `motion`.
Eigen::MatrixXd anglesFor(const Robot& robot, const InArray& q, std::size_t frames, const char* what) {
  Eigen::MatrixXd out = toMatrix(q, what, robot.nq());
  if (static_cast<std::size_t>(out.rows()) != frames) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": expected one row of Q per motion frame (" +
                          std::to_string(frames) + "), got " + std::to_string(out.rows()));
  }
  return out;
}

// The metric families are the application layer's (retarget/app/metric_families.hpp), the same
// code `retarget eval` runs: these only find what each needs on the robot and say when it does
// not apply.

Json similarity(const Robot& model, const Motion& motion, const Eigen::MatrixXd& q, WbfBase base) {
  const std::optional<VirtualSkeletonMap> map = virtualSkeletonMapFor(model);
  if (!map) {
    throw InvalidArgument("[retarget] evaluate_similarity: no virtual skeleton is defined for robot '" + model.name() +
                          "' (NAO, Pepper, or a humanoid whose arms and legs the automatic binding finds)");
  }
  return app::similarityJson(app::evaluateSimilarity(model, *map, motion, q, base, "Q"));
}

Json pose(const Robot& model, const Motion& motion, const Eigen::MatrixXd& q) {
  const std::optional<ArmChainMap> map = armChainsFor(model);
  if (!map) {
    throw InvalidArgument("[retarget] evaluate_pose: no arm chains fit robot '" + model.name() +
                          "' (built-in: baxter, yumi, nao, pepper)");
  }
  return app::poseJson(evaluateArmImitation(model, *map, motion, q, defaultWorkArea(*map)));
}

// The Euler map that reads the human's joint angles: `map_source` (needs the GIL), else the
// built-in InMoov map of the skeleton.
EulerMap dtwEulerMap(const Robot& model, const BvhMotion& motion, py::handle map_source) {
  std::optional<EulerMap> given;
  if (!map_source.is_none()) given = structFrom<EulerMap>(EulerMap{}, map_source, py::kwargs(), "map");
  const std::optional<EulerMap> config = app::dtwEulerMap(model, motion, given ? &*given : nullptr);
  if (!config) {
    throw InvalidArgument("[retarget] evaluate_dtw: no built-in Euler map for robot '" + model.name() +
                          "' and this skeleton; pass map=");
  }
  return *config;
}

Json dtwFamily(const Robot& model, const BvhMotion& motion, const Eigen::MatrixXd& q,
               const std::vector<std::string>& names, const EulerMap& config) {
  if (motion.frame_count == 0) throw InvalidArgument("[retarget] evaluate_dtw: expected at least one frame, got 0");
  JointTrajectory angles;
  angles.joint_names = names;
  angles.positions = q;
  angles.times.resize(static_cast<std::size_t>(q.rows()));  // DTW reads the order of the frames only
  for (std::size_t k = 0; k < angles.times.size(); ++k) angles.times[k] = static_cast<double>(k);
  return app::dtwJson(app::evaluateDtw(model, motion, config, angles, "Q"));
}

Json physical(const Robot& model, const Motion* motion, const Eigen::MatrixXd& q, const std::vector<double>& time) {
  const std::optional<SelfCollisionModel<double>> collision = defaultSelfCollisionModel(model);
  return app::physicalJson(app::evaluatePhysical(model, motion, q, time, collision ? &*collision : nullptr));
}

Json collisionFamily(const Robot& model, const Eigen::MatrixXd& q, const Eigen::MatrixXd* plain,
                     const std::string& reference) {
  const std::optional<SelfCollisionModel<double>> collision = defaultSelfCollisionModel(model);
  if (!collision) {
    throw InvalidArgument("[retarget] evaluate_collision: robot '" + model.name() + "' has no collision shapes to check");
  }
  std::optional<app::PlainMapping> mapping;
  if (plain != nullptr) mapping = app::PlainMapping{reference, *plain};
  return app::collisionJson(app::evaluateCollision(model, *collision, q, mapping ? &*mapping : nullptr));
}

WbfBase wbfBase(const std::string& name) {
  if (name == "torso") return WbfBase::kTorso;
  if (name == "support-foot") return WbfBase::kSupportFoot;
  throw InvalidArgument("[retarget] wbf_base: expected 'torso' or 'support-foot', got '" + name + "'");
}

}  // namespace

void bindMetrics(py::module_& m) {
  m.def(
      "evaluate_similarity",
      [](const RobotPtr& robot, const Motion& motion, const InArray& Q, const std::string& wbf_base) {
        const Eigen::MatrixXd q = anglesFor(*robot, Q, motion.size(), "evaluate_similarity");
        Json out;
        {
          py::gil_scoped_release release;
          out = similarity(*robot, motion, q, wbfBase(wbf_base));
        }
        return toPython(out);
      },
      py::arg("robot"), py::arg("motion"), py::arg("Q"), py::arg("wbf_base") = "torso", R"doc(
Link-vector similarity of the robot at Q (frames x nq, rad; one row per motion frame) to the
human motion, as `retarget eval --metrics similarity --json` reports it: WBF (seed 000 Eq. 44),
LLF (Eq. 46), cosine (seed 003 Eq. 1), 1 = same direction; per link the best value reachable
within the robot's limits (best_reachable). Robots with a virtual skeleton (NAO, Pepper, and every
humanoid the automatic binding understands: G1, H1, a URDF or MJCF).
wbf_base: 'torso' or 'support-foot'. Returns a dict; releases the GIL.)doc");
  m.def(
      "evaluate_pose",
      [](const RobotPtr& robot, const Motion& motion, const InArray& Q) {
        const Eigen::MatrixXd q = anglesFor(*robot, Q, motion.size(), "evaluate_pose");
        Json out;
        {
          py::gil_scoped_release release;
          out = pose(*robot, motion, q);
        }
        return toPython(out);
      },
      py::arg("robot"), py::arg("motion"), py::arg("Q"), R"doc(
Seed 004's arm imitation metrics (evaluateArmImitation), as `retarget eval --metrics pose --json`:
pacc (Eq. 4, upper-arm and forearm directions within 15 deg of the placed human's; pacc_elbow_angle: each skeleton's elbow angle), po / human_po (Eq. 5, share of the work area's region
under the projected arm links), mean_pose_error (rad), largest_joint_step (rad). Robots with a
PIC map (Baxter, YuMi, NAO, Pepper). Returns a dict; releases the GIL.)doc");
  m.def(
      "evaluate_dtw",
      [](const RobotPtr& robot, const BvhMotion& motion, const InArray& Q, py::object joint_names, py::object map) {
        const Eigen::MatrixXd q = toMatrix(Q, "evaluate_dtw");
        const std::vector<std::string> names =
            joint_names.is_none() ? robot->qNames() : joint_names.cast<std::vector<std::string>>();
        if (static_cast<Eigen::Index>(names.size()) != q.cols()) {
          throw InvalidArgument("[retarget] evaluate_dtw: expected one joint name per column of Q");
        }
        const EulerMap config = dtwEulerMap(*robot, motion, map);
        Json out;
        {
          py::gil_scoped_release release;
          out = dtwFamily(*robot, motion, q, names, config);
        }
        return toPython(out);
      },
      py::arg("robot"), py::arg("motion"), py::arg("Q"), py::arg("joint_names") = py::none(), py::arg("map") = py::none(),
      R"doc(
Per-joint DTW (seed 002 Eqs. 11-13) between the human's joint-angle trajectories (the Euler
mapping of the BVH before limits) and the robot's Q (frames x columns, rad; columns named by
joint_names, default robot.joint_names), and the range-of-motion weighted A_w, as `retarget
eval --metrics dtw --json`. map: an EulerMap (dict or JSON path), default the InMoov map.)doc");
  m.def(
      "evaluate_physical",
      [](const RobotPtr& robot, const Motion* motion, const InArray& Q, const InArray& times) {
        const Eigen::MatrixXd q = toMatrix(Q, "evaluate_physical", robot->nq());
        std::vector<double> t(times.data(), times.data() + times.size());
        if (static_cast<Eigen::Index>(t.size()) != q.rows()) {
          throw InvalidArgument("[retarget] evaluate_physical: expected one time per row of Q");
        }
        Json out;
        {
          py::gil_scoped_release release;
          out = physical(*robot, motion, q, t);
        }
        return toPython(out);
      },
      py::arg("robot"), py::arg("motion"), py::arg("Q"), py::arg("times"), R"doc(
Physical metrics of Q (frames x nq, rad) at times (s), as `retarget eval --metrics physical
--json`: MPJPE (m, robot scaled to the human; robots with a virtual skeleton; needs motion, may
be None), joint velocity / acceleration / jerk peaks and RMS (rad/s, rad/s^2, rad/s^3),
velocity-limit violations, the joint-limit margin (rad), self-penetration (m) and foot
sliding / floating (m).)doc");
  m.def(
      "evaluate_collision",
      [](const RobotPtr& robot, const InArray& Q, py::object plain, const std::string& reference) {
        const Eigen::MatrixXd q = toMatrix(Q, "evaluate_collision", robot->nq());
        std::optional<Eigen::MatrixXd> p;
        if (!plain.is_none()) p = toMatrix(plain.cast<InArray>(), "evaluate_collision", robot->nq());
        Json out;
        {
          py::gil_scoped_release release;
          out = collisionFamily(*robot, q, p ? &*p : nullptr, reference);
        }
        return toPython(out);
      },
      py::arg("robot"), py::arg("Q"), py::arg("plain") = py::none(), py::arg("reference") = "plain",
      R"doc(
Self-collision of Q (frames x nq, rad) as `retarget eval --metrics collision --json`: minimum
clearance (m), frames in collision and within the margin; with plain (the mapping before any
post-processing, seed 001's q_mimic) the joint-space similarity W (Eq. 11) of Q to it.)doc");

  m.def(
      "dtw",
      [](const InArray& a, const InArray& b) {
        const Eigen::MatrixXd A = toMatrix(a, "dtw"), B = toMatrix(b, "dtw");
        // Rows are samples in Python; the library takes one column per sample.
        const DtwResult<double> r = retarget::dtw(A.transpose(), B.transpose());
        return py::make_tuple(r.distance, r.path_length);
      },
      py::arg("a"), py::arg("b"),
      "DTW of two sequences (samples x features): (distance, path_length), Euclidean local distance.");
  m.def(
      "weighted_joint_dtw",
      [](const RobotPtr& robot, const InArray& human, const InArray& robot_q, const std::vector<std::string>& joint_names) {
        // Rows are frames in Python, joints columns; the library takes joints x frames.
        const Eigen::MatrixXd H = toMatrix(human, "weighted_joint_dtw").transpose();
        const Eigen::MatrixXd R = toMatrix(robot_q, "weighted_joint_dtw").transpose();
        const WeightedDtwResult<double> r = weightedJointDtw(H, R, rangeOfMotionWeights(*robot, joint_names));
        py::dict out;
        out["joint_distances"] = py::array_t<double>(r.joint_distances.size(), r.joint_distances.data());
        out["weights"] = py::array_t<double>(r.weights.size(), r.weights.data());
        out["weighted_dtw"] = r.system_distance;
        return out;
      },
      py::arg("robot"), py::arg("human"), py::arg("robot_q"), py::arg("joint_names"), R"doc(
Seed 002's weighted joint DTW: per joint the DTW of the human's and the robot's 1-D angle
trajectories (frames x joints each, rad), weighted by the robot's range of motion of the named
joints; returns joint_distances, weights and weighted_dtw (A_w, Eq. 13).)doc");
  m.def(
      "joint_similarity",
      [](const RobotPtr& robot, const InArray& reference, const InArray& Q) {
        const JointSimilaritySummary w = jointSimilarity(*robot, toMatrix(reference, "joint_similarity", robot->nq()),
                                                         toMatrix(Q, "joint_similarity", robot->nq()));
        py::dict out;
        out["mean"] = w.mean;
        out["min"] = w.min;
        out["per_frame"] = py::array_t<double>(static_cast<py::ssize_t>(w.per_frame.size()), w.per_frame.data());
        return out;
      },
      py::arg("robot"), py::arg("reference"), py::arg("Q"),
      "Seed 001's joint-space similarity W (Eq. 11) of Q to reference (frames x nq, rad): mean, min, per frame.");
  m.def(
      "virtual_skeleton",
      [](const RobotPtr& robot, const InArray& q, const std::string& wbf_base) {
        const std::optional<VirtualSkeletonMap> map = virtualSkeletonMapFor(*robot);
        if (!map)
          throw InvalidArgument("[retarget] virtual_skeleton: no virtual skeleton for robot '" + robot->name() + "'");
        VirtualSkeleton<double> skeleton(*robot, *map, wbfBase(wbf_base));
        Frame out;
        const Eigen::VectorXd qv = Eigen::Map<const Eigen::VectorXd>(q.data(), q.size());
        if (qv.size() != robot->nq()) throw InvalidArgument("[retarget] virtual_skeleton: q has the wrong size");
        (void)skeleton.compute(qv, out);
        return out;
      },
      py::arg("robot"), py::arg("q"), py::arg("wbf_base") = "torso",
      "The robot's virtual skeleton at q (rad) as a SkeletonFrame in the canonical frame (m): what the "
      "similarity metrics compare with the human.");
  m.def(
      "frame_similarity",
      [](const Frame& human, const Frame& robot) {
        FrameSimilarity<double> s;
        const Status status = frameSimilarity(human, robot, s);
        py::dict out;
        out["wbf"] = s.wbf;
        out["llf"] = s.llf;
        out["cosine"] = s.cosine;
        out["status"] = toPython(status);
        return out;
      },
      py::arg("human"), py::arg("robot"),
      "WBF, LLF and cosine similarity of one human frame to one robot virtual-skeleton frame (1 = identical "
      "directions), with the status (DEGENERATE_INPUT when a link was invalid).");
}

}  // namespace retarget::python
