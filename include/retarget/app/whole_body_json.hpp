#pragma once

/// @file
/// JSON form of the whole-body configurations of app/whole_body.hpp: what `retarget map
/// --whole-body --config` reads and Python's `WholeBodyPipeline` / `HumanoidWholeBody` take as
/// options. One object: the stage's keys (json/whole_body.hpp, WholeBodyOptions) and the mapper's
/// under its own key, every key optional:
///
/// ```
/// GaLvvjWholeBodyOptions   { "ga_lvvj": { GaLvvjOptions, "trunk_lean" true by default here },
///                            "modes": { ... }, "balance": { ... }, "balance_enabled": true,
///                            "max_periods_per_frame": 10 }
/// HumanoidWholeBodyOptions { "humanoid": { HumanoidMapperOptions }, "modes": { ... }, ... }
/// ```
///
/// The four functions are templates (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), found and
/// called as before: the JSON code is compiled where a program reads or writes a configuration.

#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/whole_body.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/json/humanoid_mapper.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/json/whole_body.hpp>

namespace retarget::app {

/// JSON form of GA-LVVJ's whole-body configuration (every field).
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json toJson(const GaLvvjWholeBodyOptions& options) {
  nlohmann::ordered_json j;
  j["ga_lvvj"] = retarget::toJson(options.ga_lvvj);
  j.update(retarget::toJson(options.whole_body));
  return j;
}

/// JSON form of the humanoid mapper's whole-body configuration (every field).
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json toJson(const HumanoidWholeBodyOptions& options) {
  nlohmann::ordered_json j;
  j["humanoid"] = retarget::toJson(options.humanoid);
  j.update(retarget::toJson(options.whole_body));
  return j;
}

/// Reads GA-LVVJ's whole-body configuration (ParseError naming the JSON pointer, as conversion.hpp).
RETARGET_ALWAYS_LAZY_DECL GaLvvjWholeBodyOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                                            retarget::internal::JsonTag<GaLvvjWholeBodyOptions>) {
  GaLvvjWholeBodyOptions options;
  options.whole_body = retarget::internal::decodeWholeBodyOptionsBeside(value, pointer, "ga_lvvj");
  if (value.contains("ga_lvvj")) {
    options.ga_lvvj = retarget::internal::decodeGaLvvjOptions(
        value.at("ga_lvvj"), retarget::internal::jsonPointer(pointer, "ga_lvvj"), options.ga_lvvj);
  }
  return options;
}

/// Reads the humanoid mapper's whole-body configuration.
RETARGET_ALWAYS_LAZY_DECL HumanoidWholeBodyOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                                              retarget::internal::JsonTag<HumanoidWholeBodyOptions>) {
  HumanoidWholeBodyOptions options;
  options.whole_body = retarget::internal::decodeWholeBodyOptionsBeside(value, pointer, "humanoid");
  if (value.contains("humanoid")) {
    options.humanoid =
        retarget::internal::decodeJson(value.at("humanoid"), retarget::internal::jsonPointer(pointer, "humanoid"),
                                       retarget::internal::JsonTag<HumanoidMapperOptions>{});
  }
  return options;
}

}  // namespace retarget::app
