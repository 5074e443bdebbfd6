#include "array_param_length.h"
int total(const uint8_t a[5]) { return a[0] + a[1] + a[2] + a[3]; }
