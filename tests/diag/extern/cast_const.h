#include <stdint.h>
int32_t cast_away(int32_t x);
int32_t copy_into(int32_t x);
