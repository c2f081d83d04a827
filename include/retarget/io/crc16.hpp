#pragma once

/// @file
/// CRC-16/MODBUS: the check code of the serial frame protocol (paper 002, Sec. 4.1, Fig. 4).
///
/// Parameters: polynomial 0x8005 processed bit-reversed (0xA001, least significant bit first),
/// initial value 0xFFFF, no final XOR. CRC of the ASCII bytes "123456789" is 0x4B37. On the wire
/// the CRC is sent low byte first (as Modbus RTU does); a message followed by its CRC in that
/// order has a CRC of 0.

#include <array>
#include <cstddef>
#include <cstdint>

namespace retarget {

/// Initial register value of CRC-16/MODBUS.
inline constexpr std::uint16_t kCrc16ModbusInit = 0xFFFF;
/// Bit-reversed generator polynomial of CRC-16/MODBUS.
inline constexpr std::uint16_t kCrc16ModbusPolynomial = 0xA001;

namespace internal {

/// Table of the CRC register update for each byte value (built at compile time).
constexpr std::array<std::uint16_t, 256> makeCrc16ModbusTable() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned value = 0; value < 256; ++value) {
    std::uint16_t crc = static_cast<std::uint16_t>(value);
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1u) ? static_cast<std::uint16_t>((crc >> 1) ^ kCrc16ModbusPolynomial)
                       : static_cast<std::uint16_t>(crc >> 1);
    }
    table[value] = crc;
  }
  return table;
}

inline constexpr std::array<std::uint16_t, 256> kCrc16ModbusTable = makeCrc16ModbusTable();

}  // namespace internal

/// CRC-16/MODBUS of `size` bytes at `data`. Pass a previous result as `crc` to continue a
/// checksum over several pieces. Never throws or allocates; `data` may be null when size is 0.
constexpr std::uint16_t crc16Modbus(const std::uint8_t* data, std::size_t size,
                                    std::uint16_t crc = kCrc16ModbusInit) noexcept {
  for (std::size_t k = 0; k < size; ++k) {
    crc = static_cast<std::uint16_t>((crc >> 8) ^ internal::kCrc16ModbusTable[(crc ^ data[k]) & 0xFFu]);
  }
  return crc;
}

}  // namespace retarget
