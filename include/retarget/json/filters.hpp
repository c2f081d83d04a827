#pragma once

/// @file
/// JSON form of the options of the filters of retarget/filters/ (nlohmann-json; CMake target
/// retarget::json; never included by retarget/retarget.hpp). Use the API of conversion.hpp:
/// `toJson`, `fromJson<T>`, `parseJson<T>`, `loadJson<T>`, `saveJson`. Every key is optional
/// (defaults shown); keys are the field names.
///
/// ```
/// ExponentialSmoothingOptions { "alpha": 0.5 }                             // unitless, (0, 1]
/// RateLimiterOptions          { "max_rate": 1.0, "max_rates": [] }         // unit/s, > 0 each
/// OneEuroFilterOptions        { "min_cutoff": 1.0, "beta": 0.0, "d_cutoff": 1.0 }  // Hz, s/unit, Hz
/// ConsecutiveFramesOptions    { "frames": 3 }                              // integer >= 1
/// ```
/// A rate may be unlimited: it is written as the string "inf" (JSON has no infinity), and read
/// from "inf" or "infinity". `max_rates` (empty: `max_rate` for every element) is checked for
/// size when the filter is built.

#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/filters/consecutive_frames.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>

namespace retarget {

namespace internal {

/// A rate (> 0): a finite number, or +inf written as "inf".
inline nlohmann::ordered_json rateToJson(double rate) {
  if (std::isinf(rate) && rate > 0) return "inf";
  return rate;
}

inline double readJsonRate(const nlohmann::json& value, const std::string& pointer) {
  const std::string expected = "a number > 0 or \"inf\"";
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    jsonExpect(text == "inf" || text == "infinity", value, pointer, expected);
    return std::numeric_limits<double>::infinity();
  }
  const double rate = readJsonNumber(value, pointer, expected);
  jsonExpect(rate > 0.0, value, pointer, expected);
  return rate;
}

}  // namespace internal

/// JSON form of ExponentialSmoothingOptions: {"alpha": ...}.
inline nlohmann::ordered_json toJson(const ExponentialSmoothingOptions& options) {
  nlohmann::ordered_json j;
  j["alpha"] = options.alpha;
  return j;
}

/// JSON form of RateLimiterOptions: {"max_rate": ..., "max_rates": [...]} (unit/s; "inf" for
/// an unlimited rate).
inline nlohmann::ordered_json toJson(const RateLimiterOptions& options) {
  nlohmann::ordered_json j;
  j["max_rate"] = internal::rateToJson(options.max_rate);
  nlohmann::ordered_json rates = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < options.max_rates.size(); ++i) rates.push_back(internal::rateToJson(options.max_rates[i]));
  j["max_rates"] = std::move(rates);
  return j;
}

/// JSON form of OneEuroFilterOptions: {"min_cutoff": Hz, "beta": s/unit, "d_cutoff": Hz}.
inline nlohmann::ordered_json toJson(const OneEuroFilterOptions& options) {
  nlohmann::ordered_json j;
  j["min_cutoff"] = options.min_cutoff;
  j["beta"] = options.beta;
  j["d_cutoff"] = options.d_cutoff;
  return j;
}

/// JSON form of ConsecutiveFramesOptions: {"frames": N}.
inline nlohmann::ordered_json toJson(const ConsecutiveFramesOptions& options) {
  nlohmann::ordered_json j;
  j["frames"] = options.frames;
  return j;
}

namespace internal {

inline ExponentialSmoothingOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                              JsonTag<ExponentialSmoothingOptions>) {
  const JsonObjectReader j(value, pointer, "exponential smoothing options", {"alpha"});
  ExponentialSmoothingOptions options;
  if (j.has("alpha")) {
    const std::string expected = "a number in (0, 1]";
    options.alpha = readJsonNumber(j.at("alpha"), j.pointer("alpha"), expected);
    jsonExpect(options.alpha > 0.0 && options.alpha <= 1.0, j.at("alpha"), j.pointer("alpha"), expected);
  }
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline RateLimiterOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                     JsonTag<RateLimiterOptions>) {
  const JsonObjectReader j(value, pointer, "rate limiter options", {"max_rate", "max_rates"});
  RateLimiterOptions options;
  if (j.has("max_rate")) options.max_rate = readJsonRate(j.at("max_rate"), j.pointer("max_rate"));
  if (j.has("max_rates")) {
    const nlohmann::json& rates = j.at("max_rates");
    jsonExpect(rates.is_array(), rates, j.pointer("max_rates"), "an array of rates (numbers > 0 or \"inf\")");
    options.max_rates.resize(static_cast<Eigen::Index>(rates.size()));
    for (std::size_t i = 0; i < rates.size(); ++i) {
      options.max_rates[static_cast<Eigen::Index>(i)] = readJsonRate(rates[i], jsonPointer(j.pointer("max_rates"), i));
    }
  }
  validateJsonDecoded([&] { options.validate(options.max_rates.size()); }, value, pointer);
  return options;
}

inline OneEuroFilterOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                       JsonTag<OneEuroFilterOptions>) {
  const JsonObjectReader j(value, pointer, "One-Euro filter options", {"min_cutoff", "beta", "d_cutoff"});
  OneEuroFilterOptions options;
  for (const char* key : {"min_cutoff", "d_cutoff"}) {
    if (!j.has(key)) continue;
    const std::string expected = "a finite number > 0 (Hz)";
    const double x = readJsonNumber(j.at(key), j.pointer(key), expected);
    jsonExpect(x > 0.0, j.at(key), j.pointer(key), expected);
    (std::string(key) == "min_cutoff" ? options.min_cutoff : options.d_cutoff) = x;
  }
  if (j.has("beta")) {
    const std::string expected = "a finite number >= 0 (s per signal unit)";
    options.beta = readJsonNumber(j.at("beta"), j.pointer("beta"), expected);
    jsonExpect(options.beta >= 0.0, j.at("beta"), j.pointer("beta"), expected);
  }
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline ConsecutiveFramesOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                           JsonTag<ConsecutiveFramesOptions>) {
  const JsonObjectReader j(value, pointer, "consecutive-frames options", {"frames"});
  ConsecutiveFramesOptions options;
  j.read("frames", options.frames, 1);
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

}  // namespace internal
}  // namespace retarget
