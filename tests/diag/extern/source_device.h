#include <stdint.h>
int32_t f(int32_t x);
