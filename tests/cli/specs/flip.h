// SPDX-License-Identifier: MIT
/* A C function that keeps state (tests/cli/specs/flip.mc). */
#ifndef FLIP_H
#define FLIP_H
#include <stdbool.h>
#include <stdint.h>
bool flip(int32_t x);
#endif
