// The .gpdm file (io/gpdm_model.hpp): round trip with identical predictions, and malformed files
// rejected with ParseError naming file:line.

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>

#include <retarget/io/gpdm_model.hpp>

#include "learning/learning_fixtures.hpp"

using namespace retarget;
using retarget::test::smallGpdmProblem;

namespace {

GpdmModel someModel() {
  std::mt19937 rng(21);
  const auto problem = smallGpdmProblem(rng, 14, 4, {8, 6});
  GpdmHyperparameters h;
  h.log_alpha << 0.1, -0.3, -1.7, 3.25;
  h.log_beta << -0.2, 0.4, 4.5;
  return GpdmModel(problem.y, problem.lengths, problem.x, h);
}

std::string modelText(const GpdmModel& model, const std::vector<std::string>& names = {}) {
  std::ostringstream out;
  writeGpdmModel(model, out, names);
  return out.str();
}

GpdmModelFile readText(const std::string& text) {
  std::istringstream in(text);
  return readGpdmModel(in, "model.gpdm");
}

// `text` with line `number` (1-based) replaced by `line`.
std::string replaceLine(const std::string& text, int number, const std::string& line) {
  std::istringstream in(text);
  std::string out, current;
  for (int i = 1; std::getline(in, current); ++i) out += (i == number ? line : current) + "\n";
  return out;
}

}  // namespace

TEST_CASE("gpdm file: save -> load gives bit-identical predictions") {
  const GpdmModel model = someModel();
  const std::vector<std::string> names = {"HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll"};
  const auto path = std::filesystem::temp_directory_path() / "retarget_learning_roundtrip.gpdm";
  saveGpdmModel(model, path.string(), names);
  const GpdmModelFile loaded = loadGpdmModel(path.string());
  std::filesystem::remove(path);
  CHECK(loaded.joint_names == names);
  CHECK(loaded.model.latent() == model.latent());
  CHECK(loaded.model.observations() == model.observations());
  CHECK(loaded.model.sequenceLengths() == model.sequenceLengths());
  CHECK(loaded.model.hyperparameters().log_alpha == model.hyperparameters().log_alpha);
  CHECK(loaded.model.hyperparameters().log_beta == model.hyperparameters().log_beta);
  GpdmWorkspace w1 = model.workspace(), w2 = loaded.model.workspace();
  std::mt19937 rng(1);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int k = 0; k < 20; ++k) {
    const Eigen::Vector3d x(normal(rng), normal(rng), normal(rng));
    Eigen::VectorXd a(3), b(3), ya(4), yb(4);
    double va = 0, vb = 0, wa = 0, wb = 0;
    REQUIRE(model.predictNext(x, w1, a, va).ok());
    REQUIRE(loaded.model.predictNext(x, w2, b, vb).ok());
    REQUIRE(model.decode(x, w1, ya, wa).ok());
    REQUIRE(loaded.model.decode(x, w2, yb, wb).ok());
    CHECK(a == b);
    CHECK(va == vb);
    CHECK(ya == yb);
    CHECK(wa == wb);
  }
  CHECK(loaded.model.negativeLogLikelihood(loaded.model.parameters()) == model.negativeLogLikelihood(model.parameters()));
  // Writing the loaded model again gives the same text.
  CHECK(modelText(loaded.model, names) == modelText(model, names));
  // Without joint names the line is left out.
  CHECK(readText(modelText(model)).joint_names.empty());
}

TEST_CASE("gpdm file version 2: the frame period and the fit threshold round-trip; version 1 files still read") {
  GpdmModelFile file;
  file.model = someModel();
  file.frame_period = 1.0 / 15.0;
  file.fit_threshold = 0.9843;
  std::ostringstream out;
  writeGpdmModel(file, out);
  const GpdmModelFile loaded = readText(out.str());
  CHECK(loaded.frame_period == file.frame_period);
  REQUIRE(loaded.fit_threshold);
  CHECK(*loaded.fit_threshold == *file.fit_threshold);
  // Without them (and as version 1, which has neither) the fields stay unset.
  const std::string plain = modelText(file.model);
  CHECK(plain.find("frame_period") == std::string::npos);
  const GpdmModelFile v1 = readText(replaceLine(plain, 2, "retarget-gpdm 1"));
  CHECK(v1.frame_period == 0.0);
  CHECK_FALSE(v1.fit_threshold);
  // Out of range values are refused, naming the line.
  const std::string text = out.str();
  const std::size_t at = text.find("fit_threshold");
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
  const std::string where = "model.gpdm:" + std::to_string(line) + ": fit_threshold must be a cosine";
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, line, "fit_threshold 1.5")), doctest::Contains(where.c_str()), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, line - 1, "frame_period 0")),
                       doctest::Contains("frame_period must be > 0"), ParseError);
  file.fit_threshold = 2.0;
  CHECK_THROWS_AS(writeGpdmModel(file, out), InvalidArgument);
}

TEST_CASE("gpdm file: malformed files throw ParseError naming file:line") {
  const std::string text = modelText(someModel());
  // Line 1 is a comment, 2 the magic, 3 frames, 4 observation_dim, 5 latent_dim, 6 sequences,
  // 7 log_alpha, 8 log_beta, 9 ... 22 frames, 23 end.
  REQUIRE(text.find("retarget-gpdm 2\n") != std::string::npos);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 2, "retarget-gpdm 3")),
                       doctest::Contains("model.gpdm:2: unsupported GPDM model version"), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 2, "something-else 1")), doctest::Contains("model.gpdm:2"),
                       ParseError);
  CHECK_THROWS_WITH_AS(readText(text.substr(0, text.find("end\n"))),
                       doctest::Contains("model.gpdm:22: unexpected end of file: expected 'end'"), ParseError);
  const std::size_t cut = text.find("frame ", text.find("frame ") + 1);
  CHECK_THROWS_WITH_AS(readText(text.substr(0, cut)), doctest::Contains("model.gpdm:9: unexpected end of file"),
                       ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 12, "frame 0.1 nan 0.3 1 2 3 4")),
                       doctest::Contains("model.gpdm:12: expected a finite number in field 3, got 'nan'"),
                       ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 12, "frame 0.1 0.2 0.3 1 2 3")),
                       doctest::Contains("model.gpdm:12: 'frame' needs 7 values, got 6"), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 12, "frame 0.1 0.2 0.3 1 2 1e308 4")),
                       doctest::Contains("model.gpdm:23: the stored values do not make a GPDM"), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 7, "log_alpha 0 0 inf 1")),
                       doctest::Contains("model.gpdm:7: expected a finite number"), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 6, "sequences 2 8 5")),
                       doctest::Contains("model.gpdm:6: sequence lengths add up to 13"), ParseError);
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 3, "frames -4")), doctest::Contains("model.gpdm:3"), ParseError);
  // A header announcing a huge model is refused before anything is allocated for it.
  CHECK_THROWS_WITH_AS(readText(replaceLine(text, 3, "frames 90000000")),
                       doctest::Contains("model.gpdm:3: model too large: 90000000 frames"), ParseError);
  CHECK_THROWS_WITH_AS(readText(""), doctest::Contains("model.gpdm"), ParseError);
  CHECK_THROWS_WITH_AS(loadGpdmModel("/nonexistent/dir/x.gpdm"), doctest::Contains("/nonexistent/dir/x.gpdm"),
                       ParseError);
  // Comments and blank lines are allowed anywhere.
  const std::size_t beta = text.find("log_beta");
  const std::string beta_line = text.substr(beta, text.find('\n', beta) - beta);
  CHECK_NOTHROW(readText(replaceLine(text, 8, "\n  # a comment\n\t\n" + beta_line)));
}
