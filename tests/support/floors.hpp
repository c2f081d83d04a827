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

#include <doctest/doctest.h>

namespace retarget::test {

/// How much the error 1 - s of a measured similarity s may grow before its floor fails.
inline constexpr double kFloorErrorGrowth = 1.25;

/// Lowest accepted value of a similarity (at most 1) that measured `measured` when the floor was
/// set: its error may grow by at most 25 % (see the file comment).
constexpr double relativeFloor(double measured) { return 1.0 - kFloorErrorGrowth * (1.0 - measured); }

}  // namespace retarget::test

/// CHECKs that the similarity `value` reaches the relative floor of `measured`; on failure the
/// message names the value, the measured value and the floor. Extra context goes in CAPTURE or
/// INFO before the call.
#define RETARGET_CHECK_FLOOR(value, measured)                                                          \
  CHECK_MESSAGE((value) >= ::retarget::test::relativeFloor(measured),                                  \
                #value " = " << (value) << " is below its floor " << ::retarget::test::relativeFloor(measured) \
                             << " (measured " << (measured) << ", error growth limit "                   \
                             << ::retarget::test::kFloorErrorGrowth << "x)")
