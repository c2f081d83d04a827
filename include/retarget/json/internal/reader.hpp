#pragma once

/// @file
/// Internal helpers of retarget/json/: JSON text parsing that turns every nlohmann exception
/// into a `ParseError` naming the file, the line and the JSON pointer; typed field readers that
/// check type and range; the unknown-key check; the line of a JSON pointer in the source text.
/// Nothing here is public API.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>

namespace retarget {
namespace internal {

/// Tag naming the type a JSON value is decoded into (overloads of `decodeJson` take it).
template <typename T>
struct JsonTag {};

/// A bad field found while decoding a JSON value: the JSON pointer and what is wrong. Caught
/// by the public entry points (retarget/json/conversion.hpp) and rethrown as ParseError with the
/// file name and line; it never leaves the library on its own.
class JsonFieldError : public Error {
 public:
  JsonFieldError(std::string pointer, const std::string& what) : Error(what), pointer_(std::move(pointer)) {}
  /// JSON pointer (RFC 6901) of the bad value, "" for the root.
  const std::string& pointer() const noexcept { return pointer_; }

 private:
  std::string pointer_;
};

/// Throws JsonFieldError at `pointer`.
[[noreturn]] inline void jsonFail(const std::string& pointer, const std::string& what) {
  throw JsonFieldError(pointer, what);
}

/// `pointer` extended by an object key (escaped as RFC 6901 asks: "~" -> "~0", "/" -> "~1").
inline std::string jsonPointer(const std::string& pointer, const std::string& key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

/// `pointer` extended by an array index.
inline std::string jsonPointer(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

/// The pointer as printed in messages: "/" for the root.
inline std::string displayPointer(const std::string& pointer) { return pointer.empty() ? "/" : pointer; }

/// A short, non-recursive-safe text form of a value for error messages: scalars as JSON
/// (non-finite numbers as NaN / inf), containers to depth 2 and 4 elements, long strings cut.
template <typename Json>
void describeJsonTo(std::ostringstream& out, const Json& value, int depth) {
  if (value.is_number_float()) {
    const double x = value.template get<double>();
    if (std::isnan(x)) {
      out << "NaN";
      return;
    }
    if (std::isinf(x)) {
      out << (x > 0 ? "inf" : "-inf");
      return;
    }
  }
  if (value.is_array() || value.is_object()) {
    const bool array = value.is_array();
    out << (array ? '[' : '{');
    if (depth >= 2 && !value.empty()) {
      out << "...";
    } else {
      std::size_t n = 0;
      for (auto it = value.begin(); it != value.end(); ++it, ++n) {
        if (n == 4) {
          out << ", ...";
          break;
        }
        if (n > 0) out << ", ";
        if (!array) out << Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace) << ": ";
        describeJsonTo(out, *it, depth + 1);
      }
    }
    out << (array ? ']' : '}');
    return;
  }
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  out << text;
}

template <typename Json>
std::string describeJson(const Json& value) {
  std::ostringstream out;
  describeJsonTo(out, value, 0);
  return out.str();
}

/// Throws "got <value>, expected <expected>" at `pointer` unless `ok`.
inline void jsonExpect(bool ok, const nlohmann::json& value, const std::string& pointer, const std::string& expected) {
  if (!ok) jsonFail(pointer, "got " + describeJson(value) + ", expected " + expected);
}

/// Name of a JSON value's type for messages.
inline std::string jsonTypeName(const nlohmann::json& value) { return value.type_name(); }

// ---------------------------------------------------------------------------------------------
// Typed readers. Each checks the JSON type and the range and throws JsonFieldError at `pointer`.

inline std::string readJsonString(const nlohmann::json& value, const std::string& pointer,
                                  const std::string& expected = "a string") {
  jsonExpect(value.is_string(), value, pointer, expected);
  return value.get<std::string>();
}

/// The value of an option with two named values (`first` or `second`, each a JSON string and the
/// value it stands for); anything else fails naming the pointer, what was read and both names.
template <typename Value>
Value readJsonChoice(const nlohmann::json& value, const std::string& pointer, const std::pair<const char*, Value>& first,
                     const std::pair<const char*, Value>& second) {
  const std::string expected = "\"" + std::string(first.first) + "\" or \"" + second.first + "\"";
  const std::string text = readJsonString(value, pointer, expected);
  if (text == first.first) return first.second;
  if (text == second.first) return second.second;
  jsonFail(pointer, "got '" + text + "', expected " + expected);
}

inline bool readJsonBool(const nlohmann::json& value, const std::string& pointer) {
  jsonExpect(value.is_boolean(), value, pointer, "true or false");
  return value.get<bool>();
}

/// A finite number (integer or floating point).
inline double readJsonNumber(const nlohmann::json& value, const std::string& pointer,
                             const std::string& expected = "a finite number") {
  jsonExpect(value.is_number(), value, pointer, expected);
  const double x = value.get<double>();
  jsonExpect(std::isfinite(x), value, pointer, expected);
  return x;
}

/// An integer in [lo, hi] (a floating-point value is rejected, even 3.0).
inline int readJsonInt(const nlohmann::json& value, const std::string& pointer, int lo = std::numeric_limits<int>::min(),
                       int hi = std::numeric_limits<int>::max()) {
  const std::string expected = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  jsonExpect(value.is_number_integer(), value, pointer, expected);
  if (value.is_number_unsigned()) {
    const std::uint64_t x = value.get<std::uint64_t>();
    jsonExpect(hi >= 0 && x <= static_cast<std::uint64_t>(hi), value, pointer, expected);
    const int result = static_cast<int>(x);
    jsonExpect(result >= lo, value, pointer, expected);
    return result;
  }
  const std::int64_t x = value.get<std::int64_t>();
  jsonExpect(x >= lo && x <= hi, value, pointer, expected);
  return static_cast<int>(x);
}

/// An array of finite numbers (any length).
inline std::vector<double> readJsonNumbers(const nlohmann::json& value, const std::string& pointer,
                                           const std::string& expected = "an array of finite numbers") {
  jsonExpect(value.is_array(), value, pointer, expected);
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(readJsonNumber(value[i], jsonPointer(pointer, i)));
  return out;
}

/// An array of exactly 3 finite numbers.
inline Eigen::Vector3d readJsonVector3(const nlohmann::json& value, const std::string& pointer) {
  jsonExpect(value.is_array(), value, pointer, "an array of 3 numbers");
  if (value.size() != 3) {
    jsonFail(pointer, "got " + std::to_string(value.size()) + " numbers, expected 3");
  }
  const std::vector<double> v = readJsonNumbers(value, pointer);
  return Eigen::Vector3d(v[0], v[1], v[2]);
}

/// A 3x3 matrix as an array of 3 rows of 3 finite numbers.
inline Eigen::Matrix3d readJsonMatrix3(const nlohmann::json& value, const std::string& pointer) {
  jsonExpect(value.is_array() && value.size() == 3, value, pointer, "an array of 3 rows of 3 numbers");
  Eigen::Matrix3d M;
  for (std::size_t r = 0; r < 3; ++r) M.row(static_cast<Eigen::Index>(r)) = readJsonVector3(value[r], jsonPointer(pointer, r));
  return M;
}

/// A 3-vector as a JSON array.
inline nlohmann::ordered_json vector3ToJson(const Eigen::Vector3d& v) {
  return nlohmann::ordered_json::array({v.x(), v.y(), v.z()});
}

/// A 3x3 matrix as an array of rows.
inline nlohmann::ordered_json matrix3ToJson(const Eigen::Matrix3d& M) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (int r = 0; r < 3; ++r) rows.push_back(vector3ToJson(M.row(r).transpose()));
  return rows;
}

/// A key that used to exist and moved elsewhere: reading it is an error with `message`.
struct MovedJsonKey {
  const char* key;
  const char* message;
};

/// A JSON object being decoded: checks that the value is an object, that every key is known
/// (a moved key gets its own message; an unknown key is named with the list of known ones),
/// and hands out members with their pointers.
class JsonObjectReader {
 public:
  JsonObjectReader(const nlohmann::json& value, std::string pointer, const std::string& what,
                   std::initializer_list<const char*> known, std::initializer_list<MovedJsonKey> moved = {})
      : value_(value), pointer_(std::move(pointer)) {
    jsonExpect(value.is_object(), value, pointer_, "a JSON object (" + what + ")");
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string& key = it.key();
      bool is_known = false;
      for (const char* k : known) is_known = is_known || key == k;
      if (is_known) continue;
      for (const MovedJsonKey& m : moved) {
        if (key == m.key) jsonFail(jsonPointer(pointer_, key), std::string("\"") + key + "\" is no longer read: " + m.message);
      }
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      jsonFail(jsonPointer(pointer_, key), "unknown key \"" + key + "\" in " + what + " (expected " +
                                               (list.empty() ? std::string("no keys") : "one of " + list) + ")");
    }
  }

  bool has(const char* key) const { return value_.contains(key); }
  const nlohmann::json& at(const char* key) const { return value_.at(key); }
  std::string pointer(const char* key) const { return jsonPointer(pointer_, key); }
  const std::string& pointer() const noexcept { return pointer_; }
  const nlohmann::json& value() const noexcept { return value_; }

  /// Throws "missing key" unless `key` is present.
  void require(const char* key) const {
    if (!has(key)) jsonFail(pointer_, std::string("missing key \"") + key + "\"");
  }

  // Optional members: `out` is left unchanged when the key is absent.
  void read(const char* key, std::string& out) const {
    if (has(key)) out = readJsonString(at(key), pointer(key));
  }
  void read(const char* key, bool& out) const {
    if (has(key)) out = readJsonBool(at(key), pointer(key));
  }
  void read(const char* key, double& out, const std::string& expected = "a finite number") const {
    if (has(key)) out = readJsonNumber(at(key), pointer(key), expected);
  }
  void read(const char* key, int& out, int lo = std::numeric_limits<int>::min(),
            int hi = std::numeric_limits<int>::max()) const {
    if (has(key)) out = readJsonInt(at(key), pointer(key), lo, hi);
  }
  void read(const char* key, Eigen::Vector3d& out) const {
    if (has(key)) out = readJsonVector3(at(key), pointer(key));
  }
  void read(const char* key, Eigen::Matrix3d& out) const {
    if (has(key)) out = readJsonMatrix3(at(key), pointer(key));
  }
  void read(const char* key, std::vector<double>& out) const {
    if (has(key)) out = readJsonNumbers(at(key), pointer(key));
  }

 private:
  const nlohmann::json& value_;
  std::string pointer_;
};

// ---------------------------------------------------------------------------------------------
// Validation: a struct's validate() failure becomes a JsonFieldError at the field it names.

/// The message of a library exception without its "[retarget] function: " prefix.
inline std::string withoutRetargetPrefix(const std::string& what) {
  const std::string prefix = "[retarget] ";
  if (what.compare(0, prefix.size(), prefix) != 0) return what;
  const std::size_t colon = what.find(": ");
  return colon == std::string::npos ? what.substr(prefix.size()) : what.substr(colon + 2);
}

/// The pointer of the member of `object` (at `pointer`) that a validate() message names: a key
/// written after ": ", "::" or "." and followed by " ", "[" or ")" (plus "/i" for "key[i]"); the
/// last such mention wins. `pointer` itself when none is named.
inline std::string pointerNamedIn(const std::string& message, const std::string& pointer, const nlohmann::json& object) {
  if (!object.is_object()) return pointer;
  std::size_t best_pos = std::string::npos;
  std::string best;
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& key = it.key();
    if (key.empty()) continue;
    for (std::size_t pos = message.find(key); pos != std::string::npos; pos = message.find(key, pos + 1)) {
      const bool before = (pos >= 2 && (message.compare(pos - 2, 2, ": ") == 0 || message.compare(pos - 2, 2, "::") == 0)) ||
                          (pos >= 1 && message[pos - 1] == '.');
      const std::size_t end = pos + key.size();
      const bool after = end < message.size() && (message[end] == ' ' || message[end] == '[' || message[end] == ')');
      if (!before || !after) continue;
      if (best_pos != std::string::npos && pos < best_pos) continue;
      best_pos = pos;
      best = jsonPointer(pointer, key);
      if (message[end] == '[') {
        const std::size_t close = message.find(']', end);
        const std::string index = close == std::string::npos ? "" : message.substr(end + 1, close - end - 1);
        if (!index.empty() && index.find_first_not_of("0123456789") == std::string::npos) best += "/" + index;
      }
    }
  }
  return best_pos == std::string::npos ? pointer : best;
}

/// Runs `check` (typically `[&] { x.validate(); }`); a library exception it throws becomes a
/// JsonFieldError at the member of `object` its message names (see pointerNamedIn).
template <typename Check>
void validateJsonDecoded(Check&& check, const nlohmann::json& object, const std::string& pointer) {
  try {
    check();
  } catch (const JsonFieldError&) {
    throw;
  } catch (const Error& error) {
    const std::string what = withoutRetargetPrefix(error.what());
    jsonFail(pointerNamedIn(what, pointer, object), what);
  }
}

// ---------------------------------------------------------------------------------------------
// Text: parsing with positions.

/// Counts lines of the characters the JSON lexer consumes; remembers the line of the last
/// non-blank one (the lexer reads one character past a number, which may be a newline).
struct JsonLineCounter {
  std::size_t line = 1;
  std::size_t last_line = 1;
  std::size_t consumed = 0;  ///< characters read so far
  char last_char = '\0';     ///< last non-blank character read
  void consume(char c) noexcept {
    ++consumed;
    if (c == '\n') {
      ++line;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      last_line = line;
      last_char = c;
    }
  }
};

/// Character iterator that feeds a JsonLineCounter as the parser advances.
class JsonCountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  JsonCountingIterator(const char* p, JsonLineCounter* counter) : p_(p), counter_(counter) {}
  reference operator*() const { return *p_; }
  JsonCountingIterator& operator++() {
    counter_->consume(*p_);
    ++p_;
    return *this;
  }
  JsonCountingIterator operator++(int) {
    JsonCountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const JsonCountingIterator& other) const { return p_ == other.p_; }
  bool operator!=(const JsonCountingIterator& other) const { return p_ != other.p_; }

 private:
  const char* p_;
  JsonLineCounter* counter_;
};

/// SAX handler that follows the JSON pointer of the value being read. It stops at the value
/// whose pointer is `target` (recording its line), or at a parse error (recording the pointer
/// being read, the line, the offending token and nlohmann's message).
class JsonPointerTracker : public nlohmann::json_sax<nlohmann::json> {
 public:
  JsonPointerTracker(const JsonLineCounter& counter, const std::string* target, std::size_t size)
      : text_size(size), counter_(counter), target_(target) {}

  std::size_t text_size = 0;  ///< length of the text being read

  bool found = false;       ///< the target value was reached
  bool errored = false;     ///< a parse error was reported
  std::size_t line = 0;     ///< line of the target value or of the error
  std::string pointer;      ///< pointer being read at the error
  std::string last_token;   ///< nlohmann's last read token at the error
  char last_char = '\0';    ///< last non-blank character read at the error
  bool at_end = false;      ///< the error came at the end of the text
  std::string message;      ///< nlohmann's message at the error (without its prefix)
  int error_id = 0;         ///< nlohmann's error id (101 syntax error, 406 number overflow, ...)

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool key(string_t& k) override {
    frames_.back().key = k;
    frames_.back().has_key = true;
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string& token, const nlohmann::json::exception& ex) override {
    errored = true;
    line = counter_.last_line;
    pointer = currentPointer();
    last_token = token;
    last_char = counter_.last_char;
    at_end = counter_.consumed >= text_size;
    error_id = ex.id;
    message = ex.what();
    const std::size_t close_bracket = message.find("] ");
    if (message.compare(0, 1, "[") == 0 && close_bracket != std::string::npos) message.erase(0, close_bracket + 2);
    for (char& c : message) {
      if (static_cast<unsigned char>(c) >= 0x80) c = '?';  // the offending bytes may not be UTF-8
    }
    return false;
  }

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;
    bool has_key = false;
    std::string key;
  };

  std::string currentPointer() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.array) {
        p = jsonPointer(p, f.index);
      } else if (f.has_key) {
        p = jsonPointer(p, f.key);
      }
    }
    return p;
  }
  bool atTarget() {
    if (target_ != nullptr && currentPointer() == *target_) {
      found = true;
      line = counter_.last_line;
      return true;
    }
    return false;
  }
  void advance() {
    if (frames_.empty()) return;
    Frame& f = frames_.back();
    if (f.array) {
      ++f.index;
    } else {
      f.has_key = false;
    }
  }
  bool scalar() {
    if (atTarget()) return false;
    advance();
    return true;
  }
  bool open(bool array) {
    if (atTarget()) return false;
    frames_.push_back(Frame{array, 0, false, {}});
    return true;
  }
  bool close() {
    if (!frames_.empty()) frames_.pop_back();
    advance();
    return true;
  }

  const JsonLineCounter& counter_;
  const std::string* target_;
  std::vector<Frame> frames_;
};

/// Runs the tracker over `text` (stopping at `target` when given).
inline JsonPointerTracker trackJsonPointer(const std::string& text, const std::string* target) {
  JsonLineCounter counter;
  JsonPointerTracker tracker(counter, target, text.size());
  const char* begin = text.data();
  try {
    nlohmann::json::sax_parse(JsonCountingIterator(begin, &counter), JsonCountingIterator(begin + text.size(), &counter),
                              &tracker);
  } catch (const nlohmann::json::exception&) {
    // The tracker reports errors itself; nothing else is expected. Keep what was found.
  }
  return tracker;
}

/// Line (1-based) of the value at `pointer` in `text`, 0 when not found.
inline std::size_t jsonLineOf(const std::string& text, const std::string& pointer) {
  const JsonPointerTracker tracker = trackJsonPointer(text, &pointer);
  return tracker.found ? tracker.line : 0;
}

/// Parses JSON text. Every failure (syntax error, truncated text, number overflow such as
/// 8739955140e0673279, invalid UTF-8, ...) throws ParseError(file, line, "at <pointer>: ...").
inline nlohmann::json parseJsonText(const std::string& text, const std::string& file) {
  nlohmann::json root = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!root.is_discarded()) return root;
  const JsonPointerTracker t = trackJsonPointer(text, nullptr);
  if (!t.errored) throw ParseError(file, 0, "at /: invalid JSON");
  const std::string at = "at " + displayPointer(t.pointer) + ": ";
  if (t.error_id == 406) {  // number overflow: nlohmann's token is the number
    std::string token = t.last_token;
    if (token.size() > 60) token = token.substr(0, 57) + "...";
    throw ParseError(file, t.line, at + "got " + token + ", expected a number that fits a double (|x| <= 1.8e308)");
  }
  if (t.at_end) {
    throw ParseError(file, t.line, at + "got the end of the text, expected more JSON (" + t.message + ")");
  }
  const unsigned char c = static_cast<unsigned char>(t.last_char);
  std::string got;
  if (c >= 0x20 && c < 0x7f) {
    got = std::string("'") + t.last_char + "'";
  } else {
    static const char* const kHex = "0123456789ABCDEF";
    got = std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
  }
  throw ParseError(file, t.line, at + "got " + got + ", expected valid JSON (" + t.message + ")");
}

}  // namespace internal
}  // namespace retarget
