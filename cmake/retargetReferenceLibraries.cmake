# Reference implementations used only by retarget's tests and benchmarks, as imported targets:
#   retarget_ref::fcl, retarget_ref::kdl, retarget_ref::kdl_parser, retarget_ref::assimp,
#   retarget_ref::mujoco (Debian's libmujoco-dev, MuJoCo 2.2.2: the MJCF reader's reference)
# kdl_parser's own CMake package drags in ROS's ament tooling, so it is found by path instead.
include_guard(GLOBAL)

find_package(fcl REQUIRED)
find_package(orocos_kdl REQUIRED)
find_package(assimp REQUIRED)
find_package(mujoco REQUIRED)

add_library(retarget_ref_fcl INTERFACE)
target_link_libraries(retarget_ref_fcl INTERFACE fcl)
add_library(retarget_ref::fcl ALIAS retarget_ref_fcl)

add_library(retarget_ref_kdl INTERFACE)
target_include_directories(retarget_ref_kdl SYSTEM INTERFACE ${orocos_kdl_INCLUDE_DIRS})
target_link_libraries(retarget_ref_kdl INTERFACE ${orocos_kdl_LIBRARIES})
add_library(retarget_ref::kdl ALIAS retarget_ref_kdl)

find_path(RETARGET_KDL_PARSER_INCLUDE_DIR kdl_parser/kdl_parser.hpp REQUIRED)
find_library(RETARGET_KDL_PARSER_LIBRARY kdl_parser REQUIRED)
find_library(RETARGET_URDFDOM_MODEL_LIBRARY urdfdom_model REQUIRED)
add_library(retarget_ref_kdl_parser INTERFACE)
target_include_directories(retarget_ref_kdl_parser SYSTEM INTERFACE ${RETARGET_KDL_PARSER_INCLUDE_DIR})
target_link_libraries(retarget_ref_kdl_parser INTERFACE ${RETARGET_KDL_PARSER_LIBRARY}
                      ${RETARGET_URDFDOM_MODEL_LIBRARY} retarget_ref_kdl)
add_library(retarget_ref::kdl_parser ALIAS retarget_ref_kdl_parser)

add_library(retarget_ref_assimp INTERFACE)
target_link_libraries(retarget_ref_assimp INTERFACE assimp::assimp)
add_library(retarget_ref::assimp ALIAS retarget_ref_assimp)

add_library(retarget_ref_mujoco INTERFACE)
target_link_libraries(retarget_ref_mujoco INTERFACE mujoco::mujoco)
add_library(retarget_ref::mujoco ALIAS retarget_ref_mujoco)
