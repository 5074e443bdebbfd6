#include <stdbool.h>
#include <stdint.h>
int scale(int x);
uint8_t half(uint8_t x);
