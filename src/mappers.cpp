// The compiled part (retarget::compiled), layer 'mappers': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_MAPPERS 1

#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/fabrik.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>
#include <retarget/mappers/internal/pose_likelihood.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/mappers/triangle_map.hpp>
