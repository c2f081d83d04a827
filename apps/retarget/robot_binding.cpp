// The automatic humanoid binding on the command line: see robot_binding.hpp.
#include "robot_binding.hpp"

#include "cli.hpp"

#include <array>
#include <cstdio>

#include <retarget/app/methods.hpp>
#include <retarget/robots/humanoid_soles.hpp>
#include <retarget/robots/robot_skeleton.hpp>

namespace retarget::cli {
namespace {

std::string vectorText(const Eigen::Vector3d& v) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "(%.4f, %.4f, %.4f)", v.x(), v.y(), v.z());
  return buffer;
}

}  // namespace

HumanoidBinding bindRobot(const RobotModel<double>& model, const std::string& schema_path) {
  app::MethodSettings settings;
  settings.schema_path = schema_path;
  return app::humanoidBindingFrom(model, settings);
}

std::optional<VirtualSkeletonMap> robotSkeletonMap(const RobotModel<double>& model, const std::string& schema_path) {
  if (schema_path.empty()) return virtualSkeletonMapFor(model);
  const HumanoidBindingOptions pins = loadJson<HumanoidBindingOptions>(schema_path);
  return virtualSkeletonMapFor(model, &pins);
}

void printHumanoidBinding(std::ostream& out, const RobotModel<double>& model, const HumanoidBinding& binding) {
  out << "\nhumanoid binding (automatic; `retarget schema suggest <file.urdf>` writes it as a robot schema to edit):\n"
      << "  axes (root frame): forward " << vectorText(binding.R_BR.col(0)) << ", left " << vectorText(binding.R_BR.col(1))
      << ", up " << vectorText(binding.R_BR.col(2)) << "\n"
      << "  torso link: " << (binding.torso_link.empty() ? "(not found)" : binding.torso_link)
      << "   pelvis link: " << (binding.pelvis_link.empty() ? "(not found)" : binding.pelvis_link) << "   waist joints:";
  if (binding.spine_joints.empty()) out << " (none)";
  for (int j : binding.spine_joints) out << " " << model.joints()[static_cast<std::size_t>(j)].name;
  out << "\n";
  for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
    const HumanoidChain& c = binding.limbs[l];
    out << "  " << kHumanoidLimbNames[l] << ": ";
    if (!c.found) {
      out << "(not found)\n";
      continue;
    }
    out << c.base_link << " -> " << c.end_link << ":";
    for (int j : c.joints) out << " " << model.joints()[static_cast<std::size_t>(j)].name;
    out << "  [first " << c.root_joint;
    if (!c.bend_joint.empty()) out << ", bend " << c.bend_joint;
    if (!c.distal_joint.empty()) out << ", distal " << c.distal_joint;
    out << "]\n";
  }
  out << "  virtual skeleton (rest pose, m, root frame; 'from': a link vector hung from that point):\n";
  for (const HumanoidPointBinding& p : binding.points) {
    out << "    " << kHumanoidPointNames[static_cast<std::size_t>(p.point)] << "  " << p.link;
    if (p.from) out << " from " << kHumanoidPointNames[static_cast<std::size_t>(*p.from)];
    out << "  " << vectorText(p.p_B) << "  " << p.rule << "\n";
  }
  // The soles the floating base plants (robots/humanoid_soles.hpp), in the foot link's frame.
  const std::array<HumanoidSole, 2> soles = humanoidSoles(model, binding);
  for (std::size_t side = 0; side < 2; ++side) {
    const HumanoidSole& sole = soles[side];
    if (!sole.found && sole.source.empty()) continue;
    out << "  sole " << (side == 0 ? "left" : "right") << ": ";
    if (!sole.found) {
      out << "none (" << sole.source << ")\n";
      continue;
    }
    out << sole.link << ", " << sole.points_L.size() << " points from " << sole.source << ":";
    for (const Eigen::Vector3d& p : sole.points_L) out << " " << vectorText(p);
    out << "\n";
  }
  for (const std::string& m : binding.missing) out << "  missing: " << m << "\n";
  for (const std::string& n : binding.notes) out << "  note: " << n << "\n";
}

std::unique_ptr<HumanoidMapper<double>> makeHumanoidMapper(const RobotModel<double>& model, const std::string& schema_path,
                                                           const std::string& config_path, const std::string& what,
                                                           const std::string& robot) {
  app::MethodSettings settings;
  settings.schema_path = schema_path;
  settings.config_path = config_path;
  const HumanoidMapperOptions options = app::humanoidOptionsFrom(settings);
  const HumanoidBinding binding = app::humanoidBindingFrom(model, settings);
  try {
    return std::make_unique<HumanoidMapper<double>>(model, binding, options);
  } catch (const InvalidArgument& e) {
    const std::string message = e.what();
    if (message.find("HumanoidMapperOptions::rest") != std::string::npos) {
      throw UsageError(what + ": " + config_path + ": " + message);
    }
    throw UsageError(what + ": robot '" + model.name() + "' does not bind as a humanoid (" + message +
                     (robot.empty() ? std::string() : "; see `retarget info --robot " + robot + "`") + ")");
  }
}

}  // namespace retarget::cli
