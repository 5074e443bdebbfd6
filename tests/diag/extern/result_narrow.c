#include "result_narrow.h"
int8_t twice(int8_t x) { return (int8_t)(x * 2); }
