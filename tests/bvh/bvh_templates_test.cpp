// The built-in Noitom hierarchies (human/bvh_templates.hpp): the joint names, order and parents of
// the shared Axis Neuron and Axis Studio exports; bone directions within 22 degrees of theirs;
// the Euler mapping onto InMoov with the template as hierarchy within 0.03 rad of the mapping
// with the exported file's own; heights scale every offset.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include <retarget/human/bvh_templates.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/robots/inmoov.hpp>

#include "support/test_support.hpp"

using namespace retarget;

TEST_CASE("BVH templates: the exported hierarchies' joints, and bones pointing their way") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion exports[] = {readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh"),
                               readBvh(data_dir / "bvh" / "noitom_pns_studio_template_6ch_all_joints_0frames.bvh")};
  const BvhMotion templates[] = {axisNeuronTemplate(), axisStudioTemplate()};
  for (int which = 0; which < 2; ++which) {
    const BvhMotion& file = exports[which];
    const BvhMotion& tmpl = templates[which];
    CAPTURE(which);
    REQUIRE(tmpl.joints.size() == file.joints.size());
    CHECK(tmpl.jointCount() == 59);
    double min_cos = 1;
    for (std::size_t i = 0; i < tmpl.joints.size(); ++i) {
      CAPTURE(file.joints[i].name);
      CHECK(tmpl.joints[i].name == file.joints[i].name);
      CHECK(tmpl.joints[i].parent == file.joints[i].parent);
      CHECK(tmpl.joints[i].is_end_site == file.joints[i].is_end_site);
      const Eigen::Vector3d& a = tmpl.joints[i].offset;
      const Eigen::Vector3d& b = file.joints[i].offset;
      if (a.norm() > 1e-9 && b.norm() > 1e-9) min_cos = std::min(min_cos, a.normalized().dot(b.normalized()));
    }
    MESSAGE("template " << which << ": smallest cosine between a bone and the export's " << min_cos);
    CHECK(min_cos > std::cos(22.0 * M_PI / 180.0));
  }
}

TEST_CASE("BVH templates: the Euler mapping of a recording with the template is the file hierarchy's within 0.03 rad") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion file = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion tmpl = axisNeuronTemplate();
  REQUIRE(tmpl.channel_count == file.channel_count);
  const RobotModel<double> inmoov = makeInMoov<double>();
  EulerMapper<double> with_file(inmoov, file, inmoovEulerMap(file));
  EulerMapper<double> with_template(inmoov, tmpl, inmoovEulerMap(tmpl));
  Eigen::VectorXd q_file(inmoov.nq()), q_template(inmoov.nq());
  double worst = 0;
  for (int f = 0; f < file.frame_count; ++f) {
    (void)with_file.map(file.frameValues(f), q_file);
    (void)with_template.map(file.frameValues(f), q_template);
    worst = std::max(worst, (q_file - q_template).cwiseAbs().maxCoeff());
  }
  MESSAGE("largest difference over " << file.frame_count << " frames: " << worst << " rad");
  CHECK(worst < 0.03);
}

TEST_CASE("BVH templates: height scales every offset; bad heights are refused") {
  const BvhMotion tall = axisStudioTemplate(204.0);
  const BvhMotion standard = axisStudioTemplate();
  for (std::size_t i = 0; i < tall.joints.size(); ++i) CHECK((tall.joints[i].offset - 1.2 * standard.joints[i].offset).norm() < 1e-12);
  CHECK_THROWS_WITH_AS(axisNeuronTemplate(10.0), doctest::Contains("height"), InvalidArgument);
}
