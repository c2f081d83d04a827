// Octants: numbering and tie rule, neighbours for every octant and softening factor, and the
// projection onto every one of the 256 allowed sets, checked against independent formulas and
// against random directions drawn inside the allowed octants.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <retarget/geometry/octants.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

using V3 = Eigen::Vector3d;

// Random direction strictly inside octant o, with magnitudes in [0.05, 1].
V3 insideOctant(std::mt19937& rng, int o) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  const V3 signs = octantSigns<double>(o);
  return V3(signs.x() * u(rng), signs.y() * u(rng), signs.z() * u(rng));
}

// Independent Euclidean projection onto the closed octant o: s * max(s * v, 0).
V3 projectOntoOne(const V3& v, int o) {
  const V3 s = octantSigns<double>(o);
  return s.cwiseProduct(s.cwiseProduct(v).cwiseMax(0.0));
}

int choose(int n, int k) {
  int r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("octantOf inverts octantSigns; zero counts as positive", Scalar, float, double) {
  std::mt19937 rng(11);
  for (int o = 0; o < 8; ++o) {
    for (int k = 0; k < 50; ++k) {
      const Vector3<Scalar> v = insideOctant(rng, o).cast<Scalar>();
      CHECK(octantOf(v) == o);
      CHECK(inOctant(v, o));
      for (int other = 0; other < 8; ++other) {
        if (other != o) CHECK_FALSE(inOctant(v, other));
      }
    }
    // Zero coordinates: bit clear, but the closed octant of either sign contains the point.
    Vector3<Scalar> v = octantSigns<Scalar>(o);
    v.x() = Scalar(0);
    CHECK(octantOf(v) == (o & ~1));
    CHECK(inOctant(v, o));
    CHECK(inOctant(v, o ^ 1));
  }
  CHECK(octantOf(Vector3<Scalar>(Vector3<Scalar>::Zero())) == 0);
  CHECK(octantOf(Vector3<Scalar>(-1, -1, -1)) == 7);
  CHECK(octantOf(Vector3<Scalar>(-1, 1, 1)) == 1);
  CHECK(octantOf(Vector3<Scalar>(1, -1, 1)) == 2);
  CHECK(octantOf(Vector3<Scalar>(1, 1, -1)) == 4);
}

TEST_CASE("octantOf in a rotated frame") {
  std::mt19937 rng(12);
  for (int k = 0; k < 200; ++k) {
    const Eigen::Matrix3d R_WF = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    const int o = static_cast<int>(rng() % 8);
    const V3 v_F = insideOctant(rng, o);
    CHECK(octantOf(R_WF, V3(R_WF * v_F)) == o);
  }
}

TEST_CASE("octantNeighbours: every octant and softening factor") {
  for (int o = 0; o < 8; ++o) {
    for (int softening = 0; softening <= 4; ++softening) {
      const OctantSet set = octantNeighbours(o, softening);
      int members = 0;
      for (int p = 0; p < 8; ++p) {
        // Count differing signs from the sign vectors (independent of the bit arithmetic).
        const int differing = static_cast<int>(
            (octantSigns<double>(o) - octantSigns<double>(p)).cwiseAbs().sum() / 2.0 + 0.5);
        CHECK(octantDistance(o, p) == differing);
        CHECK(contains(set, p) == (differing <= softening));
        members += contains(set, p) ? 1 : 0;
      }
      int expected = 0;
      for (int k = 0; k <= std::min(softening, 3); ++k) expected += choose(3, k);
      CHECK(members == expected);  // 1, 4, 7, 8, 8
    }
    CHECK(octantNeighbours(o, 0) == octantSetOf(o));
    CHECK(octantNeighbours(o, 3) == kAllOctants);
  }
  static_assert(octantNeighbours(0, 1) == 0b00010111, "octant 0 and its three face neighbours");
  for (unsigned set = 0; set < 256; ++set) {
    for (int softening = 0; softening <= 3; ++softening) {
      OctantSet expected = 0;
      for (int o = 0; o < 8; ++o) {
        if (contains(static_cast<OctantSet>(set), o)) expected |= octantNeighbours(o, softening);
      }
      CHECK(softenOctants(static_cast<OctantSet>(set), softening) == expected);
    }
  }
}

TEST_CASE("projectOntoOctants: exhaustive over all 256 allowed sets and 8 input octants") {
  std::mt19937 rng(13);
  int checked = 0;
  for (unsigned set_bits = 0; set_bits < 256; ++set_bits) {
    const auto allowed = static_cast<OctantSet>(set_bits);
    for (int o = 0; o < 8; ++o) {
      for (int k = 0; k < test::sweepCount(4); ++k) {
        V3 v = insideOctant(rng, o);
        if (k == 1) v[static_cast<int>(rng() % 3)] = 0.0;  // on a face
        CAPTURE(set_bits);
        CAPTURE(v.transpose());
        const auto result = projectOntoOctants(v, allowed);
        if (allowed == kNoOctants) {
          CHECK_FALSE(result.has_value());
          continue;
        }
        // Reference: the nearest of the independent per-octant projections.
        double best = std::numeric_limits<double>::infinity();
        V3 best_point = V3::Zero();
        for (int p = 0; p < 8; ++p) {
          if (!contains(allowed, p)) continue;
          const V3 candidate = projectOntoOne(v, p);
          if ((v - candidate).norm() < best) {
            best = (v - candidate).norm();
            best_point = candidate;
          }
        }
        if (best_point.norm() == 0.0) {
          CHECK_FALSE(result.has_value());  // only the opposite octant (or zero) is reachable
          continue;
        }
        REQUIRE(result.has_value());
        ++checked;
        CHECK((v - result->direction).norm() == doctest::Approx(best).epsilon(1e-15));
        CHECK(contains(allowed, result->octant));
        CHECK(inOctant(result->direction, result->octant));
        CHECK(result->unchanged == (best == 0.0));
        if (contains(allowed, octantOf(v))) CHECK(result->direction == v);
        // No allowed direction makes a smaller angle with v.
        const double cos_result = v.dot(result->direction) / (v.norm() * result->direction.norm());
        for (int s = 0; s < 16; ++s) {
          int p = static_cast<int>(rng() % 8);
          while (!contains(allowed, p)) p = (p + 1) % 8;
          const V3 u = insideOctant(rng, p);
          CHECK(v.dot(u) / (v.norm() * u.norm()) <= cos_result + 1e-12);
        }
      }
    }
  }
  // Nearly every sample of every non-empty allowed set (255) and input octant was compared with
  // the reference (the others had only the opposite octant within reach); any --sweep-scale.
  CHECK(checked > 255 * 8 * test::sweepCount(4) * 9 / 10);
  // Degenerate input.
  CHECK_FALSE(projectOntoOctants(V3::Zero().eval(), kAllOctants).has_value());
  CHECK_FALSE(projectOntoOctants(V3(NAN, 1, 1), kAllOctants).has_value());
  CHECK_FALSE(projectOntoOctants(V3(1, 1, 1), octantSetOf(7)).has_value());  // opposite octant only
  // A direction outside the allowed octant drops the offending coordinate (closest face).
  const auto face = projectOntoOctants(V3(0.5, -0.2, 0.3), octantSetOf(0));
  REQUIRE(face.has_value());
  CHECK(face->direction == V3(0.5, 0, 0.3));
  CHECK_FALSE(face->unchanged);
}

TEST_CASE("projectOntoOctants in a rotated frame returns a direction in W") {
  std::mt19937 rng(14);
  for (int k = 0; k < 200; ++k) {
    const Eigen::Matrix3d R_WF = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    const V3 v_F = insideOctant(rng, static_cast<int>(rng() % 8));
    const auto allowed = static_cast<OctantSet>(1 + rng() % 255);
    const auto local = projectOntoOctants(v_F, allowed);
    const auto world = projectOntoOctants(R_WF, V3(R_WF * v_F), allowed);
    REQUIRE(local.has_value() == world.has_value());
    if (!local) continue;
    CHECK(world->octant == local->octant);
    CHECK((world->direction - R_WF * local->direction).norm() < 1e-12);
  }
}

TEST_CASE("octant functions do not allocate") {
  const V3 v(0.3, -0.2, 0.5);
  int sink = 0;
  test::NoAllocationScope scope;
  sink += octantOf(v) + octantNeighbours(3, 2) + softenOctants(0x11, 1) + (inOctant(v, 2) ? 1 : 0);
  // Octant 0 (+,+,+) and octant 4 (+,+,-) both keep v's x, so both projections exist.
  const auto local = projectOntoOctants(v, octantSetOf(0));
  const auto world = projectOntoOctants(Eigen::Matrix3d::Identity().eval(), v, octantSetOf(4));
  CHECK(scope.allocations() == 0);
  REQUIRE(local.has_value());
  REQUIRE(world.has_value());
  sink += local->octant + world->octant;
  CHECK(sink >= 0);
}
