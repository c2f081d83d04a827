#pragma once

/// @file
/// Self-penetration depth of a robot joint trajectory from the robot's collision model (beyond
/// the seeds): per frame, the deepest overlap between any two checked shapes of
/// `SelfCollisionModel` (safety/self_collision.hpp; capsules and spheres, Eigen only).
///
/// With d_kj the signed distance of pair (k, j) (D_kj - r_k - r_j, seed 001 Eq. 9; negative
/// inside), the frame's penetration depth is
///
///   depth = max(0, -min_kj d_kj)          (m; 0 when no two shapes overlap).
///
/// Which pairs are checked (rigidly attached and adjacent links excluded, placeholder shapes
/// ignored, listed always-touching pairs excluded) is the `SelfCollisionOptions` of the model;
/// its clearance margin plays no part here (depth is measured from contact, not from the margin).

#include <algorithm>
#include <string>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget {

/// Penetration depth (m, >= 0) of the last `checker.update` of `collision` (the model the
/// checker was built for), and in `deepest_pair` the index of the deepest pair in
/// `collision.pairs()` (-1 when no pair overlaps). Never allocates or throws.
template <typename Scalar>
Scalar penetrationDepth(const SelfCollisionModel<Scalar>& collision, const SelfCollisionChecker<Scalar>& checker,
                        int* deepest_pair = nullptr) noexcept {
  Scalar depth = Scalar(0);
  int deepest = -1;
  for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
    const Scalar overlap = -checker.result(k).distance;
    if (overlap > depth) {
      depth = overlap;
      deepest = static_cast<int>(k);
    }
  }
  if (deepest_pair != nullptr) *deepest_pair = deepest;
  return depth;
}

/// Self-penetration over a trajectory.
struct SelfPenetration {
  std::vector<double> depth;  ///< Per frame (m, >= 0).
  double max_depth = 0;       ///< Largest depth (m).
  double mean_depth = 0;      ///< Mean over all frames (m).
  int frames_in_penetration = 0;  ///< Frames with depth > 0.
  int worst_frame = -1;           ///< Frame of max_depth (-1 when never penetrating).
  std::string worst_pair;         ///< "shape a / shape b" at worst_frame (empty when none).
};

/// Self-penetration of `q` (frames x nq, rad, robot q order) under `collision`. Throws
/// InvalidArgument when q has not nq columns or a value is not finite. Allocates the result.
template <typename Scalar, typename Derived>
SelfPenetration selfPenetration(const SelfCollisionModel<Scalar>& collision, const Eigen::MatrixBase<Derived>& q) {
  const int nq = collision.model().nq();
  RETARGET_THROW_UNLESS(q.cols() == nq, InvalidArgument, "joint columns (got ", q.cols(), ", expected nq = ", nq,
                        " of robot '", collision.model().name(), "')");
  RETARGET_THROW_UNLESS(q.allFinite(), InvalidArgument, "joint values (got a non-finite value, expected finite rad)");
  SelfCollisionChecker<Scalar> checker(collision);
  SelfPenetration out;
  out.depth.resize(static_cast<std::size_t>(q.rows()));
  VectorX<Scalar> qk(nq);
  double sum = 0;
  for (Eigen::Index k = 0; k < q.rows(); ++k) {
    qk = q.row(k).transpose().template cast<Scalar>();
    checker.update(qk);
    int pair = -1;
    const auto depth = static_cast<double>(penetrationDepth(collision, checker, &pair));
    out.depth[static_cast<std::size_t>(k)] = depth;
    sum += depth;
    if (depth > 0) ++out.frames_in_penetration;
    if (depth > out.max_depth) {
      out.max_depth = depth;
      out.worst_frame = static_cast<int>(k);
      out.worst_pair = collision.pairName(static_cast<std::size_t>(pair));
    }
  }
  if (q.rows() > 0) out.mean_depth = sum / static_cast<double>(q.rows());
  return out;
}

}  // namespace retarget
