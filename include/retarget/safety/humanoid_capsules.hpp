#pragma once

/// @file
/// Self-collision shapes of a bound humanoid (robots/humanoid_binding.hpp) whose URDF describes
/// its bodies with meshes, which the URDF reader skips (the Unitree G1: 24 of its 36 collision
/// elements): for every link of the bound limbs, the torso and the pelvis, the link's own
/// primitive capsules when it has usable ones, else a capsule fitted to the link's segment. The
/// result feeds `SelfCollisionModel(model, shapes, options)` (safety/self_collision.hpp), and
/// `defaultSelfCollisionModel` (what `retarget map --avoid-collisions` checks) uses it for a
/// humanoid whose own primitives cover less than half of its limbs (`humanoidPrimitiveCoverage`).
///
/// Frames and units: every position is in metres. Segments are found in the binding's rest pose
/// (forward kinematics at `RobotModel::neutralConfiguration()` with the root link at the identity,
/// as `bindHumanoid` uses: frame B) and stored in the frame L of the link that carries them, so the
/// shapes move with their links in any configuration.
///
/// The segments (a limb's links from its base outward, `HumanoidChain::joints`):
///  - the link after a limb joint (its child link; its parent link where the chain crosses a joint
///    child to parent) carries the segment from that joint's origin to the origin of the limb's
///    next joint (the next body of the chain);
///  - the last link of a limb carries the segment from its joint's origin to the limb's end point:
///    the farthest from that origin of the binding's end point of the limb (HandLeft/Right, else
///    WristLeft/Right for an arm; FootLeft/Right, else AnkleLeft/Right for a leg; Head for the
///    head) and the origins of the links fixed to it (a rubber hand, a sole frame), among those
///    beyond the joint as seen from the limb's previous joint (an eye link does not reach back to
///    the head's centre of mass);
///  - joints at one point (NAO's ElbowYaw + ElbowRoll) give a zero-length segment: a sphere.
///
/// The fitted shapes:
///  - a limb link without usable primitives: the capsule on its segment, radius
///    `radius_fraction` x segment length clamped to [`min_fitted_radius`, `max_fitted_radius`]
///    (defaults 0.25 and [0.015, 0.05] m: a 0.30 m shin gets 0.05 m, a 0.10 m forearm 0.025 m, a
///    4 cm wrist link 0.015 m). The capsule's axis is the segment itself, so it contains both
///    joint origins. The defaults keep adjacent limbs apart at the rest pose except where they are
///    joined: on the G1 the arms clear the torso capsule by 3 cm, the legs each other by more than
///    10 cm, the two ends of a wrist (the roll and yaw links, 46 mm apart) each other by 16 mm
///    (tests/safety/humanoid_capsules_test.cpp checks that no checked pair touches at rest);
///  - the torso (the link where the arms branch), without usable primitives: a capsule up to the
///    shoulder midpoint (SpineShoulder), its upper end pulled in by its radius so that it reaches
///    the point but does not pass it (the shoulders have shapes of their own), from
///      - the origin of the waist's outermost joint where the torso is a body of its own (a waist:
///        the G1's three joints, the H1's one), so that it stays off the pelvis and the hips,
///      - else the hip midpoint (SpineBase; SpineMid without legs), pulled in likewise;
///    radius `torso_radius_fraction` x half the distance between the shoulders (ShoulderLeft to
///    ShoulderRight). A sphere at the middle when the two ends would cross;
///  - the pelvis (the link where the legs branch), without usable primitives: a capsule between the
///    hips (HipLeft to HipRight), its ends pulled in by its radius so that it reaches both but
///    does not pass them (the hands of arms hanging straight pass beside the hips), radius
///    `pelvis_radius_fraction` x half the distance between them (1: a sphere on their midpoint).
///    The first hip links start at its surface and touch it always: those pairs are the
///    always-colliding ones `alwaysCollidingPairs` finds and a model leaves out;
///  - every other link keeps its own usable primitives (a head fixed on the torso, a gripper).
///
/// Fitted shapes on links joined through a short link sit at a nearly fixed distance (the G1's
/// torso over its pelvis, 15 mm; the two ends of its wrist): `defaultSelfCollisionModel` leaves
/// out, besides the touching pairs, the pairs within the margin in every sampled configuration,
/// which no configuration could take out of it.
///
/// Names: a primitive keeps its name; a fitted limb capsule is "<link>_fitted", the torso's
/// "<link>_torso_fitted", the pelvis's "<link>_pelvis_fitted"; a name already taken gets "_2",
/// "_3", ... so that every name is unique (SelfCollisionOptions::excluded_pairs name shapes).

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/capsule.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget {

/// Options of `humanoidCollisionShapes` (validated aggregate; see the file doc for the rules).
struct HumanoidCapsuleOptions {
  /// A link's own primitive is used when its radius is at least this (m, >= 0); thinner ones are
  /// contact points or placeholders (the G1's 5 mm foot spheres, 1 mm sensor spheres), and a link
  /// with none left gets a fitted capsule.
  double min_radius = 0.01;
  /// Radius of a fitted limb capsule as a fraction of its segment length (unitless, in (0, 1]).
  double radius_fraction = 0.25;
  /// Range of a fitted limb capsule's radius (m, 0 < min_fitted_radius <= max_fitted_radius).
  double min_fitted_radius = 0.015;
  double max_fitted_radius = 0.05;
  /// Radius of the fitted torso capsule as a fraction of half the shoulder width (unitless, in
  /// (0, 1]).
  double torso_radius_fraction = 0.6;
  /// Radius of the fitted pelvis capsule as a fraction of half the hip width (unitless, in (0, 1]).
  double pelvis_radius_fraction = 0.5;
  /// Use the links' own primitives where they are usable; false: fit every limb link, the torso
  /// and the pelvis (and keep no other link's primitives).
  bool use_link_primitives = true;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// A humanoid uses the fitted shapes in `defaultSelfCollisionModel` when its own primitives cover
/// less than this fraction of its limbs (`humanoidPrimitiveCoverage`).
inline constexpr double kHumanoidPrimitiveCoverage = 0.5;

/// One segment of a bound limb (see the file doc), in the frame L of the link that carries it.
struct HumanoidLimbSegment {
  HumanoidLimb limb = HumanoidLimb::kLeftArm;
  /// Index into `RobotModel::links()` of the link that carries the segment.
  int link = 0;
  /// Index into `RobotModel::joints()` of the joint the segment starts at.
  int joint = 0;
  /// True for the limb's last link (the segment ends at the limb's end point).
  bool last = false;
  /// Start (the joint's origin) and end of the segment (m, frame L).
  Eigen::Vector3d a_L = Eigen::Vector3d::Zero();
  Eigen::Vector3d b_L = Eigen::Vector3d::Zero();
  /// Segment length (m).
  double length() const { return (b_L - a_L).norm(); }
};

/// The segments of every found limb of `binding` (arms, legs, head, in `HumanoidLimb` order, each
/// from its base outward; see the file doc). `binding` must come from `bindHumanoid(model)` (or
/// the same robot): throws InvalidArgument when it names a link or joint `model` lacks. Allocates.
template <typename Scalar>
std::vector<HumanoidLimbSegment> humanoidLimbSegments(const RobotModel<Scalar>& model, const HumanoidBinding& binding);

/// Fraction (in [0, 1]) of the bound limbs' length (the sum of their segment lengths, m, rest
/// pose) carried by links that have at least one own primitive of radius >= `min_radius` (m): 1
/// when every limb link with a length has a primitive (NAO, H1), 0.15 for the G1's legs (only its
/// feet have any). 1 when no limb is found or their length is 0. Throws as `humanoidLimbSegments`.
template <typename Scalar>
double humanoidPrimitiveCoverage(const RobotModel<Scalar>& model, const HumanoidBinding& binding, double min_radius);

/// Self-collision shapes of a bound humanoid (see the file doc): for every link of the found limbs
/// (arms, legs, head), the torso and the pelvis, its own primitives of radius >= `min_radius`
/// when it has any (and `use_link_primitives`), else a fitted capsule; plus every other link's
/// usable primitives. Capsules in their link's frame L (m); names unique. The torso and pelvis are
/// fitted only when the binding found their points (both shoulders / both hips). Throws
/// InvalidArgument when `options` is invalid (naming the field) or the binding does not belong to
/// `model`. Allocates; not for the per-frame path.
template <typename Scalar>
std::vector<SelfCollisionShape<Scalar>> humanoidCollisionShapes(const RobotModel<Scalar>& model,
                                                                const HumanoidBinding& binding,
                                                                const HumanoidCapsuleOptions& options = {});

/// The body of `model` as its default self-collision model sees it, when that is not the model's
/// own collision shapes: for a humanoid (both arms bound, not Tangy) whose own primitives cover
/// less than `kHumanoidPrimitiveCoverage` of its limbs, `humanoidCollisionShapes` with default
/// options (capsules in their link frames, m); nullopt for every other robot, whose own shapes
/// (`Link::collisions`) are its body. What `defaultSelfCollisionModel` checks and `retarget report`
/// draws. Allocates.
template <typename Scalar>
std::optional<std::vector<SelfCollisionShape<Scalar>>> fittedBodyShapes(const RobotModel<Scalar>& model) {
  if (model.name() == "tangy") return std::nullopt;
  const HumanoidBinding binding = bindHumanoid(model);
  if (!binding.limb(HumanoidLimb::kLeftArm).found || !binding.limb(HumanoidLimb::kRightArm).found) return std::nullopt;
  const HumanoidCapsuleOptions capsules;
  if (humanoidPrimitiveCoverage(model, binding, capsules.min_radius) >= kHumanoidPrimitiveCoverage) return std::nullopt;
  return humanoidCollisionShapes(model, binding, capsules);
}

namespace internal {

/// Position (m, frame B, rest pose) of humanoid point `p`, or nullopt when the binding lacks it.
inline std::optional<Eigen::Vector3d> humanoidPointAtRest(const HumanoidBinding& binding, HumanoidPoint p) {
  if (const HumanoidPointBinding* b = binding.find(p)) return b->p_B;
  return std::nullopt;
}

/// True when `link` has an own collision shape of radius >= min_radius (m).
template <typename Scalar>
bool hasUsablePrimitive(const RobotModel<Scalar>& model, int link, double min_radius) {
  const auto& shapes = model.links()[static_cast<std::size_t>(link)].collisions;
  return std::any_of(shapes.begin(), shapes.end(), [&](const CollisionShape<Scalar>& s) {
    return static_cast<double>(s.capsule_L.radius) >= min_radius;
  });
}

/// `name`, or `name` + "_2", "_3", ... when taken; records the result in `taken`.
inline std::string uniqueShapeName(const std::string& name, std::vector<std::string>& taken) {
  std::string out = name;
  for (int k = 2; std::find(taken.begin(), taken.end(), out) != taken.end(); ++k) out = name + "_" + std::to_string(k);
  taken.push_back(out);
  return out;
}

}  // namespace internal

template <typename Scalar>
std::vector<HumanoidLimbSegment> humanoidLimbSegments(const RobotModel<Scalar>& model, const HumanoidBinding& binding) {
  RobotData<Scalar> data(model);
  forwardKinematics(model, data, model.neutralConfiguration());
  const auto X_BL = [&](int link) -> Eigen::Isometry3d { return data.X_WL[static_cast<std::size_t>(link)].template cast<double>(); };
  const auto jointOrigin_B = [&](int j) -> Eigen::Vector3d {
    const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(j)];
    return X_BL(joint.parent_link) * joint.X_PJ.translation().template cast<double>();
  };
  // Links fixed to `link` (its subtree through fixed joints, `link` included).
  const auto fixedSubtree = [&](int link) {
    std::vector<int> out{link};
    for (std::size_t i = 0; i < out.size(); ++i) {
      for (const Joint<Scalar>& joint : model.joints()) {
        if (joint.parent_link == out[i] && !joint.moves()) out.push_back(joint.child_link);
      }
    }
    return out;
  };
  using P = HumanoidPoint;
  const std::array<std::array<P, 2>, kHumanoidLimbCount> end_points = {{{P::kHandLeft, P::kWristLeft},
                                                                         {P::kHandRight, P::kWristRight},
                                                                         {P::kFootLeft, P::kAnkleLeft},
                                                                         {P::kFootRight, P::kAnkleRight},
                                                                         {P::kHead, P::kHead}}};
  std::vector<HumanoidLimbSegment> out;
  for (int l = 0; l < kHumanoidLimbCount; ++l) {
    const HumanoidChain& chain = binding.limbs[static_cast<std::size_t>(l)];
    if (!chain.found || chain.joints.empty()) continue;
    const int end_link = model.linkIndex(chain.end_link);
    const auto& end_support = model.links()[static_cast<std::size_t>(end_link)].support;
    for (std::size_t k = 0; k < chain.joints.size(); ++k) {
      const int j = chain.joints[k];
      RETARGET_THROW_UNLESS(j >= 0 && j < static_cast<int>(model.joints().size()), InvalidArgument,
                            "binding of robot '", binding.robot, "' (got joint index ", j,
                            " in limb ", kHumanoidLimbNames[static_cast<std::size_t>(l)], ", expected one of the ",
                            model.joints().size(), " joints of robot '", model.name(), "')");
      const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(j)];
      // The link on the limb's outer side of the joint: its child, unless the chain crosses the
      // joint child to parent (the end link is then not below it).
      const bool outward = std::find(end_support.begin(), end_support.end(), j) != end_support.end();
      HumanoidLimbSegment s;
      s.limb = static_cast<HumanoidLimb>(l);
      s.link = outward ? joint.child_link : joint.parent_link;
      s.joint = j;
      s.last = k + 1 == chain.joints.size();
      const Eigen::Vector3d a_B = jointOrigin_B(j);
      Eigen::Vector3d b_B = a_B;
      if (!s.last) {
        b_B = jointOrigin_B(chain.joints[k + 1]);
      } else {
        std::vector<Eigen::Vector3d> candidates;
        for (P p : end_points[static_cast<std::size_t>(l)]) {
          if (const auto p_B = internal::humanoidPointAtRest(binding, p)) {
            candidates.push_back(*p_B);
            break;
          }
        }
        for (int link : fixedSubtree(s.link)) candidates.push_back(X_BL(link).translation());
        // Only points beyond the joint, seen from the limb's previous joint at another place (an
        // eye link must not reach back to the head's centre of mass).
        Eigen::Vector3d d = Eigen::Vector3d::Zero();
        for (std::size_t i = k; i-- > 0;) {
          d = a_B - jointOrigin_B(chain.joints[i]);
          if (d.norm() > 1e-6) break;
        }
        double farthest = 0;
        for (const Eigen::Vector3d& c : candidates) {
          if ((c - a_B).dot(d) < 0) continue;
          if ((c - a_B).norm() > farthest) {
            farthest = (c - a_B).norm();
            b_B = c;
          }
        }
      }
      const Eigen::Isometry3d X_LB = rigidInverse<double>(X_BL(s.link));
      s.a_L = X_LB * a_B;
      s.b_L = X_LB * b_B;
      out.push_back(s);
    }
  }
  return out;
}

template <typename Scalar>
double humanoidPrimitiveCoverage(const RobotModel<Scalar>& model, const HumanoidBinding& binding, double min_radius) {
  double total = 0, covered = 0;
  for (const HumanoidLimbSegment& s : humanoidLimbSegments(model, binding)) {
    total += s.length();
    if (internal::hasUsablePrimitive(model, s.link, min_radius)) covered += s.length();
  }
  return total > 0 ? covered / total : 1.0;
}

template <typename Scalar>
std::vector<SelfCollisionShape<Scalar>> humanoidCollisionShapes(const RobotModel<Scalar>& model,
                                                                const HumanoidBinding& binding,
                                                                const HumanoidCapsuleOptions& options) {
  options.validate();
  std::vector<SelfCollisionShape<Scalar>> out;
  std::vector<std::string> names;
  std::vector<bool> done(model.links().size(), false);  // links whose shapes are in `out`
  const auto addOwn = [&](int link) {
    if (done[static_cast<std::size_t>(link)]) return true;
    if (!options.use_link_primitives || !internal::hasUsablePrimitive(model, link, options.min_radius)) return false;
    for (const CollisionShape<Scalar>& shape : model.links()[static_cast<std::size_t>(link)].collisions) {
      if (static_cast<double>(shape.capsule_L.radius) < options.min_radius) continue;
      out.push_back(SelfCollisionShape<Scalar>{internal::uniqueShapeName(shape.name, names), link, shape.capsule_L});
    }
    done[static_cast<std::size_t>(link)] = true;
    return true;
  };
  const auto addFitted = [&](int link, const std::string& name, const Eigen::Vector3d& a_L, const Eigen::Vector3d& b_L,
                             double radius) {
    out.push_back(SelfCollisionShape<Scalar>{
        internal::uniqueShapeName(name, names), link,
        Capsule<Scalar>{a_L.cast<Scalar>(), b_L.cast<Scalar>(), static_cast<Scalar>(radius)}});
  };
  RobotData<Scalar> data(model);
  forwardKinematics(model, data, model.neutralConfiguration());
  const auto toLink = [&](int link, const Eigen::Vector3d& p_B) -> Eigen::Vector3d {
    return rigidInverse<double>(data.X_WL[static_cast<std::size_t>(link)].template cast<double>()) * p_B;
  };
  using P = HumanoidPoint;
  const auto point = [&](P p) { return internal::humanoidPointAtRest(binding, p); };
  // Origin (m, frame B, rest pose) of the waist's outermost joint, where the torso body starts.
  const auto waistOrigin_B = [&]() -> Eigen::Vector3d {
    const int j = binding.spine_joints.back();
    RETARGET_THROW_UNLESS(j >= 0 && j < static_cast<int>(model.joints().size()), InvalidArgument,
                          "binding of robot '", binding.robot, "' (got waist joint index ", j, ", expected one of the ",
                          model.joints().size(), " joints of robot '", model.name(), "')");
    const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(j)];
    return data.X_WL[static_cast<std::size_t>(joint.parent_link)].template cast<double>() *
           joint.X_PJ.translation().template cast<double>();
  };

  // Torso: from the waist (else the hip midpoint) to the shoulder midpoint.
  std::vector<int> fitted_trunk;  // torso / pelvis links fitted here (not `done`: both may share one)
  if (!binding.torso_link.empty()) {
    const int torso = model.linkIndex(binding.torso_link);
    const auto top = point(P::kSpineShoulder), left = point(P::kShoulderLeft), right = point(P::kShoulderRight);
    std::optional<Eigen::Vector3d> bottom = point(P::kSpineBase) ? point(P::kSpineBase) : point(P::kSpineMid);
    const bool waist = !binding.spine_joints.empty() && binding.torso_link != binding.pelvis_link;
    if (waist) bottom = waistOrigin_B();
    if (!addOwn(torso) && top && left && right && bottom) {
      const double radius = options.torso_radius_fraction * 0.5 * (*left - *right).norm();
      const Eigen::Vector3d u = (*top - *bottom).normalized();
      // The ends pulled in by the radius (the waist end stays: the torso body starts there).
      const Eigen::Vector3d a_B = waist ? *bottom : Eigen::Vector3d(*bottom + radius * u);
      const Eigen::Vector3d b_B = *top - radius * u;
      const bool sphere = !u.allFinite() || (b_B - a_B).dot(u) <= 0;
      const Eigen::Vector3d middle = 0.5 * (a_B + b_B);
      addFitted(torso, binding.torso_link + "_torso_fitted", toLink(torso, sphere ? middle : a_B),
                toLink(torso, sphere ? middle : b_B), radius);
      fitted_trunk.push_back(torso);
    }
  }
  // Pelvis: between the hips, ends pulled in.
  if (!binding.pelvis_link.empty()) {
    const int pelvis = model.linkIndex(binding.pelvis_link);
    const auto left = point(P::kHipLeft), right = point(P::kHipRight);
    const bool own = std::find(fitted_trunk.begin(), fitted_trunk.end(), pelvis) == fitted_trunk.end() && addOwn(pelvis);
    if (!own && left && right) {
      const double width = (*left - *right).norm();
      const double radius = options.pelvis_radius_fraction * 0.5 * width;
      const Eigen::Vector3d u = width > 0 ? Eigen::Vector3d((*right - *left) / width) : Eigen::Vector3d::Zero();
      addFitted(pelvis, binding.pelvis_link + "_pelvis_fitted", toLink(pelvis, *left + radius * u),
                toLink(pelvis, *right - radius * u), radius);
      fitted_trunk.push_back(pelvis);
    }
  }
  for (int link : fitted_trunk) done[static_cast<std::size_t>(link)] = true;
  // Limb links.
  for (const HumanoidLimbSegment& s : humanoidLimbSegments(model, binding)) {
    if (addOwn(s.link)) continue;
    const double radius = std::clamp(options.radius_fraction * s.length(), options.min_fitted_radius, options.max_fitted_radius);
    addFitted(s.link, model.links()[static_cast<std::size_t>(s.link)].name + "_fitted", s.a_L, s.b_L, radius);
    done[static_cast<std::size_t>(s.link)] = true;
  }
  // Every other link's own primitives.
  for (int link = 0; link < static_cast<int>(model.links().size()); ++link) addOwn(link);
  return out;
}

// defaultSelfCollisionModel: documented at its declaration (safety/self_collision.hpp).
template <typename Scalar>
std::optional<SelfCollisionModel<Scalar>> defaultSelfCollisionModel(const RobotModel<Scalar>& model,
                                                                    std::optional<double> margin) {
  const bool tangy = model.name() == "tangy";
  SelfCollisionOptions options = tangy ? tangySelfCollisionOptions() : SelfCollisionOptions{};
  if (margin) options.margin = *margin;
  if (tangy) {
    SelfCollisionModel<Scalar> collision(model, options);
    if (collision.pairs().empty()) return std::nullopt;
    return collision;
  }
  // A humanoid whose own primitives leave most of its limbs bare: the fitted shapes.
  if (std::optional<std::vector<SelfCollisionShape<Scalar>>> shapes = fittedBodyShapes(model)) {
    // Touching, or within the margin, in every sample: shapes fitted to links joined through a
    // short link sit at a nearly fixed distance (the G1's torso over its pelvis, 15 mm; the two
    // ends of its wrist, 16 mm), which no configuration could take out of a larger margin.
    options.excluded_pairs = alwaysCollidingPairs(model, *shapes, options, 1000, 1.0, 1u, options.margin);
    SelfCollisionModel<Scalar> collision(model, std::move(*shapes), options);
    if (collision.pairs().empty()) return std::nullopt;
    return collision;
  }
  options.excluded_pairs = alwaysCollidingPairs(model, options, 1000);
  SelfCollisionModel<Scalar> collision(model, options);
  if (collision.pairs().empty()) return std::nullopt;
  return collision;
}

#if RETARGET_DEFINE_SAFETY

RETARGET_DECL void HumanoidCapsuleOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(min_radius) && min_radius >= 0, InvalidArgument,
                        "HumanoidCapsuleOptions::min_radius (got ", min_radius, ", expected a finite value >= 0 in m)");
  RETARGET_THROW_UNLESS(std::isfinite(radius_fraction) && radius_fraction > 0 && radius_fraction <= 1, InvalidArgument,
                        "HumanoidCapsuleOptions::radius_fraction (got ", radius_fraction, ", expected in (0, 1])");
  RETARGET_THROW_UNLESS(std::isfinite(min_fitted_radius) && min_fitted_radius > 0, InvalidArgument,
                        "HumanoidCapsuleOptions::min_fitted_radius (got ", min_fitted_radius,
                        ", expected a finite value > 0 in m)");
  RETARGET_THROW_UNLESS(std::isfinite(max_fitted_radius) && max_fitted_radius >= min_fitted_radius, InvalidArgument,
                        "HumanoidCapsuleOptions::max_fitted_radius (got ", max_fitted_radius,
                        ", expected a finite value >= min_fitted_radius = ", min_fitted_radius, " m)");
  RETARGET_THROW_UNLESS(std::isfinite(torso_radius_fraction) && torso_radius_fraction > 0 && torso_radius_fraction <= 1,
                        InvalidArgument, "HumanoidCapsuleOptions::torso_radius_fraction (got ", torso_radius_fraction,
                        ", expected in (0, 1])");
  RETARGET_THROW_UNLESS(std::isfinite(pelvis_radius_fraction) && pelvis_radius_fraction > 0 && pelvis_radius_fraction <= 1,
                        InvalidArgument, "HumanoidCapsuleOptions::pelvis_radius_fraction (got ", pelvis_radius_fraction,
                        ", expected in (0, 1])");
}

#endif  // RETARGET_DEFINE_SAFETY

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_SAFETY std::vector<HumanoidLimbSegment> humanoidLimbSegments<double>(const RobotModel<double>&,
                                                                                      const HumanoidBinding&);
RETARGET_TEMPLATE_SAFETY std::vector<HumanoidLimbSegment> humanoidLimbSegments<float>(const RobotModel<float>&,
                                                                                     const HumanoidBinding&);
RETARGET_TEMPLATE_SAFETY double humanoidPrimitiveCoverage<double>(const RobotModel<double>&, const HumanoidBinding&,
                                                                  double);
RETARGET_TEMPLATE_SAFETY double humanoidPrimitiveCoverage<float>(const RobotModel<float>&, const HumanoidBinding&, double);
RETARGET_TEMPLATE_SAFETY std::vector<SelfCollisionShape<double>> humanoidCollisionShapes<double>(
    const RobotModel<double>&, const HumanoidBinding&, const HumanoidCapsuleOptions&);
RETARGET_TEMPLATE_SAFETY std::vector<SelfCollisionShape<float>> humanoidCollisionShapes<float>(
    const RobotModel<float>&, const HumanoidBinding&, const HumanoidCapsuleOptions&);
RETARGET_TEMPLATE_SAFETY std::optional<SelfCollisionModel<double>> defaultSelfCollisionModel<double>(
    const RobotModel<double>&, std::optional<double>);
RETARGET_TEMPLATE_SAFETY std::optional<SelfCollisionModel<float>> defaultSelfCollisionModel<float>(
    const RobotModel<float>&, std::optional<double>);
#endif

}  // namespace retarget
