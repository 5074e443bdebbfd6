/* The bug: sequence numbers compared as plain integers. After the numbers
 * wrap around (7, then 0) a new packet looks older than the last one. */
#include "serial.h"

uint8_t serial_add(uint8_t s, uint8_t n) { return (uint8_t)((s + n) % SERIAL_SPACE); }

bool serial_lt(uint8_t s1, uint8_t s2) { return s1 < s2; }
