#include <string.h>
#include "cast_const.h"
static const int32_t table[2] = {1, 2};
int32_t cast_away(int32_t x) {
  int32_t *p = (int32_t *)table; // an explicit cast drops const
  p[0] = x;
  return table[1];
}
int32_t copy_into(int32_t x) {
  memcpy((void *)table, &x, sizeof x);
  return x;
}
