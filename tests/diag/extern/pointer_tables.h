#include <stdint.h>
int32_t by_slot(int32_t x);
int32_t by_field(int32_t x);
int32_t by_literal(int32_t x);
