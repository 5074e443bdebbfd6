#include <stdbool.h>
#include <stdint.h>
int8_t twice(int8_t x);
