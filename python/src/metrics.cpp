// Metrics in Python. The metric families of `retarget eval --metrics <family> --json`
// (similarity, collision, pose, dtw, physical) as functions returning the same keys, computed
// the way the command line computes them (apps/retarget/metric_families.cpp), so the numbers
// agree bit for bit; and the single metrics (DTW, weighted joint DTW, W, frame similarity,
// the robot's virtual skeleton) on arrays.
#include <cmath>

#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
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
#include <retarget/json/euler_map.hpp>
#include <retarget/safety/self_collision.hpp>

#include "bindings.hpp"

namespace retarget::python {

namespace {

using Json = nlohmann::ordered_json;
using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

Json finiteOrNull(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

// Q (frames x nq) with one row per frame of `motion`.
Eigen::MatrixXd anglesFor(const Robot& robot, const InArray& q, std::size_t frames, const char* what) {
  Eigen::MatrixXd out = toMatrix(q, what, robot.nq());
  if (static_cast<std::size_t>(out.rows()) != frames) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": expected one row of Q per motion frame (" +
                          std::to_string(frames) + "), got " + std::to_string(out.rows()));
  }
  return out;
}

// The collision model the command line evaluates with (and avoids with, margin aside).
std::optional<SelfCollisionModel<double>> collisionModel(const Robot& robot) { return defaultSelfCollisionModel(robot); }

Json similarity(const Robot& model, const Motion& motion, const Eigen::MatrixXd& q, WbfBase base) {
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
  if (!map) {
    throw InvalidArgument("[retarget] evaluate_similarity: no virtual skeleton is defined for robot '" + model.name() +
                          "' (built-in GA-LVVJ maps: NAO, Pepper)");
  }
  std::vector<int> limited;
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = map->joints[static_cast<std::size_t>(i)];
    const auto j = static_cast<GaLvvjJoint>(i);
    if (!b.joint.empty() && j != GaLvvjJoint::kLHand && j != GaLvvjJoint::kRHand) limited.push_back(model.qIndex(b.joint));
  }
  int on_limit_frames = 0;
  VirtualSkeleton<double> skeleton(model, *map, base);
  std::vector<Frame> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Eigen::VectorXd q_k = q.row(static_cast<Eigen::Index>(k)).transpose();
    robot[k].time = motion.frames[k].time;
    if (!skeleton.compute(q_k, robot[k]).ok()) {
      throw InvalidArgument("[retarget] evaluate_similarity: expected finite joint angles (row " + std::to_string(k) + ")");
    }
    bool on_limit = false;
    for (int i : limited) {
      on_limit = on_limit || std::abs(q_k[i] - model.lowerLimits()[i]) <= 1e-9 ||
                 std::abs(q_k[i] - model.upperLimits()[i]) <= 1e-9;
    }
    on_limit_frames += on_limit ? 1 : 0;
  }
  const MotionSimilarity<double> s = motionSimilarity(motion.frames, robot);
  BestReachableOptions best_options;
  best_options.wbf_base = base;
  Eigen::MatrixXd within = q;
  for (Eigen::Index k = 0; k < within.rows(); ++k) {
    within.row(k) = within.row(k).cwiseMax(model.lowerLimits().transpose()).cwiseMin(model.upperLimits().transpose());
  }
  const MotionBestReachable<double> best = motionBestReachable(model, *map, motion.frames, within, best_options);

  Json out;
  out["on_limit_frames"] = on_limit_frames;
  out["degenerate_frames"] = s.degenerate_frames;
  Json wbf_links = Json::object(), llf_links = Json::object();
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    wbf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? Json(s.wbf_link_mean[k]) : nullptr;
    llf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? Json(s.llf_link_mean[k]) : nullptr;
  }
  out["wbf"] = {{"mean", s.wbf_mean}, {"min", s.wbf_min}, {"links", wbf_links}};
  out["llf"] = {{"mean", s.llf_mean}, {"min", s.llf_min}, {"links", llf_links}};
  out["cosine"] = {{"mean", s.cosine_mean}, {"min", s.cosine_min}};
  out["wbf_base"] = wbfBaseName(base);
  out["best_reachable"] = {{"wbf_mean", best.wbfBestMean()}, {"llf_mean", best.llfBestMean()}};
  Json links = Json::object();
  const auto value = [](double v, int frames) { return frames > 0 ? Json(v) : Json(nullptr); };
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    links[kSimilarityLinkNames[k]] = {
        {"wbf", value(best.wbf_achieved_mean[k], best.wbf_frames[k])},
        {"wbf_best_reachable", value(best.wbf_best_mean[k], best.wbf_frames[k])},
        {"llf", value(best.llf_achieved_mean[k], best.llf_frames[k])},
        {"llf_best_reachable", value(best.llf_best_mean[k], best.llf_frames[k])},
        {"within_reach",
         {{"wbf_frames", best.wbf_within_frames[k]},
          {"wbf", value(best.wbf_achieved_within_mean[k], best.wbf_within_frames[k])},
          {"wbf_best_reachable", value(best.wbf_best_within_mean[k], best.wbf_within_frames[k])},
          {"llf_frames", best.llf_within_frames[k]},
          {"llf", value(best.llf_achieved_within_mean[k], best.llf_within_frames[k])},
          {"llf_best_reachable", value(best.llf_best_within_mean[k], best.llf_within_frames[k])}}}};
  }
  out["links"] = links;
  return out;
}

Json pose(const Robot& model, const Motion& motion, const Eigen::MatrixXd& q) {
  const std::optional<PicMap> map = picMapFor(model);
  if (!map) {
    throw InvalidArgument("[retarget] evaluate_pose: no PIC map fits robot '" + model.name() +
                          "' (built-in maps: baxter, yumi, nao, pepper)");
  }
  const ArmImitation e = evaluateArmImitation(model, *map, motion, q, defaultWorkArea(*map));
  const auto number = [](double v) { return std::isnan(v) ? Json(nullptr) : Json(v); };
  Json out;
  out["counted_frames"] = e.counted_frames;
  out["pacc"] = e.pacc;
  out["pacc_elbow_angle"] = e.pacc_elbow_angle;
  out["po"] = number(e.po);
  out["human_po"] = number(e.human_po);
  out["po_frames"] = e.po_frames;
  out["po_all"] = e.po_all;
  out["human_po_all"] = e.human_po_all;
  out["los_occlusion"] = e.los_occlusion;
  out["mean_pose_error"] = e.mean_pose_error;
  out["mean_wrist_direction_error"] = e.mean_wrist_direction_error;
  out["largest_joint_step"] = e.largest_joint_step;
  return out;
}

// The Euler map that reads the human's joint angles: `map_source` (needs the GIL), else the
// built-in InMoov map of the skeleton.
EulerMap dtwEulerMap(const Robot& model, const BvhMotion& motion, py::handle map_source) {
  EulerMap config;
  if (!map_source.is_none()) {
    config = structFrom<EulerMap>(EulerMap{}, map_source, py::kwargs(), "map");
  } else {
    const std::string skeleton = detectEulerSkeleton(motion);
    if (model.name() != "inmoov" || skeleton.empty()) {
      throw InvalidArgument("[retarget] evaluate_dtw: no built-in Euler map for robot '" + model.name() +
                            "' and this skeleton; pass map=");
    }
    config = inmoovEulerMap(skeleton);
  }
  return config;
}

Json dtwFamily(const Robot& model, const BvhMotion& motion, const Eigen::MatrixXd& q,
               const std::vector<std::string>& names, const EulerMap& config) {
  if (motion.frame_count == 0) throw InvalidArgument("[retarget] evaluate_dtw: expected at least one frame, got 0");
  if (q.rows() == 0) throw InvalidArgument("[retarget] evaluate_dtw: expected at least one row of Q, got 0");
  EulerMapper<double> mapper(model, motion, config);
  const std::vector<int> joints = mapper.mappedJoints();
  std::vector<std::string> joint_names;
  for (int i : joints) joint_names.push_back(model.qName(i));
  Eigen::MatrixXd human(static_cast<Eigen::Index>(joints.size()), motion.frame_count);
  Eigen::VectorXd q_f(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    (void)mapper.map(motion.frameValues(f), q_f);
    for (std::size_t k = 0; k < joints.size(); ++k) human(static_cast<Eigen::Index>(k), f) = mapper.rawOutput()[joints[k]];
  }
  Eigen::MatrixXd robot(static_cast<Eigen::Index>(joints.size()), q.rows());
  for (std::size_t k = 0; k < joint_names.size(); ++k) {
    const auto it = std::find(names.begin(), names.end(), joint_names[k]);
    if (it == names.end()) throw InvalidArgument("[retarget] evaluate_dtw: expected a column '" + joint_names[k] + "' in Q");
    robot.row(static_cast<Eigen::Index>(k)) = q.col(it - names.begin()).transpose();
  }
  const WeightedDtwResult<double> result = weightedJointDtw(human, robot, rangeOfMotionWeights(model, joint_names));
  Json out;
  out["config"] = config.name;
  out["frames_human"] = motion.frame_count;
  out["frames_robot"] = static_cast<std::size_t>(q.rows());
  Json per_joint = Json::object();
  for (std::size_t k = 0; k < joint_names.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    per_joint[joint_names[k]] = {{"dtw", result.joint_distances[i]},
                                 {"weight", result.weights[i]},
                                 {"path_length", result.path_lengths[i]}};
  }
  out["joints"] = per_joint;
  out["dtw_mean"] = joint_names.empty() ? 0.0 : result.joint_distances.mean();
  out["weighted_dtw"] = result.system_distance;
  return out;
}

Json physical(const Robot& model, const Motion* motion, const Eigen::MatrixXd& q, const std::vector<double>& time) {
  const std::optional<SelfCollisionModel<double>> collision = collisionModel(model);
  const JointSmoothness s = jointSmoothness(model, time, q);
  Json out;
  if (motion != nullptr) {
    if (const auto map = gaLvvjMapFor(model)) {
      VirtualSkeleton<double> view(model, *map);
      const MotionPositionError error = motionPositionError(view, *motion, q, PositionErrorScaling::kUniform);
      int samples = 0;
      for (const int frames : error.link_frames) samples += frames;
      if (samples > 0) {
        out["mpjpe"] = {{"mean", error.mpjpe},
                        {"max", error.max},
                        {"degenerate_frames", error.degenerate_frames},
                        {"scaling", positionErrorScalingName(error.scaling)},
                        {"size_ratio", error.size_ratio}};
      }
    }
  }
  out["limit_margin_min"] = finiteOrNull(s.limit_margin_min);
  out["velocity_peak"] = s.velocity_peak_max;
  out["velocity_rms"] = s.velocity_rms_all;
  out["acceleration_peak"] = s.acceleration_peak_max;
  out["acceleration_rms"] = s.acceleration_rms_all;
  out["jerk_peak"] = s.jerk_peak_max;
  out["jerk_rms"] = s.jerk_rms_all;
  out["velocity_violation_intervals"] = s.velocity_violation_intervals;
  if (collision) {
    const SelfPenetration p = selfPenetration(*collision, q);
    out["penetration"] = {{"max", p.max_depth}, {"mean", p.mean_depth}, {"frames", p.frames_in_penetration},
                          {"worst_pair", p.worst_pair}};
  }
  bool increasing = true;
  for (std::size_t k = 1; k < time.size(); ++k) increasing = increasing && time[k] > time[k - 1];
  if (const auto feet = footLinks(model); feet && increasing && !time.empty()) {
    double sliding = 0, floating_max = 0;
    Json links = Json::object();
    for (const auto& [link, joint] : {std::pair<std::string, HumanJoint>{feet->first, HumanJoint::kAnkleLeft},
                                      {feet->second, HumanJoint::kAnkleRight}}) {
      const Eigen::Matrix3Xd robot = robotFootTrajectory(model, link, q);
      std::optional<Eigen::Matrix3Xd> human;
      if (motion != nullptr && motion->size() == time.size()) human = humanFootTrajectory(*motion, joint);
      const FootContact c = footContact(time, robot, human ? &*human : nullptr);
      sliding += c.sliding;
      floating_max = std::max(floating_max, c.floating_max);
      links[link] = {{"contact_frames", c.contact_frames},
                     {"sliding", c.sliding},
                     {"sliding_speed", c.sliding_speed},
                     {"reference_contact_frames", c.reference_contact_frames},
                     {"floating_frames", c.floating_frames},
                     {"floating_mean", c.floating_mean},
                     {"floating_max", c.floating_max}};
    }
    out["feet"] = {{"sliding", sliding}, {"floating_max", floating_max}, {"links", links}};
  }
  return out;
}

Json collisionFamily(const Robot& model, const Eigen::MatrixXd& q, const Eigen::MatrixXd* plain,
                     const std::string& reference) {
  const std::optional<SelfCollisionModel<double>> collision = collisionModel(model);
  if (!collision) {
    throw InvalidArgument("[retarget] evaluate_collision: robot '" + model.name() + "' has no collision shapes to check");
  }
  const TrajectoryClearance clearance = trajectoryClearance(*collision, q);
  Json out;
  out["pairs"] = collision->pairs().size();
  out["margin"] = collision->margin();
  out["reference"] = plain != nullptr ? Json(reference) : Json(nullptr);
  if (plain != nullptr) {
    const JointSimilaritySummary w = jointSimilarity(model, *plain, q);
    out["w"] = {{"mean", w.mean}, {"min", w.min}};
  } else {
    out["w"] = nullptr;
  }
  out["min_clearance"] = clearance.min;
  out["collision_frames"] = clearance.collision_frames;
  out["margin_frames"] = clearance.margin_frames;
  out["reference_collision_frames"] =
      plain != nullptr ? Json(trajectoryClearance(*collision, *plain).collision_frames) : Json(nullptr);
  return out;
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
within the robot's limits (best_reachable). Robots with a virtual skeleton (NAO, Pepper).
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
        const std::optional<GaLvvjMap> map = gaLvvjMapFor(*robot);
        if (!map) throw InvalidArgument("[retarget] virtual_skeleton: no virtual skeleton for robot '" + robot->name() + "'");
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
