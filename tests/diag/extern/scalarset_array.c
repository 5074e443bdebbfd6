#include "scalarset_array.h"
int total(const uint8_t a[3]) { return a[0] + a[1] + a[2]; }
