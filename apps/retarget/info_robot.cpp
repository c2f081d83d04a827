// `retarget info <file.urdf|file.xml>` (URDF or MJCF) and `retarget info --robot <name>`: joints
// with types, axes and limits, chains from the root to every end link, total mass, collision
// shapes, and the automatic humanoid binding (robot_binding.hpp).
#include <cmath>
#include <cstdio>
#include <iostream>

#include <retarget/io/robot_file.hpp>
#include <retarget/robots/builtin.hpp>

#include "cli.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

constexpr const char* kRobotPrefix = "robot:";

std::string number(double value, int decimals = 4) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

std::string vector3(const Eigen::Vector3d& v) {
  return "(" + number(v.x()) + ", " + number(v.y()) + ", " + number(v.z()) + ")";
}

void describeRobot(const std::string& target) {
  const bool builtin = target.rfind(kRobotPrefix, 0) == 0;
  const std::string source = builtin ? target.substr(std::char_traits<char>::length(kRobotPrefix)) : target;
  std::vector<std::string> warnings;
  std::string origin = "built-in '" + source + "'";
  RobotModel<double> model;
  if (builtin) {
    model = loadRobot(source, warnings);
  } else {
    RobotFile<double> file = loadRobotFile<double>(source);
    origin = (file.format == RobotFileFormat::kMjcf ? "MJCF " : "URDF ") + source;
    if (!file.floating_base_body.empty()) origin += "; floating base: body '" + file.floating_base_body + "'";
    model = std::move(file.model);
    warnings = std::move(file.warnings);
  }
  const auto& links = model.links();
  const auto& joints = model.joints();

  int counts[4] = {0, 0, 0, 0};
  int mimics = 0;
  for (const auto& joint : joints) {
    ++counts[static_cast<int>(joint.type)];
    mimics += joint.isMimic() ? 1 : 0;
  }
  std::cout << "robot:        " << model.name() << " (" << origin << ")"
            << "\n"
            << "links:        " << links.size() << " (root " << links[0].name << ")\n"
            << "joints:       " << joints.size() << " (" << counts[0] << " revolute, " << counts[1] << " continuous, "
            << counts[2] << " prismatic, " << counts[3] << " fixed; " << mimics << " mimic)\n"
            << "coordinates:  " << model.nq() << " (one per moving, non-mimic joint)\n"
            << "total mass:   " << number(model.totalMass(), 3) << " kg\n"
            << "units:        m, rad, kg (prismatic joints: m)\n";
  for (const auto& warning : warnings) std::cout << "warning:      " << warning << "\n";

  std::cout << "\njoints (q = coordinate index; limits lower..upper, velocity, effort):\n";
  for (const auto& joint : joints) {
    std::cout << "  " << joint.name << "  " << toString(joint.type) << "  " << links[joint.parent_link].name << " -> "
              << links[joint.child_link].name;
    if (joint.moves()) {
      std::cout << "  axis " << vector3(joint.axis);
      if (joint.type != JointType::kContinuous) {
        std::cout << "  limits " << number(joint.limits.lower) << ".." << number(joint.limits.upper);
      }
      std::cout << "  vel " << number(joint.limits.velocity, 3) << "  effort " << number(joint.limits.effort, 3);
      if (joint.q_index >= 0) std::cout << "  q " << joint.q_index;
      if (joint.isMimic()) {
        std::cout << "  mimic " << model.qName(joint.mimic_q_index) << " x" << number(joint.mimic_multiplier) << " + "
                  << number(joint.mimic_offset);
      }
    }
    std::cout << "\n";
  }

  std::cout << "\nchains (root to every end link; moving joints only):\n";
  std::vector<int> children(links.size(), 0);
  for (const auto& joint : joints) ++children[static_cast<std::size_t>(joint.parent_link)];
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (children[i] != 0 || i == 0) continue;
    std::cout << "  " << links[0].name << " -> " << links[i].name << ":";
    int moving = 0;
    for (int k : links[i].support) {
      if (!joints[static_cast<std::size_t>(k)].moves()) continue;
      std::cout << " " << joints[static_cast<std::size_t>(k)].name;
      ++moving;
    }
    if (moving == 0) std::cout << " (fixed)";
    std::cout << "\n";
  }

  std::cout << "\ncollision shapes (capsules in the link frame: end points, radius):\n";
  int shapes = 0;
  for (const auto& link : links) {
    for (const auto& shape : link.collisions) {
      ++shapes;
      std::cout << "  " << link.name << "  " << shape.name << "  "
                << toString<double>(shape.kind) << "  " << vector3(shape.capsule_L.a) << " .. "
                << vector3(shape.capsule_L.b) << "  r " << number(shape.capsule_L.radius) << "\n";
    }
  }
  if (shapes == 0) std::cout << "  (none)\n";

  try {
    printHumanoidBinding(std::cout, model, bindRobot(model));
  } catch (const Error& e) {
    std::cout << "\nhumanoid binding: none (" << e.what() << ")\n";
  }
}

const bool kInfoRobotRegistered = registerInfoHandler(InfoHandler{
    "robot",
    [](const std::string& path) {
      return path.rfind(kRobotPrefix, 0) == 0 || hasRobotFileSuffix(path);
    },
    describeRobot});

}  // namespace
}  // namespace retarget::cli
