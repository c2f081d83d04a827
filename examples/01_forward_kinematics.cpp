// Forward kinematics, point Jacobian and centre of mass of a small hand-built arm.
#include <iostream>

#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

int main() {
  using namespace retarget;
  RobotModelBuilder<double> builder("two_link_arm");
  builder.addLink("base").addLink("upper_arm", 1.5, Eigen::Vector3d(0.15, 0, 0)).addLink("forearm", 1.0,
                                                                                       Eigen::Vector3d(0.1, 0, 0));
  JointSpec<double> shoulder;
  shoulder.name = "shoulder";
  shoulder.parent_link = "base";
  shoulder.child_link = "upper_arm";
  shoulder.limits = {-2.0, 2.0, 3.0, 10.0};
  JointSpec<double> elbow = shoulder;
  elbow.name = "elbow";
  elbow.parent_link = "upper_arm";
  elbow.child_link = "forearm";
  elbow.X_PJ.translation() = Eigen::Vector3d(0.3, 0, 0);
  builder.addJoint(shoulder).addJoint(elbow);
  const RobotModel<double> model = builder.build();

  RobotData<double> data(model);
  const Eigen::Vector2d q(0.3, 0.8);
  forwardKinematics(model, data, q);
  std::cout << "forearm origin p_WF = " << data.X_WL[model.linkIndex("forearm")].translation().transpose() << "\n";
  std::cout << "centre of mass p_WCm = " << centerOfMass(model, data).transpose() << "\n";
  return 0;
}
