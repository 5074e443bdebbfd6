#include "define_const.h"
uint8_t wrap(uint8_t i) { return (uint8_t)((i + 1) % CAP); }
