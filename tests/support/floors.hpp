#pragma once

// Floors for similarity scores measured on the shared recordings (issue 29).
//
// A similarity s is at most 1; what a regression changes is its error 1 - s. A floor written as
// "measured - 0.02" lets a score measured at 0.999 fall to 0.979, i.e. its error grow twentyfold,
// and still pass. These floors bound the error instead: a run may have at most
// kFloorErrorGrowth times the error that was measured when the floor was set,
//
//     floor = 1 - kFloorErrorGrowth * (1 - measured),
//
// so an improvement always passes and a worsening of more than 25 % of the error fails,
// whether the score sits at 0.9 or at 0.999.
//
// For a low score that floor alone cannot fail: at measured 0.24 it is 0.05, at 0.1 it is below
// zero (issue 51's audit: six Pacc floors under 0). So the floor is also bounded from the score's
// side: a run may lose at most kFloorAbsoluteDrop, and at most a quarter of the score itself,
//
//     floor = max(1 - kFloorErrorGrowth * (1 - measured), measured - min(kFloorAbsoluteDrop, |measured| / 4)),
//
// the higher of the two. Near 1 the error rule decides (0.999 may fall to 0.99875); below 0.8 the
// score rule does (0.24 may fall to 0.19, 0.04 to 0.03). Only a measured 0 gives a floor of 0.

#include <doctest/doctest.h>

namespace retarget::test {

/// How much the error 1 - s of a measured similarity s may grow before its floor fails.
inline constexpr double kFloorErrorGrowth = 1.25;

/// How much a measured score may drop at most, whatever its error (see the file comment).
inline constexpr double kFloorAbsoluteDrop = 0.05;

/// Lowest accepted value of a similarity (at most 1) that measured `measured` when the floor was
/// set: its error may grow by at most 25 %, and the score may lose at most 0.05 and at most a
/// quarter of itself (see the file comment).
constexpr double relativeFloor(double measured) {
  const double by_error = 1.0 - kFloorErrorGrowth * (1.0 - measured);
  const double magnitude = measured < 0 ? -measured : measured;
  const double drop = magnitude / 4 < kFloorAbsoluteDrop ? magnitude / 4 : kFloorAbsoluteDrop;
  const double by_score = measured - drop;
  return by_error > by_score ? by_error : by_score;
}
static_assert(relativeFloor(0.999) > 0.9987 && relativeFloor(0.999) < 0.9988, "near 1 the error rule decides");
static_assert(relativeFloor(0.24) > 0.18 && relativeFloor(0.1) > 0.07 && relativeFloor(0.04) > 0.029,
              "a low score's floor is above zero and close to it");

}  // namespace retarget::test

/// CHECKs that the similarity `value` reaches the relative floor of `measured`; on failure the
/// message names the value, the measured value and the floor. Extra context goes in CAPTURE or
/// INFO before the call.
#define RETARGET_CHECK_FLOOR(value, measured)                                                          \
  CHECK_MESSAGE((value) >= ::retarget::test::relativeFloor(measured),                                  \
                #value " = " << (value) << " is below its floor " << ::retarget::test::relativeFloor(measured) \
                             << " (measured " << (measured) << ", error growth limit "                   \
                             << ::retarget::test::kFloorErrorGrowth << "x)")
