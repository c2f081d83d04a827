#pragma once

// NAO's whole body after GA-LVVJ as the command line and Python build it (app/whole_body.hpp):
// GA-LVVJ leaning the trunk (wholeBodyGaLvvjOptions) on NAO's force-sensor feet. Returned as a
// prvalue, so `auto p = test::naoWholeBody(nao);` constructs in place.

#include <retarget/app/whole_body.hpp>
#include <retarget/robots/nao.hpp>

namespace retarget::test {

inline app::GaLvvjWholeBody naoWholeBody(const RobotModel<double>& nao, const WholeBodyOptions& options = {}) {
  return app::GaLvvjWholeBody(nao, GaLvvjMapper<double>(nao, naoGaLvvjMap(), wholeBodyGaLvvjOptions()),
                              naoBalanceFeet(), options);
}

}  // namespace retarget::test
