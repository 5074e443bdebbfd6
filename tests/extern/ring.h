/* Ring buffer index arithmetic (tests/extern/ring_c.mc). */
#ifndef RING_H
#define RING_H
#include <stdint.h>

#define RING_SLOTS 4

/* The slot after i. */
uint8_t ring_next(uint8_t i);
/* How many slots from head to tail, modulo RING_SLOTS. */
uint8_t ring_distance(uint8_t head, uint8_t tail);
#endif
