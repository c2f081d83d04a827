// A downstream program using retarget::urdf: reads a two-link URDF from a string.
#include <cstdio>

#include <retarget/io/urdf.hpp>

int main() {
  const char* const text = R"(<robot name="arm">
  <link name="base"/>
  <link name="upper_arm"><inertial><mass value="1.5"/><origin xyz="0.15 0 0"/></inertial></link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper_arm"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" velocity="3" effort="10"/>
  </joint>
</robot>)";
  const auto result = retarget::parseUrdf(text, "arm.urdf");
  std::printf("retarget::urdf: robot '%s', %d coordinate(s)\n", result.model.name().c_str(), result.model.nq());
  return result.model.nq() == 1 ? 0 : 1;
}
