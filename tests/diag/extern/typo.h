#include <stdint.h>
uint8_t ring_next(uint8_t i);
