#pragma once
// A robot header on the human side's vocabulary: allowed.
#include <retarget/human/skeleton.hpp>
