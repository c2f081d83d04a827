// The whole-body pipeline (seed 000, Sections 3-5) on NAO: on the demo motions and the shared
// Kinect recordings every output frame (walking ones too: they hold the pose the walk began in)
// has its centre of mass (computed here from the model's link masses, not with the library's
// function) inside the support polygon shrunk by d_s, the planted feet do not move, the angles are finite and within limits, and the similarity to the
// human is reported with and without balance; the balance stage and the pipeline allocate
// nothing per frame; the modes are the ones a person would expect.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include <retarget/control/whole_body.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/allocation.hpp"
#include "support/hull_distance.hpp"
#include "support/nao_whole_body.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

struct Checked {
  int frames = 0;
  int com_outside = 0;
  double worst_margin = 1.0;  // smallest CoM margin (m) inside the shrunk polygon
  double worst_foot_drift = 0.0;
  int not_finite_or_outside_limits = 0;
  std::map<BalancePhase, int> phases;
  std::map<SupportMode, int> modes;
  double wbf = 0, llf = 0, wbf_off = 0, llf_off = 0;
  int held_frames = 0;
  int walking_frames = 0;  // checked as double support (the held pose), not excluded
  int walking_moved = 0;   // walking frames whose written angles differ from the frame before
};

// Centre of mass from the link masses and centres (m, frame of the model's root).
Eigen::Vector3d comByHand(const RobotModel<double>& model, const RobotData<double>& data) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  double mass = 0;
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    const double m = model.links()[i].inertial.mass;
    sum += m * (data.X_WL[i].translation() + data.X_WL[i].linear() * model.links()[i].inertial.p_LCm);
    mass += m;
  }
  return sum / mass;
}

std::vector<Eigen::Vector2d> soleCorners(const FootSupport& f, const Isometry3<double>& X_SF) {
  std::vector<Eigen::Vector2d> out;
  for (double x : {f.x_min, f.x_max}) {
    for (double y : {f.y_min, f.y_max}) out.push_back((X_SF * Eigen::Vector3d(x, y, 0)).head<2>());
  }
  return out;
}

Checked runAndCheck(const std::string& label, const SkeletonMotiond& motion, bool check_allocations = false) {
  const auto nao = makeNao();
  const BalanceFeet feet = naoBalanceFeet();
  WholeBodyOptions options;
  auto pipeline = test::naoWholeBody(nao, options);
  WholeBodyOptions off = options;
  off.balance_enabled = false;
  auto unbalanced = test::naoWholeBody(nao, off);
  RobotData<double> data(nao);
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  const int left = nao.linkIndex(feet.left.link), right = nao.linkIndex(feet.right.link);
  Checked out;
  std::vector<SkeletonFramed> robot(motion.size()), robot_off(motion.size());
  Eigen::VectorXd q(nao.nq()), q_off(nao.nq()), q_before = Eigen::VectorXd::Zero(nao.nq());
  bool have_planted = false;
  Isometry3<double> planted = Isometry3<double>::Identity();
  for (std::size_t k = 0; k < motion.size(); ++k) {
    Status status;
    if (check_allocations && k > 5) {
      test::NoAllocationScope scope;
      status = pipeline.map(motion.frames[k], q);
      CHECK(scope.allocations() == 0);
    } else {
      status = pipeline.map(motion.frames[k], q);
    }
    (void)unbalanced.map(motion.frames[k], q_off);
    const WholeBodyReport& report = pipeline.report();
    ++out.frames;
    ++out.phases[report.balance.phase];
    ++out.modes[report.mode];
    out.held_frames += report.balance_held ? 1 : 0;
    if (!withinLimits(nao, q)) ++out.not_finite_or_outside_limits;
    forwardKinematics(nao, data, q);
    const Eigen::Vector3d c = comByHand(nao, data);
    const Isometry3<double> X_L = data.X_WL[static_cast<std::size_t>(left)];
    const Isometry3<double> X_R = data.X_WL[static_cast<std::size_t>(right)];
    const BalancePhase phase = report.balance.phase;
    // While walking the written angles hold the pose the walk began in, both feet planted
    // (whole_body.hpp, step 4), so walking frames are checked as double support, not skipped.
    const bool walking = report.mode == SupportMode::kWalking;
    out.walking_frames += walking ? 1 : 0;
    if (walking && q != q_before) ++out.walking_moved;
    const bool both = walking || phase == BalancePhase::kDouble || phase == BalancePhase::kShiftLeft ||
                      phase == BalancePhase::kShiftRight;
    // The actual support polygon: both soles while both are planted, else the support sole.
    const bool on_right = phase == BalancePhase::kSingleRight || phase == BalancePhase::kLandingRight;
    const Isometry3<double> X_S = on_right ? X_R : X_L;
    std::vector<Eigen::Vector2d> corners = soleCorners(on_right ? feet.right : feet.left, Isometry3<double>::Identity());
    if (both) {
      const auto other = soleCorners(feet.right, X_L.inverse() * X_R);
      corners.insert(corners.end(), other.begin(), other.end());
    }
    const Eigen::Vector2d c_s = (X_S.inverse() * c).head<2>();
    const double margin = test::insideHull(corners, c_s) - options.balance.safety_margin;
    out.worst_margin = std::min(out.worst_margin, margin);
    if (margin < -1e-9) ++out.com_outside;
    // Planted feet: within a run of both-feet phases (walking included) the right sole keeps its
    // pose in the left's.
    if (both) {
      const Isometry3<double> relation = X_L.inverse() * X_R;
      if (!have_planted) {
        planted = relation;
        have_planted = true;
      }
      const double drift = (relation.translation() - planted.translation()).norm() +
                           Eigen::AngleAxisd(relation.linear() * planted.linear().transpose()).angle() * 0.1;
      out.worst_foot_drift = std::max(out.worst_foot_drift, drift);
    } else {
      have_planted = false;
    }
    q_before = q;
    robot[k].time = robot_off[k].time = motion.frames[k].time;
    REQUIRE(skeleton.compute(q, robot[k]).ok());
    REQUIRE(skeleton.compute(q_off, robot_off[k]).ok());
  }
  const MotionSimilarity<double> with = motionSimilarity(motion.frames, robot);
  const MotionSimilarity<double> without = motionSimilarity(motion.frames, robot_off);
  out.wbf = with.wbf_mean;
  out.llf = with.llf_mean;
  out.wbf_off = without.wbf_mean;
  out.llf_off = without.llf_mean;
  std::string phases;
  for (const auto& [phase, count] : out.phases) phases += std::string(balancePhaseName(phase)) + " " + std::to_string(count) + " ";
  MESSAGE(label << ": " << out.frames << " frames; phases " << phases << "; CoM margin min " << out.worst_margin * 1000
                << " mm; foot drift max " << out.worst_foot_drift * 1000 << " mm; WBF " << out.wbf << " (no balance "
                << out.wbf_off << "), LLF " << out.llf << " (no balance " << out.llf_off << "); balance held in "
                << out.held_frames << " frames; walking (checked as double support) in " << out.walking_frames
                << " frames");
  return out;
}

}  // namespace

TEST_CASE("whole body: demo motions keep the CoM inside the shrunk support polygon and the planted feet still") {
  for (const char* name : {"one-leg-stand", "squat", "walk-in-place", "wave", "arms-raise"}) {
    const SkeletonMotiond motion = demoMotion(name, DemoMotionOptions{30.0, 12.0, 1.75});
    const Checked c = runAndCheck(name, motion, std::string(name) == "one-leg-stand");
    CAPTURE(name);
    CHECK(c.com_outside == 0);  // every frame, walking ones included: nothing is excluded
    // 1 mm: the balance takes a step only if the planted sole stays within 0.1 mm and 1 mrad
    // (0.1 mm at the 0.1 m weight of the angle here), and B corrects drift, so the sum stays near
    // 0.2 mm; measured at most 0.13 mm over the demos and recordings.
    CHECK(c.worst_foot_drift < 1e-3);
    CHECK(c.not_finite_or_outside_limits == 0);
    CHECK(c.held_frames == 0);
    CHECK(c.walking_moved == 0);
    if (std::string(name) == "one-leg-stand") {
      CHECK(c.phases.count(BalancePhase::kSingleRight) == 1);  // it stands on the right foot
      CHECK(c.phases.count(BalancePhase::kShiftRight) == 1);
      CHECK(c.phases.count(BalancePhase::kLandingRight) == 1);
    }
    // Walking only where the person walks, and there after the first locomotion loop (1 s = 30
    // frames) at the earliest.
    if (std::string(name) == "walk-in-place") {
      CHECK(c.modes.count(SupportMode::kWalking) == 1);
      CHECK(c.walking_frames <= c.frames - 30);
    } else {
      CHECK(c.walking_frames == 0);
    }
    if (std::string(name) == "wave" || std::string(name) == "arms-raise") {
      // Arms only, feet together: balance costs (almost) nothing. Measured: WBF and LLF 1.000
      // with and without (differences below 0.001); 0.01 allows ten times that.
      CHECK(c.wbf >= c.wbf_off - 0.01);
      CHECK(c.llf >= c.llf_off - 0.01);
    }
  }
}

static_assert(isMapper<app::GaLvvjWholeBody>, "the whole-body pipeline has the mapper shape");

TEST_CASE("whole body: the shared Kinect recordings") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) {
    const SkeletonMotiond motion = readKinect(entry.path().string());
    const Checked c = runAndCheck(entry.path().filename().string(), motion);
    CAPTURE(entry.path().filename().string());
    CHECK(c.com_outside == 0);
    CHECK(c.worst_foot_drift < 1e-3);
    CHECK(c.not_finite_or_outside_limits == 0);
    CHECK(c.walking_moved == 0);
    // A step not taken is rare, not a state: the close-range recording, whose legs the camera
    // mostly infers, once froze the whole robot in 336 of 371 frames (held leg joints frozen).
    CHECK(c.held_frames <= c.frames / 100);
    ++files;
  }
  CHECK(files == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
}

TEST_CASE("whole body: a landing foot turns parallel to the ground before it descends (Section 4.4)") {
  const auto nao = makeNao();
  const BalanceFeet feet = naoBalanceFeet();
  WholeBodyOptions options;
  auto pipeline = test::naoWholeBody(nao, options);
  RobotData<double> data(nao);
  const int left = nao.linkIndex(feet.left.link), right = nao.linkIndex(feet.right.link);
  Eigen::VectorXd q(nao.nq());
  int tilted_frames = 0, lowered_while_tilted = 0, landings = 0;
  double previous_height = 0;
  bool was_landing = false;
  for (const SkeletonFramed& frame : demoMotion("one-leg-stand", DemoMotionOptions{30.0, 12.0, 1.75}).frames) {
    (void)pipeline.map(frame, q);
    const BalancePhase phase = pipeline.report().balance.phase;
    const bool landing = phase == BalancePhase::kLandingLeft || phase == BalancePhase::kLandingRight;
    forwardKinematics(nao, data, q);
    const bool on_right = phase == BalancePhase::kLandingRight;
    // The free sole in the support sole's frame: its height and its tilt from the ground.
    const Isometry3<double> X_SF = data.X_WL[static_cast<std::size_t>(on_right ? right : left)].inverse() *
                                   data.X_WL[static_cast<std::size_t>(on_right ? left : right)];
    const double height = X_SF.translation().z();
    const double tilt = std::acos(std::clamp(X_SF.linear()(2, 2), -1.0, 1.0));
    if (landing && was_landing && tilt > options.balance.landing_tilt) {
      ++tilted_frames;
      if (height < previous_height - 1e-6) ++lowered_while_tilted;
    }
    landings += landing && !was_landing ? 1 : 0;
    previous_height = height;
    was_landing = landing;
  }
  MESSAGE("one-leg-stand: " << landings << " landings, " << tilted_frames << " landing frames still tilted");
  CHECK(landings == 2);
  CHECK(tilted_frames > 0);  // the swing sole does start tilted: the order is exercised
  CHECK(lowered_while_tilted == 0);
}

TEST_CASE("whole body: Eq. 34 as written (velocity tracking) against the default position tracking, measured") {
  // The paper's objective follows the target's velocity; the default follows its position. Both
  // start standing: the head and arms at the first target, the legs straight (neutral). So the
  // comparison is fair only part by part: on the head and arms (the same start) the distance to
  // the target is what each form loses to the balance's cuts and never (velocity) or soon
  // (position) wins back; on the legs the velocity form cannot close the start's gap by design,
  // so its legs are also measured by what it is asked to follow, the target's change since the
  // first frame (|(q - q_0) - (q_T - q_T0)|).
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto nao = makeNao();
  std::vector<std::pair<std::string, SkeletonMotiond>> motions;
  for (const char* name : {"one-leg-stand", "squat", "walk-in-place"}) {
    motions.emplace_back(name, demoMotion(name, DemoMotionOptions{30.0, 12.0, 1.75}));
  }
  for (const auto& path : test::filesIn(data_dir / "kinect", "")) motions.emplace_back(path.filename().string(), readKinect(path.string()));
  REQUIRE(motions.size() == 10);
  // The legs: every coordinate on a chain from the root to a sole (as the pipeline finds them).
  std::vector<bool> leg(static_cast<std::size_t>(nao.nq()), false);
  for (const char* sole : {"l_sole", "r_sole"}) {
    for (int k : nao.links()[static_cast<std::size_t>(nao.linkIndex(sole))].support) {
      const int qi = nao.joints()[static_cast<std::size_t>(k)].q_index;
      if (qi >= 0) leg[static_cast<std::size_t>(qi)] = true;
    }
  }
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  // Sums over the motions of the per-motion means, per form (0 position, 1 velocity).
  double upper_sum[2] = {0, 0}, legs_sum[2] = {0, 0}, legs_change_sum[2] = {0, 0}, wbf_sum[2] = {0, 0};
  for (const auto& [label, motion] : motions) {
    double upper[2], legs[2], legs_change[2], wbf[2];
    for (const int tracking : {0, 1}) {
      WholeBodyOptions options;
      options.balance.tracking = tracking == 0 ? BalanceOptions::Tracking::kPosition : BalanceOptions::Tracking::kVelocity;
      auto pipeline = test::naoWholeBody(nao, options);
      Eigen::VectorXd q(nao.nq()), q_0(nao.nq()), q_T0(nao.nq());
      std::vector<SkeletonFramed> robot(motion.size());
      double upper_total = 0, legs_total = 0, change_total = 0;
      for (std::size_t k = 0; k < motion.size(); ++k) {
        (void)pipeline.map(motion.frames[k], q);
        CHECK(withinLimits(nao, q));
        if (k == 0) {
          q_0 = q;
          q_T0 = pipeline.target();
        }
        double upper_sq = 0, legs_sq = 0, change_sq = 0;
        for (int i = 0; i < nao.nq(); ++i) {
          const double e = q[i] - pipeline.target()[i];
          const double c = (q[i] - q_0[i]) - (pipeline.target()[i] - q_T0[i]);
          (leg[static_cast<std::size_t>(i)] ? legs_sq : upper_sq) += e * e;
          if (leg[static_cast<std::size_t>(i)]) change_sq += c * c;
        }
        upper_total += std::sqrt(upper_sq);
        legs_total += std::sqrt(legs_sq);
        change_total += std::sqrt(change_sq);
        robot[k].time = motion.frames[k].time;
        REQUIRE(skeleton.compute(q, robot[k]).ok());
      }
      const double n = static_cast<double>(motion.size());
      upper[tracking] = upper_total / n;
      legs[tracking] = legs_total / n;
      legs_change[tracking] = change_total / n;
      wbf[tracking] = motionSimilarity(motion.frames, robot).wbf_mean;
      upper_sum[tracking] += upper[tracking];
      legs_sum[tracking] += legs[tracking];
      legs_change_sum[tracking] += legs_change[tracking];
      wbf_sum[tracking] += wbf[tracking];
    }
    MESSAGE(label << ": head and arms |q - q_T| position " << upper[0] << " rad, velocity " << upper[1]
                  << "; legs |q - q_T| " << legs[0] << " / " << legs[1] << ", legs' change from the start "
                  << legs_change[0] << " / " << legs_change[1] << "; WBF " << wbf[0] << " / " << wbf[1]);
  }
  MESSAGE("all (mean of the 10): head and arms |q - q_T| position " << upper_sum[0] / 10 << ", velocity " << upper_sum[1] / 10
          << "; legs " << legs_sum[0] / 10 << " / " << legs_sum[1] / 10 << "; legs' change " << legs_change_sum[0] / 10 << " / "
          << legs_change_sum[1] / 10 << "; WBF " << wbf_sum[0] / 10 << " / " << wbf_sum[1] / 10);
  // The default's reason, on the part where both forms start alike: the position form stays
  // closer to GA-LVVJ's head and arms.
  CHECK(upper_sum[0] < upper_sum[1]);
  // The legs and WBF (which includes them) are shown, not asserted: there each form is measured
  // by what the other is not asked to do (docs/methods/whole_body.md).
}
