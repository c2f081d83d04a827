// The compiled part (retarget::compiled), layer 'safety': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_SAFETY 1

#include <retarget/safety/self_collision.hpp>
