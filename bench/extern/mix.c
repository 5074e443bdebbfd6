#include "mix.h"

uint16_t mix(uint16_t a, uint16_t b) { return (uint16_t)((a * 5u + b + 1u) % MIX_SIZE); }
