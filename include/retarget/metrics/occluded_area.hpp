#pragma once

/// @file
/// Percentage of occlusion / obstruction PO as an area (seed 004, Section IV-B, Eq. 5).
///
/// The paper projects each link of an arm onto the plane of a rectangular region of interest
/// (ROI: the incision pad, or the collaborator's insertion area), takes the area "under" each
/// projected link, between the link's two end abscissas x_j, x_{j+1} and below the line
/// y = m x + b of its projection, with y limited to the ROI's height h, and divides by the ROI's
/// area. Our reading, stated where the text is silent:
///  - the ROI is a rectangle [0, w] x [0, h] in its plane, x across it and y from the edge
///    nearest the robot (y = 0) away from it; a point projects orthogonally onto the plane;
///  - each link covers, at every abscissa x inside its span, the band 0 <= y <= clamp(y(x), 0, h);
///  - links of both arms and of one arm overlap: the covered area is their union (at each x the
///    highest band), not the sum, so PO stays in [0, 1] and a link is never counted twice;
///  - the union is integrated on `kColumns` equal columns of the ROI, sampled at their centres
///    (error at most one column's share, 1/256 of the area, per link end).
/// The paper counts a frame "only when the human wrist was hovering over the ROI": `contains`
/// tells whether a point projects inside the rectangle.
///
/// Frames: everything in the robot base frame B (m). Per-frame calls never allocate or throw.

#include <algorithm>
#include <array>
#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/metrics/occlusion.hpp>

namespace retarget {

/// A rectangular region of interest in a plane (robot base frame B, m): corner p_BC, unit
/// axes x_B (across, length `width`) and y_B (away from the robot, length `height`),
/// orthogonal to each other.
struct RegionOfInterest {
  Eigen::Vector3d p_BC = Eigen::Vector3d::Zero();
  Eigen::Vector3d x_B = Eigen::Vector3d::UnitY();
  Eigen::Vector3d y_B = Eigen::Vector3d::UnitX();
  double width = 0.3;
  double height = 0.3;

  /// Throws InvalidArgument naming the field and value (axes not unit or not orthogonal,
  /// sizes not > 0, non-finite values).
  RETARGET_LAZY_DECL void validate() const;
  /// Coordinates (x, y) of the orthogonal projection of p_B (m) in the ROI's plane.
  Eigen::Vector2d project(const Eigen::Vector3d& p_B) const noexcept {
    const Eigen::Vector3d d = p_B - p_BC;
    return Eigen::Vector2d(d.dot(x_B), d.dot(y_B));
  }
  /// True when p_B projects inside the rectangle (the paper's "hovering over the ROI").
  bool contains(const Eigen::Vector3d& p_B) const noexcept {
    const Eigen::Vector2d c = project(p_B);
    return c.allFinite() && c.x() >= 0 && c.x() <= width && c.y() >= 0 && c.y() <= height;
  }
};

/// The ROI of a work area: the top face of its box (a square of side 2 radius for a sphere),
/// x across the robot's left-to-right (-y of B), y along B's +x from the face's edge nearest
/// the robot.
RETARGET_LAZY_DECL RegionOfInterest regionOfInterest(const WorkArea& area);

/// The covered share of a ROI for one frame (Eq. 5, see the file doc): `clear()`, then
/// `addLink` for every link of every arm, then `fraction()`.
class OccludedArea {
 public:
  /// Columns of the integration.
  static constexpr int kColumns = 256;

  explicit OccludedArea(const RegionOfInterest& roi) : roi_((roi.validate(), roi)) { clear(); }
  /// Starts a new frame.
  void clear() noexcept { height_.fill(0.0); }
  /// Adds the link from p_B to q_B (m, B). Non-finite ends are ignored.
  void addLink(const Eigen::Vector3d& p_B, const Eigen::Vector3d& q_B) noexcept {
    Eigen::Vector2d a = roi_.project(p_B), b = roi_.project(q_B);
    if (!a.allFinite() || !b.allFinite()) return;
    if (a.x() > b.x()) std::swap(a, b);
    const double column = roi_.width / kColumns;
    if (!(b.x() - a.x() > 1e-12)) return;  // a link seen end-on covers no area
    const int first = std::max(0, static_cast<int>(std::ceil(a.x() / column - 0.5)));
    const int last = std::min(kColumns - 1, static_cast<int>(std::floor(b.x() / column - 0.5)));
    for (int c = first; c <= last; ++c) {
      const double x = (c + 0.5) * column;
      const double y = a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x());
      auto& h = height_[static_cast<std::size_t>(c)];
      h = std::max(h, std::clamp(y, 0.0, roi_.height));
    }
  }
  /// Covered share of the ROI's area, [0, 1].
  double fraction() const noexcept {
    double sum = 0;
    for (double h : height_) sum += h;
    return sum / (kColumns * roi_.height);
  }
  const RegionOfInterest& roi() const noexcept { return roi_; }

 private:
  RegionOfInterest roi_;
  std::array<double, kColumns> height_{};
};

#if RETARGET_DEFINE_METRICS

RETARGET_LAZY_DEF void RegionOfInterest::validate() const {
  RETARGET_THROW_UNLESS(p_BC.allFinite() && x_B.allFinite() && y_B.allFinite(), InvalidArgument,
                        "RegionOfInterest: corner or axes not finite");
  RETARGET_THROW_UNLESS(std::abs(x_B.norm() - 1) < 1e-6 && std::abs(y_B.norm() - 1) < 1e-6 && std::abs(x_B.dot(y_B)) < 1e-6,
                        InvalidArgument, "RegionOfInterest::x_B / y_B (got (", x_B.transpose(), ") and (", y_B.transpose(),
                        "), expected orthogonal unit vectors)");
  RETARGET_THROW_UNLESS(std::isfinite(width) && width > 0 && std::isfinite(height) && height > 0, InvalidArgument,
                        "RegionOfInterest::width / height (got ", width, " x ", height, ", expected finite values > 0 m)");
}

RETARGET_LAZY_DEF RegionOfInterest regionOfInterest(const WorkArea& area) {
  area.validate();
  const Eigen::Vector3d h = area.kind == WorkArea::Kind::kBox ? area.half_extents
                                                               : Eigen::Vector3d(area.radius, area.radius, 0.0);
  RegionOfInterest roi;
  roi.x_B = -Eigen::Vector3d::UnitY();
  roi.y_B = Eigen::Vector3d::UnitX();
  roi.p_BC = area.center + Eigen::Vector3d(-h.x(), h.y(), h.z());
  roi.width = 2 * h.y();
  roi.height = 2 * h.x();
  roi.validate();
  return roi;
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
