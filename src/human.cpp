// The compiled part (retarget::compiled), layer 'human': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_HUMAN 1

#include <retarget/human/arm_placement.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/bvh_schemas.hpp>
#include <retarget/human/bvh_templates.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/input_survey.hpp>
#include <retarget/human/keypoint_schemas.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/rig_binding.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/human/skeleton_smoothing.hpp>
#include <retarget/human/torso_frames.hpp>
