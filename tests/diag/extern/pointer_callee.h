#include <stdint.h>
int32_t pass_on(int32_t x);
int32_t from_callee(int32_t x);
