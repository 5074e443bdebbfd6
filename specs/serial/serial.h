/* Serial number arithmetic (RFC 1982) for SERIAL_BITS-bit sequence numbers,
 * as a sliding-window protocol uses it to tell a new packet from an old
 * one. Used by specs/stop_and_wait.mc (serial_naive.c, the bug) and
 * specs/stop_and_wait_fixed.mc (serial.c). */
#ifndef SERIAL_H
#define SERIAL_H
#include <stdbool.h>
#include <stdint.h>

#define SERIAL_BITS 3
#define SERIAL_SPACE 8 /* 2^SERIAL_BITS */

/* s + n in serial arithmetic (n < 2^(SERIAL_BITS-1)). */
uint8_t serial_add(uint8_t s, uint8_t n);
/* Whether s1 precedes s2. */
bool serial_lt(uint8_t s1, uint8_t s2);
#endif
