#include "typo.h"
uint8_t ring_next(uint8_t i) { return (uint8_t)((i + 1) % 4); }
