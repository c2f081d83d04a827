#pragma once

/// @file
/// BVH (Biovision Hierarchy) motion capture files: a fast streaming reader (`readBvh`,
/// `parseBvh`) and a writer (`writeBvh`) for `BvhMotion` (retarget/human/bvh_motion.hpp, which
/// also holds the local rotations and forward kinematics). The parser itself is in
/// io/internal/bvh_parser.hpp.
///
/// What the reader accepts: any number of ROOTs, any hierarchy, 0 to 6 channels per joint in
/// any order (so all six Euler orders), position channels on any joint, End Sites, zero-frame
/// files, LF / CRLF / mixed line endings, a UTF-8 byte-order mark, tabs, names with colons or
/// spaces, blank lines anywhere outside the frame lines' values, trailing spaces, numbers such as
/// `.0083` (read exactly: the same doubles as `strtod`).
/// Each frame is one line of the MOTION section. Every error is a `retarget::ParseError` that
/// names the file, the line and what was expected ("expected 96 values, got 95").
///
/// Conventions (the de-facto BVH ones, also what Assimp implements):
/// - Values are in file units (often cm) and degrees, exactly as in the file.
/// - A joint's local rotation is the product of its rotation channels in file order,
///   `R = R_a1(v1) * R_a2(v2) * R_a3(v3)` (intrinsic rotations, right-handed, angles in degrees).
/// - A joint's local translation is its OFFSET, with each position channel replacing the matching
///   component (a joint with only `Yposition` keeps OFFSET x and z).
/// - The pose of a joint J in its parent P is `X_PJ = [R | t]`; global poses chain from the root.

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/io/internal/bvh_parser.hpp>

namespace retarget {

/// Parses BVH text held in memory. `name` is used as the file name in error messages.
/// Throws `retarget::ParseError` (file, line, what was expected) on malformed input.
RETARGET_LAZY_DECL BvhMotion parseBvh(std::string_view text, std::string name = "<string>");

/// Reads a BVH file, streaming it in blocks (the text is never held whole).
/// Throws `retarget::ParseError` (file, line, what was expected) when the file cannot be opened or
/// is malformed.
RETARGET_LAZY_DECL BvhMotion readBvh(const std::filesystem::path& path);

/// Writes `motion` as BVH text: tab-indented hierarchy (End Sites written as "End Site"), then
/// one line per frame with each number in its shortest exact form, so that read -> write -> read
/// gives identical values. Joints are written depth-first (children in index order), each with
/// its own channels' values. Throws `retarget::InvalidArgument` when `motion` breaks its
/// invariants (see `validateBvh`), `retarget::Error` when the stream fails.
RETARGET_LAZY_DECL void writeBvh(const BvhMotion& motion, std::ostream& out);

/// Writes `motion` to a BVH file (see `writeBvh(const BvhMotion&, std::ostream&)`). Throws
/// `retarget::Error` naming the file when it cannot be written.
RETARGET_LAZY_DECL void writeBvh(const BvhMotion& motion, const std::filesystem::path& path);

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF BvhMotion parseBvh(std::string_view text, std::string name) {
  internal::LineReader reader(text, name);
  BvhMotion motion = internal::BvhParser(reader).parse();
  motion.source = std::move(name);
  return motion;
}

RETARGET_LAZY_DEF BvhMotion readBvh(const std::filesystem::path& path) {
  std::ifstream stream = internal::openForReading(path.string());
  internal::LineReader reader(stream, path.string());
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) reader.setRemainingBytesHint(static_cast<std::size_t>(size));
  BvhMotion motion = internal::BvhParser(reader).parse();
  motion.source = path.string();
  return motion;
}

RETARGET_LAZY_DEF void writeBvh(const BvhMotion& motion, std::ostream& out) {
  validateBvh(motion);
  RETARGET_THROW_UNLESS(!motion.joints.empty(), InvalidArgument, "motion has no joints, expected at least one ROOT");
  const std::size_t n = motion.joints.size();
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = motion.joints[i].parent;
    (parent < 0 ? roots : children[static_cast<std::size_t>(parent)]).push_back(static_cast<int>(i));
  }
  std::vector<int> order;  // joints with channels, in written order
  std::string text = "HIERARCHY\n";
  // Iterative depth-first writer (hierarchies may be deep).
  struct Item {
    int joint;
    int depth;
    bool close;
  };
  std::vector<Item> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, 0, false});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const std::string indent(static_cast<std::size_t>(item.depth), '\t');
    if (item.close) {
      text += indent + "}\n";
      continue;
    }
    const BvhJoint& joint = motion.joints[static_cast<std::size_t>(item.joint)];
    if (joint.is_end_site) {
      text += indent + "End Site\n";
    } else {
      text += indent + (joint.parent < 0 ? "ROOT " : "JOINT ") + joint.name + "\n";
    }
    text += indent + "{\n" + indent + "\tOFFSET ";
    for (int k = 0; k < 3; ++k) {
      if (k > 0) text += ' ';
      internal::appendNumber(text, joint.offset[k], /*signed_zero=*/false);
    }
    text += '\n';
    if (!joint.is_end_site) {
      text += indent + "\tCHANNELS " + std::to_string(joint.channels.size());
      for (BvhChannel channel : joint.channels) {
        text += ' ';
        text += bvhChannelName(channel);
      }
      text += '\n';
      order.push_back(item.joint);
    }
    stack.push_back({item.joint, item.depth, true});
    const auto& kids = children[static_cast<std::size_t>(item.joint)];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, item.depth + 1, false});
  }
  text += "MOTION\nFrames: " + std::to_string(motion.frame_count) + "\nFrame Time: ";
  internal::appendNumber(text, motion.frame_time, /*signed_zero=*/false);
  text += '\n';
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  for (int f = 0; f < motion.frame_count; ++f) {
    text.clear();
    const double* row = motion.frame(f);
    bool first = true;
    for (int joint : order) {
      const BvhJoint& j = motion.joints[static_cast<std::size_t>(joint)];
      for (std::size_t c = 0; c < j.channels.size(); ++c) {
        if (!first) text += ' ';
        first = false;
        internal::appendNumber(text, row[static_cast<std::size_t>(j.first_channel) + c], /*signed_zero=*/false);
      }
    }
    text += '\n';
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  if (!out) throw Error(internal::message("writeBvh", "the output stream failed"));
}

RETARGET_LAZY_DEF void writeBvh(const BvhMotion& motion, const std::filesystem::path& path) {
  std::ofstream out = internal::openForWriting(path.string());
  writeBvh(motion, out);
  internal::finishWriting(out, path.string());
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
