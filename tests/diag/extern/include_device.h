#include <stdint.h>
#include "/dev/zero"
int32_t f(int32_t x);
