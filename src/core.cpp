// The compiled part (retarget::compiled), layer 'core': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_CORE 1

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/portable_random.hpp>
#include <retarget/core/internal/text.hpp>
