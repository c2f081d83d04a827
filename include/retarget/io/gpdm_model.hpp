#pragma once

/// @file
/// The learned-GPDM text file (`.gpdm`, version 2; version 1 files are read too): everything a `GpdmModel` (learning/gpdm.hpp)
/// needs to predict, so that a model trained once (`trainGpdm`, `retarget learn gpdm`) is
/// loaded by the GPDM particle filter without retraining. The factorisations are not stored:
/// loading recomputes them from the stored values with the same code, so predictions after a
/// round trip are bit-identical to the saved model's.
///
/// Layout (ASCII, LF or CRLF; lines whose first non-blank character is '#' and blank lines are
/// ignored; fields separated by spaces or tabs; numbers are decimal, written as the shortest text
/// that reads back exactly; every number must be finite):
///
///   retarget-gpdm 2                         magic word and format version (this reader: 1 or 2)
///   frames <N>                              training frames, 2 <= N <= kGpdmMaxFrames (5000)
///   observation_dim <D>                     D >= 1 (joint angles, radians)
///   latent_dim <d>                          d >= 1
///   sequences <S> <T_1> ... <T_S>           S >= 1 sequence lengths, each >= 2, sum = N
///   joints <name_1> ... <name_D>            optional: joint names (no spaces), or the line omitted
///   frame_period <s>                        optional (version 2): seconds between two training
///                                           frames (> 0), so a filter steps the dynamics by time
///   fit_threshold <c>                       optional (version 2): cosine similarity in [-1, 1]
///                                           below which a tracked frame is not explained by the
///                                           model (from the training recordings' own fit)
///   scales <w_1> ... <w_D>                  optional (version 2): the learned per-joint scales W
///                                           (> 0; omitted: all 1)
///   log_alpha <a1> <a2> <a3> <a4>           ln of the dynamics hyperparameters (gpdm.hpp)
///   log_beta <b1> <b2> <b3>                 ln of the decoder hyperparameters
///   frame <x_1..x_d> <y_1..y_D>             N lines, in training order: latent point, then the
///                                           observation (radians)
///   end                                     required: a truncated file is an error
///
/// Readers throw `retarget::ParseError` naming the file and line (magic, version, keyword, count,
/// non-finite number, missing `end`, or a model the values do not make, such as a kernel matrix
/// that is not positive definite).

#include <cmath>
#include <cstddef>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"
#include "retarget/core/internal/line_reader.hpp"
#include "retarget/core/internal/number.hpp"
#include "retarget/core/internal/text.hpp"
#include "retarget/learning/gpdm.hpp"

namespace retarget {

/// Version of the `.gpdm` format that this library writes and reads.
inline constexpr int kGpdmFileVersion = 2;

/// Most training frames a `.gpdm` file may hold (prediction keeps N x N matrices).
inline constexpr Eigen::Index kGpdmMaxFrames = 5000;

/// A learned GPDM with the names of its observation columns (empty when not recorded).
struct GpdmModelFile {
  GpdmModel model;
  std::vector<std::string> joint_names;
  /// Seconds between two training frames (0: not recorded).
  double frame_period = 0.0;
  /// Fit threshold (cosine) from the training recordings (not recorded: none).
  std::optional<double> fit_threshold;
};

/// Writes `model` (and `joint_names`, D names without whitespace, or none) in the `.gpdm` format.
/// Throws InvalidArgument when a name count or name is invalid.
RETARGET_LAZY_DECL void writeGpdmModel(const GpdmModel& model, std::ostream& out,
                                  const std::vector<std::string>& joint_names = {});
/// Writes `file` (model, names, and the frame period and fit threshold when set). Throws
/// InvalidArgument when a name, the period (finite, >= 0) or the threshold ([-1, 1]) is invalid.
RETARGET_LAZY_DECL void writeGpdmModel(const GpdmModelFile& file, std::ostream& out);

/// Writes `model` to the file `path`. Throws InvalidArgument (names) or Error (cannot write).
RETARGET_LAZY_DECL void saveGpdmModel(const GpdmModel& model, const std::string& path,
                                 const std::vector<std::string>& joint_names = {});
/// Writes `file` to the file `path`. Throws InvalidArgument or Error (cannot write).
RETARGET_LAZY_DECL void saveGpdmModel(const GpdmModelFile& file, const std::string& path);

namespace internal {

// Next non-blank, non-comment line split into fields; fails naming `expected` at the end of input.
RETARGET_LAZY_DECL const std::vector<std::string_view>& nextGpdmFields(LineReader& reader,
                                                                  std::vector<std::string_view>& fields,
                                                                  const char* expected);

RETARGET_LAZY_DECL void expectGpdmKey(const LineReader& reader, const std::vector<std::string_view>& fields,
                                 std::string_view key, std::size_t count);

RETARGET_LAZY_DECL Eigen::Index parseGpdmCount(const LineReader& reader, std::string_view field, Eigen::Index minimum,
                                          const char* what);

RETARGET_LAZY_DECL double parseGpdmNumber(const LineReader& reader, std::string_view field, std::size_t column);

}  // namespace internal

/// Reads a `.gpdm` model from a stream; `file` names it in errors. Throws ParseError (file, line).
RETARGET_LAZY_DECL GpdmModelFile readGpdmModel(std::istream& in, const std::string& file = "<stream>");

/// Reads the `.gpdm` file at `path`. Throws ParseError naming `path` and the line (also when the
/// file cannot be opened).
RETARGET_LAZY_DECL GpdmModelFile loadGpdmModel(const std::string& path);

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF void writeGpdmModel(const GpdmModel& model, std::ostream& out,
                                  const std::vector<std::string>& joint_names) {
  GpdmModelFile file;
  file.model = model;
  file.joint_names = joint_names;
  writeGpdmModel(file, out);
}

RETARGET_LAZY_DEF void writeGpdmModel(const GpdmModelFile& file, std::ostream& out) {
  const GpdmModel& model = file.model;
  const std::vector<std::string>& joint_names = file.joint_names;
  RETARGET_THROW_UNLESS(std::isfinite(file.frame_period) && file.frame_period >= 0.0, InvalidArgument,
                        "frame_period (got ", file.frame_period, ", expected a finite value >= 0 s)");
  RETARGET_THROW_UNLESS(!file.fit_threshold || (*file.fit_threshold >= -1.0 && *file.fit_threshold <= 1.0),
                        InvalidArgument, "fit_threshold (got ", file.fit_threshold.value_or(0.0),
                        ", expected a cosine in [-1, 1])");
  RETARGET_THROW_UNLESS(joint_names.empty() || static_cast<Eigen::Index>(joint_names.size()) == model.observationDim(),
                        InvalidArgument, "joint_names (got ", joint_names.size(), " names, expected 0 or ",
                        model.observationDim(), ")");
  for (const std::string& name : joint_names) {
    RETARGET_THROW_UNLESS(!name.empty() && internal::splitWhitespace(name).size() == 1 && name[0] != '#',
                          InvalidArgument, "joint_names (got ", internal::quoted(name),
                          ", expected a non-empty name without whitespace, not starting with '#')");
  }
  std::string text = "# retarget learned GPDM (see retarget/io/gpdm_model.hpp)\n";
  text += "retarget-gpdm " + std::to_string(kGpdmFileVersion) + "\n";
  text += "frames " + std::to_string(model.frames()) + "\n";
  text += "observation_dim " + std::to_string(model.observationDim()) + "\n";
  text += "latent_dim " + std::to_string(model.latentDim()) + "\n";
  text += "sequences " + std::to_string(model.sequenceLengths().size());
  for (const Eigen::Index length : model.sequenceLengths()) text += " " + std::to_string(length);
  text += "\n";
  if (!joint_names.empty()) {
    text += "joints";
    for (const std::string& name : joint_names) text += " " + name;
    text += "\n";
  }
  if (file.frame_period > 0.0) {
    text += "frame_period ";
    internal::appendNumber(text, file.frame_period);
    text += "\n";
  }
  if (file.fit_threshold) {
    text += "fit_threshold ";
    internal::appendNumber(text, *file.fit_threshold);
    text += "\n";
  }
  const auto appendValues = [&text](const char* key, const auto& values) {
    text += key;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      text += ' ';
      internal::appendNumber(text, values(i));
    }
    text += '\n';
  };
  if ((model.scales().array() != 1.0).any()) appendValues("scales", model.scales());
  appendValues("log_alpha", model.hyperparameters().log_alpha);
  appendValues("log_beta", model.hyperparameters().log_beta);
  const Eigen::MatrixXd& y = model.observations();
  out << text;
  for (Eigen::Index r = 0; r < model.frames(); ++r) {
    text = "frame";
    for (Eigen::Index c = 0; c < model.latentDim(); ++c) {
      text += ' ';
      internal::appendNumber(text, model.latent()(r, c));
    }
    for (Eigen::Index c = 0; c < model.observationDim(); ++c) {
      text += ' ';
      internal::appendNumber(text, y(r, c));
    }
    text += '\n';
    out << text;
  }
  out << "end\n";
}

RETARGET_LAZY_DEF void saveGpdmModel(const GpdmModel& model, const std::string& path,
                                 const std::vector<std::string>& joint_names) {
  std::ofstream out = internal::openForWriting(path);
  writeGpdmModel(model, out, joint_names);
  internal::finishWriting(out, path);
}

RETARGET_LAZY_DEF void saveGpdmModel(const GpdmModelFile& file, const std::string& path) {
  std::ofstream out = internal::openForWriting(path);
  writeGpdmModel(file, out);
  internal::finishWriting(out, path);
}

namespace internal {

RETARGET_LAZY_DEF const std::vector<std::string_view>& nextGpdmFields(LineReader& reader,
                                                                  std::vector<std::string_view>& fields,
                                                                  const char* expected) {
  while (reader.next()) {
    const std::string_view line = trim(reader.line());
    if (line.empty() || line.front() == '#') continue;
    splitWhitespace(line, fields);
    return fields;
  }
  reader.fail(std::string("unexpected end of file: expected ") + expected);
}

RETARGET_LAZY_DEF void expectGpdmKey(const LineReader& reader, const std::vector<std::string_view>& fields,
                                 std::string_view key, std::size_t count) {
  if (fields.empty() || fields[0] != key) {
    reader.fail("expected '" + std::string(key) + "', got " + quoted(fields.empty() ? std::string_view{} : fields[0]));
  }
  if (count != 0 && fields.size() != count + 1) {
    reader.fail("'" + std::string(key) + "' needs " + std::to_string(count) + " values, got " +
                std::to_string(fields.size() - 1));
  }
}

RETARGET_LAZY_DEF Eigen::Index parseGpdmCount(const LineReader& reader, std::string_view field, Eigen::Index minimum,
                                          const char* what) {
  long long value = 0;
  if (!parseInteger(field, value) || value < minimum || value > 100000000) {
    reader.fail(std::string("expected ") + what + " (an integer >= " + std::to_string(minimum) + "), got " +
                quoted(field));
  }
  return static_cast<Eigen::Index>(value);
}

RETARGET_LAZY_DEF double parseGpdmNumber(const LineReader& reader, std::string_view field, std::size_t column) {
  double value = 0;
  if (!parseFinite(field, value)) {
    reader.fail("expected a finite number in field " + std::to_string(column) + ", got " + quoted(field));
  }
  return value;
}

}  // namespace internal

RETARGET_LAZY_DEF GpdmModelFile readGpdmModel(std::istream& in, const std::string& file) {
  internal::LineReader reader(in, file);
  std::vector<std::string_view> fields;
  internal::nextGpdmFields(reader, fields, "'retarget-gpdm <version>'");
  if (fields.size() != 2 || fields[0] != "retarget-gpdm") {
    reader.fail("not a retarget GPDM model: expected 'retarget-gpdm <version>' on the first line");
  }
  long long version = 0;
  if (!internal::parseInteger(fields[1], version) || version < 1 || version > kGpdmFileVersion) {
    reader.fail("unsupported GPDM model version " + internal::quoted(fields[1]) + " (this reader reads versions 1 to " +
                std::to_string(kGpdmFileVersion) + ")");
  }
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'frames'"), "frames", 1);
  const Eigen::Index frames = internal::parseGpdmCount(reader, fields[1], 2, "a frame count");
  // Prediction keeps N x N matrices (O(N^2) memory, O(N^3) to factorise): a model beyond
  // kGpdmMaxFrames is refused before anything is allocated for it.
  if (frames > kGpdmMaxFrames) {
    reader.fail("model too large: " + std::to_string(frames) + " frames (this reader takes at most " +
                std::to_string(kGpdmMaxFrames) + ")");
  }
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'observation_dim'"), "observation_dim", 1);
  const Eigen::Index dim_y = internal::parseGpdmCount(reader, fields[1], 1, "an observation dimension");
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'latent_dim'"), "latent_dim", 1);
  const Eigen::Index dim_x = internal::parseGpdmCount(reader, fields[1], 1, "a latent dimension");
  if (dim_x + dim_y > 100000) reader.fail("model too large: " + std::to_string(dim_x + dim_y) + " values per frame");
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'sequences'"), "sequences", 0);
  if (fields.size() < 2) reader.fail("'sequences' needs a count and the lengths");
  const Eigen::Index count = internal::parseGpdmCount(reader, fields[1], 1, "a sequence count");
  if (static_cast<Eigen::Index>(fields.size()) != count + 2) {
    reader.fail("'sequences' announces " + std::to_string(count) + " lengths, got " + std::to_string(fields.size() - 2));
  }
  std::vector<Eigen::Index> lengths;
  Eigen::Index total = 0;
  for (std::size_t i = 2; i < fields.size(); ++i) {
    lengths.push_back(internal::parseGpdmCount(reader, fields[i], 2, "a sequence length"));
    total += lengths.back();
  }
  if (total != frames) {
    reader.fail("sequence lengths add up to " + std::to_string(total) + ", expected frames = " + std::to_string(frames));
  }
  GpdmModelFile result;
  internal::nextGpdmFields(reader, fields, "'joints' or 'log_alpha'");
  if (!fields.empty() && fields[0] == "joints") {
    internal::expectGpdmKey(reader, fields, "joints", static_cast<std::size_t>(dim_y));
    for (std::size_t i = 1; i < fields.size(); ++i) result.joint_names.emplace_back(fields[i]);
    internal::nextGpdmFields(reader, fields, "'log_alpha'");
  }
  if (version >= 2 && !fields.empty() && fields[0] == "frame_period") {
    internal::expectGpdmKey(reader, fields, "frame_period", 1);
    result.frame_period = internal::parseGpdmNumber(reader, fields[1], 2);
    if (!(result.frame_period > 0.0)) reader.fail("frame_period must be > 0 s (got " + std::string(fields[1]) + ")");
    internal::nextGpdmFields(reader, fields, "'log_alpha'");
  }
  if (version >= 2 && !fields.empty() && fields[0] == "fit_threshold") {
    internal::expectGpdmKey(reader, fields, "fit_threshold", 1);
    const double threshold = internal::parseGpdmNumber(reader, fields[1], 2);
    if (threshold < -1.0 || threshold > 1.0) reader.fail("fit_threshold must be a cosine in [-1, 1] (got " + std::string(fields[1]) + ")");
    result.fit_threshold = threshold;
    internal::nextGpdmFields(reader, fields, "'log_alpha'");
  }
  Eigen::VectorXd scales = Eigen::VectorXd::Ones(dim_y);
  if (version >= 2 && !fields.empty() && fields[0] == "scales") {
    internal::expectGpdmKey(reader, fields, "scales", static_cast<std::size_t>(dim_y));
    for (Eigen::Index i = 0; i < dim_y; ++i) {
      scales(i) = internal::parseGpdmNumber(reader, fields[static_cast<std::size_t>(i) + 1], static_cast<std::size_t>(i) + 2);
      if (!(scales(i) > 0.0)) reader.fail("scales must be > 0 (got " + std::string(fields[static_cast<std::size_t>(i) + 1]) + ")");
    }
    internal::nextGpdmFields(reader, fields, "'log_alpha'");
  }
  GpdmHyperparameters hyper;
  internal::expectGpdmKey(reader, fields, "log_alpha", 4);
  for (Eigen::Index i = 0; i < 4; ++i) {
    hyper.log_alpha(i) = internal::parseGpdmNumber(reader, fields[static_cast<std::size_t>(i) + 1], static_cast<std::size_t>(i) + 2);
  }
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'log_beta'"), "log_beta", 3);
  for (Eigen::Index i = 0; i < 3; ++i) {
    hyper.log_beta(i) = internal::parseGpdmNumber(reader, fields[static_cast<std::size_t>(i) + 1], static_cast<std::size_t>(i) + 2);
  }
  // Values grow with the lines actually read (a header alone allocates nothing large).
  std::vector<double> values;
  for (Eigen::Index r = 0; r < frames; ++r) {
    internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'frame'"), "frame",
                            static_cast<std::size_t>(dim_x + dim_y));
    for (std::size_t c = 1; c < fields.size(); ++c) values.push_back(internal::parseGpdmNumber(reader, fields[c], c + 1));
  }
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> rows(
      values.data(), frames, dim_x + dim_y);
  const Eigen::MatrixXd x = rows.leftCols(dim_x);
  const Eigen::MatrixXd y = rows.rightCols(dim_y);
  internal::expectGpdmKey(reader, internal::nextGpdmFields(reader, fields, "'end'"), "end", 0);
  if (fields.size() != 1) reader.fail("'end' takes no values");
  try {
    result.model = GpdmModel(y, lengths, x, hyper);
    result.model.setScales(scales);
  } catch (const Error& error) {
    reader.fail(std::string("the stored values do not make a GPDM: ") + error.what());
  }
  return result;
}

RETARGET_LAZY_DEF GpdmModelFile loadGpdmModel(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readGpdmModel(in, path);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
