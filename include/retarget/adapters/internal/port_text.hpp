#pragma once

/// @file
/// Checking a port number given as text (`retarget::internal`), shared by the adapters' options.

#include <string>

#include <retarget/core/error.hpp>

namespace retarget::internal {

/// Throws InvalidArgument naming `field` unless `port` is a decimal number in 0..65535.
inline void validatePortText(const std::string& port, const char* field) {
  bool digits = !port.empty() && port.size() <= 5;
  for (const char c : port) digits = digits && c >= '0' && c <= '9';
  RETARGET_THROW_UNLESS(digits && std::stol(port) <= 65535, InvalidArgument, field, " is invalid (got '", port,
                        "', expected 0..65535)");
}

}  // namespace retarget::internal
