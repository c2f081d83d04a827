// The compiled part (retarget::compiled), layer 'control': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_CONTROL 1

#include <retarget/control/balance.hpp>
#include <retarget/control/balance_qp.hpp>
#include <retarget/control/humanoid_feet.hpp>
#include <retarget/control/locomotion.hpp>
#include <retarget/control/support_mode.hpp>
#include <retarget/control/whole_body.hpp>
