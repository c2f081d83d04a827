// The compiled part (retarget::compiled), layer 'learning': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_LEARNING 1

#include <retarget/learning/demonstrations.hpp>
#include <retarget/learning/gaussian_mixture.hpp>
#include <retarget/learning/gaussian_mixture_regression.hpp>
#include <retarget/learning/gpdm.hpp>
#include <retarget/learning/gpdm_encoder.hpp>
#include <retarget/learning/kernel_pca.hpp>
