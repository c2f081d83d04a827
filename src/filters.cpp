// The compiled part (retarget::compiled), layer 'filters': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_FILTERS 1

#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/consecutive_frames.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/filters/internal/elementwise.hpp>
