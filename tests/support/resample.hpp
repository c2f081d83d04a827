#pragma once

// A skeleton motion at another frame rate, for the tests that check a stage gives the same
// result whatever the rate of its input (support modes, the whole-body pipeline).

#include <algorithm>
#include <cstddef>

#include <retarget/human/skeleton.hpp>

namespace retarget::test {

/// The motion at `rate` Hz from its first to its last frame time: each joint position
/// interpolated linearly in time between the two frames around it, tracking states and hand
/// states from the earlier one. An empty motion stays empty.
inline SkeletonMotiond resampled(const SkeletonMotiond& motion, double rate) {
  SkeletonMotiond out;
  if (motion.frames.empty()) return out;
  const double start = motion.frames.front().time, end = motion.frames.back().time;
  std::size_t i = 0;
  for (int k = 0;; ++k) {
    const double t = start + k / rate;
    if (t > end + 1e-9) break;
    while (i + 2 < motion.frames.size() && motion.frames[i + 1].time <= t) ++i;
    const SkeletonFramed& a = motion.frames[i];
    const SkeletonFramed& b = motion.frames[std::min(i + 1, motion.frames.size() - 1)];
    const double w = b.time > a.time ? std::clamp((t - a.time) / (b.time - a.time), 0.0, 1.0) : 0.0;
    SkeletonFramed frame = a;
    frame.time = t;
    for (std::size_t j = 0; j < frame.p_W.size(); ++j) frame.p_W[j] = (1.0 - w) * a.p_W[j] + w * b.p_W[j];
    out.frames.push_back(frame);
  }
  return out;
}

}  // namespace retarget::test
