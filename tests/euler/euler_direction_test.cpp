// Independent direction check of EVERY built-in InMoov Euler configuration (Axis Neuron, CMU,
// Mixamo; add new ones to kBuiltinSkeletons): the robot's forward kinematics must point its
// upper arm and forearm where the BVH's own forward kinematics (bvhGlobalPoses) points the
// human's, and turn its hand the way the human's hand turns, within stated angles. Only the
// configuration's joint NAMES are used to build the inputs; its signs, offsets, orders and
// reference poses are what is being checked, so a wrong value fails here.
// Frames: both the BVH families (Y up, facing +Z, left +X) and InMoov's torso (x forward,
// y left, z up); a BVH vector v maps to (v.z, v.x, v.y). Human directions are taken in the
// frame of the arm's parent joint (the chest side the robot's shoulder is fixed to).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/robots/inmoov.hpp>

#include "euler/euler_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

const char* const kBuiltinSkeletons[] = {"axis-neuron", "cmu", "mixamo"};

// Stated tolerances (rad). InMoov's arm hangs about 7 deg behind vertical at q = 0 and its
// shoulder/elbow axes are not exactly the human's, so directions agree to a few degrees.
constexpr double kUpperArmTolerance = 0.2;   // 11.5 deg
constexpr double kForearmTolerance = 0.3;    // 17 deg
constexpr double kHandTwistTolerance = 0.1;  // 5.7 deg
// Real recordings: the human forearm also turns about axes the InMoov elbow (one bend joint,
// Eq. 6) cannot follow, so the forearm bound is wider there (measured 95 % quantiles: CMU
// example 0.49, Axis Neuron 0.38, others <= 0.11 rad); the upper-arm bound is the same.
constexpr double kRealForearmTolerance = 0.6;  // 34 deg, 95 % of unclamped arms

Eigen::Vector3d toRobot(const Eigen::Vector3d& v_bvh) { return Eigen::Vector3d(v_bvh.z(), v_bvh.x(), v_bvh.y()); }

double angleBetween(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b));
}

// A T-pose upper-body hierarchy (cm, Y up, facing +Z) carrying the joint names `map` uses:
// Hips -> Spine -> neck chain, and per side a clavicle -> arm -> forearm -> hand -> fingers.
BvhMotion syntheticSkeleton(const EulerMap& map) {
  BvhMotion m;
  const std::vector<BvhChannel> rot = {BvhChannel::kZrotation, BvhChannel::kXrotation, BvhChannel::kYrotation};
  std::vector<BvhChannel> root = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
  root.insert(root.end(), rot.begin(), rot.end());
  std::set<std::string> added;
  auto add = [&](const std::string& name, int parent, const Eigen::Vector3d& offset, bool end = false) {
    m.joints.push_back(test::bvhJoint(name, parent, offset, end ? std::vector<BvhChannel>{} : rot));
    added.insert(name);
    return static_cast<int>(m.joints.size()) - 1;
  };
  m.joints.push_back(test::bvhJoint("SyntheticHips", -1, Eigen::Vector3d(0, 93, 0), root));
  const int spine = add("SyntheticSpine", 0, {0, 10, 0});
  int parent = spine;
  for (const auto& name : test::mappingOf(map, "head_updown").source) parent = add(name, parent, {0, 45.0 / 3, 0});
  add("SyntheticHead_End", parent, {0, 15, 0}, true);
  for (const std::string side : {"left", "right"}) {
    const double x = side == "left" ? 1.0 : -1.0;
    const int clavicle = add("Synthetic" + side + "Clavicle", spine, {x * 4, 35, 0});
    const int arm = add(test::mappingOf(map, side + "_shoulder_side").source.front(), clavicle, {x * 13, 0, 0});
    const int fore = add(test::mappingOf(map, side + "_bicep").source.front(), arm, {x * 26.5, 0, 0});
    const int hand = add(test::mappingOf(map, side + "_hand").source.front(), fore, {x * 26, 0, 0});
    int f = 0;
    for (const char* finger : {"_thumb", "_index", "_middle", "_ring", "_pinky"}) {
      int p = hand;
      Eigen::Vector3d offset(x * 5, 0, 3.0 - 1.5 * f++);
      for (const auto& name : test::mappingOf(map, side + finger).source) {
        if (added.count(name)) {
          p = m.findJoint(name);
          continue;
        }
        p = add(name, p, offset);
        offset = Eigen::Vector3d(x * 3, 0, 0);
      }
      if (m.findJoint(m.joints[p].name + "_End") < 0) add(m.joints[p].name + "_End", p, offset, true);
    }
  }
  m.assignChannelIndices();
  m.frame_time = 0.01;
  m.frame_count = 0;
  return m;
}

struct Agreement {
  int compared = 0;
  std::vector<double> upper, fore;  // angles (rad) of every compared unclamped arm
  double worst(const std::vector<double>& v) const { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
  double quantile(std::vector<double> v, double q) const {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
  }
};

// Maps every frame of `motion` with `map`, and compares the robot's upper-arm and forearm
// directions with the human's for every arm whose four joints were not clamped.
// With `all_arms`, clamped arms are compared too (for the deliberately wrong configurations).
Agreement compareArms(const RobotModel<double>& model, const BvhMotion& motion, const EulerMap& map, int stride = 1,
                      bool all_arms = false) {
  EulerMapper<double> mapper(model, motion, map);
  RobotData<double> data(model);
  std::vector<Eigen::Isometry3d> X_WJ;
  Eigen::VectorXd q(model.nq());
  Agreement out;
  for (int f = 0; f < motion.frame_count; f += stride) {
    mapper.reset();
    (void)mapper.map(motion.frameValues(f), q);
    forwardKinematics(model, data, q);
    bvhGlobalPoses(motion, f, X_WJ);
    for (const std::string side : {"left", "right"}) {
      bool inside = true;
      for (const char* joint : {"_shoulder_side", "_shoulder_up", "_bicep_rotate", "_bicep"}) {
        const int i = model.qIndex(side + joint);
        inside = inside && mapper.rawOutput()[i] == q[i];
      }
      if (!inside && !all_arms) continue;
      const int arm = motion.findJoint(test::mappingOf(map, side + "_shoulder_side").source.front());
      const int fore = motion.findJoint(test::mappingOf(map, side + "_bicep").source.front());
      const int hand = motion.findJoint(test::mappingOf(map, side + "_hand").source.front());
      REQUIRE(arm >= 0);
      REQUIRE(motion.joints[fore].parent == arm);
      REQUIRE(motion.joints[hand].parent == fore);
      const Eigen::Matrix3d R_WP = X_WJ[static_cast<std::size_t>(motion.joints[arm].parent)].linear();
      auto p = [&](int j) { return X_WJ[static_cast<std::size_t>(j)].translation(); };
      const Eigen::Vector3d human_upper = toRobot(R_WP.transpose() * (p(fore) - p(arm)));
      const Eigen::Vector3d human_fore = toRobot(R_WP.transpose() * (p(hand) - p(fore)));
      auto origin = [&](const std::string& link) { return data.X_WL[model.linkIndex(link)].translation(); };
      out.upper.push_back(angleBetween(human_upper, origin(side + "_forearm") - origin(side + "_bicep")));
      out.fore.push_back(angleBetween(human_fore, origin(side + "_hand") - origin(side + "_forearm")));
      ++out.compared;
    }
  }
  return out;
}

// Random arm poses on `motion`'s hierarchy (as in the Axis Neuron check of
// euler_inmoov_test.cpp): a hanging arm moved by random rotations, a random elbow bend within
// the InMoov elbow's 0..90 deg (robots/inmoov.hpp; a bend it cannot reach is clamped, and
// clamped arms are not compared).
void randomArmPoses(BvhMotion& motion, const EulerMap& map, int frames, unsigned seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  motion.frame_count = frames;
  motion.values.assign(static_cast<std::size_t>(frames) * motion.channel_count, 0.0);
  for (int f = 0; f < frames; ++f) {
    for (const std::string side : {"left", "right"}) {
      const double x = side == "left" ? 1.0 : -1.0;
      const Eigen::Matrix3d R_arm = Eigen::AngleAxisd(uniform(-0.9, 0.9), Eigen::Vector3d::UnitX()).matrix() *
                                    Eigen::AngleAxisd(x * uniform(-0.8, 0.1), Eigen::Vector3d::UnitZ()).matrix() *
                                    Eigen::AngleAxisd(uniform(-1.2, 1.2), Eigen::Vector3d::UnitY()).matrix() *
                                    Eigen::AngleAxisd(-x * kPi<double> / 2, Eigen::Vector3d::UnitZ()).matrix();
      const Eigen::Matrix3d R_fore = Eigen::AngleAxisd(-x * uniform(0.0, 1.5), Eigen::Vector3d::UnitY()).matrix();
      test::setLocalRotation(motion, f, motion.findJoint(test::mappingOf(map, side + "_shoulder_side").source.front()), R_arm);
      test::setLocalRotation(motion, f, motion.findJoint(test::mappingOf(map, side + "_bicep").source.front()), R_fore);
    }
  }
}

}  // namespace

TEST_CASE("inmoov euler, every built-in configuration: arm and forearm point where the BVH's FK points the human's") {
  const auto model = makeInMoov<double>();
  for (const std::string skeleton : kBuiltinSkeletons) {
    CAPTURE(skeleton);
    const EulerMap map = inmoovEulerMap(skeleton);
    BvhMotion motion = syntheticSkeleton(map);
    randomArmPoses(motion, map, test::sweepCount(1000), 91);
    const Agreement a = compareArms(model, motion, map);
    MESSAGE(skeleton << ": " << a.compared << " unclamped arms, upper arm within " << a.worst(a.upper)
                     << " rad, forearm within " << a.worst(a.fore) << " rad");
    CHECK(a.compared > 100);
    CHECK(a.worst(a.upper) < kUpperArmTolerance);
    CHECK(a.worst(a.fore) < kForearmTolerance);
    // The check can fail: one configuration value flipped (a sign, or the Euler order)
    // and the same poses point the robot's arm elsewhere.
    for (const char* joint : {"left_shoulder_side", "left_shoulder_up", "left_bicep_rotate", "right_shoulder_up"}) {
      CAPTURE(joint);
      EulerMap wrong = map;
      for (auto& m : wrong.joints) {
        if (m.robot_joint == joint) m.sign = -m.sign;
      }
      const Agreement w = compareArms(model, motion, wrong, 1, true);
      CHECK(std::max(w.worst(w.upper), w.worst(w.fore)) > kForearmTolerance);
    }
    EulerMap wrong_order = map;
    for (auto& m : wrong_order.joints) {
      if (m.robot_joint.find("left_shoulder") == 0 || m.robot_joint == "left_bicep_rotate") m.order = parseEulerOrder("XZY");
    }
    const Agreement wo = compareArms(model, motion, wrong_order, 1, true);
    CHECK(std::max(wo.worst(wo.upper), wo.worst(wo.fore)) > kForearmTolerance);
  }
}

TEST_CASE("inmoov euler, every built-in configuration: the hand turns the way the human's hand turns") {
  const auto model = makeInMoov<double>();
  RobotData<double> data(model), data_zero(model);
  for (const std::string skeleton : kBuiltinSkeletons) {
    CAPTURE(skeleton);
    const EulerMap map = inmoovEulerMap(skeleton);
    BvhMotion motion = syntheticSkeleton(map);
    motion.frame_count = 1;
    motion.values.assign(motion.channel_count, 0.0);
    EulerMapper<double> mapper(model, motion, map);
    std::mt19937 rng(92);
    Eigen::VectorXd q(model.nq());
    double worst = 0;
    for (int n = 0; n < test::sweepCount(200); ++n) {
      // Arms hanging (robot zero), elbows straight, hands twisted about the forearm's own axis
      // (taken from the hierarchy: the hand's OFFSET) in the direction InMoov's wrist turns.
      const double omega = std::uniform_real_distribution<double>(0.05, 3.0)(rng);
      for (const std::string side : {"left", "right"}) {
        const double x = side == "left" ? 1.0 : -1.0;
        const int arm = motion.findJoint(test::mappingOf(map, side + "_shoulder_side").source.front());
        const int hand = motion.findJoint(test::mappingOf(map, side + "_hand").source.front());
        test::setLocalRotation(motion, 0, arm,
                               Eigen::AngleAxisd(-x * kPi<double> / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix());
        const Eigen::Vector3d distal = motion.joints[hand].offset.normalized();
        test::setLocalRotation(motion, 0, hand, Eigen::AngleAxisd(-x * omega, distal).toRotationMatrix());
      }
      mapper.reset();
      const Status status = mapper.map(motion.frameValues(0), q);
      CHECK_FALSE(status.has(StatusCode::kInvalidInput));
      CHECK_FALSE(status.has(StatusCode::kDegenerateInput));
      forwardKinematics(model, data, q);
      Eigen::VectorXd q_zero = q;
      for (const std::string side : {"left", "right"}) q_zero[model.qIndex(side + "_hand")] = 0;
      forwardKinematics(model, data_zero, q_zero);
      for (const std::string side : {"left", "right"}) {
        const int link = model.linkIndex(side + "_hand");
        const Eigen::AngleAxisd turn(data.X_WL[link].linear() * data_zero.X_WL[link].linear().transpose());
        const Eigen::Vector3d robot_distal =
            (data.X_WL[link].translation() - data.X_WL[model.linkIndex(side + "_forearm")].translation()).normalized();
        // The human's twist about its distal axis (outwards = +x), as seen by the robot.
        const double human_twist = side == "left" ? -omega : omega;
        worst = std::max(worst, std::abs(turn.angle() * turn.axis().dot(robot_distal) - human_twist));
      }
    }
    MESSAGE(skeleton << ": hand twist within " << worst << " rad");
    CHECK(worst < kHandTwistTolerance);
  }
}

TEST_CASE("inmoov euler, real BVH takes: unclamped arms point where the BVH's own FK points them") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto model = makeInMoov<double>();
  std::vector<std::filesystem::path> paths;
  for (const auto& item : std::filesystem::directory_iterator(data_dir / "bvh")) {
    if (item.path().extension() == ".bvh") paths.push_back(item.path());
  }
  std::sort(paths.begin(), paths.end());
  CHECK(paths.size() == 6);  // MANIFEST.md: 6 BVH files (one, the PN Studio template, without frames)
  std::set<std::string> families;
  for (const auto& path : paths) {
    const std::string file = path.filename().string();
    CAPTURE(file);
    const BvhMotion motion = readBvh(path);
    if (motion.frame_count == 0) continue;
    const std::string skeleton = detectEulerSkeleton(motion);
    families.insert(skeleton);
    const Agreement a = compareArms(model, motion, inmoovEulerMap(skeleton), 2);
    MESSAGE(file << " (" << skeleton << "): " << a.compared << " unclamped arms; upper arm median "
                 << a.quantile(a.upper, 0.5) << ", 95% " << a.quantile(a.upper, 0.95) << ", max " << a.worst(a.upper)
                 << "; forearm median " << a.quantile(a.fore, 0.5) << ", 95% " << a.quantile(a.fore, 0.95) << ", max "
                 << a.worst(a.fore) << " rad");
    if (a.compared == 0) continue;
    CHECK(a.quantile(a.upper, 0.95) < kUpperArmTolerance);
    CHECK(a.quantile(a.fore, 0.95) < kRealForearmTolerance);
  }
  CHECK(families.size() == 3);
}

TEST_CASE("inmoov euler, every built-in configuration: map() allocates nothing (random, wrist twist, invalid input)") {
  const auto model = makeInMoov<double>();
  for (const std::string skeleton : kBuiltinSkeletons) {
    CAPTURE(skeleton);
    const EulerMap map = inmoovEulerMap(skeleton);
    BvhMotion motion = syntheticSkeleton(map);
    randomArmPoses(motion, map, 50, 93);
    // Wrist twists on some frames, a non-finite channel on one, huge angles on another.
    for (int f = 0; f < 50; f += 5) {
      for (const std::string side : {"left", "right"}) {
        const int hand = motion.findJoint(test::mappingOf(map, side + "_hand").source.front());
        test::setLocalRotation(motion, f, hand,
                               Eigen::AngleAxisd(0.1 * f - 2.0, motion.joints[hand].offset.normalized()).toRotationMatrix());
      }
    }
    motion.frame(10)[3] = std::numeric_limits<double>::quiet_NaN();
    for (int c = 0; c < motion.channel_count; ++c) motion.frame(20)[c] = 1e12;
    const Eigen::VectorXd wrong_size = Eigen::VectorXd::Zero(motion.channel_count + 1);
    EulerMapper<double> mapper(model, motion, map);
    Eigen::VectorXd q(model.nq());
    Eigen::VectorXd q_wrong(model.nq() + 2);
    Status status;
    std::size_t allocations = 0;
    {
      test::NoAllocationScope scope;
      for (int f = 0; f < motion.frame_count; ++f) status |= mapper.map(motion.frameValues(f), q);
      status |= mapper.map(wrong_size, q);
      status |= mapper.map(motion.frameValues(0), q_wrong);
      mapper.reset();
      allocations = scope.allocations();
    }
    CHECK(allocations == 0);
    CHECK(status.has(StatusCode::kInvalidInput));
  }
}

TEST_CASE("EulerMapper::mappedJoints lists the coordinates the configuration drives, in map-entry order") {
  const auto model = makeInMoov<double>();
  for (const std::string skeleton : kBuiltinSkeletons) {
    CAPTURE(skeleton);
    const EulerMap map = inmoovEulerMap(skeleton);
    BvhMotion motion = syntheticSkeleton(map);
    EulerMapper<double> full(model, motion, map);
    std::vector<int> all;
    for (const auto& m : map.joints) all.push_back(model.qIndex(m.robot_joint));
    CHECK(full.mappedJoints() == all);
    std::vector<int> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::unique(sorted.begin(), sorted.end()) == sorted.end());
    CHECK(sorted.size() == static_cast<std::size_t>(model.nq()));  // every coordinate, once
    // A configuration with three entries drives exactly those three coordinates.
    EulerMap part = map;
    part.joints.clear();
    for (const char* joint : {"left_bicep", "head_updown", "right_hand"}) part.joints.push_back(test::mappingOf(map, joint));
    EulerMapper<double> partial(model, motion, part);
    const std::vector<int> expected = {model.qIndex("left_bicep"), model.qIndex("head_updown"),
                                       model.qIndex("right_hand")};
    CHECK(partial.mappedJoints() == expected);
  }
}
