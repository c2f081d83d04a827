#pragma once

/// @file
/// What the two particle filters of seed 003 share (mappers/particle_filter.hpp,
/// mappers/gpdm_particle_filter.hpp): the links of an observation that can be used, the
/// likelihood of a robot configuration against them (Eqs. 1-2 of Section 3), the normalisation
/// of the weights, and the rest configuration option.

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "retarget/core/error.hpp"
#include "retarget/core/types.hpp"
#include "retarget/human/skeleton.hpp"
#include "retarget/human/skeleton_links.hpp"
#include "retarget/kinematics/forward_kinematics.hpp"
#include "retarget/robots/virtual_skeleton.hpp"

namespace retarget::internal {

/// The observation's similarity links (a copy) and which of them are usable (a base frame and
/// the link itself defined). Allocates nothing.
template <typename Scalar>
class ObservedLinks {
 public:
  static constexpr std::size_t kLinks = static_cast<std::size_t>(kCosineLinkCount);
  using Links = similarity::Links<Scalar>;

  /// Takes the links of `frame`; returns how many are usable.
  int set(const SkeletonFrame<Scalar>& frame) noexcept {
    links_ = Links(frame);
    count_ = 0;
    for (std::size_t l = 0; l < kLinks; ++l) {
      usable_[l] = static_cast<bool>(links_.base) && static_cast<bool>(links_.cosine[l]);
      count_ += usable_[l] ? 1 : 0;
    }
    return count_;
  }
  bool usable(std::size_t link) const noexcept { return usable_[link]; }
  int count() const noexcept { return count_; }

  /// Cosine pose similarity (Eq. 1) of `robot`'s links against the usable observed ones, in
  /// [-1, 1]; a link the robot cannot show counts as orthogonal. Needs count() > 0.
  Scalar similarity(const SkeletonFrame<Scalar>& robot_frame) const noexcept {
    const Links robot(robot_frame);
    Scalar sum = Scalar(0);
    for (std::size_t l = 0; l < kLinks; ++l) {
      if (!usable_[l]) continue;
      Scalar c = Scalar(0);
      (void)similarity::cosineIn(links_.base, links_.cosine[l], robot.base, robot.cosine[l], c);
      sum += c;
    }
    return sum / static_cast<Scalar>(count_);
  }

 private:
  Links links_{SkeletonFrame<Scalar>{}};
  std::array<bool, kLinks> usable_{};
  int count_ = 0;
};

/// Log-likelihood of Eq. 2, -(1 - sim)^2 / (2 sigma^2), with inverse_two_sigma2 = 1 / (2 sigma^2).
template <typename Scalar>
Scalar logLikelihood(Scalar similarity, Scalar inverse_two_sigma2) noexcept {
  const Scalar miss = Scalar(1) - similarity;
  return -miss * miss * inverse_two_sigma2;
}

/// weight = exp(log_weight - max) (the best particle weighs 1, so nothing underflows to an
/// all-zero set); returns the index of the best particle and sets `effective_size` to
/// (sum w)^2 / sum w^2.
template <typename Scalar>
Eigen::Index normaliseWeights(const VectorX<Scalar>& log_weight, VectorX<Scalar>& weight,
                              Scalar& effective_size) noexcept {
  Eigen::Index best = 0;
  for (Eigen::Index p = 1; p < log_weight.size(); ++p) {
    if (log_weight[p] > log_weight[best]) best = p;
  }
  using std::exp;
  for (Eigen::Index p = 0; p < log_weight.size(); ++p) weight[p] = exp(log_weight[p] - log_weight[best]);
  const Scalar total = weight.sum();
  effective_size = total * total / weight.squaredNorm();
  return best;
}

/// The rest configuration of a filter: `rest` (nq values within the limits; `field` names the
/// option in errors) or, when empty, the model's neutral configuration. Throws InvalidArgument.
template <typename Scalar>
VectorX<Scalar> restConfiguration(const RobotModel<Scalar>& model, const std::vector<double>& rest, const char* field) {
  if (rest.empty()) return model.neutralConfiguration();
  const int nq = model.nq();
  RETARGET_THROW_UNLESS(static_cast<int>(rest.size()) == nq, InvalidArgument, field, " (got ", rest.size(),
                        " values, expected nq = ", nq, " for robot '", model.name(), "')");
  VectorX<Scalar> q(nq);
  for (int i = 0; i < nq; ++i) q[i] = static_cast<Scalar>(rest[static_cast<std::size_t>(i)]);
  RETARGET_THROW_UNLESS(withinLimits(model, q), InvalidArgument, field,
                        " (got a configuration outside the limits of robot '", model.name(),
                        "', expected values within them)");
  return q;
}

}  // namespace retarget::internal
