#pragma once

/// @file
/// The one JSON API of retarget (nlohmann-json; CMake target retarget::json), the same for
/// every options and map struct `T` that has a JSON form (see json.hpp for the list):
///
/// ```
/// nlohmann::ordered_json j = retarget::toJson(value);               // every field, documented order
/// T a = retarget::fromJson<T>(j, "where.json");                     // from a JSON value
/// T b = retarget::parseJson<T>(text, "where.json");                  // from JSON text
/// T c = retarget::loadJson<T>("options.json");                       // from a file
/// retarget::saveJson(value, "options.json");                         // to a file (indented)
/// ```
///
/// Reading is strict: unknown keys, wrong types, integers that do not fit, numbers that do not
/// fit a double (8739955140e0673279) and values the struct's `validate()` rejects are errors.
/// Every error is a `ParseError` whose message names the file, the line when the text is known
/// and the JSON pointer: "[retarget] options.json:3: at /joints/0/sign: got 0.5, expected 1 or -1".
/// Missing keys take the struct's defaults unless the type's documentation says otherwise.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/json/internal/reader.hpp>

namespace retarget {

namespace internal {

/// Decodes `value` into a `T` (found by argument-dependent lookup on JsonTag<T>) and turns
/// every failure into ParseError naming `file`, the pointer and, when `text` is given, the line.
template <typename T>
T decodeJsonRoot(const nlohmann::json& value, const std::string& file, const std::string* text) {
  try {
    return decodeJson(value, std::string(), JsonTag<T>{});
  } catch (const JsonFieldError& error) {
    const std::size_t line = text != nullptr ? jsonLineOf(*text, error.pointer()) : 0;
    throw ParseError(file, line, "at " + displayPointer(error.pointer()) + ": " + error.what());
  } catch (const ParseError&) {
    throw;
  } catch (const Error& error) {
    throw ParseError(file, 0, "at /: " + withoutRetargetPrefix(error.what()));
  } catch (const nlohmann::json::exception& error) {
    throw ParseError(file, 0, std::string("at /: ") + error.what());
  }
}

}  // namespace internal

/// Builds a `T` from its JSON value and validates it. `file` names the source in errors.
/// Throws ParseError naming `file` and the JSON pointer of the bad value (wrong type, unknown
/// or missing key, out-of-range value, or a value rejected by `T::validate()`).
template <typename T>
T fromJson(const nlohmann::json& value, const std::string& file = "<json>") {
  return internal::decodeJsonRoot<T>(value, file, nullptr);
}

/// Same for the ordered JSON value returned by `toJson`.
template <typename T>
T fromJson(const nlohmann::ordered_json& value, const std::string& file = "<json>") {
  nlohmann::json plain;
  try {
    plain = nlohmann::json(value);
  } catch (const nlohmann::json::exception& error) {
    throw ParseError(file, 0, std::string("at /: ") + error.what());
  }
  return internal::decodeJsonRoot<T>(plain, file, nullptr);
}

/// Parses the JSON text of a `T`. `file` names it in errors, which also give the line.
/// Throws ParseError (invalid JSON, or see fromJson).
template <typename T>
T parseJson(const std::string& text, const std::string& file = "<string>") {
  const nlohmann::json root = internal::parseJsonText(text, file);
  return internal::decodeJsonRoot<T>(root, file, &text);
}

/// Reads a `T` from a JSON file. Throws ParseError naming `path` when the file cannot be read,
/// is not valid JSON (with its line) or has a bad value (with its line and JSON pointer).
template <typename T>
T loadJson(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ParseError(path, 0, "is a directory (expected a JSON file)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open the file (expected a readable JSON file)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ParseError(path, 0, "cannot read the file");
  return parseJson<T>(text.str(), path);
}

/// Writes `value` as indented JSON (2 spaces, documented key order, every field) to `path`.
/// What is written always loads back: throws ParseError naming `path` and the JSON pointer when
/// `value` is invalid (it would not load: non-finite numbers, a value `validate()` rejects) or
/// a string is not valid UTF-8, and Error when the file cannot be written. Nothing is written
/// on error.
template <typename T>
void saveJson(const T& value, const std::string& path) {
  std::string text;
  try {
    text = toJson(value).dump(2) + "\n";
  } catch (const nlohmann::json::exception& error) {
    throw ParseError(path, 0, std::string("at /: cannot write the value as JSON (") + error.what() + ")");
  }
  (void)parseJson<T>(text, path);
  std::ofstream out(path, std::ios::binary);
  RETARGET_THROW_UNLESS(static_cast<bool>(out), Error, "cannot write JSON (got path '", path,
                        "', expected a writable file)");
  out << text;
  out.flush();
  RETARGET_THROW_UNLESS(static_cast<bool>(out), Error, "cannot write JSON (got path '", path,
                        "', the write failed)");
}

}  // namespace retarget
