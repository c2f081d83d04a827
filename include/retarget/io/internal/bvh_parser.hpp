#pragma once

/// @file
/// The BVH reader's internals (`retarget::internal`): `BvhParser` turns the text of a
/// `LineReader` into a `BvhMotion`. Public entry points, accepted syntax and conventions are in
/// retarget/io/bvh.hpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {
namespace internal {

/// BVH parser over a line reader: the hierarchy (ROOT / JOINT / End Site blocks, tokenised
/// across lines), the MOTION header, then one frame of channel values per line. Every error is a
/// ParseError naming the file, the line and what was expected.
class BvhParser {
 public:
  explicit BvhParser(LineReader& reader) : reader_(reader) {}

  RETARGET_DECL BvhMotion parse();

 private:
  [[noreturn]] void fail(const std::string& what) const { reader_.fail(what); }

  // Splits the next non-blank line into tokens_; false at end of input.
  RETARGET_DECL bool nextLine();

  RETARGET_DECL bool nextToken(std::string_view& token);

  bool moreOnLine() const { return token_index_ < tokens_.size(); }

  RETARGET_DECL void expectKeyword(std::string_view keyword);

  RETARGET_DECL double expectNumber(const char* what);

  RETARGET_DECL static bool parseChannel(std::string_view token, BvhChannel& channel);

  // Name of a ROOT/JOINT: the rest of the line (tokens joined by one space), leaving a final
  // "{" on the line as the next token.
  RETARGET_DECL std::string readName(const char* keyword);

  RETARGET_DECL std::string uniqueEndSiteName(const std::string& parent_name) const;

  // Parses a joint body after ROOT/JOINT (or after "End Site" when end_site).
  RETARGET_DECL void parseJoint(BvhMotion& motion, int parent, bool end_site, int depth);

  RETARGET_DECL void parseMotionHeader(BvhMotion& motion);

  RETARGET_DECL void parseFrames(BvhMotion& motion);

  static constexpr std::size_t kMaxJoints = 100000;
  static constexpr int kMaxDepth = 1000;  // the parser recurses once per level

  LineReader& reader_;
  std::vector<std::string_view> tokens_;
  std::size_t token_index_ = 0;
  std::vector<std::string> names_;
};

#if RETARGET_DEFINE_IO

RETARGET_DECL BvhMotion BvhParser::parse() {
  BvhMotion motion;
  expectKeyword("HIERARCHY");
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected ROOT");
  if (token != "ROOT") fail("expected ROOT, got " + internal::quoted(token));
  while (token == "ROOT") {
    parseJoint(motion, -1, false, 0);
    if (!nextToken(token)) fail("unexpected end of file, expected ROOT or MOTION");
    if (token != "ROOT" && token != "MOTION") fail("expected ROOT or MOTION, got " + internal::quoted(token));
  }
  motion.assignChannelIndices();
  parseMotionHeader(motion);
  parseFrames(motion);
  return motion;
}

RETARGET_DECL bool BvhParser::nextLine() {
  token_index_ = 0;
  while (reader_.next()) {
    splitWhitespace(reader_.line(), tokens_);
    if (!tokens_.empty()) return true;
  }
  tokens_.clear();
  return false;
}

RETARGET_DECL bool BvhParser::nextToken(std::string_view& token) {
  while (token_index_ >= tokens_.size()) {
    if (!nextLine()) return false;
  }
  token = tokens_[token_index_++];
  return true;
}

RETARGET_DECL void BvhParser::expectKeyword(std::string_view keyword) {
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected " + std::string(keyword));
  if (token != keyword) fail("expected " + std::string(keyword) + ", got " + internal::quoted(token));
}

RETARGET_DECL double BvhParser::expectNumber(const char* what) {
  std::string_view token;
  if (!nextToken(token)) fail(std::string("unexpected end of file, expected ") + what);
  double value = 0;
  if (!parseFinite(token, value)) fail(std::string("expected ") + what + ", got " + internal::quoted(token));
  return value;
}

RETARGET_DECL bool BvhParser::parseChannel(std::string_view token, BvhChannel& channel) {
  for (int c = 0; c < 6; ++c) {
    if (equalsIgnoreCase(token, bvhChannelName(static_cast<BvhChannel>(c)))) {
      channel = static_cast<BvhChannel>(c);
      return true;
    }
  }
  return false;
}

RETARGET_DECL std::string BvhParser::readName(const char* keyword) {
  std::size_t last = tokens_.size();
  if (last > token_index_ && tokens_[last - 1] == "{") --last;
  if (last <= token_index_) fail(std::string("expected a joint name after ") + keyword);
  std::string name;
  for (std::size_t k = token_index_; k < last; ++k) {
    if (!name.empty()) name += ' ';
    name.append(tokens_[k].data(), tokens_[k].size());
  }
  token_index_ = last;
  if (!isValidUtf8(name)) fail("joint name " + internal::quoted(name) + " is not valid UTF-8");
  return name;
}

RETARGET_DECL std::string BvhParser::uniqueEndSiteName(const std::string& parent_name) const {
  std::string base = parent_name + "_End";
  std::string name = base;
  for (int k = 2; std::any_of(names_.begin(), names_.end(), [&](const std::string& other) { return other == name; });
       ++k) {
    name = base + std::to_string(k);
  }
  return name;
}

RETARGET_DECL void BvhParser::parseJoint(BvhMotion& motion, int parent, bool end_site, int depth) {
  if (depth >= kMaxDepth) fail("joints nested deeper than " + std::to_string(kMaxDepth) + " levels");
  BvhJoint joint;
  joint.parent = parent;
  joint.is_end_site = end_site;
  const std::size_t start_line = reader_.lineNumber();
  if (end_site) {
    joint.name = uniqueEndSiteName(motion.joints[static_cast<std::size_t>(parent)].name);
  } else {
    joint.name = readName(parent < 0 ? "ROOT" : "JOINT");
    if (std::find(names_.begin(), names_.end(), joint.name) != names_.end()) {
      fail("duplicate joint name " + internal::quoted(joint.name));
    }
  }
  if (motion.joints.size() >= kMaxJoints) fail("too many joints, expected at most " + std::to_string(kMaxJoints));
  names_.push_back(joint.name);
  const int index = static_cast<int>(motion.joints.size());
  motion.joints.push_back(joint);
  expectKeyword("{");
  expectKeyword("OFFSET");
  Eigen::Vector3d offset;
  offset.x() = expectNumber("a number for OFFSET x");
  offset.y() = expectNumber("a number for OFFSET y");
  offset.z() = expectNumber("a number for OFFSET z");
  motion.joints[static_cast<std::size_t>(index)].offset = offset;
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected CHANNELS or '}'");
  if (token == "CHANNELS") {
    if (end_site) fail("expected '}' after the End Site OFFSET, got CHANNELS");
    std::string_view count_token;
    if (!nextToken(count_token)) fail("unexpected end of file, expected a channel count");
    int count = -1;
    if (!parseInteger(count_token, count) || count < 0 || count > 6) {
      fail("expected a channel count from 0 to 6, got " + internal::quoted(count_token));
    }
    std::vector<BvhChannel> channels;
    for (int c = 0; c < count; ++c) {
      std::string_view name;
      if (!nextToken(name)) fail("unexpected end of file, expected a channel name");
      BvhChannel channel{};
      if (!parseChannel(name, channel)) {
        fail("unknown channel " + internal::quoted(name) +
             ", expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation");
      }
      channels.push_back(channel);
    }
    motion.joints[static_cast<std::size_t>(index)].channels = std::move(channels);
    if (!nextToken(token)) {
      fail("unexpected end of file, expected JOINT, End Site or '}' to close joint '" +
           motion.joints[static_cast<std::size_t>(index)].name + "' opened on line " + std::to_string(start_line));
    }
  } else if (!end_site) {
    fail("expected CHANNELS, got " + internal::quoted(token));
  }
  for (;;) {
    if (token == "}") return;
    if (end_site) fail("expected '}' to close the End Site, got " + internal::quoted(token));
    if (token == "JOINT") {
      parseJoint(motion, index, false, depth + 1);
    } else if (token == "End") {
      std::string_view site;
      if (!nextToken(site) || site != "Site") fail("expected 'Site' after 'End'");
      if (moreOnLine() && tokens_[token_index_] != "{") {
        fail("expected '{' after End Site, got " + internal::quoted(tokens_[token_index_]));
      }
      parseJoint(motion, index, true, depth + 1);
    } else {
      fail("expected JOINT, End Site or '}' in joint '" + motion.joints[static_cast<std::size_t>(index)].name +
           "' (opened on line " + std::to_string(start_line) + "), got " + internal::quoted(token));
    }
    if (!nextToken(token)) {
      fail("unexpected end of file, expected '}' to close joint '" +
           motion.joints[static_cast<std::size_t>(index)].name + "' opened on line " + std::to_string(start_line));
    }
  }
}

RETARGET_DECL void BvhParser::parseMotionHeader(BvhMotion& motion) {
  // "Frames: N" (also "Frames:N"), then "Frame Time: t".
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected 'Frames:'");
  std::string_view count_text;
  if (token == "Frames:") {
    if (!nextToken(count_text)) fail("unexpected end of file, expected a frame count");
  } else if (token.substr(0, 7) == "Frames:") {
    count_text = token.substr(7);
  } else {
    fail("expected 'Frames:', got " + internal::quoted(token));
  }
  long long count = 0;
  if (!parseInteger(count_text, count)) {
    fail("expected a frame count, got " + internal::quoted(count_text));
  }
  if (count < 0) fail("expected a non-negative frame count, got " + std::string(count_text));
  if (count > 100000000) fail("frame count " + std::string(count_text) + " is too large, expected at most 100000000");
  motion.frame_count = static_cast<int>(count);
  if (moreOnLine()) fail("expected end of line after the frame count, got " + internal::quoted(tokens_[token_index_]));

  if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
  if (token != "Frame") fail("expected 'Frame Time:', got " + internal::quoted(token));
  if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
  std::string_view time_text;
  if (token == "Time:") {
    if (!moreOnLine()) fail("expected a frame time after 'Frame Time:'");
    nextToken(time_text);
  } else if (token.substr(0, 5) == "Time:") {
    time_text = token.substr(5);
  } else {
    fail("expected 'Frame Time:', got " + internal::quoted(token));
  }
  double frame_time = 0;
  if (!parseFinite(time_text, frame_time) || !(frame_time > 0)) {
    fail("expected a positive frame time in seconds, got " + internal::quoted(time_text));
  }
  motion.frame_time = frame_time;
  if (moreOnLine()) fail("expected end of line after the frame time, got " + internal::quoted(tokens_[token_index_]));
}

RETARGET_DECL void BvhParser::parseFrames(BvhMotion& motion) {
  const int channels = motion.channel_count;
  const std::size_t total = static_cast<std::size_t>(motion.frame_count) * static_cast<std::size_t>(channels);
  // Each value takes at least two bytes ("0 "): never reserve more than the input can hold.
  const std::size_t hint = reader_.remainingBytesHint();
  motion.values.clear();
  if (total > 0) {
    motion.values.resize(hint > 0 ? std::min(total, hint / 2 + 1) : std::min<std::size_t>(total, 1u << 24));
  }
  std::size_t row = 0;  // start of the current frame's values
  // Without channels a frame is an empty line: nothing to read (blank lines are skipped below).
  int frames = channels == 0 ? motion.frame_count : 0;
  while (frames < motion.frame_count) {
    if (!reader_.next()) {
      fail("unexpected end of file, expected " + std::to_string(motion.frame_count) + " frames, got " +
           std::to_string(frames));
    }
    const std::string_view line = reader_.line();
    const char* p = line.data();
    const char* const end = p + line.size();
    while (p < end && isBlank(*p)) ++p;
    if (p == end) continue;  // blank line
    if (motion.values.size() < row + static_cast<std::size_t>(channels)) {
      motion.values.resize(std::min(total, std::max(row + static_cast<std::size_t>(channels), 2 * motion.values.size())));
    }
    double* out = motion.values.data() + row;
    int count = 0;
    while (p < end) {
      const char* start = p;
      double value = 0;
      const char* number_end = parseNumber(p, end, value);
      if (number_end == nullptr || (number_end != end && !isBlank(*number_end)) || !std::isfinite(value)) {
        const char* token_end = start;
        while (token_end < end && !isBlank(*token_end)) ++token_end;
        fail("frame " + std::to_string(frames) + ", value " + std::to_string(count + 1) +
             ": expected a finite number, got " +
             internal::quoted(std::string_view(start, static_cast<std::size_t>(token_end - start))));
      }
      if (count < channels) out[count] = value;
      ++count;
      p = number_end;
      while (p < end && isBlank(*p)) ++p;
    }
    if (count != channels) {
      fail("expected " + std::to_string(channels) + " values, got " + std::to_string(count) + " (frame " +
           std::to_string(frames) + ")");
    }
    ++frames;
    row += static_cast<std::size_t>(channels);
  }
  motion.values.resize(total);
  if (reader_.nextNonEmpty()) {
    fail("expected end of file after " + std::to_string(motion.frame_count) + " frames, got more values");
  }
}

#endif  // RETARGET_DEFINE_IO

}  // namespace internal
}  // namespace retarget
