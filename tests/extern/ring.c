#include "ring.h"

uint8_t ring_next(uint8_t i) { return (uint8_t)((i + 1) % RING_SLOTS); }

uint8_t ring_distance(uint8_t head, uint8_t tail) {
  return (uint8_t)((tail + RING_SLOTS - head) % RING_SLOTS);
}
