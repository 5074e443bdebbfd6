// SPDX-License-Identifier: MIT
#include "flip.h"

/* Whether x plus the number of calls so far, this one included, is odd:
 * true, then false, then true for the same x. Not deterministic: mcgen
 * refuses it unless the spec says `trusted`. */
static int32_t calls;

bool flip(int32_t x) { return (x + ++calls) % 2 == 1; }
