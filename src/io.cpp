// The compiled part (retarget::compiled), layer 'io': the out-of-line definitions of the
// layer's non-template functions and its double and float template instantiations
// (see retarget/core/compilation.hpp).
#define RETARGET_COMPILE_IO 1

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/crc16.hpp>
#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/floating_base_csv.hpp>
#include <retarget/io/gpdm_model.hpp>
#include <retarget/io/internal/bvh_parser.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/keypoints_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/ntu_skeleton.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/io/skeleton_csv.hpp>
