#include "const_pointer.h"
static int32_t hidden;
static int32_t *const STATE = &hidden; // the pointer is const, what it points to is not
int32_t step(int32_t x) {
  (*STATE)++;
  return x;
}
