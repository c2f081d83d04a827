// InMoov servo firmware for an Arduino Mega 2560: reads the retarget serial frames
// (docs/serial_protocol.md: 0xAA 0x55, length 22, timestamp, 22 one-byte servo degrees,
// CRC-16/MODBUS) from Serial at 115200 baud and drives the 22 servos of the InMoov servo table
// (include/retarget/adapters/serial/inmoov_servo_table.hpp, shared with the mapping computer).
//
// - Framing: the receiver resynchronises on 0xAA 0x55 after garbage, lost or flipped bytes; a
//   candidate with a wrong length byte or CRC is dropped whole, and the search for the next
//   frame starts at its second byte. Nothing moves on a bad or truncated frame.
// - Safety: the degrees are clamped again to each servo's [min_deg, max_deg] (the host already
//   did; a corrupted table on one side must not drive a servo beyond its range).
// - Servos get no pulses until the first good frame (their pins stay high-impedance inputs), so
//   power-up and the reset on opening the port move nothing.
// - Speed: a frame sets each servo's target; the pulse width moves toward it by at most
//   INMOOV_MAX_SPEED_DPS servo degrees per second (default kInMoovServoSpeedDegPerS, 45: the
//   speed MyRobotLab's InMoov2 configuration gives every servo), one step per 20 ms pulse
//   period (0.9 degree at 45 deg/s), so neither the first frame nor a jump in the stream slams a
//   servo across its range. A hobby servo reports no position: the first pulses after the first
//   good frame (and after a timeout's release) are each servo's rest position (the table's
//   offset_deg, MyRobotLab's rest), where an InMoov is switched on, and the servos walk from
//   there. INMOOV_MAX_SPEED_DPS=0 turns the limit off (every frame's degrees at once).
// - INMOOV_TIMEOUT_MS (default 0: never): after this long without a good frame the pulses stop
//   and the servos go limp until the next good frame. Off by default because a limp InMoov arm
//   falls; set it (e.g. -DINMOOV_TIMEOUT_MS=2000) when a silent host should release the robot.
//
// Pulses: our own generator, not the Arduino Servo library (Debian's arduino-core-avr does not
// ship it, and we want fixed 20 ms frames). Three 16-bit timers (1, 3, 4) at 0.5 us per tick
// each serve a bank of up to 8 servos one after the other: a pulse ends and the next begins in
// the same compare interrupt, and at most 8 x 2.4 ms fit one 20 ms period. Both edges of a
// pulse come the same few cycles after their compare, so the width is exact to the tick unless
// another interrupt (the other banks', the serial receiver's: a few us each) delays one edge.
// New widths take effect at the start of a bank's next frame: within 40 ms of the frame. Timer 0's interrupt
// (millis) is switched off so that it does not delay the pulse edges; time is counted in
// periods of bank 0 instead.

#include <avr/interrupt.h>
#include <avr/io.h>

#include <retarget/adapters/serial/inmoov_servo_table.hpp>

#ifndef INMOOV_TIMEOUT_MS
#define INMOOV_TIMEOUT_MS 0
#endif
#ifndef INMOOV_MAX_SPEED_DPS
#define INMOOV_MAX_SPEED_DPS retarget::kInMoovServoSpeedDegPerS
#endif

namespace {

using retarget::kInMoovServoCount;
using retarget::kInMoovServos;

const uint8_t kSync0 = 0xAA;
const uint8_t kSync1 = 0x55;
const uint8_t kHeaderSize = 5;  // sync, sync, length, timestamp (2)
const uint8_t kFrameSize = kHeaderSize + kInMoovServoCount + 2;
const uint16_t kPeriodTicks = 40000;  // 20 ms at 0.5 us per tick
const uint8_t kBankCount = 3;
const uint8_t kBankSize = 8;

// ---- pulse generator ---------------------------------------------------------------------

// One compare interrupt of a bank: end one pulse, begin the next, wait `delta` ticks.
struct Step {
  volatile uint8_t* fall_port;  // *fall_port &= fall_keep
  uint8_t fall_keep;
  volatile uint8_t* rise_port;  // then *rise_port |= rise_set
  uint8_t rise_set;
  uint16_t delta;               // ticks to the next compare
};

// One timer's servos and two plans of its 20 ms frame (count + 1 steps each): the interrupt
// follows plan[active]; the main loop writes the other one and sets `ready`, and the interrupt
// switches plans at the end of a frame, when every pin of the bank is low. The interrupt does
// nothing but two pin writes and the next compare, so both edges of every pulse come the same
// few cycles after their compare and the latency cancels out of the width.
struct Bank {
  volatile uint16_t* ocr;  // the timer's compare register A
  uint8_t first;           // first servo of the bank (table index)
  uint8_t count;           // servos in the bank
  uint8_t index;           // step the next compare runs
  uint16_t next;           // timer value of the next compare
  volatile uint8_t active; // plan the interrupt follows
  volatile uint8_t ready;  // 1: plan[active ^ 1] is complete and newer
  Step plan[2][kBankSize + 1];
};

const uint16_t kIdleTicks = 200;  // a slot without a pulse lasts 100 us

Bank banks[kBankCount];
volatile uint8_t spare;         // target of the writes that change nothing
volatile uint16_t periods = 0;  // bank 0's frames since power-up (20 ms each)

uint16_t periodsNow() {
  const uint8_t state = SREG;
  cli();
  const uint16_t now = periods;
  SREG = state;
  return now;
}

__attribute__((always_inline)) inline void step(Bank& bank) {
  const Step& s = bank.plan[bank.active][bank.index];
  *s.fall_port &= s.fall_keep;
  *s.rise_port |= s.rise_set;
  bank.next += s.delta;
  *bank.ocr = bank.next;
  if (++bank.index > bank.count) {
    bank.index = 0;
    if (bank.ready) {
      bank.active ^= 1;
      bank.ready = 0;
    }
  }
}

// Writes the frame plan of `bank` for pulse widths `ticks` (table order; 0: no pulse) into the
// plan the interrupt does not follow, then marks it ready. Main loop only.
void planBank(Bank& bank, const uint16_t* ticks) {
  bank.ready = 0;  // from here on the interrupt keeps its plan, so `active` is stable
  Step* plan = bank.plan[bank.active ^ 1];
  uint16_t used = 0;
  for (uint8_t k = 0; k <= bank.count; ++k) {
    Step& s = plan[k];
    s.fall_port = &spare;
    s.fall_keep = 0xFF;
    s.rise_port = &spare;
    s.rise_set = 0;
    if (k > 0 && ticks[bank.first + k - 1] != 0) {  // the previous slot's pulse ends
      const uint8_t pin = kInMoovServos[bank.first + k - 1].pin;
      s.fall_port = portOutputRegister(digitalPinToPort(pin));
      s.fall_keep = static_cast<uint8_t>(~digitalPinToBitMask(pin));
    }
    if (k < bank.count) {
      const uint16_t width = ticks[bank.first + k];
      if (width != 0) {
        const uint8_t pin = kInMoovServos[bank.first + k].pin;
        s.rise_port = portOutputRegister(digitalPinToPort(pin));
        s.rise_set = digitalPinToBitMask(pin);
      }
      s.delta = width != 0 ? width : kIdleTicks;
      used += s.delta;
    } else {
      s.delta = kPeriodTicks - used;  // to the next frame's start
    }
  }
  bank.ready = 1;
}

void startPulses() {
  TIMSK0 &= static_cast<uint8_t>(~_BV(TOIE0));  // no millis(): its interrupt would delay edges
  static const uint16_t idle[kInMoovServoCount] = {0};
  volatile uint16_t* const ocr[kBankCount] = {&OCR1A, &OCR3A, &OCR4A};
  for (uint8_t b = 0; b < kBankCount; ++b) {
    Bank& bank = banks[b];
    bank.ocr = ocr[b];
    bank.first = static_cast<uint8_t>(b * kBankSize);
    const uint8_t left = static_cast<uint8_t>(kInMoovServoCount - bank.first);
    bank.count = left < kBankSize ? left : kBankSize;
    bank.index = 0;
    bank.active = 0;
    planBank(bank, idle);
    bank.active = 1;
    bank.ready = 0;
    bank.next = static_cast<uint16_t>(2000 + b * (kPeriodTicks / 3));  // banks 1/3 period apart
    *bank.ocr = bank.next;
  }
  // Timers 1, 3, 4: normal mode, clock / 8 = 2 MHz.
  TCCR1A = 0;
  TCCR1B = _BV(CS11);
  TCCR3A = 0;
  TCCR3B = _BV(CS31);
  TCCR4A = 0;
  TCCR4B = _BV(CS41);
  TCNT1 = TCNT3 = TCNT4 = 0;
  TIFR1 = _BV(OCF1A);
  TIFR3 = _BV(OCF3A);
  TIFR4 = _BV(OCF4A);
  TIMSK1 = _BV(OCIE1A);
  TIMSK3 = _BV(OCIE3A);
  TIMSK4 = _BV(OCIE4A);
}

// ---- servos --------------------------------------------------------------------------------

bool attached = false;

// Pulse width in timer ticks (0.5 us) for servo `i` at `degrees`, clamped to its safe range:
// the same rounding as retarget::servoPulseMicroseconds on the host.
uint16_t pulseTicks(uint8_t i, uint8_t degrees) {
  const retarget::ServoChannel& s = kInMoovServos[i];
  if (degrees < s.min_deg) degrees = s.min_deg;
  if (degrees > s.max_deg) degrees = s.max_deg;
  const int32_t span = static_cast<int32_t>(s.pulse_us_at_180) - s.pulse_us_at_0;
  const int32_t us = s.pulse_us_at_0 + (static_cast<int32_t>(degrees) * span + 90) / 180;
  return static_cast<uint16_t>(2 * us);
}

// New widths for every servo (timer ticks in table order; null: no pulses).
void setPulses(const uint16_t* ticks) {
  static const uint16_t none[kInMoovServoCount] = {0};
  for (uint8_t b = 0; b < kBankCount; ++b) planBank(banks[b], ticks != 0 ? ticks : none);
}

// Speed limit. Positions are pulse widths in timer ticks times 256 (fixed point, so that a step
// of 18.56 ticks, 0.9 degree of a 544..2400 us servo, is not rounded to 18 or 19 every time).
uint32_t position[kInMoovServoCount];  // ticks * 256, what the servo gets now
uint32_t target[kInMoovServoCount];    // ticks * 256, the last good frame's degrees
uint32_t step_size[kInMoovServoCount]; // ticks * 256 per 20 ms period; 0: no limit
uint16_t widths[kInMoovServoCount];    // ticks, the position rounded, as planned

void setupSpeedLimit() {
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) {
    // deg/s * 0.02 s * (span / 180) us/deg * 2 ticks/us * 256 = speed * span * 512 / 9000.
    const int32_t span = static_cast<int32_t>(kInMoovServos[i].pulse_us_at_180) - kInMoovServos[i].pulse_us_at_0;
    step_size[i] = static_cast<uint32_t>(static_cast<int32_t>(INMOOV_MAX_SPEED_DPS) * span * 512 / 9000);
  }
}

// Moves every position one period's step toward its target and plans the new widths when one
// of them changed.
void stepPositions() {
  bool changed = false;
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) {
    uint32_t p = position[i];
    const uint32_t t = target[i];
    const uint32_t d = step_size[i];
    if (d == 0 || (p < t ? t - p : p - t) <= d) {
      p = t;
    } else {
      p = p < t ? p + d : p - d;
    }
    position[i] = p;
    const uint16_t w = static_cast<uint16_t>((p + 128) >> 8);
    if (w != widths[i]) changed = true;
    widths[i] = w;
  }
  if (changed) setPulses(widths);
}

void setTargets(const uint8_t* degrees) {
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) target[i] = static_cast<uint32_t>(pulseTicks(i, degrees[i])) << 8;
}

void attachServos() {
  // Every servo starts at its rest position (see the file comment), the pins low and outputs;
  // the first pulses start with the banks' next frames.
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) {
    widths[i] = pulseTicks(i, kInMoovServos[i].offset_deg);
    position[i] = static_cast<uint32_t>(widths[i]) << 8;
    target[i] = position[i];
  }
  setPulses(widths);
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) {
    const uint8_t pin = kInMoovServos[i].pin;
    digitalWrite(pin, LOW);
    pinMode(pin, OUTPUT);
  }
  attached = true;
}

void detachServos() {
  setPulses(0);
  // The pins go back to inputs once every bank follows the empty plan (within 40 ms).
  const uint16_t since = periodsNow();
  while (static_cast<uint16_t>(periodsNow() - since) < 3) {
  }
  for (uint8_t i = 0; i < kInMoovServoCount; ++i) pinMode(kInMoovServos[i].pin, INPUT);
  attached = false;
}

// ---- frames --------------------------------------------------------------------------------

uint8_t frame[kFrameSize];
uint8_t fill = 0;

uint16_t crc16Modbus(const uint8_t* data, uint8_t size) {
  uint16_t crc = 0xFFFF;
  for (uint8_t k = 0; k < size; ++k) {
    crc ^= data[k];
    for (uint8_t bit = 0; bit < 8; ++bit) crc = (crc & 1) ? static_cast<uint16_t>((crc >> 1) ^ 0xA001) : crc >> 1;
  }
  return crc;
}

// Drops the first byte of the candidate frame.
void dropOne() {
  for (uint8_t k = 1; k < fill; ++k) frame[k - 1] = frame[k];
  --fill;
}

// After a byte was added: drops what cannot start a frame; returns true when `frame` holds a
// complete frame whose CRC is right (the caller uses it and empties the buffer).
bool scan() {
  while (fill > 0) {
    if (frame[0] != kSync0 || (fill >= 2 && frame[1] != kSync1) || (fill >= 3 && frame[2] != kInMoovServoCount)) {
      dropOne();
      continue;
    }
    if (fill < kFrameSize) return false;
    const uint16_t crc = crc16Modbus(frame, kFrameSize - 2);
    if ((crc & 0xFF) == frame[kFrameSize - 2] && (crc >> 8) == frame[kFrameSize - 1]) return true;
    dropOne();
  }
  return false;
}

uint16_t last_frame_period = 0;
uint16_t last_step_period = 0;
// Periods to wait after attaching before the first step: every bank takes the rest plan at the
// end of its current 20 ms frame, all of them before bank 0's second period boundary, so each
// servo's first pulse is its rest position.
uint8_t rest_periods = 0;

}  // namespace

void setup() {
  Serial.begin(115200);
  setupSpeedLimit();
  startPulses();
}

void loop() {
  while (Serial.available() > 0) {
    frame[fill++] = static_cast<uint8_t>(Serial.read());
    if (!scan()) continue;
    if (!attached) {
      attachServos();
      last_step_period = periodsNow();
      rest_periods = 1;
    }
    setTargets(frame + kHeaderSize);
    fill = 0;
    last_frame_period = periodsNow();
  }
  if (attached) {
    const uint16_t now = periodsNow();
    if (now != last_step_period) {
      last_step_period = now;
      if (rest_periods > 0) {
        --rest_periods;
      } else {
        stepPositions();
      }
    }
  }
#if INMOOV_TIMEOUT_MS > 0
  if (attached && static_cast<uint16_t>(periodsNow() - last_frame_period) >= INMOOV_TIMEOUT_MS / 20) detachServos();
#else
  (void)detachServos;
#endif
}

ISR(TIMER1_COMPA_vect) {
  step(banks[0]);
  if (banks[0].index == 0) ++periods;
}
ISR(TIMER3_COMPA_vect) { step(banks[1]); }
ISR(TIMER4_COMPA_vect) { step(banks[2]); }
