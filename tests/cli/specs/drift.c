// SPDX-License-Identifier: MIT
#include "drift.h"

/* Counts its calls: x + 1 for the first two, 7 after. Not deterministic:
 * mcgen refuses it unless the spec says `trusted`. */
static int32_t calls;

int32_t drift(int32_t x) {
  calls++;
  return calls < 3 ? x + 1 : 7;
}
