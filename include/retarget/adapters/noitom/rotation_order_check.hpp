#pragma once

/// @file
/// Does a broadcast's Euler order match the hierarchy it is decoded with? Axis Neuron does not
/// send its rotation order (a setting, YXZ by default): a receiver bound to a hierarchy of
/// another order reads every joint's three angles about the wrong axes, which gives a plausible
/// but wrong pose. This check looks at the first frames of a stream for the one sign of it that
/// needs no knowledge of the motion: the sender places the root so that the body stands on the
/// floor, so the lowest point of the body (a foot or toe, y up) stays at nearly one height while
/// the person stands, steps or turns. Read with the wrong order, the legs point elsewhere and the
/// lowest point moves up and down by a good part of a leg.
///
/// `NoitomRotationOrderCheck` collects frames (channel values of the hierarchy, cm and deg) and,
/// once it has enough, computes for each of the six orders the spread of the lowest point's
/// height (10th to 90th percentile, file units) with every joint's three angles read in that
/// order. It reports a mismatch only when the hierarchy's order spreads more than
/// `min_spread` (a fraction of the rest pose's hip height) and another order spreads less than
/// `ratio` times as much; a recording that gives no evidence (a T-pose, a person sitting or
/// jumping, where no order keeps a floor) reports nothing. A heuristic: a warning to the user,
/// never a reason to drop frames.
///
/// Not for the per-frame path: `add` copies the frame (allocation-free once constructed) and
/// `report` runs 6 x frames forward kinematics (allocates), once.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {

/// Options of `NoitomRotationOrderCheck`.
struct NoitomOrderCheckOptions {
  /// Frames collected before the check can report (>= 10).
  int frames = 120;
  /// Keep one frame in `stride` (>= 1): 120 frames of a 120 Hz stream then span 4 s at 4.
  int stride = 4;
  /// Smallest spread of the hierarchy's order, as a fraction of the rest hip height, that can
  /// be a mismatch (a standing person's lowest point moves a few percent: heel, toe).
  double min_spread = 0.08;
  /// Another order must spread less than this fraction of the hierarchy order's spread.
  double ratio = 0.5;

  /// Throws InvalidArgument naming the field.
  void validate() const {
    RETARGET_THROW_UNLESS(frames >= 10 && frames <= 100000, InvalidArgument,
                          "NoitomOrderCheckOptions.frames must be in 10..100000 (got ", frames, ")");
    RETARGET_THROW_UNLESS(stride >= 1 && stride <= 1000, InvalidArgument,
                          "NoitomOrderCheckOptions.stride must be in 1..1000 (got ", stride, ")");
    RETARGET_THROW_UNLESS(min_spread > 0 && min_spread < 1, InvalidArgument,
                          "NoitomOrderCheckOptions.min_spread must be in (0, 1) (got ", min_spread, ")");
    RETARGET_THROW_UNLESS(ratio > 0 && ratio < 1, InvalidArgument,
                          "NoitomOrderCheckOptions.ratio must be in (0, 1) (got ", ratio, ")");
  }
};

/// What the check found.
struct NoitomOrderReport {
  /// The hierarchy's rotation order ("YXZ": the letters of its first joint's rotation channels).
  std::string hierarchy_order;
  /// The order whose lowest point spreads least.
  std::string likely_order;
  /// Spread of the lowest point's height (file units, 10th to 90th percentile) in the
  /// hierarchy's order and in the likely one.
  double hierarchy_spread = 0;
  double likely_spread = 0;
  /// The rest pose's hip height above its lowest point (file units): the scale of the spreads.
  double hip_height = 0;
  /// True when the frames say the broadcast is in `likely_order`, not the hierarchy's.
  bool mismatch = false;
};

/// Collects the first frames of a stream and checks its rotation order (see the file comment).
class NoitomRotationOrderCheck {
 public:
  /// Throws InvalidArgument on bad options or an invalid hierarchy. A hierarchy whose joints do
  /// not all have three rotation channels in one order (a broadcast has one order for every
  /// joint) cannot be checked: `applicable()` is false and the report finds nothing.
  explicit NoitomRotationOrderCheck(const BvhMotion& hierarchy, const NoitomOrderCheckOptions& options = {})
      : options_((options.validate(), options)), sample_(hierarchy) {
    validateBvh(hierarchy);
    sample_.values.assign(static_cast<std::size_t>(options_.frames) * static_cast<std::size_t>(hierarchy.channel_count), 0.0);
    sample_.frame_count = 0;
    for (const BvhJoint& joint : hierarchy.joints) {
      if (joint.is_end_site) continue;
      std::string order;
      for (const BvhChannel channel : joint.channels) {
        if (isRotation(channel)) order += static_cast<char>('X' + bvhChannelAxis(channel));
      }
      if (order_.empty()) order_ = order;
      applicable_ = applicable_ && order.size() == 3 && order == order_;
    }
    applicable_ = applicable_ && !order_.empty();
  }

  /// True when every joint has three rotation channels in one order (the check can run).
  bool applicable() const noexcept { return applicable_; }

  /// Offers one frame's channel values (hierarchy order). Returns true once enough frames are
  /// collected (further frames are ignored), or at once when the check is not applicable.
  /// Never allocates or throws; a frame of the wrong size or with a value that is not finite
  /// is skipped.
  bool add(const Eigen::Ref<const Eigen::VectorXd>& channels) noexcept {
    if (ready() || !applicable_) return true;
    if (channels.size() != sample_.channel_count || !channels.allFinite()) return false;
    if (offered_++ % static_cast<std::uint64_t>(options_.stride) != 0) return false;
    std::copy(channels.data(), channels.data() + channels.size(),
              sample_.values.begin() + static_cast<std::ptrdiff_t>(sample_.frame_count) * sample_.channel_count);
    ++sample_.frame_count;
    return ready();
  }

  /// True once `options.frames` frames are collected.
  bool ready() const noexcept { return sample_.frame_count == options_.frames; }

  /// The verdict on the frames collected (at least 10; no mismatch with fewer).
  NoitomOrderReport report() const {
    NoitomOrderReport report;
    report.hierarchy_order = order_;
    report.likely_order = order_;
    if (sample_.frame_count < 10 || !applicable_) return report;
    report.hip_height = restHipHeight();
    report.hierarchy_spread = lowestPointSpread(order_);
    report.likely_spread = report.hierarchy_spread;
    static constexpr std::array<const char*, 6> kOrders{"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
    for (const char* order : kOrders) {
      if (order == order_) continue;
      const double spread = lowestPointSpread(order);
      if (spread < report.likely_spread) {
        report.likely_spread = spread;
        report.likely_order = order;
      }
    }
    report.mismatch = report.likely_order != order_ && report.hierarchy_spread > options_.min_spread * report.hip_height &&
                      report.likely_spread < options_.ratio * report.hierarchy_spread;
    return report;
  }

 private:
  // The sample with every joint's rotation channels read in `order`.
  BvhMotion inOrder(const std::string& order) const {
    BvhMotion motion = sample_;
    motion.values.resize(static_cast<std::size_t>(motion.frame_count) * static_cast<std::size_t>(motion.channel_count));
    for (BvhJoint& joint : motion.joints) {
      std::size_t r = 0;
      for (BvhChannel& channel : joint.channels) {
        if (!isRotation(channel)) continue;
        channel = static_cast<BvhChannel>(3 + (order[r++] - 'X'));
      }
    }
    return motion;
  }

  static double lowestPoint(const Eigen::Matrix3Xd& p_WJ) { return p_WJ.row(1).minCoeff(); }

  double restHipHeight() const {
    BvhMotion rest = bvhRestPose(sample_);
    Eigen::Matrix3Xd p_WJ;
    std::vector<Eigen::Quaterniond> R_WJ;
    bvhGlobalPositions(rest, 0, p_WJ, R_WJ);
    return p_WJ(1, 0) - lowestPoint(p_WJ);
  }

  double lowestPointSpread(const std::string& order) const {
    const BvhMotion motion = inOrder(order);
    std::vector<double> heights(static_cast<std::size_t>(motion.frame_count));
    Eigen::Matrix3Xd p_WJ;
    std::vector<Eigen::Quaterniond> R_WJ;
    for (int f = 0; f < motion.frame_count; ++f) {
      bvhGlobalPositions(motion, f, p_WJ, R_WJ);
      heights[static_cast<std::size_t>(f)] = lowestPoint(p_WJ);
    }
    std::sort(heights.begin(), heights.end());
    const auto at = [&](double fraction) {
      return heights[static_cast<std::size_t>(fraction * static_cast<double>(heights.size() - 1) + 0.5)];
    };
    return at(0.9) - at(0.1);
  }

  NoitomOrderCheckOptions options_;
  BvhMotion sample_;  // the hierarchy and the frames collected
  std::string order_;
  bool applicable_ = true;
  std::uint64_t offered_ = 0;
};

}  // namespace retarget
