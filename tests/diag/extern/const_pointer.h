#include <stdint.h>
int32_t step(int32_t x);
