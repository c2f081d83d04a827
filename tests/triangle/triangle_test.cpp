// Triangle arm mapping (seed 001, Section 2.1): round trips robot angles -> FK -> skeleton ->
// mapper on Tangy, NAO and Pepper; the mirror test (right side by symmetry); singular cases;
// invariance to a rigid motion of the skeleton; map validation.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include <retarget/mappers/triangle.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/tangy.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

double wrapped(double x) { return internal::wrapAngle(x); }

// A random configuration of both arms inside the map's branches, at least `margin` (rad) from
// the documented singularities and the branch boundaries.
Eigen::VectorXd randomArms(const RobotModel<double>& model, const TriangleMap& map, std::mt19937& rng,
                           double margin = 0.15) {
  Eigen::VectorXd q = model.neutralConfiguration();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const TriangleArmMap* arm : {&map.left, &map.right}) {
    for (int attempt = 0; attempt < 1000; ++attempt) {
      std::array<double, 4> v{};
      for (int k = 0; k < 4; ++k) {
        const int i = model.qIndex(arm->joints[static_cast<std::size_t>(k)]);
        const double lo = std::max(model.lowerLimits()[i], -3.0), hi = std::min(model.upperLimits()[i], 3.0);
        v[static_cast<std::size_t>(k)] = lo + (hi - lo) * unit(rng);
      }
      const double t2 = v[1] - arm->offset[1], t4 = v[3] - arm->offset[3];
      // inside the branch (nearest solution) with a margin
      if (std::abs(wrapped(t2 - arm->shoulder_branch)) > kPi<double> / 2 - margin) continue;
      if (std::abs(wrapped(t4 - arm->elbow_branch)) > kPi<double> / 2 - margin) continue;
      // away from the singularities: upper arm off the roll axis, forearm off the yaw axis
      const Eigen::Matrix3d R12 = Eigen::AngleAxisd(v[0] - arm->offset[0], arm->axes[0]).toRotationMatrix() *
                                  Eigen::AngleAxisd(t2, arm->axes[1]).toRotationMatrix();
      const Eigen::Vector3d u = R12 * arm->upper_arm;
      if (u.cross(arm->axes[0]).norm() < std::sin(margin)) continue;
      const Eigen::Vector3d c = Eigen::AngleAxisd(t4, arm->axes[3]) * arm->forearm;
      if (c.cross(arm->axes[2]).norm() < std::sin(margin)) continue;
      for (int k = 0; k < 4; ++k) q[model.qIndex(arm->joints[static_cast<std::size_t>(k)])] = v[static_cast<std::size_t>(k)];
      break;
    }
  }
  return q;
}

SkeletonFrame<double> mirrored(const SkeletonFrame<double>& f) {
  using H = HumanJoint;
  SkeletonFrame<double> g = f;
  const auto m = [](const Eigen::Vector3d& p) { return Eigen::Vector3d(p.x(), -p.y(), p.z()); };
  for (std::size_t j = 0; j < f.p_W.size(); ++j) g.p_W[j] = m(f.p_W[j]);
  for (auto [a, b] : {std::pair{H::kShoulderLeft, H::kShoulderRight}, std::pair{H::kElbowLeft, H::kElbowRight},
                      std::pair{H::kWristLeft, H::kWristRight}}) {
    std::swap(g.position(a), g.position(b));
    std::swap(g.trackingState(a), g.trackingState(b));
  }
  return g;
}

struct RobotCase {
  const char* name;
  RobotModel<double> model;
  TriangleMap map;
};

std::vector<RobotCase> robots() {
  return {{"Tangy", makeTangy<double>(), tangyTriangleMap()},
          {"NAO", makeNao<double>(), naoTriangleMap()},
          {"Pepper", makePepper<double>(), pepperTriangleMap()}};
}

double armError(const RobotModel<double>& model, const TriangleMap& map, const Eigen::VectorXd& a,
                const Eigen::VectorXd& b) {
  double worst = 0;
  for (const TriangleArmMap* arm : {&map.left, &map.right}) {
    for (const auto& j : arm->joints) worst = std::max(worst, std::abs(wrapped(a[model.qIndex(j)] - b[model.qIndex(j)])));
  }
  return worst;
}

}  // namespace

static_assert(isMapper<TriangleMapper<double>>);
static_assert(isMapper<TriangleMapper<float>>);

TEST_CASE("triangle: round trip robot angles -> FK -> skeleton -> same angles (1e-6 rad), Tangy, NAO, Pepper") {
  for (auto& rc : robots()) {
    CAPTURE(rc.name);
    TriangleMapper<double> mapper(rc.model, rc.map);
    TriangleSkeleton<double> view(rc.model, rc.map);
    std::mt19937 rng(11);
    const int n = sweepCount(500);
    double worst = 0;
    int in_limits = 0;
    for (int i = 0; i < n; ++i) {
      const Eigen::VectorXd q = randomArms(rc.model, rc.map, rng);
      if (!withinLimits(rc.model, q)) continue;
      ++in_limits;
      SkeletonFrame<double> frame;
      REQUIRE(view.compute(q, frame).ok());
      Eigen::VectorXd out(rc.model.nq());
      mapper.reset();  // a first frame: the map's branches (later frames continue the previous)
      const Status status = mapper.map(frame, out);
      CHECK_FALSE(status.has(StatusCode::kDegenerateInput));
      const double e = armError(rc.model, rc.map, q, out);
      worst = std::max(worst, e);
      if (e > 1e-6) {
        INFO("q = " << q.transpose() << "\nout = " << out.transpose());
        CHECK(e <= 1e-6);
        break;
      }
    }
    MESSAGE(std::string(rc.name) << ": round trip over " << in_limits << " configurations, worst error " << worst << " rad");
    CHECK(in_limits > n / 4);
  }
}

TEST_CASE("triangle: the round trip fails when a sign or the branch in the map is wrong") {
  const auto tangy = makeTangy<double>();
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  std::mt19937 rng(3);
  const Eigen::VectorXd q = randomArms(tangy, tangyTriangleMap(), rng);
  SkeletonFrame<double> frame;
  REQUIRE(view.compute(q, frame).ok());
  Eigen::VectorXd out(tangy.nq());
  TriangleMap flipped = tangyTriangleMap();
  flipped.left.axes[3] = -flipped.left.axes[3];  // elbow sign lost
  TriangleMapper<double> wrong_sign(tangy, flipped);
  (void)wrong_sign.map(frame, out);
  CHECK(armError(tangy, tangyTriangleMap(), q, out) > 1e-3);
  TriangleMap other_branch = tangyTriangleMap();
  other_branch.left.shoulder_branch = -kPi<double> / 2;
  TriangleMapper<double> wrong_branch(tangy, other_branch);
  (void)wrong_branch.map(frame, out);
  CHECK(armError(tangy, tangyTriangleMap(), q, out) > 1e-3);
}

TEST_CASE("triangle: mirror test - a mirrored skeleton gives the mirrored robot arm") {
  for (auto& rc : robots()) {
    CAPTURE(rc.name);
    TriangleMapper<double> mapper(rc.model, rc.map);
    TriangleSkeleton<double> view(rc.model, rc.map);
    std::mt19937 rng(5);
    for (int i = 0; i < sweepCount(200); ++i) {
      const Eigen::VectorXd q = randomArms(rc.model, rc.map, rng);
      if (!withinLimits(rc.model, q)) continue;
      SkeletonFrame<double> frame;
      REQUIRE(view.compute(q, frame).ok());
      const SkeletonFrame<double> mirror = mirrored(frame);
      Eigen::VectorXd qm(rc.model.nq());
      mapper.reset();  // a first frame: the map's branches
      const Status status = mapper.map(mirror, qm);
      if (status.has(StatusCode::kClamped)) continue;  // the mirror pose may be outside the limits
      // The robot's own skeleton at qm is the mirror image of the input's arm directions.
      SkeletonFrame<double> back;
      REQUIRE(view.compute(qm, back).ok());
      using H = HumanJoint;
      for (auto [s, e, w] : {std::tuple{H::kShoulderLeft, H::kElbowLeft, H::kWristLeft},
                             std::tuple{H::kShoulderRight, H::kElbowRight, H::kWristRight}}) {
        const Eigen::Vector3d u = (back.position(e) - back.position(s)).normalized();
        const Eigen::Vector3d u_m = (mirror.position(e) - mirror.position(s)).normalized();
        const Eigen::Vector3d l = (back.position(w) - back.position(e)).normalized();
        const Eigen::Vector3d l_m = (mirror.position(w) - mirror.position(e)).normalized();
        CHECK((u - u_m).norm() < 1e-9);
        CHECK((l - l_m).norm() < 1e-9);
      }
      // Explicit joint relations of the mirrored data.
      const auto qi = [&](const std::string& name) { return rc.model.qIndex(name); };
      for (int k = 0; k < 4; ++k) {
        const auto& jl = rc.map.left.joints[static_cast<std::size_t>(k)];
        const auto& jr = rc.map.right.joints[static_cast<std::size_t>(k)];
        if (std::string(rc.name) == "Tangy") {
          // right = (-roll, -pitch, pi - yaw, elbow) of the left (DH tables A1 = A2, translated copy)
          const double expected = k == 3 ? q[qi(jl)] : k == 2 ? kPi<double> - q[qi(jl)] : -q[qi(jl)];
          CHECK(std::abs(wrapped(qm[qi(jr)] - expected)) < 1e-7);
        } else {
          // NAO / Pepper: right = (pitch, -roll, -yaw, -elbow) of the left
          const double expected = k == 0 ? q[qi(jl)] : -q[qi(jl)];
          CHECK(std::abs(wrapped(qm[qi(jr)] - expected)) < 1e-7);
        }
      }
    }
  }
}

TEST_CASE("triangle: invariant to a rigid motion of the whole skeleton") {
  const auto tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  std::mt19937 rng(17);
  for (int i = 0; i < sweepCount(50); ++i) {
    const Eigen::VectorXd q = randomArms(tangy, tangyTriangleMap(), rng);
    SkeletonFrame<double> frame;
    REQUIRE(view.compute(q, frame).ok());
    const Eigen::Isometry3d X = Eigen::Translation3d(0.3, -1.0, 2.0) *
                                Eigen::AngleAxisd(0.3 * i, Eigen::Vector3d(1, 2, 3).normalized());
    SkeletonFrame<double> moved = frame;
    for (auto& p : moved.p_W) p = X * p;
    Eigen::VectorXd a(tangy.nq()), b(tangy.nq());
    mapper.reset();  // each a first frame (a later frame depends on the previous one)
    (void)mapper.map(frame, a);
    mapper.reset();
    (void)mapper.map(moved, b);
    CHECK(armError(tangy, tangyTriangleMap(), a, b) < 1e-9);
  }
}

TEST_CASE("triangle: singular cases hold the undefined joint and report it") {
  const auto tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  Eigen::VectorXd q = Eigen::VectorXd::Zero(8);
  // Straight left arm (elbow at +pi/2): shoulder yaw undefined.
  q << -1.0, 1.2, 0.7, kPi<double> / 2, 1.0, -1.2, 0.3, 0.4;
  SkeletonFrame<double> frame;
  REQUIRE(view.compute(q, frame).ok());
  Eigen::VectorXd out(8);
  Status status = mapper.map(frame, out);
  CHECK(status.has(StatusCode::kDegenerateInput));
  CHECK(mapper.held()[tangy.qIndex("l_shoulder_yaw")]);
  CHECK_FALSE(mapper.held()[tangy.qIndex("r_shoulder_yaw")]);
  CHECK(std::abs(out[3] - kPi<double> / 2) < 1e-6);
  // Left arm straight forward (pitch 0): roll undefined, held at its previous value.
  const double previous_roll = out[0];
  q[1] = 0.0;
  REQUIRE(view.compute(q, frame).ok());
  status = mapper.map(frame, out);
  CHECK(mapper.held()[tangy.qIndex("l_shoulder_roll")]);
  CHECK(out[0] == previous_roll);
  CHECK(out.allFinite());
  // Missing wrist: the whole arm holds.
  frame.trackingState(HumanJoint::kWristRight) = TrackingState::kNotTracked;
  Eigen::VectorXd before = out;
  status = mapper.map(frame, out);
  for (int i = 4; i < 8; ++i) CHECK(mapper.held()[i]);
  CHECK(out.tail(4) == before.tail(4));
}

namespace {

// Maps Tangy's left arm hanging, forearm forward, through shoulder yaws `yaws` (rad, as the
// human shows them: any turn), and returns the largest unreported step, the number of reported
// discontinuities and the largest arm-direction error (rad) of the frames not clamped.
struct YawSweep {
  double largest_unreported = 0;
  int discontinuities = 0;
  double largest_direction_error = 0;
};

YawSweep sweepLeftYaw(const std::vector<double>& yaws, TriangleOptions options = {}) {
  const auto tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, tangyTriangleMap(), options);
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  Eigen::VectorXd q = Eigen::VectorXd::Zero(8), out(8), previous(8);
  q.tail(4) << kPi<double> / 2, -kPi<double> / 2, 0.0, 0.0;  // right arm hanging, forearm forward
  YawSweep result;
  for (std::size_t k = 0; k < yaws.size(); ++k) {
    q.head(4) << -kPi<double> / 2, kPi<double> / 2, wrapped(yaws[k]), 0.3;
    SkeletonFrame<double> frame, back;
    REQUIRE(view.compute(q, frame).ok());
    const Status status = mapper.map(frame, out);
    REQUIRE_FALSE(status.has(StatusCode::kDegenerateInput));
    if (status.has(StatusCode::kDiscontinuity)) ++result.discontinuities;
    if (k > 0 && !status.has(StatusCode::kDiscontinuity)) {
      result.largest_unreported = std::max(result.largest_unreported, (out - previous).cwiseAbs().maxCoeff());
    }
    if (!status.has(StatusCode::kClamped)) {
      REQUIRE(view.compute(out, back).ok());
      using H = HumanJoint;
      const auto direction = [](const SkeletonFrame<double>& f, H from, H to) {
        return Eigen::Vector3d((f.position(to) - f.position(from)).normalized());
      };
      for (auto [from, to] : {std::pair{H::kShoulderLeft, H::kElbowLeft}, std::pair{H::kElbowLeft, H::kWristLeft}}) {
        const double e = std::acos(std::min(1.0, direction(frame, from, to).dot(direction(back, from, to))));
        result.largest_direction_error = std::max(result.largest_direction_error, e);
      }
    }
    previous = out;
  }
  return result;
}

std::vector<double> ramp(double from, double to, double step) {
  std::vector<double> out;
  for (double x = from; step > 0 ? x <= to : x >= to; x += step) out.push_back(x);
  return out;
}

}  // namespace

TEST_CASE("triangle: continuity - the shoulder yaw crosses Tangy's +-pi wrap without jumping") {
  // Noise around the wrap (left yaw pi with the arm hanging, forearm forward): the yaw stays on
  // the limit, clamped, and never swings round.
  std::vector<double> noisy;
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> noise(-0.1, 0.1);
  for (int k = 0; k < 200; ++k) noisy.push_back(kPi<double> + noise(rng));
  const YawSweep around = sweepLeftYaw(noisy);
  MESSAGE("yaw noise around pi: largest step " << around.largest_unreported << " rad, "
                                               << around.discontinuities << " discontinuities");
  CHECK(around.discontinuities == 0);
  CHECK(around.largest_unreported < 0.25);
  CHECK(around.largest_direction_error < 1e-6);
  // A yaw turning on past the wrap: clamped up to jump_margin, then one jump to the other branch
  // (reported), then the motion goes on continuously and exactly.
  const YawSweep past = sweepLeftYaw(ramp(kPi<double> - 1.0, kPi<double> + 1.0, 0.01));
  MESSAGE("yaw turning through pi: largest unreported step " << past.largest_unreported << " rad, "
                                                             << past.discontinuities << " discontinuities");
  CHECK(past.discontinuities == 1);
  CHECK(past.largest_unreported < 0.02);
  CHECK(past.largest_direction_error < 1e-6);
  // Plain wrapping (every jump margin 0 and no other branch near) would jump by 2 pi at the
  // wrap: the sweep would see it. Without the margin the jump comes at once and is reported.
  TriangleOptions no_margin;
  no_margin.jump_margin = 0.0;
  const YawSweep at_once = sweepLeftYaw(ramp(kPi<double> - 1.0, kPi<double> + 1.0, 0.01), no_margin);
  CHECK(at_once.discontinuities == 1);
  CHECK(at_once.largest_unreported < 0.02);
  // And back: the mapper stays on the branch it is on (no jump back).
  std::vector<double> there_and_back = ramp(kPi<double> - 1.0, kPi<double> + 1.0, 0.01);
  for (double y : ramp(kPi<double> + 1.0, kPi<double> - 1.0, -0.01)) there_and_back.push_back(y);
  const YawSweep back = sweepLeftYaw(there_and_back);
  CHECK(back.discontinuities == 1);
  CHECK(back.largest_unreported < 0.02);
}

TEST_CASE("triangle: continuity - reset() forgets the previous frame") {
  const auto tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, tangyTriangleMap()), fresh(tangy, tangyTriangleMap());
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  Eigen::VectorXd q = Eigen::VectorXd::Zero(8), a(8), b(8);
  q << -kPi<double> / 2, kPi<double> / 2, 2.0, 0.3, kPi<double> / 2, -kPi<double> / 2, 0.0, 0.0;
  SkeletonFrame<double> frame;
  for (double yaw : ramp(2.0, kPi<double> + 1.0, 0.02)) {  // onto the other branch
    q[2] = wrapped(yaw);
    REQUIRE(view.compute(q, frame).ok());
    (void)mapper.map(frame, a);
  }
  CHECK(std::abs(a[2] - q[2]) > 1.0);  // the continued branch is not the map's
  mapper.reset();
  (void)mapper.map(frame, a);
  (void)fresh.map(frame, b);
  CHECK(a == b);
  CHECK(armError(tangy, tangyTriangleMap(), a, q) < 1e-9);  // the map's branches again
}

TEST_CASE("triangle: map() allocates nothing") {
  const auto tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  TriangleSkeleton<double> view(tangy, tangyTriangleMap());
  std::mt19937 rng(1);
  SkeletonFrame<double> frame;
  REQUIRE(view.compute(randomArms(tangy, tangyTriangleMap(), rng), frame).ok());
  Eigen::VectorXd out(8);
  {
    NoAllocationScope scope;
    for (int i = 0; i < 10; ++i) (void)mapper.map(frame, out);
  }
}

TEST_CASE("triangle: map validation names the field") {
  const auto tangy = makeTangy<double>();
  TriangleMap bad = tangyTriangleMap();
  bad.left.joints[1] = "nope";
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, bad), doctest::Contains("left.joints[1]"), InvalidArgument);
  bad = tangyTriangleMap();
  bad.right.axes[2] = Eigen::Vector3d(1, 1, 0);
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, bad), doctest::Contains("right.axes[2]"), InvalidArgument);
  bad = tangyTriangleMap();
  bad.right.joints[0] = "l_shoulder_roll";
  CHECK_THROWS_AS(TriangleMapper<double>(tangy, bad), InvalidArgument);
  TriangleOptions options;
  options.singular_tolerance = 0;
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, tangyTriangleMap(), options),
                       doctest::Contains("singular_tolerance"), InvalidArgument);
  options = TriangleOptions{};
  options.lag_error = -0.1;
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, tangyTriangleMap(), options), doctest::Contains("lag_error"),
                       InvalidArgument);
  options = TriangleOptions{};
  options.discontinuity_step = 0;
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, tangyTriangleMap(), options),
                       doctest::Contains("discontinuity_step"), InvalidArgument);
  options = TriangleOptions{};
  options.jump_margin = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(TriangleMapper<double>(tangy, tangyTriangleMap(), options), doctest::Contains("jump_margin"),
                       InvalidArgument);
  CHECK(triangleMapFor(tangy)->robot == "Tangy");
  CHECK(triangleMapFor(makeNao<double>())->robot == "NAO H25");
  CHECK(triangleMapFor(makePepper<double>())->robot == "Pepper");
}
