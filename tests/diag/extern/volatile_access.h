#include <stdint.h>
int32_t local_volatile(int32_t x);
int32_t volatile_cast(int32_t x);
