#pragma once
// A metric that reads a mapper's map: the layering check must name this line.
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/fine.hpp>
