// The compiled part (retarget::compiled), layer 'robots': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_ROBOTS 1

#include <retarget/robots/arm_chains.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/builtin.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/tangy.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>
#include <retarget/robots/yumi.hpp>
