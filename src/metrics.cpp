// The compiled part (retarget::compiled), layer 'metrics': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_METRICS 1

#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/dtw_alignment.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/occluded_area.hpp>
#include <retarget/metrics/occlusion.hpp>
#include <retarget/metrics/pose_accuracy.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/trajectory_lag.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
