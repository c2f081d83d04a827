#pragma once

/// @file
/// Self-collision model of any `RobotModel` with collision capsules and spheres (seed 001,
/// Section 2.2.1 and Eq. 9): the shape pairs to check, their signed distances with witness
/// points (geometry/distance.hpp), the clearance margin, and the gradient of each distance with
/// respect to q (witness-point normal through the point Jacobians), for avoidance.
///
/// The seed's collision test is D_kj - (r_k + r_j) > 0 for every pair of body parts k, j
/// (Eq. 9): with our signed distance d_kj = D_kj - r_k - r_j (negative = penetration depth), a
/// configuration is collision-free with margin m when d_kj >= m for every checked pair.
///
/// Pairs checked: every pair of shapes except
///  - shapes on links rigidly attached to each other (no moving joint between them: their
///    distance cannot change, e.g. Tangy's eleven body shapes on `torso`);
///  - shapes on links joined by exactly one moving joint (`exclude_adjacent`, adjacent links);
///  - shapes with radius below `min_radius` (placeholders, e.g. the Baxter URDF's 1 mm spheres);
///  - `excluded_pairs`: pairs listed in data, typically the always-touching ones (an upper arm
///    and the torso shape its shoulder sits in), computable with `alwaysCollidingPairs`.
///
/// The shapes are the model's own collision shapes (`Link::collisions`), or any list given to the
/// constructor, e.g. the capsules fitted to a bound humanoid whose URDF describes its bodies with
/// meshes (`humanoidCollisionShapes`, safety/humanoid_capsules.hpp, which this header includes at
/// its end for `defaultSelfCollisionModel`).
///
/// Description (`SelfCollisionModel`, immutable, validated once) and workspace
/// (`SelfCollisionChecker`: `update(q)` never allocates or throws).

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/capsule.hpp>
#include <retarget/geometry/distance.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Options of a `SelfCollisionModel` (validated aggregate).
struct SelfCollisionOptions {
  /// Minimum clearance between any two checked shapes (m, >= 0): a pair is "in collision with
  /// margin" when its signed distance is below this.
  double margin = 0.01;
  /// Shapes with a radius below this (m) are ignored (placeholder geometry).
  double min_radius = 0.002;
  /// Skip pairs on links joined by exactly one moving joint.
  bool exclude_adjacent = true;
  /// Pairs not to check, by shape name (either order), e.g. from `alwaysCollidingPairs`.
  std::vector<std::pair<std::string, std::string>> excluded_pairs{};

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// One shape of a self-collision model: a capsule (sphere when a == b) on a link.
template <typename Scalar = double>
struct SelfCollisionShape {
  std::string name;
  int link = 0;                 ///< Index into `RobotModel::links()`.
  Capsule<Scalar> capsule_L{};  ///< m, link frame
};

/// A checked pair: indices into `SelfCollisionModel::shapes()`.
struct SelfCollisionPair {
  int a = 0;
  int b = 0;
};

namespace internal {

/// Number of moving joints on the tree path between links `a` and `b`.
template <typename Scalar>
int movingJointsBetween(const RobotModel<Scalar>& model, int a, int b) {
  const auto& sa = model.links()[static_cast<std::size_t>(a)].support;
  const auto& sb = model.links()[static_cast<std::size_t>(b)].support;
  std::size_t common = 0;
  while (common < sa.size() && common < sb.size() && sa[common] == sb[common]) ++common;
  int count = 0;
  for (std::size_t i = common; i < sa.size(); ++i) count += model.joints()[static_cast<std::size_t>(sa[i])].moves() ? 1 : 0;
  for (std::size_t i = common; i < sb.size(); ++i) count += model.joints()[static_cast<std::size_t>(sb[i])].moves() ? 1 : 0;
  return count;
}

}  // namespace internal

/// Immutable self-collision description of a robot (see the file doc). Keeps a reference to the
/// model, which must outlive it.
template <typename Scalar = double>
class SelfCollisionModel {
 public:
  /// Collects the model's own shapes (every link's `collisions`, in link order) and the pairs.
  /// Throws InvalidArgument when the options are invalid or an excluded pair names an unknown
  /// shape.
  SelfCollisionModel(const RobotModel<Scalar>& model, SelfCollisionOptions options = {});
  SelfCollisionModel(const RobotModel<Scalar>&&, SelfCollisionOptions = {}) = delete;
  /// Checks `shapes` (capsules in their link's frame, m) instead of the model's own, with the same
  /// rules: shapes below `min_radius` dropped, pairs by the file doc's rules (`exclude_adjacent`,
  /// `excluded_pairs` by shape name, links without a moving joint between them). Throws
  /// InvalidArgument when the options are invalid, a shape's link is not a link of `model`, its
  /// end points or radius are not finite or the radius is negative, or an excluded pair names an
  /// unknown shape.
  SelfCollisionModel(const RobotModel<Scalar>& model, std::vector<SelfCollisionShape<Scalar>> shapes,
                     SelfCollisionOptions options = {});
  SelfCollisionModel(const RobotModel<Scalar>&&, std::vector<SelfCollisionShape<Scalar>>,
                     SelfCollisionOptions = {}) = delete;

  const RobotModel<Scalar>& model() const { return *model_; }
  const SelfCollisionOptions& options() const { return options_; }
  /// Clearance margin (m).
  Scalar margin() const { return static_cast<Scalar>(options_.margin); }
  const std::vector<SelfCollisionShape<Scalar>>& shapes() const { return shapes_; }
  const std::vector<SelfCollisionPair>& pairs() const { return pairs_; }
  /// Human-readable "a / b" name of pair k.
  std::string pairName(std::size_t k) const;

 private:
  const RobotModel<Scalar>* model_;
  SelfCollisionOptions options_;
  std::vector<SelfCollisionShape<Scalar>> shapes_;
  std::vector<SelfCollisionPair> pairs_;
};

/// Per-call workspace of a `SelfCollisionModel`: forward kinematics, every shape in the world
/// frame, every pair's signed distance with witness points, and distance gradients. One per
/// thread; keeps a reference to the model.
template <typename Scalar = double>
class SelfCollisionChecker {
 public:
  explicit SelfCollisionChecker(const SelfCollisionModel<Scalar>& collision)
      : collision_(&collision),
        data_(collision.model()),
        world_(collision.shapes().size()),
        results_(collision.pairs().size()),
        axis_W_(collision.model().joints().size()),
        origin_W_(collision.model().joints().size()) {}
  SelfCollisionChecker(const SelfCollisionModel<Scalar>&&) = delete;

  /// Forward kinematics at `q` (size nq, rad) and the signed distance (m) of every pair (Eq. 9:
  /// D - r_a - r_b). Never allocates or throws.
  template <typename Derived>
  void update(const Eigen::MatrixBase<Derived>& q) noexcept;

  /// Like `update`, but computes the distances of the listed pairs only (indices into
  /// `pairs()`); the others keep their previous values. Never allocates or throws.
  template <typename Derived>
  void updatePairs(const Eigen::MatrixBase<Derived>& q, const int* pair_indices, std::size_t count) noexcept;

  /// Signed distance of pair k (m) after `update`, with witness points and normal (frame W).
  const DistanceResult<Scalar>& result(std::size_t k) const { return results_[k]; }
  /// Every shape in W after `update`.
  const std::vector<Capsule<Scalar>>& worldShapes() const { return world_; }
  /// Smallest signed distance over the pairs (m; +inf without pairs).
  Scalar minDistance() const;
  /// Number of pairs closer than `threshold` (m): 0 for contact, `margin()` for the clearance.
  int pairsBelow(Scalar threshold) const;

  /// Gradient of pair k's signed distance with respect to q (1 x nq, m/rad) after `update`:
  /// n^T (J_b(c_b) - J_a(c_a)), with n the unit normal from a to b and c the closest centre
  /// points (the closest points move along the segments only to second order), from the joint
  /// axes cached by `update` (the point Jacobians of kinematics/, without recomputing joint
  /// frames). Never allocates.
  template <typename Derived>
  void gradient(std::size_t k, const Eigen::MatrixBase<Derived>& g_out) noexcept;

  const SelfCollisionModel<Scalar>& collisionModel() const { return *collision_; }
  /// Link poses of the last `update`.
  const RobotData<Scalar>& data() const { return data_; }

 private:
  /// Forward kinematics at q into data_, and every joint's axis and origin in W (axis_W_,
  /// origin_W_, read by `gradient`): the part `update` and `updatePairs` share.
  template <typename Derived>
  void updateKinematics(const Eigen::MatrixBase<Derived>& q) noexcept;

  const SelfCollisionModel<Scalar>* collision_;
  RobotData<Scalar> data_;
  std::vector<Capsule<Scalar>> world_;
  std::vector<DistanceResult<Scalar>> results_;
  std::vector<Vector3<Scalar>> axis_W_, origin_W_;
};

/// The pairs of `model` that collide (signed distance < `threshold`, m; 0: in contact) in at least
/// `fraction` of `samples` random configurations drawn uniformly within the limits (unbounded
/// joints in [-pi, pi]): the always-touching pairs to list in
/// `SelfCollisionOptions::excluded_pairs` (with `threshold` = the margin: also the pairs no
/// configuration can take out of the margin). `options` selects the shapes and the adjacency rule
/// (its own excluded_pairs are ignored). Allocates; not for the per-frame path.
template <typename Scalar>
std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs(const RobotModel<Scalar>& model,
                                                                      SelfCollisionOptions options = {},
                                                                      int samples = 2000, double fraction = 1.0,
                                                                      unsigned seed = 1, double threshold = 0.0);

/// Like `alwaysCollidingPairs(model, options, ...)`, for a model checking `shapes` (the shapes
/// constructor of `SelfCollisionModel`, e.g. `humanoidCollisionShapes`), with the same random
/// configurations for the same seed. Allocates; not for the per-frame path.
template <typename Scalar>
std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs(const RobotModel<Scalar>& model,
                                                                      std::vector<SelfCollisionShape<Scalar>> shapes,
                                                                      SelfCollisionOptions options = {},
                                                                      int samples = 2000, double fraction = 1.0,
                                                                      unsigned seed = 1, double threshold = 0.0);

namespace internal {

/// Every own collision shape of `model` as a self-collision shape, in link order (all radii).
template <typename Scalar>
std::vector<SelfCollisionShape<Scalar>> ownCollisionShapes(const RobotModel<Scalar>& model) {
  std::vector<SelfCollisionShape<Scalar>> out;
  for (std::size_t l = 0; l < model.links().size(); ++l) {
    for (const auto& shape : model.links()[l].collisions) {
      out.push_back(SelfCollisionShape<Scalar>{shape.name, static_cast<int>(l), shape.capsule_L});
    }
  }
  return out;
}

/// The pairs of `collision` (built without excluded pairs) closer than `threshold` (m) in at least
/// `fraction` of `samples` random configurations (see alwaysCollidingPairs).
template <typename Scalar>
std::vector<std::pair<std::string, std::string>> alwaysCollidingPairsOf(const SelfCollisionModel<Scalar>& collision,
                                                                        int samples, double fraction, unsigned seed,
                                                                        double threshold) {
  RETARGET_THROW_UNLESS(samples > 0 && fraction > 0 && fraction <= 1 && std::isfinite(threshold), InvalidArgument,
                        "alwaysCollidingPairs (got samples ", samples, ", fraction ", fraction, ", threshold ",
                        threshold, ", expected samples > 0, fraction in (0, 1] and a finite threshold in m)");
  const RobotModel<Scalar>& model = collision.model();
  SelfCollisionChecker<Scalar> checker(collision);
  const Scalar below = static_cast<Scalar>(threshold);
  std::vector<int> hits(collision.pairs().size(), 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  VectorX<Scalar> q(model.nq());
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < model.nq(); ++i) {
      double lo = static_cast<double>(model.lowerLimits()[i]), hi = static_cast<double>(model.upperLimits()[i]);
      if (!std::isfinite(lo)) lo = -kPi<double>;
      if (!std::isfinite(hi)) hi = kPi<double>;
      q[i] = static_cast<Scalar>(lo + (hi - lo) * unit(rng));
    }
    checker.update(q);
    for (std::size_t k = 0; k < hits.size(); ++k) hits[k] += checker.result(k).distance < below ? 1 : 0;
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t k = 0; k < hits.size(); ++k) {
    if (hits[k] >= static_cast<int>(std::ceil(fraction * samples))) {
      const auto& p = collision.pairs()[k];
      out.emplace_back(collision.shapes()[static_cast<std::size_t>(p.a)].name,
                       collision.shapes()[static_cast<std::size_t>(p.b)].name);
    }
  }
  return out;
}

}  // namespace internal

template <typename Scalar>
std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs(const RobotModel<Scalar>& model,
                                                                      SelfCollisionOptions options, int samples,
                                                                      double fraction, unsigned seed, double threshold) {
  options.excluded_pairs.clear();
  return internal::alwaysCollidingPairsOf(SelfCollisionModel<Scalar>(model, options), samples, fraction, seed,
                                          threshold);
}

template <typename Scalar>
std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs(const RobotModel<Scalar>& model,
                                                                      std::vector<SelfCollisionShape<Scalar>> shapes,
                                                                      SelfCollisionOptions options, int samples,
                                                                      double fraction, unsigned seed, double threshold) {
  options.excluded_pairs.clear();
  return internal::alwaysCollidingPairsOf(SelfCollisionModel<Scalar>(model, std::move(shapes), options), samples,
                                          fraction, seed, threshold);
}

/// Self-collision options of the built-in Tangy (robots/tangy.hpp): margin 0.01 m and the
/// always-touching pairs (each upper arm with the shoulder capsule it starts inside, and with its
/// own forearm, joined at the elbow); `alwaysCollidingPairs(makeTangy())` finds exactly these
/// (checked by tests/safety).
RETARGET_DECL SelfCollisionOptions tangySelfCollisionOptions();

/// The self-collision model the command line and the Python bindings check a robot with:
///  - Tangy: its own shapes with its own options (`tangySelfCollisionOptions`);
///  - a humanoid (`bindHumanoid` finds both arms) whose own primitives cover less than
///    `kHumanoidPrimitiveCoverage` of its limbs' length (`humanoidPrimitiveCoverage` with the
///    default `HumanoidCapsuleOptions::min_radius`; the Unitree G1's URDF, whose bodies are
///    meshes): the fitted shapes of `humanoidCollisionShapes` with default options
///    (safety/humanoid_capsules.hpp), every pair of them except those touching in all of 1000
///    seeded random configurations (`alwaysCollidingPairs`);
///  - any other robot (the built-in NAO, Pepper, InMoov, Baxter, YuMi, H1 keep their own shapes):
///    every pair of its own collision shapes except those touching in all of 1000 seeded random
///    configurations.
/// `margin` (m, >= 0) replaces the options' clearance margin when given. Nullopt when the robot
/// has no pair to check. Defined in safety/humanoid_capsules.hpp (included at the end of this
/// header); a template so that only the programs that call it compile the humanoid binding.
/// Allocates; not for the per-frame path.
template <typename Scalar = double>
std::optional<SelfCollisionModel<Scalar>> defaultSelfCollisionModel(const RobotModel<Scalar>& model,
                                                                    std::optional<double> margin = std::nullopt);

}  // namespace retarget

namespace retarget {

/// Clearance of a trajectory (frames x nq, rad): per frame the smallest signed pair distance
/// (m), and the frames with some pair closer than 0 (contact) and than the margin.
struct TrajectoryClearance {
  std::vector<double> min_distance;
  double min = std::numeric_limits<double>::infinity();
  int collision_frames = 0;  ///< some pair at distance < 0 (closer than its radii)
  int margin_frames = 0;     ///< some pair at distance < margin
};

/// See TrajectoryClearance. Allocates the result; not for the per-frame path.
template <typename Scalar>
TrajectoryClearance trajectoryClearance(const SelfCollisionModel<Scalar>& collision, const MatrixX<Scalar>& Q) {
  RETARGET_THROW_UNLESS(Q.cols() == collision.model().nq(), InvalidArgument, "trajectoryClearance (got ", Q.cols(),
                        " columns, expected nq = ", collision.model().nq(), ")");
  SelfCollisionChecker<Scalar> checker(collision);
  TrajectoryClearance out;
  for (Eigen::Index k = 0; k < Q.rows(); ++k) {
    checker.update(Q.row(k).transpose());
    const double d = static_cast<double>(checker.minDistance());
    out.min_distance.push_back(d);
    out.min = std::min(out.min, d);
    out.collision_frames += d < 0 ? 1 : 0;
    out.margin_frames += d < static_cast<double>(collision.margin()) ? 1 : 0;
  }
  return out;
}

template <typename Scalar>
SelfCollisionModel<Scalar>::SelfCollisionModel(const RobotModel<Scalar>& model, SelfCollisionOptions options)
    : SelfCollisionModel(model, internal::ownCollisionShapes(model), std::move(options)) {}

template <typename Scalar>
SelfCollisionModel<Scalar>::SelfCollisionModel(const RobotModel<Scalar>& model,
                                               std::vector<SelfCollisionShape<Scalar>> shapes,
                                               SelfCollisionOptions options)
    : model_(&model), options_(std::move(options)) {
  options_.validate();
  const int links = static_cast<int>(model.links().size());
  for (auto& shape : shapes) {
    RETARGET_THROW_UNLESS(shape.link >= 0 && shape.link < links, InvalidArgument, "shape '",
                          shape.name, "' (got link ", shape.link, ", expected a link index of robot '", model.name(),
                          "' in [0, ", links, "))");
    const Capsule<Scalar>& c = shape.capsule_L;
    RETARGET_THROW_UNLESS(c.a.allFinite() && c.b.allFinite() && std::isfinite(c.radius) && c.radius >= Scalar(0),
                          InvalidArgument, "shape '", shape.name, "' (got radius ", c.radius,
                          " and end points (", c.a.transpose(), "), (", c.b.transpose(),
                          "), expected finite end points and a finite radius >= 0 in m)");
    if (c.radius < static_cast<Scalar>(options_.min_radius)) continue;
    shapes_.push_back(std::move(shape));
  }
  const auto find = [&](const std::string& name) {
    for (std::size_t i = 0; i < shapes_.size(); ++i) {
      if (shapes_[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  std::vector<std::pair<int, int>> excluded;
  for (const auto& [x, y] : options_.excluded_pairs) {
    const int i = find(x), j = find(y);
    RETARGET_THROW_UNLESS(i >= 0 && j >= 0, InvalidArgument, "SelfCollisionOptions::excluded_pairs (got '", x,
                          "' / '", y, "', expected shape names of robot '", model.name(),
                          "' with radius >= min_radius)");
    excluded.emplace_back(std::min(i, j), std::max(i, j));
  }
  for (int i = 0; i < static_cast<int>(shapes_.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(shapes_.size()); ++j) {
      const int moving = internal::movingJointsBetween(model, shapes_[static_cast<std::size_t>(i)].link,
                                                       shapes_[static_cast<std::size_t>(j)].link);
      if (moving == 0) continue;
      if (moving == 1 && options_.exclude_adjacent) continue;
      if (std::find(excluded.begin(), excluded.end(), std::pair{i, j}) != excluded.end()) continue;
      pairs_.push_back(SelfCollisionPair{i, j});
    }
  }
}

template <typename Scalar>
std::string SelfCollisionModel<Scalar>::pairName(std::size_t k) const {
  return shapes_[static_cast<std::size_t>(pairs_[k].a)].name + " / " + shapes_[static_cast<std::size_t>(pairs_[k].b)].name;
}

template <typename Scalar>
template <typename Derived>
void SelfCollisionChecker<Scalar>::updateKinematics(const Eigen::MatrixBase<Derived>& q) noexcept {
  forwardKinematics(collision_->model(), data_, q);
  jointAxesInWorld(collision_->model(), data_, axis_W_, origin_W_);  // for gradient
}

template <typename Scalar>
template <typename Derived>
void SelfCollisionChecker<Scalar>::update(const Eigen::MatrixBase<Derived>& q) noexcept {
  updateKinematics(q);
  const auto& shapes = collision_->shapes();
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    world_[i] = transformed(data_.X_WL[static_cast<std::size_t>(shapes[i].link)], shapes[i].capsule_L);
  }
  const auto& pairs = collision_->pairs();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    results_[k] = distance(world_[static_cast<std::size_t>(pairs[k].a)], world_[static_cast<std::size_t>(pairs[k].b)]);
  }
}

template <typename Scalar>
template <typename Derived>
void SelfCollisionChecker<Scalar>::updatePairs(const Eigen::MatrixBase<Derived>& q, const int* pair_indices,
                                               std::size_t count) noexcept {
  updateKinematics(q);
  const auto& shapes = collision_->shapes();
  const auto& pairs = collision_->pairs();
  for (std::size_t i = 0; i < count; ++i) {
    const auto k = static_cast<std::size_t>(pair_indices[i]);
    const auto a = static_cast<std::size_t>(pairs[k].a), b = static_cast<std::size_t>(pairs[k].b);
    world_[a] = transformed(data_.X_WL[static_cast<std::size_t>(shapes[a].link)], shapes[a].capsule_L);
    world_[b] = transformed(data_.X_WL[static_cast<std::size_t>(shapes[b].link)], shapes[b].capsule_L);
    results_[k] = distance(world_[a], world_[b]);
  }
}

template <typename Scalar>
Scalar SelfCollisionChecker<Scalar>::minDistance() const {
  Scalar best = std::numeric_limits<Scalar>::infinity();
  for (const auto& r : results_) best = std::min(best, r.distance);
  return best;
}

template <typename Scalar>
int SelfCollisionChecker<Scalar>::pairsBelow(Scalar threshold) const {
  int n = 0;
  for (const auto& r : results_) n += r.distance < threshold ? 1 : 0;
  return n;
}

template <typename Scalar>
template <typename Derived>
void SelfCollisionChecker<Scalar>::gradient(std::size_t k, const Eigen::MatrixBase<Derived>& g_out) noexcept {
  auto& g = const_cast<Eigen::MatrixBase<Derived>&>(g_out);
  const auto& model = collision_->model();
  const auto& pair = collision_->pairs()[k];
  const auto& shape_a = collision_->shapes()[static_cast<std::size_t>(pair.a)];
  const auto& shape_b = collision_->shapes()[static_cast<std::size_t>(pair.b)];
  const DistanceResult<Scalar>& r = results_[k];
  const Vector3<Scalar> c_a = r.p_A - shape_a.capsule_L.radius * r.normal;
  const Vector3<Scalar> c_b = r.p_B + shape_b.capsule_L.radius * r.normal;
  g.setZero();
  // d/dq_j of n . (c_b - c_a): each moving joint on a link's support moves its point by
  // axis_W x (c - origin_W) (revolute) or axis_W (prismatic), times the mimic gain.
  const auto add = [&](int link, const Vector3<Scalar>& c, Scalar sign) {
    forEachDrivingJoint(model, link, [&](int j, int column, Scalar gain) {
      const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(j)];
      const Vector3<Scalar>& axis = axis_W_[static_cast<std::size_t>(j)];
      const Scalar v = joint.type == JointType::kPrismatic
                           ? r.normal.dot(axis)
                           : r.normal.dot(axis.cross(c - origin_W_[static_cast<std::size_t>(j)]));
      g(column) += static_cast<typename Derived::Scalar>(sign * gain * v);
    });
  };
  add(shape_b.link, c_b, Scalar(1));
  add(shape_a.link, c_a, Scalar(-1));
}

#if RETARGET_DEFINE_SAFETY

RETARGET_DECL SelfCollisionOptions tangySelfCollisionOptions() {
  SelfCollisionOptions options;
  options.excluded_pairs = {{"upper_torso_shoulders", "l_upper_arm"},
                            {"upper_torso_shoulders", "r_upper_arm"},
                            {"l_upper_arm", "l_forearm"},
                            {"r_upper_arm", "r_forearm"}};
  return options;
}

RETARGET_DECL void SelfCollisionOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(margin) && margin >= 0, InvalidArgument, "SelfCollisionOptions::margin (got ",
                        margin, ", expected a finite value >= 0 in m)");
  RETARGET_THROW_UNLESS(std::isfinite(min_radius) && min_radius >= 0, InvalidArgument,
                        "SelfCollisionOptions::min_radius (got ", min_radius, ", expected a finite value >= 0 in m)");
}

#endif  // RETARGET_DEFINE_SAFETY

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_SAFETY class SelfCollisionModel<double>;
RETARGET_TEMPLATE_SAFETY class SelfCollisionModel<float>;
RETARGET_TEMPLATE_SAFETY class SelfCollisionChecker<double>;
RETARGET_TEMPLATE_SAFETY class SelfCollisionChecker<float>;
RETARGET_TEMPLATE_SAFETY void SelfCollisionChecker<double>::update<VectorX<double>>(
    const Eigen::MatrixBase<VectorX<double>>&) noexcept;
RETARGET_TEMPLATE_SAFETY void SelfCollisionChecker<float>::update<VectorX<float>>(
    const Eigen::MatrixBase<VectorX<float>>&) noexcept;
RETARGET_TEMPLATE_SAFETY std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs<double>(
    const RobotModel<double>&, SelfCollisionOptions, int, double, unsigned, double);
RETARGET_TEMPLATE_SAFETY std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs<float>(
    const RobotModel<float>&, SelfCollisionOptions, int, double, unsigned, double);
RETARGET_TEMPLATE_SAFETY std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs<double>(
    const RobotModel<double>&, std::vector<SelfCollisionShape<double>>, SelfCollisionOptions, int, double, unsigned, double);
RETARGET_TEMPLATE_SAFETY std::vector<std::pair<std::string, std::string>> alwaysCollidingPairs<float>(
    const RobotModel<float>&, std::vector<SelfCollisionShape<float>>, SelfCollisionOptions, int, double, unsigned, double);
RETARGET_TEMPLATE_SAFETY TrajectoryClearance trajectoryClearance<double>(
    const SelfCollisionModel<double>&, const MatrixX<double>&);
RETARGET_TEMPLATE_SAFETY TrajectoryClearance trajectoryClearance<float>(
    const SelfCollisionModel<float>&, const MatrixX<float>&);
#endif

}  // namespace retarget

// The fitted shapes of a bound humanoid and the definition of defaultSelfCollisionModel.
#include <retarget/safety/humanoid_capsules.hpp>
