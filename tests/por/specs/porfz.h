// SPDX-License-Identifier: MIT
/* The extern C of tests/por/random_spec.py's specs (a rewritten index's
   value from C): the successor of x modulo n. */
#ifndef PORFZ_H
#define PORFZ_H
#include <stdint.h>
int32_t pz_shift(int32_t x, int32_t n);
#endif
