/* RFC 1982, section 3.2: s1 < s2 when they differ by less than half the
 * space going up from s1, wrapping around. */
#include "serial.h"

#define HALF (1u << (SERIAL_BITS - 1))

uint8_t serial_add(uint8_t s, uint8_t n) { return (uint8_t)((s + n) % SERIAL_SPACE); }

bool serial_lt(uint8_t s1, uint8_t s2) {
  return (s1 < s2 && (unsigned)(s2 - s1) < HALF) || (s1 > s2 && (unsigned)(s1 - s2) > HALF);
}
