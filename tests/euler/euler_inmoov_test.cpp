// Built-in InMoov Euler configurations: JSON round trip and errors, the full 22-joint round
// trip on a synthetic Axis Neuron skeleton, and every real BVH file of ../shared/data/bvh
// mapped with per-joint and weighted DTW (paper 002, Eqs. 11-13) reported.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <retarget/io/bvh.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/robots/inmoov.hpp>

#include "euler/euler_test_support.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

EulerMap builtin(const std::string& skeleton) { return inmoovEulerMap(skeleton); }

Eigen::Matrix3d referenceRotation(const EulerJointMapping& m) {
  const double angle = m.reference.norm();
  return angle > 0 ? Eigen::AngleAxisd(angle, m.reference / angle).toRotationMatrix() : Eigen::Matrix3d::Identity();
}

}  // namespace

TEST_CASE("inmoov euler configs: every built-in maps all 22 InMoov joints and survives JSON") {
  const auto model = makeInMoov<double>();
  for (const char* skeleton : {"axis-neuron", "cmu", "mixamo"}) {
    CAPTURE(skeleton);
    const EulerMap config = builtin(skeleton);
    CHECK(config.joints.size() == 22);
    CHECK_NOTHROW(config.validate());  // robot and hierarchy binding: the shared-data test below
    // built-in -> JSON text -> load gives the same configuration
    const std::string text = toJson(config).dump(2);
    const EulerMap back = parseEulerMap(text, std::string(skeleton) + ".json");
    CHECK(back == config);
    CHECK(eulerMapFromJson(toJson(config)) == config);
    CHECK(text.find("\"robot_joint\"") < text.find("\"source\""));  // documented key order
    // and through a file
    const auto path = std::filesystem::temp_directory_path() / ("retarget_euler_" + std::string(skeleton) + ".json");
    saveEulerMap(config, path.string());
    CHECK(loadEulerMap(path.string()) == config);
    std::filesystem::remove(path);
  }
  CHECK_THROWS_WITH_AS(inmoovEulerMap("kinect"), doctest::Contains("got 'kinect'"), InvalidArgument);
}

TEST_CASE("euler config JSON: errors name the file, the line or JSON pointer, and the value") {
  const std::string good = toJson(inmoovAxisNeuronMap()).dump(2);
  CHECK_THROWS_WITH_AS(parseEulerMap("{\n \"joints\": [\n  {\"robot_joint\": 3,}\n ]\n}", "bad.json"),
                       doctest::Contains("bad.json:3"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": 3, "source": "Neck"}]})", "f.json"),
                       doctest::Contains("at /joints/0/robot_joint: got 3, expected a string"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "Neck", "ordre": "ZYX"}]})", "f.json"),
                       doctest::Contains("at /joints/0/ordre: unknown key"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a"}]})", "f.json"),
                       doctest::Contains("at /joints/0: missing key \"source\""), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "N", "order": "ZZX"}]})", "f.json"),
                       doctest::Contains("got 'ZZX'"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "N", "case": "knee"}]})", "f.json"),
                       doctest::Contains("got 'knee'"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "N", "axis": [1, 2]}]})", "f.json"),
                       doctest::Contains("at /joints/0/axis: got 2 numbers, expected 3"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "N", "sign": 0.5}]})", "f.json"),
                       doctest::Contains("f.json:1: at /joints/0/sign: Euler map '' joints[0] ('a'): sign (got 0.5, expected 1 or -1)"),
                       ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"({"joints": {}})", "f.json"), doctest::Contains("at /joints"), ParseError);
  CHECK_THROWS_WITH_AS(parseEulerMap(R"([1, 2])", "f.json"), doctest::Contains("f.json:1: at /"), ParseError);
  CHECK_THROWS_WITH_AS(loadEulerMap("/nonexistent/dir/x.json"), doctest::Contains("/nonexistent/dir/x.json"),
                       ParseError);
  // Defaults: a minimal entry is an Euler angle 0 in ZYX, sign 1, no limits, no speed limit.
  const EulerMap minimal = parseEulerMap(R"({"joints": [{"robot_joint": "a", "source": "N"}]})");
  REQUIRE(minimal.joints.size() == 1);
  CHECK((minimal.joints[0].kind == EulerCase::kEuler));
  CHECK(minimal.joints[0].order.name() == "ZYX");
  CHECK(minimal.joints[0].source == std::vector<std::string>{"N"});
  CHECK(!minimal.joints[0].lower);
  CHECK(parseEulerMap(good) == inmoovAxisNeuronMap());
}

TEST_CASE("inmoov euler: random InMoov configurations -> BVH rotations -> mapper returns them (all 22 joints)") {
  const auto model = makeInMoov<double>();
  const EulerMap config = inmoovAxisNeuronMap();
  BvhMotion motion = test::makeHumanSkeleton(1, "YXZ");  // Axis Neuron names and channel order
  REQUIRE(detectEulerSkeleton(motion) == "axis-neuron");
  EulerMapper<double> mapper(model, motion, config);
  std::mt19937 rng(2024);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  auto randomRotation = [&] { return Eigen::Quaterniond(Eigen::Vector4d::Random().normalized()).toRotationMatrix(); };
  Eigen::VectorXd q(model.nq());
  double worst = 0;
  for (int n = 0; n < test::sweepCount(1000); ++n) {
    Eigen::VectorXd target(model.nq());
    for (int i = 0; i < model.nq(); ++i) target[i] = uniform(model.lowerLimits()[i], model.upperLimits()[i]);
    auto t = [&](const std::string& name) { return target[model.qIndex(name)]; };
    // Neck 3 -> 2 over the chain Neck * Head: split a YXZ rotation with a random roll into two.
    {
      const auto& yaw = test::mappingOf(config, "head_leftright");
      const auto& pitch = test::mappingOf(config, "head_updown");
      Eigen::Vector3d a;
      a[yaw.angle] = yaw.sign * (t("head_leftright") - yaw.offset);
      a[pitch.angle] = pitch.sign * (t("head_updown") - pitch.offset);
      a[3 - yaw.angle - pitch.angle] = uniform(-1.5, 1.5);
      const Eigen::Matrix3d total = eulerToRotation<double>(yaw.order, a);
      const Eigen::Matrix3d neck = randomRotation();
      test::setLocalRotation(motion, 0, motion.findJoint("Neck"), neck);
      test::setLocalRotation(motion, 0, motion.findJoint("Head"), neck.transpose() * total);
    }
    for (const std::string side : {"left", "right"}) {
      const std::string human = side == "left" ? "Left" : "Right";
      // Shoulder 3 -> 3 (Eq. 2), relative to the arm-down reference.
      Eigen::Vector3d a;
      const EulerJointMapping* any = nullptr;
      for (const char* joint : {"_shoulder_side", "_shoulder_up", "_bicep_rotate"}) {
        const auto& m = test::mappingOf(config, side + joint);
        a[m.angle] = m.sign * (t(side + joint) - m.offset);
        any = &m;
      }
      test::setLocalRotation(motion, 0, motion.findJoint(human + "Arm"),
                             eulerToRotation<double>(any->order, a) * referenceRotation(*any));
      // Elbow 2 -> 1: robot bend = pi - Omega; bend about the upper arm's y, random twist about x.
      test::setLocalRotation(motion, 0, motion.findJoint(human + "ForeArm"),
                             (Eigen::AngleAxisd(t(side + "_bicep"), Eigen::Vector3d::UnitY()) *
                              Eigen::AngleAxisd(uniform(-3, 3), Eigen::Vector3d::UnitX()))
                                 .toRotationMatrix());
      // Wrist 2 -> 1 (Eq. 10): omega about the forearm axis x, random spin about z.
      const auto& wrist = test::mappingOf(config, side + "_hand");
      test::setLocalRotation(motion, 0, motion.findJoint(human + "Hand"),
                             (Eigen::AngleAxisd(wrist.sign * (t(side + "_hand") - wrist.offset), Eigen::Vector3d::UnitX()) *
                              Eigen::AngleAxisd(uniform(-3, 3), Eigen::Vector3d::UnitZ()))
                                 .toRotationMatrix());
      // Fingers: three segments curling about z with the requested mean.
      for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"}) {
        std::string robot = finger;
        robot[0] = static_cast<char>(std::tolower(robot[0]));
        const double mean = t(side + "_" + robot);
        const double d = uniform(-0.2, 0.2) * mean;
        const double curls[3] = {mean + d, mean - d, mean};
        for (int k = 0; k < 3; ++k) {
          test::setLocalRotation(motion, 0, motion.findJoint(human + "Hand" + finger + std::to_string(k + 1)),
                                 Eigen::AngleAxisd(curls[k], Eigen::Vector3d::UnitZ()).toRotationMatrix());
        }
      }
    }
    mapper.reset();
    CHECK(mapper.map(motion.frameValues(0), q).ok());
    worst = std::max(worst, (q - target).cwiseAbs().maxCoeff());
  }
  MESSAGE("InMoov 22-joint round trip, worst error " << worst << " rad");
  CHECK(worst < 1e-6);
}

TEST_CASE("inmoov euler: every BVH in ../shared/data/bvh maps within limits; per-joint and weighted DTW") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto model = makeInMoov<double>();
  const VectorX<double> weights = rangeOfMotionWeights(model);
  int files = 0;
  std::vector<std::filesystem::path> paths;
  for (const auto& item : std::filesystem::directory_iterator(data_dir / "bvh")) {
    if (item.path().extension() == ".bvh") paths.push_back(item.path());
  }
  std::sort(paths.begin(), paths.end());
  CHECK(paths.size() == 6);  // MANIFEST.md: 6 BVH files
  for (const auto& path : paths) {
    CAPTURE(path.filename().string());
    const BvhMotion motion = readBvh(path);
    const std::string skeleton = detectEulerSkeleton(motion);
    REQUIRE(!skeleton.empty());
    const EulerMap config = inmoovEulerMap(skeleton);
    EulerMapper<double> mapper(model, motion, config);
    ++files;
    if (motion.frame_count == 0) {
      MESSAGE(path.filename().string() << " (" << skeleton << "): 0 frames, bound only");
      continue;
    }
    Eigen::MatrixXd human(model.nq(), motion.frame_count), robot(model.nq(), motion.frame_count);
    Eigen::VectorXd q(model.nq());
    int clamped_frames = 0;
    double worst_rotation_error = 0;
    for (int f = 0; f < motion.frame_count; ++f) {
      const Status status = mapper.map(motion.frameValues(f), q);
      CHECK(!status.has(StatusCode::kInvalidInput));
      clamped_frames += status.has(StatusCode::kClamped) ? 1 : 0;
      CHECK(q.allFinite());
      CHECK((q.array() >= model.lowerLimits().array()).all());
      CHECK((q.array() <= model.upperLimits().array()).all());
      human.col(f) = mapper.rawOutput();
      robot.col(f) = q;
      // 3 -> 3 on real data: when the shoulder is not clamped its three robot angles rebuild
      // the human's upper-arm rotation exactly (Eq. 2).
      for (const std::string side : {"left", "right"}) {
        Eigen::Vector3d a;
        const EulerJointMapping* any = nullptr;
        bool inside = true;
        for (const char* joint : {"_shoulder_side", "_shoulder_up", "_bicep_rotate"}) {
          const auto& m = test::mappingOf(config, side + joint);
          const int i = model.qIndex(side + joint);
          inside = inside && mapper.rawOutput()[i] == q[i];
          a[m.angle] = m.sign * (q[i] - m.offset);
          any = &m;
        }
        if (!inside) continue;
        const int arm = motion.findJoint(any->source.front());
        const Eigen::Matrix3d R = motion.localRotation(f, arm).toRotationMatrix();
        worst_rotation_error = std::max(
            worst_rotation_error,
            (eulerToRotation<double>(any->order, a) * referenceRotation(*any) - R).cwiseAbs().maxCoeff());
      }
    }
    CHECK(worst_rotation_error < 1e-9);
    const auto result = weightedJointDtw(human, robot, weights);
    std::ostringstream per_joint;
    for (int i = 0; i < model.nq(); ++i) {
      if (result.joint_distances[i] != 0) per_joint << " " << model.qName(i) << "=" << result.joint_distances[i];
      // Joints whose human trajectory stays within limits are imitated exactly: DTW = 0
      // (the paper's observation for the 3 -> 3 shoulders).
      if ((human.row(i) - robot.row(i)).cwiseAbs().maxCoeff() == 0) CHECK(result.joint_distances[i] == 0);
    }
    for (const std::string side : {"left", "right"}) {
      for (const char* joint : {"_shoulder_side", "_shoulder_up", "_bicep_rotate"}) {
        const int i = model.qIndex(side + joint);
        const bool within = (human.row(i).array() >= model.lowerLimits()[i]).all() &&
                            (human.row(i).array() <= model.upperLimits()[i]).all();
        if (within) CHECK(result.joint_distances[i] == 0);
      }
    }
    MESSAGE(path.filename().string() << " (" << skeleton << ", " << motion.frame_count << " frames, "
                                     << clamped_frames << " with clamping): weighted DTW A_w = "
                                     << result.system_distance << " rad*frames; non-zero joint DTW:"
                                     << (per_joint.str().empty() ? " none" : per_joint.str()));
  }
  CHECK(files == 6);
}

TEST_CASE("inmoov euler: the robot's arm points where the human's arm points (forward kinematics cross-check)") {
  // Independent check of the built-in shoulder/elbow signs, orders and reference poses: map
  // random human arm poses, run the InMoov forward kinematics, and compare the robot's upper
  // arm and forearm directions (torso frame: x forward, y left, z up) with the human's (BVH
  // frame: Z forward, X left, Y up). InMoov's arm hangs about 7 deg behind vertical at q = 0,
  // so directions agree to a few degrees, not exactly.
  const auto model = makeInMoov<double>();
  RobotData<double> data(model);
  BvhMotion motion = test::makeHumanSkeleton(1, "YXZ");
  EulerMapper<double> mapper(model, motion, inmoovAxisNeuronMap());
  std::mt19937 rng(77);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  auto toRobot = [](const Eigen::Vector3d& v_bvh) { return Eigen::Vector3d(v_bvh.z(), v_bvh.x(), v_bvh.y()); };
  auto angle = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    return std::atan2(a.cross(b).norm(), a.dot(b));
  };
  Eigen::VectorXd q(model.nq());
  int compared = 0;
  double worst_upper = 0, worst_fore = 0;
  for (int n = 0; n < test::sweepCount(2000); ++n) {
    for (const std::string side : {"left", "right"}) {
      const std::string human = side == "left" ? "Left" : "Right";
      const double x = side == "left" ? 1.0 : -1.0;
      // A random arm pose: hanging arm (T-pose turned down) moved by random small rotations,
      // and a random elbow bend with twist.
      const Eigen::Matrix3d R_arm = Eigen::AngleAxisd(uniform(-0.9, 0.9), Eigen::Vector3d::UnitX()).matrix() *
                                    Eigen::AngleAxisd(x * uniform(-0.8, 0.1), Eigen::Vector3d::UnitZ()).matrix() *
                                    Eigen::AngleAxisd(uniform(-1.2, 1.2), Eigen::Vector3d::UnitY()).matrix() *
                                    Eigen::AngleAxisd(-x * kPi<double> / 2, Eigen::Vector3d::UnitZ()).matrix();
      // Elbow flexion about the vertical axis of the T-pose (forearm towards +Z, forwards).
      const Eigen::Matrix3d R_fore = Eigen::AngleAxisd(-x * uniform(0.0, 2.0), Eigen::Vector3d::UnitY()).matrix();
      test::setLocalRotation(motion, 0, motion.findJoint(human + "Arm"), R_arm);
      test::setLocalRotation(motion, 0, motion.findJoint(human + "ForeArm"), R_fore);
    }
    mapper.reset();
    const Status status = mapper.map(motion.frameValues(0), q);
    forwardKinematics(model, data, q);
    for (const std::string side : {"left", "right"}) {
      const std::string human = side == "left" ? "Left" : "Right";
      bool inside = true;
      for (const char* joint : {"_shoulder_side", "_shoulder_up", "_bicep_rotate", "_bicep"}) {
        const int i = model.qIndex(side + joint);
        inside = inside && mapper.rawOutput()[i] == q[i];
      }
      if (!inside) continue;
      const Eigen::Vector3d bone_upper(side == "left" ? 1.0 : -1.0, 0, 0);  // bones along +-X
      const Eigen::Matrix3d R_arm = motion.localRotation(0, motion.findJoint(human + "Arm")).toRotationMatrix();
      const Eigen::Matrix3d R_fore = motion.localRotation(0, motion.findJoint(human + "ForeArm")).toRotationMatrix();
      const Eigen::Vector3d human_upper = toRobot(R_arm * bone_upper);
      const Eigen::Vector3d human_fore = toRobot(R_arm * R_fore * bone_upper);
      auto origin = [&](const std::string& link) { return data.X_WL[model.linkIndex(link)].translation(); };
      const Eigen::Vector3d robot_upper = origin(side + "_forearm") - origin(side + "_bicep");
      const Eigen::Vector3d robot_fore = origin(side + "_hand") - origin(side + "_forearm");
      worst_upper = std::max(worst_upper, angle(human_upper, robot_upper));
      worst_fore = std::max(worst_fore, angle(human_fore, robot_fore));
      ++compared;
    }
    (void)status;
  }
  MESSAGE("arm direction agreement over " << compared << " unclamped arms: upper arm within " << worst_upper
                                          << " rad, forearm within " << worst_fore << " rad");
  CHECK(compared > 100);
  CHECK(worst_upper < 0.2);
  CHECK(worst_fore < 0.3);
}

TEST_CASE("inmoov euler: head and wrist turn the same way as the human's (forward kinematics cross-check)") {
  const auto model = makeInMoov<double>();
  RobotData<double> data(model), data_zero(model);
  BvhMotion motion = test::makeHumanSkeleton(1, "YXZ");
  EulerMapper<double> mapper(model, motion, inmoovAxisNeuronMap());
  std::mt19937 rng(78);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  auto toRobot = [](const Eigen::Vector3d& v_bvh) { return Eigen::Vector3d(v_bvh.z(), v_bvh.x(), v_bvh.y()); };
  Eigen::VectorXd q(model.nq());
  double worst_head = 0, worst_wrist = 0;
  for (int n = 0; n < test::sweepCount(300); ++n) {
    // Head: pitch, yaw (the robot's chain order) within its range (yaw +-60 deg, the rothead
    // servo's, robots/inmoov.hpp) and any roll; the face (+Z) must point the same way.
    const double yaw = uniform(-1.0, 1.0), pitch = uniform(-0.29, 0.29);
    test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                           (Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitX()) *
                            Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(uniform(-1, 1), Eigen::Vector3d::UnitZ()))
                               .toRotationMatrix());
    // Arms hanging (robot zero), elbows straight, wrists twisted about the forearm in the
    // direction the InMoov wrist can turn (Eq. 10 is unsigned, see the file comment of
    // euler_inmoov_maps.hpp): -omega about the distal axis on the left, +omega on the right.
    const double omega = uniform(0.05, 3.0);
    for (const std::string human : {"Left", "Right"}) {
      const double x = human == "Left" ? 1.0 : -1.0;
      test::setLocalRotation(motion, 0, motion.findJoint(human + "Arm"),
                             Eigen::AngleAxisd(-x * kPi<double> / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix());
      // Twist about the distal forearm axis (x * X): left -omega, right +omega.
      test::setLocalRotation(motion, 0, motion.findJoint(human + "Hand"),
                             Eigen::AngleAxisd(-x * omega, x * Eigen::Vector3d::UnitX()).toRotationMatrix());
    }
    mapper.reset();
    CHECK(mapper.map(motion.frameValues(0), q).ok());
    forwardKinematics(model, data, q);
    const Eigen::Matrix3d R_head = motion.localRotation(0, motion.findJoint("Neck")).toRotationMatrix();
    const Eigen::Vector3d human_face = toRobot(R_head * Eigen::Vector3d::UnitZ());
    const Eigen::Vector3d robot_face = data.X_WL[model.linkIndex("head")].linear().col(0);
    worst_head = std::max(worst_head, std::acos(std::clamp(human_face.dot(robot_face), -1.0, 1.0)));
    Eigen::VectorXd q_zero = q;
    for (const std::string side : {"left", "right"}) q_zero[model.qIndex(side + "_hand")] = 0;
    forwardKinematics(model, data_zero, q_zero);
    for (const std::string side : {"left", "right"}) {
      const int hand = model.linkIndex(side + "_hand");
      const Eigen::AngleAxisd turn(data.X_WL[hand].linear() * data_zero.X_WL[hand].linear().transpose());
      const Eigen::Vector3d distal =
          (data.X_WL[hand].translation() - data.X_WL[model.linkIndex(side + "_forearm")].translation()).normalized();
      const double robot_twist = turn.angle() * turn.axis().dot(distal);
      const double human_twist = side == "left" ? -omega : omega;
      worst_wrist = std::max(worst_wrist, std::abs(robot_twist - human_twist));
    }
  }
  MESSAGE("head direction within " << worst_head << " rad, wrist twist within " << worst_wrist << " rad");
  CHECK(worst_head < 0.05);
  CHECK(worst_wrist < 0.1);
}

TEST_CASE("euler config JSON: the documented example loads and drives the InMoov") {
  // Same text as the example in json/euler_map.hpp.
  const std::string text = R"({ "name": "inmoov/axis-neuron", "skeleton": "axis-neuron",
  "joints": [
    { "robot_joint": "left_shoulder_side", "case": "euler", "source": "LeftArm",
      "order": "ZXY", "angle": 0, "reference": [0, 0, -1.5708] },
    { "robot_joint": "left_bicep", "case": "elbow_bend", "source": "LeftForeArm",
      "sign": -1, "offset": 3.14159, "upper": 1.4 },
    { "robot_joint": "left_hand", "case": "wrist_rotation", "source": "LeftHand", "axis": [0, 0, 1] },
    { "robot_joint": "left_index", "case": "finger_curl",
      "source": ["LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3"], "scale": 1.2 } ] })";
  const EulerMap config = parseEulerMap(text, "example.json");
  REQUIRE(config.joints.size() == 4);
  CHECK(config.joints[1].upper == 1.4);
  const auto model = makeInMoov<double>();
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, config);
  Eigen::VectorXd q(model.nq());
  (void)mapper.map(motion.frameValues(0), q);
  CHECK(q.allFinite());
  CHECK(mapper.upperLimit(1) == 1.4);  // the map's limit, tighter than the model's 1.57
}
