#include <stdint.h>
#define CAP 4
uint8_t wrap(uint8_t i);
