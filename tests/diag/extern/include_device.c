#include "include_device.h"
int32_t f(int32_t x) { return x; }
