#include "include_directory.h"
int32_t f(int32_t x) { return x; }
