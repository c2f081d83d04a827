#pragma once

/// @file
/// Umbrella header: everything in retarget that needs Eigen alone. Optional parts have their
/// own headers and CMake targets and are not included here:
///   retarget/io/urdf.hpp              (tinyxml2, target retarget::urdf)
///   retarget/io/mjcf.hpp              (tinyxml2, target retarget::urdf)
///   retarget/io/robot_file.hpp        (tinyxml2, target retarget::urdf)
///   retarget/json/json.hpp            (nlohmann-json, target retarget::json)
///   retarget/learning/gpdm_training.hpp  (LBFGSpp, target retarget::learning)

#include <retarget/version.hpp>
#include <retarget/fwd.hpp>

// core
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

// kinematics
#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

// geometry and filters
#include <retarget/geometry/capsule.hpp>
#include <retarget/geometry/distance.hpp>
#include <retarget/geometry/euler_angles.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/geometry/octants.hpp>
#include <retarget/filters/consecutive_frames.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/filter_stages.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>

// human side
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/bvh_schemas.hpp>
#include <retarget/human/bvh_templates.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/keypoint_schemas.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/rig_binding.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/human/arm_placement.hpp>
#include <retarget/human/skeleton_smoothing.hpp>
#include <retarget/human/torso_frames.hpp>

// robots
#include <retarget/robots/arm_chains.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/builtin.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/tangy.hpp>
#include <retarget/robots/unitree_g1.hpp>
#include <retarget/robots/unitree_h1.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>
#include <retarget/robots/yumi.hpp>

// io (Eigen-only formats)
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/crc16.hpp>
#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/keypoints_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/ntu_skeleton.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/io/skeleton_csv.hpp>

// mappers
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/fabrik.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/mappers/triangle_map.hpp>

// metrics
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/metrics/occlusion.hpp>
#include <retarget/metrics/pose_accuracy.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/trajectory_lag.hpp>
#include <retarget/metrics/dtw_alignment.hpp>

// learning (Eigen-only; the training, retarget/learning/gpdm_training.hpp, needs LBFGSpp and is
// the optional target retarget::learning)
#include <retarget/learning/kernel_pca.hpp>
#include <retarget/learning/gpdm.hpp>
#include <retarget/learning/gpdm_encoder.hpp>
#include <retarget/learning/gaussian_mixture.hpp>
#include <retarget/learning/gaussian_mixture_regression.hpp>
#include <retarget/learning/demonstrations.hpp>
#include <retarget/io/gpdm_model.hpp>

// whole-body control (Eigen-only)
#include <retarget/control/balance.hpp>
#include <retarget/control/balance_qp.hpp>
#include <retarget/control/humanoid_feet.hpp>
#include <retarget/control/locomotion.hpp>
#include <retarget/control/support_mode.hpp>
#include <retarget/control/whole_body.hpp>

// safety (Eigen-only; the NLopt-based avoidance and the safety pipeline,
// retarget/safety/collision_avoidance.hpp and safety_pipeline.hpp, are the optional target
// retarget::avoidance)
#include <retarget/safety/self_collision.hpp>
#include <retarget/safety/humanoid_capsules.hpp>
