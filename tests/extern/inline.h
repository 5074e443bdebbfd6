/* A header-only function (tests/extern/inline_c.mc: no sources). */
#ifndef INLINE_H
#define INLINE_H
#include <stdint.h>

static inline uint8_t wrap4(uint8_t i) { return (uint8_t)((i + 1) & 3); }
#endif
