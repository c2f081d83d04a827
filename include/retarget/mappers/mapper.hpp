#pragma once

/// @file
/// The mapper contract: the one shape every retargeting method in retarget takes, the
/// compile-time trait that checks it (`isMapper`), and the batch helper `mapMotion` that works
/// for any mapper.
///
/// ## The shape
///
/// ```
/// template <typename Scalar = double>
/// class SomeMapper {
///  public:
///   using Input = ...;                     // one input frame (see below)
///   using Map = SomeMap;                   // robot data: which joints, axes, signs, offsets
///   using Options = SomeOptions;           // tuning, a validated aggregate
///
///   SomeMapper(const RobotModel<Scalar>& model, SomeMap map, SomeOptions options = {});
///   SomeMapper(const RobotModel<Scalar>&&, SomeMap, SomeOptions = {}) = delete;
///
///   [[nodiscard]] Status map(const Input& input, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;
///   void reset() noexcept;
///   const RobotModel<Scalar>& model() const noexcept;
///   const Options& options() const noexcept;
///   const JointFlags& clamped() const noexcept;   // per q coordinate, last map() call
///   const JointFlags& held() const noexcept;      // per q coordinate, last map() call
///   const VectorX<Scalar>& wanted() const noexcept;  // optional: values before the limits
/// };
/// ```
///
/// - `Input` is `SkeletonFrame<Scalar>` for position-based methods (GA-LVVJ, the humanoid mapper,
///   triangle, FABRIK / PIC / PICs, particle filters) and `BvhChannelValues` (a size-checked vector of one BVH frame's channel
///   values, file units and degrees) for rotation-based ones (Euler/BVH). A mapper whose input
///   is a raw channel vector needs that vector's layout: it takes the source hierarchy as the
///   argument right after the model (`EulerMapper(model, hierarchy, map, options)`).
/// - The constructor validates the map and the options against the model and allocates every
///   buffer the per-frame path needs. It throws `InvalidArgument` naming the field and value.
/// - `map()` never allocates, never throws, and always leaves `q_out` (size nq, rad, robot q
///   order) finite and within the model's position limits. It returns a `Status`:
///   * `kClamped`: some coordinate's wanted value lay outside its limits and was clamped;
///     `clamped()` says which, and `wanted()` (where a mapper provides it) how far: the clamp
///     amount of coordinate i is |wanted()[i] - q_out[i]| (rad). A mapper may leave a clamp
///     smaller than its documented tolerance unreported (sensor noise at a limit).
///   * `kDegenerateInput`: the input was unusable for some coordinates (a joint missing, not
///     tracked or not finite, a zero-length link, a singular configuration); those coordinates
///     hold their last good value (the rest value before the first good frame) and `held()`
///     says which.
///   * `kInvalidInput`: the call itself was wrong (q_out or the input has the wrong size);
///     `q_out` is left untouched when its size is wrong, holds the last output otherwise.
///   * `kNotConverged`, `kCollisionAvoided`: for iterative and safety stages.
///   A frame that maps cleanly returns an empty status (`ok()`).
/// - `reset()` forgets every temporal state (held values, previous frame, particles): after
///   `reset()` the mapper gives exactly what a freshly constructed one gives.
/// - A mapper does post-processing of no kind. Smoothing, rate and speed limits, collision
///   avoidance and balance are stages composed after any mapper (see `filters/`).
///
/// ## Lifetime rule
///
/// Mappers, `VirtualSkeleton` and every other per-frame object keep a reference to the
/// `RobotModel` they were built for (a model is shared, never copied per stage) and own a copy
/// of their map and options. Binding a temporary model does not compile: each such type
/// deletes its constructors taking `const RobotModel<Scalar>&&`. The model must outlive them.
///
/// ## Allocation exceptions
///
/// Every mapper's `map()` is allocation-free (checked by the contract suite in tests/mappers
/// with a counting allocator). One stage composed after mappers allocates per call:
/// `CollisionAvoidance::apply()` (retarget/safety/collision_avoidance.hpp, optional target
/// retarget::avoidance) calls NLopt's `nlopt_optimize`, which mallocs its work arrays on every
/// solve and frees them before returning: measured 1 block per SLSQP solve (2 when the solve on the nearest pairs is retried
/// with all pairs) and 7 per COBYLA solve on Tangy (tests/safety, counting malloc). Frames that are already collision-free never call
/// NLopt and allocate nothing; our own code around the solver allocates nothing.
///
/// ## Threads
///
/// A mapper is a workspace: one per thread. `model()` may be shared by any number of them.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

namespace internal::contract {

template <typename...>
using Void = void;

template <typename M, typename = void>
struct HasTypes : std::false_type {};
template <typename M>
struct HasTypes<M, Void<typename M::Scalar, typename M::Input, typename M::Map, typename M::Options>>
    : std::true_type {};

// The exact member signatures, noexcept included (part of the function type since C++17). A
// mapper has exactly one map() and one reset(), so &M::map names one function whose type must
// be exactly this one.
template <typename M>
using MapSignature = Status (M::*)(const typename M::Input&, Eigen::Ref<VectorX<typename M::Scalar>>) noexcept;
template <typename M>
using ResetSignature = void (M::*)() noexcept;

template <typename M, typename = void>
struct HasMap : std::false_type {};
template <typename M>
struct HasMap<M, Void<decltype(&M::map)>> : std::is_same<decltype(&M::map), MapSignature<M>> {};

template <typename M, typename = void>
struct HasReset : std::false_type {};
template <typename M>
struct HasReset<M, Void<decltype(&M::reset)>> : std::is_same<decltype(&M::reset), ResetSignature<M>> {};

template <typename M, typename = void>
struct HasAccessors : std::false_type {};
template <typename M>
struct HasAccessors<M, Void<decltype(std::declval<const M&>().model()), decltype(std::declval<const M&>().options()),
                            decltype(std::declval<const M&>().clamped()), decltype(std::declval<const M&>().held())>>
    : std::bool_constant<
          std::is_same_v<decltype(std::declval<const M&>().model()), const RobotModel<typename M::Scalar>&> &&
          std::is_same_v<decltype(std::declval<const M&>().options()), const typename M::Options&> &&
          std::is_same_v<decltype(std::declval<const M&>().clamped()), const JointFlags&> &&
          std::is_same_v<decltype(std::declval<const M&>().held()), const JointFlags&>> {};

template <typename M, typename = void>
struct HasWanted : std::false_type {};
template <typename M>
struct HasWanted<M, Void<decltype(std::declval<const M&>().wanted())>>
    : std::is_same<decltype(std::declval<const M&>().wanted()), const VectorX<typename M::Scalar>&> {};

template <typename M, bool = HasTypes<M>::value>
struct IsMapper : std::false_type {};
template <typename M>
struct IsMapper<M, true>
    : std::bool_constant<HasMap<M>::value && HasReset<M>::value && HasAccessors<M>::value &&
                         // A temporary model cannot be bound (see "Lifetime rule").
                         !std::is_constructible_v<M, RobotModel<typename M::Scalar>&&, typename M::Map> &&
                         !std::is_constructible_v<M, RobotModel<typename M::Scalar>&&, typename M::Map,
                                                  typename M::Options>> {};

}  // namespace internal::contract

/// True when `M` has the mapper shape of this file: the types `Scalar`, `Input`, `Map` and
/// `Options`; exactly one `Status map(const Input&, Eigen::Ref<VectorX<Scalar>>) noexcept`;
/// `reset() noexcept`; `model()`, `options()`, `clamped()`, `held()` returning const
/// references of the documented types; and no constructor from a temporary model.
template <typename M>
inline constexpr bool isMapper = internal::contract::IsMapper<M>::value;

/// True when mapper `M` also reports `wanted()`: per coordinate, the value before the limits.
template <typename M>
inline constexpr bool reportsWanted = internal::contract::HasWanted<M>::value;

/// A recording, frame by frame, as a mapper's `Input`: overloads for the motions of the
/// library. `frameCount(motion)`, `frameInput(motion, k)` and `frameTime(motion, k)` (s).
template <typename Scalar>
std::size_t frameCount(const SkeletonMotion<Scalar>& motion) {
  return motion.frames.size();
}
template <typename Scalar>
const SkeletonFrame<Scalar>& frameInput(const SkeletonMotion<Scalar>& motion, std::size_t k) {
  return motion.frames[k];
}
template <typename Scalar>
double frameTime(const SkeletonMotion<Scalar>& motion, std::size_t k) {
  return static_cast<double>(motion.frames[k].time);
}
inline std::size_t frameCount(const BvhMotion& motion) { return static_cast<std::size_t>(motion.frame_count); }
RETARGET_DECL BvhChannelValues frameInput(const BvhMotion& motion, std::size_t k);
inline double frameTime(const BvhMotion& motion, std::size_t k) { return static_cast<double>(k) * motion.frame_time; }

/// A whole recording mapped frame by frame: times, joint angles, the status of every frame and
/// per-joint counts of what the statuses report.
template <typename Scalar = double>
struct MappedMotion {
  /// Seconds, one per frame (the motion's own times).
  std::vector<double> time;
  /// frames x nq joint angles (rad, robot q order), finite and within limits.
  MatrixX<Scalar> q;
  /// The status `map()` returned for each frame.
  std::vector<Status> status;
  /// Per q coordinate: frames in which it was clamped / held.
  Eigen::VectorXi clamped_count;
  Eigen::VectorXi held_count;
  /// Per q coordinate: the largest clamp amount |wanted - q| over the frames in which it was
  /// clamped (rad; 0 when never clamped, and when the mapper does not report `wanted()`).
  Eigen::VectorXd clamped_worst;
  /// Frames with at least one clamped / held coordinate, and frames with kInvalidInput.
  int clamped_frames = 0;
  int held_frames = 0;
  int invalid_frames = 0;

  /// Number of frames.
  std::size_t size() const { return status.size(); }
  /// Frames whose status has `code`.
  int frames(StatusCode code) const {
    int n = 0;
    for (const Status s : status) n += s.has(code) ? 1 : 0;
    return n;
  }
};

/// Maps every frame of `motion` with `mapper` after `mapper.reset()`, collecting joint angles,
/// statuses and per-joint counts. Works for any mapper (see `isMapper`) and any motion with the
/// `frameCount` / `frameInput` / `frameTime` overloads. Allocates the result (not for the
/// real-time path; the per-frame calls themselves are the mapper's).
///
/// `on_frame(k, mapper)`, when given, is called after frame k with the mapper in its state after
/// that frame (to read what a pipeline reports beyond the angles).
struct NoFrameCallback {
  template <typename Mapper>
  void operator()(std::size_t, const Mapper&) const noexcept {}
};
template <typename Mapper, typename Motion, typename OnFrame = NoFrameCallback>
MappedMotion<typename Mapper::Scalar> mapMotion(Mapper& mapper, const Motion& motion, OnFrame&& on_frame = {}) {
  static_assert(isMapper<Mapper>, "mapMotion: Mapper does not have the mapper shape (see mappers/mapper.hpp)");
  using Scalar = typename Mapper::Scalar;
  const std::size_t frames = frameCount(motion);
  const int nq = mapper.model().nq();
  MappedMotion<Scalar> out;
  out.time.resize(frames);
  out.q.resize(static_cast<Eigen::Index>(frames), nq);
  out.status.resize(frames);
  out.clamped_count = Eigen::VectorXi::Zero(nq);
  out.held_count = Eigen::VectorXi::Zero(nq);
  out.clamped_worst = Eigen::VectorXd::Zero(nq);
  mapper.reset();
  VectorX<Scalar> q(nq);
  for (std::size_t k = 0; k < frames; ++k) {
    const Status status = mapper.map(frameInput(motion, k), q);
    out.time[k] = frameTime(motion, k);
    out.q.row(static_cast<Eigen::Index>(k)) = q.transpose();
    out.status[k] = status;
    out.clamped_count += mapper.clamped().template cast<int>().matrix();
    out.held_count += mapper.held().template cast<int>().matrix();
    if constexpr (reportsWanted<Mapper>) {
      for (int i = 0; i < nq; ++i) {
        if (!mapper.clamped()[i]) continue;
        const double amount = std::abs(static_cast<double>(mapper.wanted()[i] - q[i]));
        out.clamped_worst[i] = std::max(out.clamped_worst[i], amount);
      }
    }
    out.clamped_frames += status.has(StatusCode::kClamped) ? 1 : 0;
    out.held_frames += status.has(StatusCode::kDegenerateInput) ? 1 : 0;
    out.invalid_frames += status.has(StatusCode::kInvalidInput) ? 1 : 0;
    on_frame(k, static_cast<const Mapper&>(mapper));
  }
  return out;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL BvhChannelValues frameInput(const BvhMotion& motion, std::size_t k) {
  return motion.frameValues(static_cast<int>(k));
}

#endif  // RETARGET_DEFINE_MAPPERS

}  // namespace retarget
