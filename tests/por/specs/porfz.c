// SPDX-License-Identifier: MIT
#include "porfz.h"

int32_t pz_shift(int32_t x, int32_t n) { return (x + 1) % n; }
