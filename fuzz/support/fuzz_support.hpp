#pragma once

// Shared by the libFuzzer targets of fuzz/: the error contract of a reader and the downstream
// checks of what it accepts. Deliberately light: only retarget/core/error.hpp and forward
// declarations, so that each target's translation unit compiles little more than its reader.
// The checks themselves (GA-LVVJ on NAO, the Euler mapper on InMoov) are compiled once, in
// support/downstream.cpp.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <retarget/core/error.hpp>

namespace retarget {
template <typename Scalar>
struct SkeletonMotion;
struct BvhMotion;
struct GaLvvjMap;
struct GaLvvjOptions;
}  // namespace retarget

namespace retarget::fuzz {

/// A property the fuzzer checks was broken: prints what and where, then traps (libFuzzer saves
/// the input as a crash artifact).
[[noreturn]] void fail(const char* what, const std::string& detail);

/// Runs `read()` and enforces the error contract of every reader: it either succeeds or throws
/// a `retarget::Error` whose message starts "[retarget] " and, for a `ParseError`, names the file
/// `file` (and the line when it knows one). Any other exception escapes: a bug libFuzzer reports.
template <typename Read>
void expectRetargetErrorsOnly(const std::string& file, Read&& read) {
  try {
    read();
  } catch (const ParseError& e) {
    const std::string what = e.what();
    if (e.file() != file || what.rfind("[retarget] " + file, 0) != 0) fail("ParseError does not name the file", what);
    if (e.line() > 0 && what.find(file + ":" + std::to_string(e.line()) + ": ") == std::string::npos) {
      fail("ParseError message does not name its line", what);
    }
    if (what.size() <= file.size() + 14) fail("ParseError without a description", what);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("[retarget] ", 0) != 0 || what.size() < 20) fail("Error message without '[retarget] where: what'", what);
  }
}

/// Splits an input into datagrams, each a 2-byte little-endian length and that many bytes (the
/// last one cut short when the input ends), and calls `on_datagram(bytes, size)` for each: the
/// input of the datagram-level targets (kinect_osc, noitom_broadcast).
template <typename OnDatagram>
void forEachDatagram(const std::uint8_t* data, std::size_t size, OnDatagram&& on_datagram) {
  while (size >= 2) {
    const std::size_t length = static_cast<std::size_t>(data[0]) | (static_cast<std::size_t>(data[1]) << 8);
    data += 2;
    size -= 2;
    const std::size_t take = length < size ? length : size;
    on_datagram(data, take);
    data += take;
    size -= take;
  }
}

/// The fuzz input as text.
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Maps (at most the first 64 frames of) `motion` onto NAO with GA-LVVJ, both HipYawPitch
/// modes; traps unless every output is finite and within NAO's limits and every status is
/// free of kInvalidInput.
void checkGaLvvj(const SkeletonMotion<double>& motion);

/// What a BVH reader accepted: converted to a skeleton (bvhToSkeleton) and mapped with GA-LVVJ,
/// and bound to InMoov (inmoovEulerMap + EulerMapper) and mapped frame by frame; a refusal of
/// the conversion or binding must be a retarget::Error, the mapping must give finite angles
/// within the InMoov limits.
void checkBvh(const BvhMotion& motion);

/// A GA-LVVJ configuration read from JSON: a mapper on NAO built from `map` (nullptr: the
/// built-in NAO map) and `options` (nullptr: defaults) either refuses it with a retarget::Error
/// or maps a demo motion to finite angles within NAO's limits.
void checkGaLvvjConfig(const GaLvvjMap* map, const GaLvvjOptions* options);

}  // namespace retarget::fuzz
