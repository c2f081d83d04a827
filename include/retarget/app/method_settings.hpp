#pragma once

/// @file
/// What a mapping method may take besides the robot and the motion: the settings the table of
/// methods (app/methods.hpp) builds a method from, as the front ends collect them (the command
/// line's flags and method specs, Python's keyword arguments). Its own header, without the
/// mappers, so a front end's headers can carry it cheaply.
///
/// Part of the application layer (include/retarget/app/), outside retarget/retarget.hpp.

#include <cstdint>
#include <string>

namespace retarget::app {

/// What a method may take besides the robot and the motion (a plain aggregate; the defaults are
/// the command line's). A method reads the fields it documents; `methodRefusal` names a set
/// option the method does not take (the `takes` of its entry).
struct MethodSettings {
  /// A JSON options file (empty: the defaults). ga-lvvj: GaLvvjOptions; humanoid:
  /// HumanoidMapperOptions; either with `whole_body`: its whole-body configuration
  /// (app/whole_body_json.hpp); euler: an EulerMap (else the InMoov's built-in one).
  std::string config_path;
  /// humanoid: a robot schema (JSON, json/humanoid_binding.hpp) pinning the automatic binding.
  std::string schema_path;
  /// ga-lvvj, humanoid: the whole-body pipeline after the mapper (app/whole_body.hpp).
  bool whole_body = false;
  /// ga-lvvj: the robot's trunk leans with the human's (GaLvvjOptions::trunk_lean).
  bool trunk_lean = false;
  /// pics: the softening K of seed 004 Eq. 3, 0..3.
  int softening = 1;
  /// pics: soften in every frame (seed 004 Section III-B3's reading).
  bool soften_always = false;
  /// pic, pics: a final pass forcing every arm link into its octants.
  bool force_octants = false;
  /// pf, gpdm-pf: the particle count (0: the method's default, 200 and 30).
  int particles = 0;
  /// pf, gpdm-pf: the random seed (the same seed, the same output).
  std::uint64_t seed = 1;
  /// pf: the random-walk step (rad per frame; 0: the default).
  double pf_noise = 0.0;
  /// gpdm-pf: the learned model (.gpdm, from `retarget learn gpdm`).
  std::string model_path;
  /// gpdm-pf: "ga-lvvj" writes GA-LVVJ's angles on frames the model does not explain; "" or
  /// "none": no fallback.
  std::string fallback;
};

}  // namespace retarget::app
