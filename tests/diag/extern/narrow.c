#include "narrow.h"
uint8_t half(uint8_t x) { return x / 2; }
