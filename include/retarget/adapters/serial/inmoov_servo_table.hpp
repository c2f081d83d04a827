#pragma once

/// @file
/// The InMoov servo table: for each of the 22 joints of the built-in InMoov (robots/inmoov.hpp,
/// kInMoovJointNames, in q order) the Arduino Mega 2560 pin of its servo, the servo position at
/// joint angle 0, the direction, the servo's safe range and its pulse widths. One table for both
/// ends of the serial link: the mapping computer converts q to one-byte servo degrees with it
/// (adapters/serial/servo_degrees.hpp), and the firmware (apps/inmoov_firmware/inmoov_servo)
/// clamps the degrees again and turns them into pulses with it.
///
/// Plain C++11 on purpose: the firmware is compiled by avr-gcc for the Arduino (no standard
/// library, no Eigen), so this header includes only <stdint.h> and holds aggregates with
/// internal linkage (`static constexpr`, one copy per translation unit, about 200 bytes).
///
/// Servo model: servo degrees s (0..180) and joint angle q (rad) are related by
///   s = offset_deg + direction * q * 180 / pi,   clamped to [min_deg, max_deg],
/// and the pulse the servo gets is
///   t = pulse_us_at_0 + s * (pulse_us_at_180 - pulse_us_at_0) / 180   (microseconds).
///
/// Where the default values come from (each robot is built differently: calibrate every servo
/// before trusting them, docs/adapters.md "With a real InMoov"):
/// - Pins: MyRobotLab's InMoov defaults wire each side to its own Mega, hand and arm on pins
///   2..11 (thumb 2, index 3, middle 4, ring 5, pinky 6, wrist 7, bicep 8, rotate 9, shoulder
///   10, omoplate 11) and the head on the left board (neck 12, rothead 13). The paper's frame
///   carries all 22 joints to one controller, so this table puts them on one Mega: the right
///   side and the head on MyRobotLab's pins, the left side on MyRobotLab's pin + 30 (32..41),
///   which leaves free the pins MyRobotLab uses for the jaw, eyes and stomach (22..29).
/// - Safe ranges and rest positions: MyRobotLab's InMoov2 servo configuration files
///   (MyRobotLab/InMoov2, config/InMoov2_Full/i01.<part>.yml, minOut/maxOut, rest; the commits
///   are listed in robots/inmoov.hpp): neck 20..160 (rest 90), rothead 30..150 (rest 90),
///   omoplate 10..80 (rest 10), shoulder 0..180 (rest 30), rotate 40..180 (rest 90), bicep
///   0..90 (rest 0), wrist and fingers 0..180 (rest 0). The offset is the rest position where
///   the model's joint angle 0 is the same pose (arm down, elbow straight, hand open, head
///   centred); the built-in model's limits lie inside these ranges.
/// - Speed: the same files give every servo `speed: 45.0` (degrees per second), the speed
///   MyRobotLab moves an InMoov servo at; kInMoovServoSpeedDegPerS is the firmware's default
///   per-servo speed limit and the serial sink's default cap (docs/serial_protocol.md).
/// - Directions: guesses (+1 everywhere, except the right wrist, whose model range is -pi..0,
///   mirrored to the left wrist's 0..pi): the sense in which a servo turns depends on how it is
///   mounted. One-to-one degrees are a guess too: the shoulder, rotate, bicep and omoplate are
///   servos with their potentiometer on the joint, close to 1:1; the fingers pull tendons, and
///   the model's 0..1.5 rad (86 deg) reaches only part of the servo's travel.
/// - Pulse widths: 544..2400 us, the Arduino Servo library's default for write(degrees), which is
///   what MyRobotLab's firmware ends up sending. Most hobby servos turn about 180 deg over
///   500..2500 us or 90..120 deg over 1000..2000 us: measure yours.

#include <stdint.h>  // <cstdint> is missing from avr-libc

namespace retarget {

/// One servo of the table; all fields in servo units (degrees 0..180, microseconds).
/// Invariant (checked by tests/adapters/servo_degrees_test.cpp): min_deg <= max_deg <= 180,
/// direction is +1 or -1, pulse_us_at_0 < pulse_us_at_180, and no two servos share a pin.
struct ServoChannel {
  uint8_t pin;               ///< Arduino Mega 2560 digital pin number.
  uint8_t offset_deg;        ///< Servo degrees at joint angle 0.
  int8_t direction;          ///< +1: servo degrees grow with the joint angle; -1: they shrink.
  uint8_t min_deg;           ///< Smallest servo degree the mechanism takes safely.
  uint8_t max_deg;           ///< Largest servo degree the mechanism takes safely.
  uint16_t pulse_us_at_0;    ///< Pulse width (us) at servo degree 0.
  uint16_t pulse_us_at_180;  ///< Pulse width (us) at servo degree 180.
};

/// Number of servos of the InMoov table (the built-in model's nq).
static constexpr uint8_t kInMoovServoCount = 22;

/// Fastest a servo is moved (servo degrees per second): MyRobotLab's InMoov2 servo speed.
static constexpr uint8_t kInMoovServoSpeedDegPerS = 45;

/// The InMoov's servos in q order (kInMoovJointNames); see the file comment for the sources.
static constexpr ServoChannel kInMoovServos[kInMoovServoCount] = {
    // pin offset dir  min  max   us@0  us@180     joint (MyRobotLab name)
    {12, 90, 1, 20, 160, 544, 2400},   // head_updown (neck)
    {13, 90, 1, 30, 150, 544, 2400},   // head_leftright (rothead)
    {11, 10, 1, 10, 80, 544, 2400},    // right_shoulder_side (rightArm.omoplate)
    {10, 30, 1, 0, 180, 544, 2400},    // right_shoulder_up (rightArm.shoulder)
    {9, 90, 1, 40, 180, 544, 2400},    // right_bicep_rotate (rightArm.rotate)
    {8, 0, 1, 0, 90, 544, 2400},       // right_bicep (rightArm.bicep)
    {7, 0, -1, 0, 180, 544, 2400},     // right_hand (rightHand.wrist; model range -pi..0)
    {2, 0, 1, 0, 180, 544, 2400},      // right_thumb
    {3, 0, 1, 0, 180, 544, 2400},      // right_index
    {4, 0, 1, 0, 180, 544, 2400},      // right_middle (majeure)
    {5, 0, 1, 0, 180, 544, 2400},      // right_ring (ringFinger)
    {6, 0, 1, 0, 180, 544, 2400},      // right_pinky
    {41, 10, 1, 10, 80, 544, 2400},    // left_shoulder_side (leftArm.omoplate)
    {40, 30, 1, 0, 180, 544, 2400},    // left_shoulder_up (leftArm.shoulder)
    {39, 90, 1, 40, 180, 544, 2400},   // left_bicep_rotate (leftArm.rotate)
    {38, 0, 1, 0, 90, 544, 2400},      // left_bicep (leftArm.bicep)
    {37, 0, 1, 0, 180, 544, 2400},     // left_hand (leftHand.wrist; model range 0..pi)
    {32, 0, 1, 0, 180, 544, 2400},     // left_thumb
    {33, 0, 1, 0, 180, 544, 2400},     // left_index
    {34, 0, 1, 0, 180, 544, 2400},     // left_middle
    {35, 0, 1, 0, 180, 544, 2400},     // left_ring
    {36, 0, 1, 0, 180, 544, 2400},     // left_pinky
};

}  // namespace retarget
