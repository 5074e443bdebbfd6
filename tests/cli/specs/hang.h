// SPDX-License-Identifier: MIT
/* A C function that never returns for one argument (tests/cli/specs/hang.mc). */
#ifndef HANG_H
#define HANG_H
#include <stdint.h>
int32_t next(int32_t x);
#endif
