// The compiled part (retarget::compiled), layer 'geometry': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_GEOMETRY 1

#include <retarget/geometry/capsule.hpp>
#include <retarget/geometry/distance.hpp>
#include <retarget/geometry/euler_angles.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/geometry/octants.hpp>
