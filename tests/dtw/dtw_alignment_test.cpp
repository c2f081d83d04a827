// DTW alignment (metrics/dtw_alignment.hpp): a sequence aligned to itself comes back unchanged,
// a copy slowed down by repeating frames aligns back to its original exactly, and the medoid is
// the sequence in the middle.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include <Eigen/Core>

#include <retarget/metrics/dtw_alignment.hpp>

using namespace retarget;

TEST_CASE("dtw alignment: itself unchanged; a slowed copy aligns back to the original exactly") {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> repeats(1, 3);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::MatrixXd reference = Eigen::MatrixXd::Random(3, 40);
    CHECK(dtwAlignToReference(reference, reference) == reference);
    std::vector<Eigen::Index> source;
    for (Eigen::Index j = 0; j < reference.cols(); ++j) {
      for (int r = repeats(rng); r > 0; --r) source.push_back(j);
    }
    Eigen::MatrixXd slowed(3, static_cast<Eigen::Index>(source.size()));
    for (std::size_t i = 0; i < source.size(); ++i) slowed.col(static_cast<Eigen::Index>(i)) = reference.col(source[i]);
    const Eigen::MatrixXd aligned = dtwAlignToReference(slowed, reference);
    REQUIRE(aligned.cols() == reference.cols());
    CHECK((aligned - reference).cwiseAbs().maxCoeff() <= 1e-15);  // the mean of equal frames
  }
}

TEST_CASE("dtw alignment: the medoid is the sequence between the others; bad input throws") {
  const Eigen::MatrixXd base = Eigen::MatrixXd::Random(2, 30);
  const std::vector<Eigen::MatrixXd> sequences{base, base.array() + 0.2, base.array() + 0.1};
  CHECK(dtwMedoid(sequences) == 2);
  CHECK(dtwMedoid(std::vector<Eigen::MatrixXd>{base}) == 0);
  CHECK_THROWS_AS(dtwMedoid(std::vector<Eigen::MatrixXd>{}), InvalidArgument);
  CHECK_THROWS_AS(dtwAlignToReference(Eigen::MatrixXd::Zero(3, 5), Eigen::MatrixXd::Zero(2, 5)), InvalidArgument);
}
