#include <stdbool.h>
#include <stdint.h>
uint8_t half(uint8_t x);
