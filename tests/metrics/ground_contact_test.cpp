// metrics/ground_contact.hpp on motions whose answers are known by construction: the built-in
// Unitree G1 standing at rest, its root placed so that the soles touch the ground, then lowered,
// raised, slid, tilted and lifted foot by foot; each figure must count exactly the frames the
// construction made wrong, and nothing else.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include <retarget/metrics/ground_contact.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>
#include <retarget/robots/unitree_g1.hpp>

using namespace retarget;

namespace {

struct Standing {
  RobotModel<double> model = makeUnitreeG1<double>();
  HumanoidBinding binding = bindHumanoid(model);
  std::array<HumanoidSole, 2> soles = humanoidSoles(model, binding);
  double height = 0;  // root height with the soles on the ground, the robot upright at rest

  Standing() {
    RobotData<double> data(model);
    data.X_WB.setIdentity();
    data.X_WB.linear() = binding.R_BR.transpose();
    forwardKinematics(model, data, model.neutralConfiguration());
    double lowest = 1e9;
    for (const HumanoidSole& s : soles) {
      for (const Eigen::Vector3d& p : s.points_L)
        lowest = std::min(lowest, (data.X_WL[static_cast<std::size_t>(s.link_index)] * p).z());
    }
    height = -lowest;
  }
  Eigen::Isometry3d root(const Eigen::Vector3d& offset, double tilt = 0) const {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitX()).toRotationMatrix() * binding.R_BR.transpose();
    X.translation() = Eigen::Vector3d(0, 0, height) + offset;
    return X;
  }
};

GroundContact run(const Standing& s, const std::vector<Eigen::Isometry3d>& X,
                  const Eigen::Matrix<int, Eigen::Dynamic, 2>& stance, double dt = 1.0 / 30) {
  const auto n = static_cast<Eigen::Index>(X.size());
  std::vector<double> time;
  for (Eigen::Index k = 0; k < n; ++k) time.push_back(static_cast<double>(k) * dt);
  Eigen::MatrixXd q = s.model.neutralConfiguration().transpose().replicate(n, 1);
  return groundContact(s.model, s.binding, s.soles, time, X, q, stance);
}

}  // namespace

TEST_CASE("ground contact: standing, lowered, raised, slid, tilted and lifted soles counted exactly") {
  const Standing s;
  REQUIRE(s.soles[0].found);
  REQUIRE(s.height > 0.5);
  const int n = 30;
  Eigen::Matrix<int, Eigen::Dynamic, 2> both = Eigen::Matrix<int, Eigen::Dynamic, 2>::Ones(n, 2);

  // Standing still on the ground: nothing wrong, every contact agrees.
  std::vector<Eigen::Isometry3d> still(n, s.root(Eigen::Vector3d::Zero()));
  GroundContact c = run(s, still, both);
  CHECK(c.penetration_frames == 0);
  CHECK(c.deepest < 1e-9);
  for (const FootGroundContact& f : c.feet) {
    CHECK(f.stance_frames == n);
    CHECK(f.stances == 1);
    CHECK(f.floating_frames == 0);
    CHECK(f.sliding_frames == 0);
    CHECK(f.tilted_frames == 0);
    CHECK(f.max_tilt < 1e-9);
  }
  CHECK(c.agreement == 1.0);
  CHECK(c.root_jerk_rms == 0.0);

  // Frames 10..19 lowered 2 cm: exactly those penetrate (1 cm tolerance), 2 cm deep.
  std::vector<Eigen::Isometry3d> lowered = still;
  for (int k = 10; k < 20; ++k) lowered[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0, 0, -0.02));
  c = run(s, lowered, both);
  CHECK(c.penetration_frames == 10);
  CHECK(c.deepest == doctest::Approx(0.02).epsilon(1e-9));
  // The per-frame flags name those frames, and only those.
  REQUIRE(c.frame_flags.size() == static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const std::uint8_t f = c.frame_flags[static_cast<std::size_t>(k)];
    CHECK(((f & kGroundPenetrating) != 0) == (k >= 10 && k < 20));
    CHECK((f & kGroundStanceLeft) != 0);
    CHECK((f & kGroundStanceRight) != 0);
  }

  // Frames 5..9 raised 3 cm while the human stands: floating, and the robot's contact disagrees.
  std::vector<Eigen::Isometry3d> raised = still;
  for (int k = 5; k < 10; ++k) raised[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0, 0, 0.03));
  c = run(s, raised, both);
  CHECK(c.feet[0].floating_frames == 5);
  CHECK(c.feet[1].floating_frames == 5);
  CHECK(c.feet[0].max_float == doctest::Approx(0.03).epsilon(1e-9));
  for (int k = 0; k < n; ++k) {
    const std::uint8_t f = c.frame_flags[static_cast<std::size_t>(k)];
    const bool up = k >= 5 && k < 10;
    CHECK(((f & kGroundFloatingLeft) != 0) == up);
    CHECK(((f & kGroundFloatingRight) != 0) == up);
    CHECK((f & (kGroundPenetrating | kGroundSlidingLeft | kGroundSlidingRight)) == 0);
  }
  CHECK(c.agreement == doctest::Approx(1.0 - 5.0 / n).epsilon(1e-12));

  // Sliding forward at 0.5 m/s from frame 10 on: every later stance frame slides (each foot),
  // the slide of the one stance is the distance travelled.
  std::vector<Eigen::Isometry3d> slid = still;
  for (int k = 10; k < n; ++k) slid[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0.5 * (k - 9) / 30.0, 0, 0));
  c = run(s, slid, both);
  for (int k = 0; k < n; ++k) {
    const std::uint8_t f = c.frame_flags[static_cast<std::size_t>(k)];
    CHECK(((f & kGroundSlidingLeft) != 0) == (k >= 10));
    CHECK(((f & kGroundSlidingRight) != 0) == (k >= 10));
  }
  for (const FootGroundContact& f : c.feet) {
    CHECK(f.sliding_frames == n - 10);
    CHECK(f.max_slide_speed == doctest::Approx(0.5).epsilon(1e-9));
    CHECK(f.max_slide == doctest::Approx(0.5 * (n - 10) / 30.0).epsilon(1e-9));  // frames 9 -> n - 1
  }
  // At 0.25 m/s (below 0.3) nothing slides; the distance still counts.
  for (int k = 10; k < n; ++k) slid[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0.25 * (k - 9) / 30.0, 0, 0));
  c = run(s, slid, both);
  CHECK(c.feet[0].sliding_frames == 0);
  CHECK(c.feet[0].max_slide == doctest::Approx(0.25 * (n - 10) / 30.0).epsilon(1e-9));

  // The whole robot tilted 15 deg about x for frames 0..3 (raised so no sole goes below): tilted.
  std::vector<Eigen::Isometry3d> tilted = still;
  for (int k = 0; k < 4; ++k)
    tilted[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0, 0, 0.1), 15.0 * kPi<double> / 180.0);
  c = run(s, tilted, both);
  CHECK(c.feet[0].tilted_frames == 4);
  CHECK(c.feet[0].max_tilt == doctest::Approx(15.0 * kPi<double> / 180.0).epsilon(1e-9));

  // The human lifts the left foot for frames 10..19 while the robot stands: two stances, and
  // those frames disagree for the left foot only; no stance, no floating counted there.
  Eigen::Matrix<int, Eigen::Dynamic, 2> lifted = both;
  for (int k = 10; k < 20; ++k) lifted(k, 0) = 0;
  c = run(s, still, lifted);
  CHECK(c.feet[0].stances == 2);
  CHECK(c.feet[0].stance_frames == n - 10);
  for (int k = 0; k < n; ++k) {
    const std::uint8_t f = c.frame_flags[static_cast<std::size_t>(k)];
    CHECK(((f & kGroundStanceLeft) != 0) == (k < 10 || k >= 20));
    CHECK((f & kGroundStanceRight) != 0);
  }
  CHECK(c.feet[1].stances == 1);
  CHECK(c.agreement == doctest::Approx(1.0 - 10.0 / (2 * n)).epsilon(1e-12));

  // A root moving at constant speed has no jerk; one that jumps once has.
  std::vector<Eigen::Isometry3d> steady = still;
  for (int k = 0; k < n; ++k) steady[static_cast<std::size_t>(k)] = s.root(Eigen::Vector3d(0.01 * k, 0, 0));
  CHECK(run(s, steady, both).root_jerk_rms < 1e-6);
  steady[15] = s.root(Eigen::Vector3d(0.01 * 15 + 0.05, 0, 0));
  CHECK(run(s, steady, both).root_jerk_rms > 100.0);

  // Mismatched sizes name the problem.
  CHECK_THROWS_WITH_AS(run(s, still, Eigen::Matrix<int, Eigen::Dynamic, 2>::Ones(n - 1, 2)),
                       doctest::Contains("expected one each per frame"), InvalidArgument);
}
