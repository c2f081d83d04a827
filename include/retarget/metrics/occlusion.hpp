#pragma once

/// @file
/// Percentage of occlusion / obstruction PO of a work area (seed 004, Section IV-B, Eq. 5).
///
/// The paper projects each link on the plane of a region of interest (the incision pad, or the
/// collaborator's insertion area) and sums the covered area. We measure the same effect as a
/// share of frames: a frame occludes the work area when one of the arm's capsules (m, robot base
/// frame) intersects the region (a box or a sphere) or the line of sight from `viewpoint` to
/// the region's centre (the camera / collaborator's eye). PO = occluding frames / frames. This
/// is a deviation (a yes/no per frame instead of a covered area) documented in
/// docs/methods/pic.md. Per-frame calls never allocate or throw.

#include <algorithm>
#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/capsule.hpp>
#include <retarget/geometry/distance.hpp>

namespace retarget {

/// A work area (region of interest) in the robot base frame B (m).
struct WorkArea {
  enum class Kind { kBox, kSphere };
  Kind kind = Kind::kBox;
  /// Centre of the box or sphere (m, B).
  Eigen::Vector3d center = Eigen::Vector3d(0.6, 0.0, -0.1);
  /// Half extents of the (axis-aligned in B) box (m, >= 0).
  Eigen::Vector3d half_extents = Eigen::Vector3d(0.15, 0.15, 0.02);
  /// Radius of the sphere (m, >= 0).
  double radius = 0.15;
  /// Eye point of the line of sight to the centre (m, B); with `line_of_sight` false only the
  /// region itself counts.
  Eigen::Vector3d viewpoint = Eigen::Vector3d(0.1, 0.0, 0.8);
  bool line_of_sight = true;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// Distance (m, >= 0) from point p to the axis-aligned box (centre c, half extents h).
template <typename Scalar>
Scalar pointBoxDistance(const Vector3<Scalar>& p, const Vector3<Scalar>& c, const Vector3<Scalar>& h) noexcept {
  const Vector3<Scalar> d = ((p - c).cwiseAbs() - h).cwiseMax(Scalar(0));
  return d.norm();
}

/// Distance (m, >= 0) from the segment [a, b] to the axis-aligned box (centre c, half extents
/// h): the distance to a convex set is convex along the segment, so a golden-section search
/// on the segment parameter finds its minimum (to 1e-9 of the segment length).
template <typename Scalar>
Scalar segmentBoxDistance(const Vector3<Scalar>& a, const Vector3<Scalar>& b, const Vector3<Scalar>& c,
                          const Vector3<Scalar>& h) noexcept {
  const Scalar g = Scalar(0.6180339887498949);
  Scalar lo = 0, hi = 1;
  auto f = [&](Scalar t) { return pointBoxDistance<Scalar>(Vector3<Scalar>(a + t * (b - a)), c, h); };
  Scalar x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  Scalar f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < 60 && hi - lo > Scalar(1e-9); ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = f(x2);
    }
  }
  return std::min({f(lo), f(hi), f1, f2});
}

/// True when capsule `c` (m, B) intersects the work area or its line of sight.
template <typename Scalar>
bool occludes(const Capsule<Scalar>& c, const WorkArea& area) noexcept {
  const Vector3<Scalar> center = area.center.cast<Scalar>();
  if (area.kind == WorkArea::Kind::kBox) {
    if (segmentBoxDistance<Scalar>(c.a, c.b, center, area.half_extents.cast<Scalar>()) <= c.radius) return true;
  } else {
    if (pointSegmentDistance<Scalar>(center, c.a, c.b) <= c.radius + static_cast<Scalar>(area.radius)) return true;
  }
  if (!area.line_of_sight) return false;
  const auto pts = closestPointsSegmentSegment<Scalar>(c.a, c.b, area.viewpoint.cast<Scalar>(), center);
  return (pts.c_1 - pts.c_2).norm() <= c.radius;
}

/// Streaming PO: feed whether each frame occludes, read `value()`.
class OcclusionPercentage {
 public:
  /// Adds one frame.
  void add(bool occluding) noexcept {
    ++frames_;
    occluding_ += occluding ? 1 : 0;
  }
  /// PO in [0, 1] (0 before any frame).
  double value() const noexcept { return frames_ > 0 ? static_cast<double>(occluding_) / frames_ : 0.0; }
  int frames() const noexcept { return frames_; }
  int occluding() const noexcept { return occluding_; }

 private:
  int frames_ = 0;
  int occluding_ = 0;
};

#if RETARGET_DEFINE_METRICS

RETARGET_DECL void WorkArea::validate() const {
  RETARGET_THROW_UNLESS(center.allFinite() && viewpoint.allFinite(), InvalidArgument,
                        "WorkArea::center / viewpoint (got a non-finite point, expected finite m)");
  RETARGET_THROW_UNLESS(half_extents.allFinite() && (half_extents.array() >= 0).all(), InvalidArgument,
                        "WorkArea::half_extents (got ", half_extents.transpose(), ", expected finite values >= 0 m)");
  RETARGET_THROW_UNLESS(std::isfinite(radius) && radius >= 0, InvalidArgument, "WorkArea::radius (got ", radius,
                        ", expected a finite value >= 0 m)");
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
