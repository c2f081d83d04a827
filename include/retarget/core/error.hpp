#pragma once

/// @file
/// Exceptions for bad configuration and bad files, and the three tiers of checks.
///
/// Per-frame code never throws: it reports a `Status` (see status.hpp). Everything that is
/// validated once (options, robot descriptions, files) throws one of these types, with a
/// message of the form "[retarget] function: what (got ..., expected ...)".

#include <cassert>
#include <sstream>
#include <stdexcept>
#include <string>

#include <retarget/core/compilation.hpp>

namespace retarget {

/// Base of every exception the library throws. Catch this to catch them all.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A function argument, option or model description is invalid.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A file (or text stream) is malformed. The message names the file and line; both are also
/// available as fields (`line() == 0` when the line is not known).
class ParseError : public Error {
 public:
  ParseError(std::string file, std::size_t line, const std::string& what)
      : Error(format(file, line, what)), file_(std::move(file)), line_(line) {}

  /// Name of the file (or "<string>" for in-memory text).
  const std::string& file() const noexcept { return file_; }
  /// 1-based line number, 0 when unknown.
  std::size_t line() const noexcept { return line_; }

 private:
  RETARGET_DECL static std::string format(const std::string& file, std::size_t line, const std::string& what);

  std::string file_;
  std::size_t line_;
};

namespace internal {

/// Builds "[retarget] where: message" from stream-style pieces.
template <typename... Parts>
std::string message(const char* where, const Parts&... parts) {
  std::ostringstream out;
  out << "[retarget] " << where << ": ";
  (out << ... << parts);
  return out.str();
}

}  // namespace internal

#if RETARGET_DEFINE_CORE

RETARGET_DECL std::string ParseError::format(const std::string& file, std::size_t line, const std::string& what) {
  std::ostringstream out;
  out << "[retarget] " << file;
  if (line > 0) out << ":" << line;
  out << ": " << what;
  return out.str();
}

#endif  // RETARGET_DEFINE_CORE

}  // namespace retarget

/// Throws `ExceptionType` with "[retarget] <function>: <parts...>" unless `cond` holds.
/// For user input (always on). Example:
///   RETARGET_THROW_UNLESS(lower <= upper, InvalidArgument,
///                         "joint '", name, "' lower limit above upper (got ", lower, " > ", upper, ")");
#define RETARGET_THROW_UNLESS(cond, ExceptionType, ...)                                    \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      throw ::retarget::ExceptionType(::retarget::internal::message(__func__, __VA_ARGS__)); \
    }                                                                                      \
  } while (false)

/// Always-on check of an internal invariant (a bug in retarget if it fires).
#define RETARGET_CHECK_INVARIANT(cond)                                                          \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      throw ::retarget::Error(::retarget::internal::message(__func__, "internal invariant '",    \
                                                            #cond, "' violated; please report")); \
    }                                                                                           \
  } while (false)

/// Debug-only assertion for hot paths (compiled out with NDEBUG).
#define RETARGET_DEBUG_ASSERT(cond) assert(cond)
