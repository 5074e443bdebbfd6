// SPDX-License-Identifier: MIT
#include "hang.h"

/* (x + 1) % 8, except for x == 3: a loop that never ends (its condition is
 * a constant, so the C compiler may not assume that it ends). Pure: mcgen
 * accepts it. */
int32_t next(int32_t x) {
  if (x == 3)
    for (;;) {
    }
  return (x + 1) % 8;
}
