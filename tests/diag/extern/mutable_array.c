#include "mutable_array.h"
int total(uint8_t a[4]) { return a[0] + a[1] + a[2] + a[3]; }
