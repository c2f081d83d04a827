#pragma once

/// @file
/// Random numbers and resampling shared by the particle filters (mappers/particle_filter.hpp,
/// mappers/gpdm_particle_filter.hpp): the same seed gives the same stream with any standard
/// library.
///
/// Uniforms are the top 53 bits of a std::mt19937_64 (whose output the standard fixes); normals
/// come from a hand-written Box-Muller transform, not std::normal_distribution, whose algorithm
/// differs between standard libraries. Results can then differ between platforms only where the
/// math library rounds log, sin or cos differently.

#include <cmath>
#include <cstdint>
#include <random>

#include <Eigen/Core>

#include "retarget/core/types.hpp"

namespace retarget::internal {

/// A seeded source of uniform and standard normal numbers (see the file doc). Allocates nothing.
class PortableRandom {
 public:
  explicit PortableRandom(std::uint64_t seed = 1) noexcept { reseed(seed); }

  /// Restarts the stream from `seed` (drops a kept normal).
  void reseed(std::uint64_t seed) noexcept {
    engine_.seed(seed);
    has_spare_ = false;
    spare_ = 0.0;
  }

  /// Uniform in [0, 1).
  double uniform() noexcept { return static_cast<double>(engine_() >> 11) * (1.0 / 9007199254740992.0); }

  /// Standard normal (Box-Muller pairs; the second of a pair is kept for the next call).
  double gaussian() noexcept {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: the logarithm stays finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * kPi<double> * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

/// Systematic (low-variance) resampling: with one uniform offset u in [0, 1/Q), column j of
/// `target` becomes the column of `source` at cumulative normalised weight u + j/Q. `weight`
/// has Q non-negative entries with a positive sum; `source` and `target` have Q columns and the
/// same rows. Allocates nothing.
template <typename Scalar, typename Source, typename Target>
void systematicResample(const VectorX<Scalar>& weight, double u, const Source& source, Target& target) noexcept {
  const Eigen::Index count = weight.size();
  const Scalar total = weight.sum();
  const Scalar step = Scalar(1) / static_cast<Scalar>(count);
  const Scalar offset = static_cast<Scalar>(u) * step;
  Eigen::Index from = 0;
  Scalar cumulative = weight[0] / total;
  for (Eigen::Index j = 0; j < count; ++j) {
    const Scalar wanted = offset + static_cast<Scalar>(j) * step;
    while (wanted > cumulative && from < count - 1) {
      ++from;
      cumulative += weight[from] / total;
    }
    target.col(j) = source.col(from);
  }
}

}  // namespace retarget::internal
