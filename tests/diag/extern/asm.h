#include <stdint.h>
int32_t basic(int32_t x);
int32_t tsc_low(int32_t x);
int32_t via_callee(int32_t x);
int32_t via_macro(int32_t x);
