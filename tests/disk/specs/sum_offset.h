// SPDX-License-Identifier: MIT
/* Included by bad_sum.c only: a file of the include chain, not named by the spec. */
#define SUM_OFFSET 0
