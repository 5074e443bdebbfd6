// SPDX-License-Identifier: MIT
/* A C function that keeps state (tests/cli/specs/drift.mc). */
#ifndef DRIFT_H
#define DRIFT_H
#include <stdint.h>
int32_t drift(int32_t x);
#endif
