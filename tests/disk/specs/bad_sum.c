// SPDX-License-Identifier: MIT
/* tests/disk/specs/sum.mc's source. */
#include "bad_sum.h"
#include "sum_offset.h"

int bad_sum(void) { return BAD_SUM + SUM_OFFSET; }
