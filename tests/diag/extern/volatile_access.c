#include "volatile_access.h"
int32_t local_volatile(int32_t x) {
  volatile int32_t y = x;
  return y;
}
int32_t volatile_cast(int32_t x) { return *(volatile int32_t *)&x; }
