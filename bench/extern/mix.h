/* bench/extern/mix_c.mc: the step function of a two-counter walk. */
#ifndef MIX_H
#define MIX_H
#include <stdint.h>

#define MIX_SIZE 1024

uint16_t mix(uint16_t a, uint16_t b);
#endif
